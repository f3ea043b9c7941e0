#!/bin/sh
# Fault: a headless job keeps the terminal while it is stopped (issue 30
# item 2).  In a terminal (tmux), --headless gives the job the foreground
# as a shell does.  Once the guard paused it, ^C went to the stopped job's
# queue, not to stagetop (and kill -CONT then killed the job with it);
# after ^Z of a headless job the terminal was wedged.  While the job is
# stopped the terminal is stagetop's: ^C ends the run, and no job is left.
# The pane's shell runs with job control (set -m), as an interactive one:
# stagetop is then a foreground job of its own group, as in a real terminal.
set -u
. "$ST_ROOT/tests/e2e/tui_common.inc"
secs=$(uniq_secs 800)
gone() { ! pgrep -x -f "sleep $1" >/dev/null; }

# P: paused by the guard (--kill-free 100: always under the budget)
start_pane p 100 20 "set -m; '$STAGETOP' --headless --interval 0.1 --kill-free 100 --on-budget pause -- sleep $secs"
stopped() { _p=$(pgrep -x -f "sleep $1" | head -1); [ -n "$_p" ] && [ "$(ps -o stat= -p "$_p" | cut -c1)" = T ]; }
check "P: the guard pauses the job" until_ok 30 stopped "$secs"
wait_screen p 20 'paus' >/dev/null
tm send-keys -t p C-c
check "P: ^C while paused reaches stagetop: it exits" wait_screen p 30 'stagetop-exit='
check "P: ... and the job is gone (not left stopped)" until_ok 30 gone "$secs"

# Z: ^Z of the job itself
s2=$(uniq_secs 850)
start_pane z 100 20 "set -m; '$STAGETOP' --headless --interval 0.1 -- sleep $s2"
check "Z: the job runs" until_ok 30 pgrep -x -f "sleep $s2"
tm send-keys -t z C-z
check "Z: ^Z stops the job" until_ok 20 stopped "$s2"
# stagetop sees the stop at its next poll and takes the terminal: its own
# group is then the terminal's foreground
st=$(pgrep -f "headless --interval 0.1 -- sleep $s2" | head -1)
fg_is_stagetop() { [ -n "$st" ] && [ "$(ps -o tpgid= -p "$st" | tr -d ' ')" = "$(ps -o pgid= -p "$st" | tr -d ' ')" ]; }
check "Z: ... and stagetop takes the terminal back" until_ok 20 fg_is_stagetop
tm send-keys -t z C-c
check "Z: then ^C reaches stagetop: it exits (the terminal is not wedged)" wait_screen z 30 'stagetop-exit='
check "Z: ... and the job is gone" until_ok 30 gone "$s2"
pkill -x -f "sleep $secs" 2>/dev/null; pkill -KILL -x -f "sleep $s2" 2>/dev/null || :
