#!/bin/sh
# The screen's job and the terminal (docs/screen.md):
#   I  a screen job gets /dev/null as stdin: `read` ends at once (it is not
#      stopped by SIGTTIN, reading a terminal it does not own);
#   T  a job stopped by someone else (kill -STOP) shows STOPPED, never
#      RUNNING, and RUNNING again once continued;
#   Tp the same for a root watched with -p (its state read from the system:
#      kill -STOP shows STOPPED, kill -CONT RUNNING again);
#   R  a --headless --jsonl trace of a job that prints replays.
set -u
. "$(dirname "$0")/tui_common.inc"

# --- I: stdin is /dev/null --------------------------------------------------------------
start_pane i 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/i.log' -- sh -c 'read x; echo read-ended:\$?; exec sleep 300'"
check "I: the job's read ends at once (end of file)" until_ok 20 grep -q "read-ended:1" "$T/i.log"
check "I: the job is running, not stopped" wait_screen i 10 '^\[RUNNING\]'
tm send-keys -t i q
wait_screen i 10 'ill it and quit' >/dev/null
tm send-keys -t i k
check "I: k: the job is killed and stagetop exits" wait_screen i 20 'stagetop-exit='

# --- T: stopped by someone else -----------------------------------------------------------
start_pane t 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/t.log' -- sh -c 'echo \$\$ >\"$T/t.pid\"; exec sleep 300'"
until_ok 20 test -s "$T/t.pid"
root=$(cat "$T/t.pid")
check "T: running first" wait_screen t 10 '^\[RUNNING\]'
kill -STOP "$root"
check "T: kill -STOP: the header says STOPPED SIGSTOP" wait_screen t 10 '^\[STOPPED SIGSTOP\]'
kill -CONT "$root"
check "T: kill -CONT: RUNNING again" wait_screen t 10 '^\[RUNNING\]'
tm send-keys -t t q
wait_screen t 10 'ill it and quit' >/dev/null
tm send-keys -t t k
check "T: k: the job is killed and stagetop exits" wait_screen t 20 'stagetop-exit='

# --- Tp: -p, stopped by someone else -------------------------------------------------------
sleep 300 &
sp=$!
remember_job $sp
start_pane tp 110 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $sp"
check "Tp: running first" wait_screen tp 10 '^\[RUNNING\]'
kill -STOP "$sp"
check "Tp: kill -STOP: the header says STOPPED" wait_screen tp 10 '^\[STOPPED SIGSTOP\]'
kill -CONT "$sp"
check "Tp: kill -CONT: RUNNING again" wait_screen tp 10 '^\[RUNNING\]'
tm send-keys -t tp q
check "Tp: q: stagetop exits (the watched process runs on)" wait_screen tp 10 'stagetop-exit=0'
check "Tp: the watched process still runs" kill -0 "$sp"
kill "$sp"

# --- R: a --headless --jsonl trace with a chatty job replays ------------------------------
"$STAGETOP" --headless --jsonl --no-gpu -i .1 -- \
    sh -c 'echo "{\"type\":\"end\"}"; echo job-says-hello; sleep 0.3' >"$T/r.jsonl" 2>"$T/r.err"
start_pane r 110 30 "'$STAGETOP' replay '$T/r.jsonl'"
check "R: stagetop replay reads the trace on stdout (the job's output went elsewhere)" \
    wait_screen r 10 "^\[REPLAY\] $T/r.jsonl"
tm send-keys -t r q
check "R: q exits 0" wait_screen r 10 'stagetop-exit=0'
