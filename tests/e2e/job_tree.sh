#!/bin/sh
# Who is in a launched job's tree (docs/metrics.md, "Who is in the tree"):
# membership is by identity, and stagetop is the job's subreaper (Linux).
#   W  `sh -c 'sh -c "WORKER & sleep 1.5"; sleep 4'`: once the middle shell
#      exits, the worker (64 MiB of random bytes) is still counted;
#   Wp the same with -p (the worker re-parents to init, not to stagetop);
#   P  --on-budget pause stops such an orphan too, and "resume with" names it;
#   S  a setsid'd worker (its own session and group) whose parent exited is
#      ended with the job
#      when stagetop is stopped;
#   Z  300 setsid'd orphans that exit are reaped at once: no zombie is left
#      under stagetop while it runs, and the samples counted them.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
until_ok() { wait_for "$*" "$@"; }

# --- W: the worker of a middle shell that exits ----------------------------
printf 'import os, time\nb = os.urandom(64 << 20)\ntime.sleep(4)\n' >"$T/worker.py"
"$STAGETOP" --headless --no-gpu -i .25 --record "$T/w.jsonl" -- \
    sh -c "sh -c 'python3 $T/worker.py & sleep 1.5'; sleep 4" 2>"$T/w.err" &
st=$!
remember_job $st
wait_bounded $st 60
check "W: the run ends" test -s "$T/w.jsonl"
# Samples from 2.0 s to 3.3 s (the middle shell has gone, the worker holds
# its 64 MiB until about 4 s after it started): each counts >= 60 MiB.
check "W: the orphaned worker is still counted after its parent exited" $PY - "$T/w.jsonl" <<'EOF'
import json, sys
s = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "sample"]
mid = [r for r in s if 2.0 <= float(r["t"]) <= 3.3]
low = [(r["t"], r.get("footprint", 0) >> 20) for r in mid if r.get("footprint", 0) < (60 << 20)]
print("samples 2.0-3.3 s:", len(mid), "under 60 MiB:", low)
sys.exit(0 if mid and not low else 1)
EOF

# --- Wp: the same rule for -p -----------------------------------------------------------
sh -c "while [ ! -e '$T/wp.go' ]; do sleep 0.05; done; sh -c 'python3 $T/worker.py & sleep 1.5'; sleep 4" &
target=$!
remember_job $target
"$STAGETOP" --headless --no-gpu -i .25 -p $target --record "$T/wp.jsonl" --metrics "$T/wp.prom" 2>"$T/wp.err" &
st=$!
remember_job $st
wait_for "the first sample" 30 test -s "$T/wp.prom"
: >"$T/wp.go"
wait_bounded $st 60
check "Wp: -p: the orphaned worker is still counted after its parent exited" $PY - "$T/wp.jsonl" <<'EOF'
import json, sys
s = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "sample"]
t0 = min((float(r["t"]) for r in s if r.get("procs", 0) >= 3), default=None)
mid = [r for r in s if t0 is not None and t0 + 2.0 <= float(r["t"]) <= t0 + 3.3]
low = [(r["t"], r.get("footprint", 0) >> 20) for r in mid if r.get("footprint", 0) < (60 << 20)]
print("first sample with the worker:", t0, "samples 2.0-3.3 s after:", len(mid), "under 60 MiB:", low)
sys.exit(0 if mid and not low else 1)
EOF

# --- P: the guard's pause reaches the orphan ---------------------------------
secs=$((700 + $$ % 50))
"$STAGETOP" --headless --no-gpu -i 1 --kill-free 100 --on-budget pause -- \
    sh -c "sh -c 'sleep $secs & echo \$! >\"$T/p.orphan\"; sleep 0.2'; sleep $secs" 2>"$T/p.err" &
st=$!
remember_job $st
until_ok 30 test -s "$T/p.orphan"
orphan=$(cat "$T/p.orphan")
remember_job "$orphan"
check "P: the guard pauses the job" until_ok 30 grep -q "resume with" "$T/p.err"
check "P: the orphan is stopped (state T)" until_ok 10 sh -c "[ \"\$(ps -o stat= -p $orphan | cut -c1)\" = T ]"
check "P: \"resume with\" names the orphan" grep -q "resume with: kill -CONT.* $orphan\\b" "$T/p.err"
kill -TERM $st
wait_bounded $st 30
check "P: stopping stagetop ends the orphan too" until_ok 10 sh -c "! ps -p $orphan -o stat= | grep -qv Z"

# --- S: a setsid'd worker is ended with the job ---------------------------------
secs=$((760 + $$ % 50))
"$STAGETOP" --headless --no-gpu -i .2 -- \
    sh -c "sh -c 'setsid sleep $secs & echo \$! >\"$T/s.worker\"'; sleep $secs" 2>"$T/s.err" &
st=$!
remember_job $st
until_ok 30 test -s "$T/s.worker"
worker=$(cat "$T/s.worker")
remember_job "$worker"
check "S: the worker has its own session" until_ok 10 sh -c "[ \"\$(ps -o sid= -p $worker | tr -d ' ')\" = $worker ]"
kill -TERM $st
wait_bounded $st 30
check "S: stopping stagetop ends the setsid'd worker" until_ok 10 sh -c "! ps -p $worker -o stat= | grep -qv Z"

# --- Z: 300 setsid'd orphans are counted, then reaped -------------------------
# They sleep until the test has seen them counted (however long 300 forks take
# on a loaded machine), then are ended; stagetop must reap every one.
secs=300.$(( $$ % 900 + 100 ))
"$STAGETOP" --headless --no-gpu -i .25 --record "$T/z.jsonl" -- \
    sh -c "sh -c 'for i in \$(seq 300); do setsid sleep $secs & done'; exec sleep 120" 2>"$T/z.err" &
st=$!
remember_job $st
most_procs() {
    $PY - "$T/z.jsonl" <<'PYEOF'
import json, sys
n = 0
for l in open(sys.argv[1]):
    try:
        r = json.loads(l)
    except ValueError:
        continue   # padding, or a line still being written
    if r.get("type") == "sample":
        n = max(n, r.get("procs", 0))
print("most processes in one sample:", n)
sys.exit(0 if n >= 250 else 1)
PYEOF
}
check "Z: the samples counted the orphans (>= 250 processes at once)" until_ok 90 most_procs
pkill -f "^sleep $secs\$"
no_sleepers() { ! pgrep -f "^sleep $secs\$" >/dev/null; }
until_ok 60 no_sleepers
zombies() { ps -o stat= --ppid $st 2>/dev/null | grep -c '^Z'; }
no_zombies() { kill -0 $st && [ "$(zombies)" = 0 ]; }
check "Z: stagetop runs on (the root sleeps 120 s)" kill -0 $st
check "Z: no zombie is left under stagetop while it runs" until_ok 30 no_zombies
kill -TERM $st
wait_bounded $st 30
exit 0
