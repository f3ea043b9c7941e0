#!/bin/sh
# A job that stagetop starts (-- CMD), on the screen: the guard (issue 5) - a
# limit crossed pauses the job and the screen turns to an alert that says what
# crossed which limit; k kills - and quitting while the job still runs asks
# whether to kill it or leave it running.
# --kill-free 100 is crossed on any machine (the level is always under
# 100 %), so this runs without swap; tests/swap/ has the real-swap runs.
set -u
. "$(dirname "$0")/tui_common.inc"

start_pane guard 100 32 "'$STAGETOP' --interval 0.2 --grace 1 --kill-free 100 --on-budget pause \
    --record '$T/guard.jsonl' --job-log '$T/job.log' -- \
    '$WORKLOADS/demo' --encoder-mib 16 --transformer-mib 16 --worker-mib 8 --step-ms 100 --loop"

until_ok 10 has_stagetop guard
st=$(stagetop_pid guard)
until_ok 10 proc_has_children $st
job=$(proc_children "$st" | head -1)
remember_job "$job"

check "the alert says what crossed which limit" wait_screen guard 15 'BUDGET CROSSED: job paused'
check "the alert names the level and the --kill-free limit" \
    sh -c "tmux -L $TM_SOCK capture-pane -p -t guard | grep -q 'under the --kill-free limit of 100.0%'"
check "every process of the job is stopped (state T)" until_ok 10 tree_stopped "$job"
check "the header says PAUSED" wait_screen guard 5 'PAUSED'
tm send-keys -t guard k
check "k asks before killing" wait_screen guard 5 'y/n'
tm send-keys -t guard y
check "k y: the job's tree is gone" until_ok 15 gone "$job"
check "the alert is gone once the job is" \
    until_ok 10 sh -c "! tmux -L $TM_SOCK capture-pane -p -t guard | grep -q 'BUDGET CROSSED'"
tm send-keys -t guard q
check "q: stagetop exits" wait_screen guard 10 'stagetop-exit='
check "the trace holds the budget, pause and kill events, in that order" python3 -c '
import json, sys
kinds = [r["kind"] for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "event"]
b = kinds.index("budget")
assert kinds[b + 1] == "pause", kinds
assert "kill" in kinds[b + 1:], kinds
b_ev = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("kind") == "budget"][0]
assert b_ev["name"] == "level" and b_ev["limit"] == 10000, b_ev
' "$T/guard.jsonl"

# --- q while a job that stagetop started still runs --------------------------
start_pane quit 100 20 "'$STAGETOP' --interval 0.2 --grace 1 --job-log '$T/q.log' -- sleep 300"
until_ok 10 has_stagetop quit
st=$(stagetop_pid quit)
until_ok 10 proc_has_children $st
job=$(proc_children "$st" | head -1)
remember_job "$job"
wait_screen quit 10 'RUNNING' >/dev/null
tm send-keys -t quit q
check "q asks: kill the job, leave it running, or cancel" wait_screen quit 5 '\[l\]eave it running'
tm send-keys -t quit c
no_prompt() { ! screen quit | grep -q 'eave it running'; }
until_ok 30 no_prompt
wait_turns "$st" 3   # the loop went round after the key
check "c cancels: still watching, the job runs" sh -c "kill -0 $job && ! tmux -L $TM_SOCK capture-pane -p -t quit | grep -q 'stagetop-exit='"
tm send-keys -t quit q
wait_screen quit 5 'eave it running' >/dev/null
tm send-keys -t quit l
exits_0_job_lives() { wait_screen quit 15 'stagetop-exit=0' && kill -0 "$job"; }
check "l: stagetop exits 0 and the job goes on" exits_0_job_lives
kill -KILL "$job" 2>/dev/null

start_pane quit2 100 20 "'$STAGETOP' --interval 0.2 --grace 1 --job-log '$T/q2.log' -- sleep 300"
until_ok 10 has_stagetop quit2
st=$(stagetop_pid quit2)
until_ok 10 proc_has_children $st
job=$(proc_children "$st" | head -1)
remember_job "$job"
wait_screen quit2 10 'RUNNING' >/dev/null
tm send-keys -t quit2 q
wait_screen quit2 5 'eave it running' >/dev/null
tm send-keys -t quit2 k
check "k: the job is killed, then stagetop exits" wait_screen quit2 10 'stagetop-exit='
check "k: the job is gone" until_ok 5 gone "$job"
