# Sourced by pidreuse.test.sh inside `unshare --pid --fork --mount-proc`:
# this shell is pid 1 of a fresh pid namespace, so writing
# /proc/sys/kernel/ns_last_pid decides the next pid without touching the
# rest of the machine, and nothing else takes the pid in between.
set -u
. "$ST_ROOT/tests/lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

# reuse_pid PID CMD...: start CMD in the background with exactly PID (which
# must be free); prints its pid.  Retries a few times (bounded).
reuse_pid() {
    _want=$1; shift
    for _try in 1 2 3 4 5; do
        echo $((_want - 1)) >/proc/sys/kernel/ns_last_pid
        "$@" </dev/null >/dev/null 2>&1 &
        _got=$!
        [ "$_got" = "$_want" ] && { echo "$_got"; return 0; }
        kill -KILL "$_got" 2>/dev/null; wait "$_got" 2>/dev/null
    done
    echo "could not get pid $_want (got $_got)" >&2
    return 1
}
samples() { grep -c '"type":"sample"' "$1" 2>/dev/null || echo 0; }
stranger_ok() { # pid, wanted state letters: alive, in one of them
    _s=$(proc_state "$1")
    [ -n "$_s" ] && case "$2" in *"$_s"*) true ;; *) echo "state $_s"; false ;; esac &&
        case "$(proc_args "$1")" in "$3"*) ;; *) false ;; esac
}
is_stopped() { [ "$(proc_state "$1")" = T ]; }
# after_kill_empty FILE N: the samples after the first N (those written before
# the kill) count no process and no memory, and the exit event is there.
after_kill_empty() {
    $PY - "$1" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
s = [r for r in recs if r["type"] == "sample"]
i = int(sys.argv[2])
if len(s) <= i:
    sys.exit(f"no sample after the kill ({len(s)} samples, {i} before it)")
bad = [r for r in s[i:] if r["procs"] != 0 or r.get("footprint", 0) != 0]
if bad:
    sys.exit(f"samples after the exit count processes: {bad[:3]}")
ev = [r for r in recs if r["type"] == "event" and r["kind"] == "exit"]
if not ev or ev[0]["t"] < s[i]["t"]:
    sys.exit(f"no exit event at the first empty sample: {ev}")
sig = [r for r in recs if r["type"] == "event" and r["kind"] in ("resume", "kill") and r["t"] >= s[i]["t"]]
if sig:
    sys.exit(f"job-control events after the exit: {sig}")
PY
}

# --- A: exit, immediate reuse while stagetop is not looking -----------------
sleep 600 </dev/null >/dev/null 2>&1 &
victim=$!
"$STAGETOP" --headless -p $victim --interval 0.1 --record "$T/a.jsonl" 2>"$T/a.err" &
st=$!
wait_for "samples" 15 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/a.jsonl' 2>/dev/null) -ge 3 ]"
kill -STOP $st            # stagetop cannot sample while the pid changes hands
n_before=$(samples "$T/a.jsonl")
kill -KILL $victim; wait $victim 2>/dev/null
stranger=$(reuse_pid $victim sleep 987654)
check "A: the stranger got the watched pid $victim" [ "$stranger" = "$victim" ]
kill -CONT $st
wait_bounded $st 20; rc=$?
check "A: stagetop ends with 0 when the watched root exits (pid reused meanwhile)" [ $rc -eq 0 ]
check "A: the record is complete with the exit event" \
    $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/a.jsonl" --end --event exit
check "A: no sample after the kill counts the stranger" after_kill_empty "$T/a.jsonl" "$n_before"
check "A: the stranger still runs, not stopped" stranger_ok "$stranger" RS sleep
kill -KILL "$stranger" 2>/dev/null; wait "$stranger" 2>/dev/null

# --- B: stagetop paused the job (guard), the job dies, the pid is reused by a
# stopped stranger, stagetop gets SIGTERM before it samples again: resuming
# "its" paused job must not send SIGCONT to the stranger. ------------------------
sleep 600 </dev/null >/dev/null 2>&1 &
victim=$!
"$STAGETOP" --headless -p $victim --interval 0.2 --kill-free 100 --on-budget pause \
    --record "$T/b.jsonl" 2>"$T/b.err" &
st=$!
check "B: the guard pauses the job (state T)" wait_for "victim stopped" 15 \
    is_stopped $victim
wait_for "the budget event" 5 grep -q '"kind":"budget"' "$T/b.jsonl"
kill -STOP $st
kill -KILL $victim; wait $victim 2>/dev/null
stranger=$(reuse_pid $victim sleep 987655)
check "B: the stranger got the watched pid $victim" [ "$stranger" = "$victim" ]
kill -STOP "$stranger"
kill -TERM $st
kill -CONT $st
wait_bounded $st 20; rc=$?
check "B: SIGTERM: stagetop exits 128+15" [ $rc -eq 143 ]
check "B: the stopped stranger got no SIGCONT (still T)" stranger_ok "$stranger" T sleep
check "B: the record is complete (start, budget, end)" \
    $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/b.jsonl" --end --event budget
no_resume() { ! grep -q '"kind":"resume"' "$T/b.jsonl" || { grep '"kind":"resume"' "$T/b.jsonl"; false; }; }
check "B: no resume event claims a process was signalled" no_resume
kill -KILL "$stranger" 2>/dev/null; wait "$stranger" 2>/dev/null

# --- C: as B, but stagetop samples (and sees the exit) before the SIGTERM -----
sleep 600 </dev/null >/dev/null 2>&1 &
victim=$!
"$STAGETOP" --headless -p $victim --interval 0.1 --kill-free 100 --on-budget pause \
    --record "$T/c.jsonl" 2>"$T/c.err" &
st=$!
wait_for "victim stopped" 15 is_stopped $victim
kill -STOP $st
n_before=$(samples "$T/c.jsonl")
kill -KILL $victim; wait $victim 2>/dev/null
stranger=$(reuse_pid $victim sleep 987656)
kill -STOP "$stranger"
kill -CONT $st
wait_bounded $st 20; rc=$?
check "C: stagetop ends (0) on the exit while the job was paused; pid reused" \
    sh -c "[ $rc -eq 0 ] || { echo 'exit $rc; stderr:'; cat '$T/c.err'; tail -3 '$T/c.jsonl'; false; }"
check "C: the stopped stranger got no SIGCONT (still T)" stranger_ok "$stranger" T sleep
check "C: exit event, no sample after the kill counts the stranger" after_kill_empty "$T/c.jsonl" "$n_before"
kill -KILL "$stranger" 2>/dev/null; wait "$stranger" 2>/dev/null
