#!/bin/sh
# --notify and --metrics with the screen, inside tmux: the notifications come
# in tmux's passthrough form (the pane's raw output, kept by pipe-pane), a
# trigger that repeats within 30 s is said once, and the metrics file follows
# the job's state.  --kill-free 100 is crossed on any machine (no swap needed).
set -u
. "$(dirname "$0")/tui_common.inc"
CHECK="$ST_ROOT/tests/e2e/check_notify.py"
CHECKM="$ST_ROOT/tests/e2e/check_metrics.py"
# two_budgets FILE: the record holds exactly two budget events.
two_budgets() { python3 -c "import json,sys; sys.exit(sum(1 for l in open(sys.argv[1]) if l.strip() and json.loads(l).get('kind') == 'budget') != 2)" "$1"; }

# The pane waits for $T/go, so pipe-pane is on before stagetop writes a byte.
start_pane out 100 30 "until [ -e '$T/go' ]; do sleep 0.05; done; \
    '$STAGETOP' --notify --interval 0.1 --grace 1 --kill-free 100 --on-budget pause \
    --metrics '$T/screen.prom' --record '$T/run.jsonl' --job-log '$T/job.log' -- sleep 300"
tm pipe-pane -t out "cat >>'$T/raw'"
touch "$T/go"
pane=$(tm display -p -t out '#{pane_pid}')
until_ok 20 pgrep -P "$pane" -x stagetop
st=$(stagetop_pid out)
until_ok 10 sh -c "pgrep -P $st >/dev/null"
job=$(pgrep -P "$st" | head -1)
remember_job "$job"

check "the guard pauses the job" wait_screen out 20 'BUDGET CROSSED: job paused'
check "with the screen, the metrics file is written and says paused" \
    until_ok 20 python3 "$CHECKM" read "$T/screen.prom" --state paused --procs 1
tm send-keys -t out p   # resume: the guard re-arms and pauses it again
check "p resumes, and the guard pauses the job a second time (2 budget events)" \
    until_ok 30 two_budgets "$T/run.jsonl"
check "the metrics file says paused again" \
    until_ok 20 python3 "$CHECKM" read "$T/screen.prom" --state paused
tm send-keys -t out k
wait_screen out 5 'y/n' >/dev/null
tm send-keys -t out y
check "k y: the job is gone" until_ok 15 gone "$job"
check "the metrics file says exited" until_ok 20 python3 "$CHECKM" read "$T/screen.prom" --state exited
tm send-keys -t out q
check "q: stagetop exits" wait_screen out 10 'stagetop-exit='
if command -v promtool >/dev/null 2>&1; then
    check "promtool check metrics passes on the screen's file" sh -c "promtool check metrics <'$T/screen.prom'"
fi
tm pipe-pane -t out   # close the pipe: its cat flushes
check "inside tmux: every notification in the DCS passthrough form, none bare; the guard's twice in 30 s said once" \
    until_ok 10 python3 "$CHECK" "$T/raw" --form tmux --want level=1 --want guard=1 --want exit=1 \
        --text guard="job paused" --text exit="exit status"
check "the record holds the two budget events the second notification was held back for" \
    two_budgets "$T/run.jsonl"

# --- without --notify the screen writes no bell and no OSC ---------------------------
start_pane off 100 30 "until [ -e '$T/go2' ]; do sleep 0.05; done; \
    '$STAGETOP' --interval 0.1 --grace 1 --kill-free 100 --on-budget pause \
    --record '$T/off.jsonl' --job-log '$T/off.log' -- sleep 300"
tm pipe-pane -t off "cat >>'$T/off.raw'"
touch "$T/go2"
pane=$(tm display -p -t off '#{pane_pid}')
until_ok 20 pgrep -P "$pane" -x stagetop
st=$(stagetop_pid off)
until_ok 10 sh -c "pgrep -P $st >/dev/null"
remember_job "$(pgrep -P "$st" | head -1)"
wait_screen off 20 'BUDGET CROSSED: job paused' >/dev/null
tm send-keys -t off k
wait_screen off 5 'y/n' >/dev/null
tm send-keys -t off y
until_ok 15 grep -q '"kind":"exit"' "$T/off.jsonl"
tm send-keys -t off q
wait_screen off 10 'stagetop-exit=' >/dev/null
tm pipe-pane -t off
check "without --notify: the guard acted and the job ended, and the pane got no bell, OSC 9/777 or passthrough" \
    python3 -c '
import sys
raw = open(sys.argv[1], "rb").read()
assert len(raw) > 1000, len(raw)   # the screen was captured
for bad in (b"\x07", b"]9;", b"]777;", b"\x1bPtmux;"):
    assert bad not in raw, bad
' "$T/off.raw"
