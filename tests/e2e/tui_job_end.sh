#!/bin/sh
# The run ends when the job ends (docs/screen.md): the screen stays open to
# read, but the record's end, its duration and every stage window close at
# the job's exit, not at q.
#   L  a launched staged job (stage a 0.6 s, stage b 0.4 s) whose screen
#      stays open 2 s more: duration and the last stage are the job's;
#   P  -p PID --record: the watched process exits, the screen stays open:
#      no sample after the exit, duration ends at the exit.
set -u
. "$(dirname "$0")/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"

# check_end FILE MAX_DURATION [STAGE MAX_SECONDS]: the record's end summary.
check_end() {
    $PY - "$@" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
end = [r for r in recs if r.get("type") == "end"]
exit_t = [float(r["t"]) for r in recs if r.get("type") == "event" and r.get("kind") == "exit"]
last_t = max(float(r["t"]) for r in recs if r.get("type") == "sample")
s = end[0]["summary"] if end else {}
print("duration", s.get("duration"), "exit", exit_t, "last sample", last_t, "stages", s.get("stages"))
ok = end and exit_t and last_t <= exit_t[0] + 1e-9 and float(s["duration"]) <= float(sys.argv[2])
if ok and len(sys.argv) > 3:
    st = [x for x in s["stages"] if x["stage"] == sys.argv[3]]
    ok = st and float(st[0]["seconds"]) <= float(sys.argv[4])
sys.exit(0 if ok else 1)
EOF
}

# --- L: a launched staged job ---------------------------------------------------
start_pane l 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --record '$T/l.jsonl' --job-log '$T/l.log' -- sh -c '\"$STAGETOP\" stage a; sleep 0.6; \"$STAGETOP\" stage b; sleep 0.4'"
check "L: the job ends, the screen stays" wait_screen l 20 '^\[EXITED 0'
st=$(pgrep -f "^$STAGETOP --no-gpu --interval 0.2 --record $T/l.jsonl" | head -1)
check "L: the screen goes on for 2 s (10 samples' time)" wait_turns "$st" 10
tm send-keys -t l q
check "L: q ends it" wait_screen l 10 'stagetop-exit=0'
check "L: duration and the last stage end at the job's exit" check_end "$T/l.jsonl" 2.0 b 0.9

# --- P: -p --record ------------------------------------------------------------------
sh -c 'sleep 1.5' &
target=$!
start_pane p 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --record '$T/p.jsonl' -p $target"
check "P: the process exits, the screen stays" wait_screen p 20 '^\[EXITED'
st=$(pgrep -f "^$STAGETOP --no-gpu --interval 0.2 --record $T/p.jsonl" | head -1)
check "P: the screen goes on for 2 s (10 samples' time)" wait_turns "$st" 10
tm send-keys -t p q
check "P: q ends it" wait_screen p 10 'stagetop-exit=0'
check "P: no sample after the exit; duration ends there" check_end "$T/p.jsonl" 2.5
wait $target 2>/dev/null
