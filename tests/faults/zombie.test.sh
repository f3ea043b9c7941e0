#!/bin/sh
# Fault: watching a zombie (issue 21 item 12).  A process that has exited
# and whose parent never reaps it (`sh -c 'sleep 0.1 & exec sleep 300'`:
# the parent becomes a sleep that never waits).  `doctor -p Z` said "every
# checked lane agrees" and exited 0 though nothing was read; `--headless -p
# Z` sampled for ever, silently.  Both must say it is a zombie and exit 1.
set -u
. "$(dirname "$0")/../lib/common.sh"
sh -c 'sleep 0.1 & exec sleep 300' &
parent=$!
remember_job $parent
trap 'cleanup_jobs' EXIT
zombie() { z=$(pgrep -P "$parent" | head -1); [ -n "$z" ] && [ "$(proc_state "$z")" = Z ]; }
wait_for "the child is a zombie" 30 zombie
z=$(pgrep -P "$parent" | head -1)
T=$(mktemp -d)
timeout 60 "$STAGETOP" doctor -p "$z" > "$T/doc.out" 2> "$T/doc.err"; rc=$?
check "doctor -p ZOMBIE: exit 1 ($rc)" test "$rc" -eq 1
check "doctor -p ZOMBIE: says it is a zombie" grep -q "pid $z is a zombie" "$T/doc.err"
check "doctor -p ZOMBIE: no 'every checked lane agrees'" sh -c "! grep -q 'agrees' '$T/doc.out'"
timeout 60 "$STAGETOP" --headless -p "$z" > /dev/null 2> "$T/hl.err"; rc=$?
check "--headless -p ZOMBIE: ends, exit 1 ($rc; 124: sampled on)" test "$rc" -eq 1
check "--headless -p ZOMBIE: says it is a zombie" grep -q "pid $z is a zombie" "$T/hl.err"

# A tree that holds a zombie (issue 30 item 7): -p of the parent, a sleep
# alive beside its unreaped child.  procs counts live members only: 1, not
# 2 (the zombie is shown in the list, it holds nothing and is not running).
"$STAGETOP" --headless --jsonl --interval 0.1 -p "$parent" > "$T/live.jsonl" 2> "$T/live.err" &
st=$!
three() { [ "$(grep -c '"type":"sample"' "$T/live.jsonl")" -ge 3 ]; }
wait_for "three samples of the tree with a zombie" 30 three
kill -TERM $st
wait $st
check "a tree with a zombie: procs counts the one live process" python3 - "$T/live.jsonl" <<'PYEOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if '"type":"sample"' in l]
bad = [x["procs"] for x in s if x["procs"] != 1]
sys.exit(f"procs {bad} in {len(s)} samples" if bad or len(s) < 3 else 0)
PYEOF

# A watched root that becomes a zombie while stagetop watches it (killed;
# its parent, a sleep, never reaps it): the run ends (it sampled for ever
# before).
sh -c 'sleep 300 & exec sleep 300' &
parent2=$!
remember_job $parent2
wait_for "the second child runs" 30 sh -c "pgrep -P $parent2 >/dev/null"
c=$(pgrep -P "$parent2" | head -1)
timeout 60 "$STAGETOP" --headless --jsonl --interval 0.1 -p "$c" > "$T/mid.jsonl" 2> "$T/mid.err" &
st=$!
# it is sampling (its records say so: the turns of `timeout`, the pid $!
# names, are too few to wait on, and a slow build took the whole minute)
wait_for "stagetop samples the root" 30 grep -q '"type":"sample"' "$T/mid.jsonl"
kill -KILL "$c"
wait $st; rc=$?
check "--headless -p ROOT that becomes a zombie: the run ends ($rc; 124: sampled on)" \
    sh -c "[ $rc -ne 124 ] && [ $rc -lt 128 ]"
rm -rf "$T"
