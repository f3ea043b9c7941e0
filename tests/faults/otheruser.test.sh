#!/bin/sh
# Fault: watching another user's process.  The job runs as `nobody`; a
# non-root stagetop (user `daemon`) watches it: the kernel lets it read
# /proc/PID/status (readings), and refuses its signals.  What it refuses
# must be said clearly (EPERM), nothing may crash, and stagetop must not
# claim what it did not do: no "job paused" or KILLING when no process got
# the signal, no exit code 3 when the guard could not stop the job.
#   headless: readings (footprint, procs, command); --on-budget pause and
#             kill refused: a clear message, the job untouched, exit 128+15
#             on SIGTERM (not 3);
#   screen:   p and k y say EPERM, the header stays RUNNING, q quits at once;
#   /proc mounted hidepid=1 / hidepid=2 (private mount namespace): exit 1
#             with a message, no crash.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
if ! is_root; then
    skip "another user's process" "needs root (to run processes as nobody and daemon)"; exit 0
fi
need_tool "another user's process" setpriv util-linux || exit 0
if ! id nobody >/dev/null 2>&1 || ! id daemon >/dev/null 2>&1; then
    skip "another user's process" "needs users nobody and daemon"; exit 0
fi
. "$ST_ROOT/tests/e2e/tui_common.inc"
# (setpriv, not a shell function, goes in the background: $! is then the
# process itself, not a subshell of this script's.)
AS_NOBODY="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
AS_DAEMON="setpriv --reuid=daemon --regid=$(id -g daemon) --clear-groups"

# The binaries where both users can run them (the checkout may be private);
# a directory daemon may write its records to.
B="$T/bin" W="$T/out"
mkdir -p "$B" "$W"
cp "$STAGETOP" "$WORKLOADS/demo" "$B/"
chmod 755 "$T" "$B" "$B/stagetop" "$B/demo"
chown daemon "$W"
if ! $AS_DAEMON "$B/stagetop" --version >/dev/null 2>&1; then
    skip "another user's process" "user daemon cannot run $B/stagetop (a noexec /tmp?)"; exit 0
fi

$AS_NOBODY "$B/demo" --loop --encoder-mib 8 --transformer-mib 16 --worker-mib 4 --workers 1 --step-ms 100 \
    </dev/null >/dev/null 2>&1 &
job=$!
remember_job $job
until_ok 10 proc_has_children $job
worker=$(proc_children $job | head -1)

# --- headless readings ------------------------------------------------------------
$AS_DAEMON "$B/stagetop" --headless -p $job --interval 0.1 --record "$W/read.jsonl" 2>"$T/read.err" &
st=$!
until_ok 10 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$W/read.jsonl' 2>/dev/null) -ge 10 ]"
kill -TERM $st; wait_bounded $st 10; rc=$?
check "readings: exit 143 on SIGTERM, nothing on stderr but the closing summary" \
    sh -c "[ $rc -eq 143 ] && grep -q '^stagetop: run summary' '$T/read.err' && ! grep -v '^stagetop: run summary\|^  ' '$T/read.err'"
readings() {
    $PY - "$W/read.jsonl" "$job" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
start, s = recs[0], [r for r in recs if r["type"] == "sample"]
if "demo --loop" not in start.get("command", ""):
    sys.exit(f"command not read: {start.get('command')!r}")
if not all(r["procs"] == 2 for r in s):
    sys.exit(f"procs should be 2 (root + worker): {[r['procs'] for r in s]}")
if not all(r["footprint"] >= 4 << 20 and r["rss"] >= r["footprint"] for r in s):
    sys.exit(f"footprint not read (the worker alone holds 4 MiB): {[r['footprint'] for r in s]}")
PY
}
check "readings: the command, both processes and their memory are read" readings

# --- headless guard: pause and kill refused ---------------------------------------------
$AS_DAEMON "$B/stagetop" --headless -p $job --interval 0.1 --kill-free 100 --on-budget pause \
    --record "$W/pause.jsonl" 2>"$T/pause.err" &
st=$!
until_ok 10 grep -q '"kind":"budget"' "$W/pause.jsonl"
until_ok 30 grep -qi 'could not pause' "$T/pause.err"   # the guard tried
wait_turns $st 3
check "guard pause refused: the job is not stopped" tree_running $job
check "guard pause refused: stderr says it could not pause, and why (EPERM)" \
    sh -c "grep -qi 'could not pause' '$T/pause.err' && grep -q 'EPERM\|not permitted' '$T/pause.err'"
no_claim() { ! grep -q 'job paused\|resume with' "$T/pause.err" || { cat "$T/pause.err"; false; }; }
check "guard pause refused: no 'job paused' claim" no_claim
kill -TERM $st; wait_bounded $st 10; rc=$?
check "guard pause refused: exit 143 on SIGTERM" [ $rc -eq 143 ]

$AS_DAEMON "$B/stagetop" --headless -p $job --interval 0.1 --kill-free 100 --on-budget kill --grace 0.3 \
    --record "$W/kill.jsonl" 2>"$T/kill.err" &
st=$!
until_ok 10 grep -q '"kind":"budget"' "$W/kill.jsonl"
until_ok 30 grep -qi 'could not kill' "$T/kill.err"   # the guard tried
# past the grace (0.3 s, stagetop's clock): a sample 1 s after the budget event
until_ok 60 record_after "$W/kill.jsonl" budget 1
check "guard kill refused: the job and its worker still run" sh -c "kill -0 $job && kill -0 $worker"
check "guard kill refused: stderr says it could not kill, and why (EPERM)" \
    sh -c "grep -qi 'could not kill' '$T/kill.err' && grep -q 'EPERM\|not permitted' '$T/kill.err'"
kill -TERM $st; wait_bounded $st 10; rc=$?
check "guard kill refused: exit 143 on SIGTERM" [ $rc -eq 143 ]
check "guard kill refused: the record is complete" \
    $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$W/kill.jsonl" --end --event budget
# A job that ends by itself after a refused guard kill: exit 0, not 3 (the
# guard did not stop it).
$AS_NOBODY sleep 600 </dev/null >/dev/null 2>&1 &
small=$!
remember_job $small
$AS_DAEMON "$B/stagetop" --headless -p $small --interval 0.1 --kill-free 100 --on-budget kill --grace 0.3 \
    --record "$W/kill2.jsonl" 2>"$T/kill2.err" &
st=$!
until_ok 10 grep -q '"kind":"budget"' "$W/kill2.jsonl"
until_ok 30 grep -qi 'could not kill' "$T/kill2.err"   # the guard tried
kill -TERM $small
wait_bounded $st 10; rc=$?
check "guard kill refused, then the job ends by itself: exit 0 (not 3)" [ $rc -eq 0 ]

# --- screen: p and k as another user -----------------------------------------------------
start_pane other 160 30 "setpriv --reuid=daemon --regid=$(id -g daemon) --clear-groups '$B/stagetop' -p $job --interval 0.2"
check "screen: another user's job is shown" wait_screen other 15 "^\[RUNNING\] pid $job "
check "screen: ... with both of its processes" wait_screen other 5 "^2 procs "
tm send-keys -t other p
check "screen: p says the pause was refused (EPERM)" wait_screen other 5 "pause failed: .*\(EPERM\|not permitted\)"
check "screen: p: the header stays RUNNING" wait_screen other 2 "^\[RUNNING\] pid $job"
check "screen: p: the job is not stopped" tree_running $job
tm send-keys -t other k
wait_screen other 5 "Kill pid $job" >/dev/null
tm send-keys -t other y
check "screen: k y says the kill was refused (EPERM)" wait_screen other 5 "kill failed: .*\(EPERM\|not permitted\)"
wait_turns "$(pane_child other)" 5   # its loop went round five more times
check "screen: k: the header stays RUNNING (not KILLING)" wait_screen other 2 "^\[RUNNING\] pid $job"
check "screen: k: the job and its worker still run" sh -c "kill -0 $job && kill -0 $worker"
tm send-keys -t other q
check "screen: q quits at once, exit 0" wait_screen other 5 "stagetop-exit=0"

# --- /proc with hidepid -----------------------------------------------------------------
if unshare --mount --propagation private sh -c 'mount -t proc -o hidepid=1 proc /proc' 2>/dev/null; then
    for hp in 1 2; do
        unshare --mount --propagation private sh -c "mount -t proc -o hidepid=$hp proc /proc &&
            exec setpriv --reuid=daemon --regid=$(id -g daemon) --clear-groups '$B/stagetop' --headless -p $job" \
            >/dev/null 2>"$T/hide$hp.err"
        rc=$?
        check "hidepid=$hp: exit 1 with a message" sh -c "[ $rc -eq 1 ] && grep -q 'stagetop: .*$job' '$T/hide$hp.err'"
    done
else
    skip "hidepid" "a private mount namespace with /proc remounted hidepid=1 is refused here"
fi
