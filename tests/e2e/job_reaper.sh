#!/bin/sh
# A launched job's tree where stagetop is the job's subreaper (Linux:
# PR_SET_CHILD_SUBREAPER; docs/metrics.md, "Who is in the tree"):
#   P  --on-budget pause stops an orphan of a middle shell too, and "resume
#      with" names it;
#   S  a worker in a session of its own (setsid) whose parent exited is
#      ended with the job when stagetop is stopped;
#   Z  300 such orphans that exit are reaped at once: no zombie is left
#      under stagetop while it runs, and the samples counted them.
# Sessions are made with python's os.setsid() (macOS has no setsid
# command), a session read with os.getsid, zombies found from `ps -A -o
# ppid=,stat=` (BSD ps has no --ppid), so it would read the same on a Mac;
# it is Linux-only because a Mac has no subreaper (tests/linux-only.txt).
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
until_ok() { wait_for "$*" "$@"; }

# $PY $T/setsid.py CMD...: CMD in a session (and process group) of its own.
printf 'import os, sys\nos.setsid()\nos.execvp(sys.argv[1], sys.argv[1:])\n' >"$T/setsid.py"
# $PY $T/orphans.py N SECS: N children, each in a session of its own, exec
# `sleep SECS`; the parent exits at once (they are orphans).
cat >"$T/orphans.py" <<'EOF'
import os, sys
for _ in range(int(sys.argv[1])):
    if os.fork() == 0:
        os.setsid()
        os.execvp("sleep", ["sleep", sys.argv[2]])
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
    sh -c "sh -c \"$SETSID sleep $secs & echo \\\$! >'$T/s.worker'\"; sleep $secs" 2>"$T/s.err" &
st=$!
remember_job $st
until_ok 30 test -s "$T/s.worker"
worker=$(cat "$T/s.worker")
remember_job "$worker"
own_session() { [ "$($PY -c 'import os, sys; print(os.getsid(int(sys.argv[1])))' "$worker")" = "$worker" ]; }
check "S: the worker has its own session" until_ok 10 own_session
kill -TERM $st
wait_bounded $st 30
check "S: stopping stagetop ends the setsid'd worker" until_ok 10 sh -c "! ps -p $worker -o stat= | grep -qv Z"

# --- Z: 300 setsid'd orphans are counted, then reaped -------------------------
# They sleep until the test has seen them counted (however long 300 forks take
# on a loaded machine), then are ended; stagetop must reap every one.
secs=300.$(( $$ % 900 + 100 ))
"$STAGETOP" --headless --no-gpu -i .25 --record "$T/z.jsonl" -- \
    sh -c "$PY $T/orphans.py 300 $secs; exec sleep 120" 2>"$T/z.err" &
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
zombies() { ps -A -o ppid= -o stat= | awk -v p="$st" '$1 == p && $2 ~ /^Z/ { n++ } END { print n + 0 }'; }
no_zombies() { kill -0 $st && [ "$(zombies)" = 0 ]; }
check "Z: stagetop runs on (the root sleeps 120 s)" kill -0 $st
check "Z: no zombie is left under stagetop while it runs" until_ok 30 no_zombies
kill -TERM $st
wait_bounded $st 30
exit 0
