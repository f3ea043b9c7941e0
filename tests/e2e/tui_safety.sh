#!/bin/sh
# The live screen cannot be made to misbehave (tmux end to end):
#  - a process whose command line holds escape sequences does not change
#    the terminal and is shown with visible ^[ ;
#  - SIGTERM to stagetop while it holds the job paused: job resumed,
#    terminal restored, exit 128+15;
#  - q while the job is paused asks: c cancels, n leaves it paused, y resumes;
#  - NO_COLOR gives no colour, --ascii no byte outside printable ASCII.
set -u
. "$(dirname "$0")/tui_common.inc"

# --- hostile command line ------------------------------------------------------
EVIL=$(printf '\033]0;pwned\007\033[2J\033[31mRED\302\2332J\377end')
sh -c 'sleep 600; :' "$EVIL" </dev/null >/dev/null 2>&1 &
evil=$!
remember_job $evil
start_pane evil 160 30 "'$STAGETOP' -p $evil --interval 0.2"
check "hostile argv: the screen comes up" wait_screen evil 15 "^\[RUNNING\] pid $evil"
title_kept() { [ "$(tm display -p -t evil '#{pane_title}')" != pwned ]; }
check "hostile argv: the terminal title is not changed" title_kept
shown() { screen evil | grep -F -q '^[]0;pwned^G^[[2J^[[31mRED\u009b2J\xFFend'; }
check "hostile argv: shown with visible control characters (list row)" until_ok 5 shown
check "hostile argv: shown escaped in the header too" \
    wait_screen evil 5 "^\[RUNNING\] pid $evil  sh -c sleep 600; : \^\[]0;pwned\^G"
not_cleared() { screen evil | grep -q '^memory available' && screen evil | grep -q 'PID .*FOOTPRINT'; }
check "hostile argv: the screen was not cleared by it" not_cleared
tm send-keys -t evil q
check "hostile argv: q exits 0" wait_screen evil 10 "stagetop-exit=0"

# --- SIGTERM while paused ----------------------------------------------------------
DEMO="$WORKLOADS/demo --encoder-mib 16 --transformer-mib 32 --worker-mib 8 --workers 1 --step-ms 100 --loop"
$DEMO </dev/null >/dev/null 2>&1 &
demo=$!
remember_job $demo
until_ok 10 proc_has_children $demo
start_pane term 100 30 "'$STAGETOP' -p $demo --interval 0.2"
wait_screen term 15 "^\[RUNNING\]" >/dev/null
coloured() { tm capture-pane -e -p -t term | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m"; }
check "colour is used by default (control for the NO_COLOR check)" coloured
tm send-keys -t term p
check "SIGTERM case: the job is paused first" until_ok 10 tree_stopped $demo
st=$(stagetop_pid term)
kill -TERM "$st"
check "SIGTERM: stagetop exits 128+15" wait_screen term 10 "stagetop-exit=143"
check "SIGTERM: the job it paused runs again" until_ok 10 tree_running $demo
restored() { [ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ] && ! screen "$1" | grep -q FOOTPRINT; }
check "SIGTERM: the terminal is restored" restored term

# --- q while paused: c, n, y ------------------------------------------------------
start_pane quit 100 30 "'$STAGETOP' -p $demo --interval 0.2"
wait_screen quit 15 "^\[RUNNING\]" >/dev/null
tm send-keys -t quit p
until_ok 10 tree_stopped $demo
tm send-keys -t quit q
check "q while paused: asks whether to resume" wait_screen quit 5 "Resume it before quitting?"
tm send-keys -t quit c
check "c: cancelled, still running the screen" wait_screen quit 5 "^\[PAUSED\]"
no_prompt() { ! screen quit | grep -q "Resume it before"; }
check "c: the prompt is gone" until_ok 5 no_prompt
tm send-keys -t quit q
wait_screen quit 5 "Resume it before quitting?" >/dev/null
tm send-keys -t quit n
check "n: stagetop exits 0" wait_screen quit 10 "stagetop-exit=0"
check "n: the job is left paused" tree_stopped $demo
kill -CONT $(tree_pids $demo)
until_ok 10 tree_running $demo

start_pane quit2 100 30 "'$STAGETOP' -p $demo --interval 0.2"
wait_screen quit2 15 "^\[RUNNING\]" >/dev/null
tm send-keys -t quit2 p
until_ok 10 tree_stopped $demo
tm send-keys -t quit2 q
wait_screen quit2 5 "Resume it before quitting?" >/dev/null
tm send-keys -t quit2 y
check "y: stagetop exits 0" wait_screen quit2 10 "stagetop-exit=0"
check "y: the job runs again" until_ok 10 tree_running $demo

# --- NO_COLOR and --ascii -----------------------------------------------------------
start_pane plain 100 30 "NO_COLOR=1 '$STAGETOP' -p $demo --interval 0.2 --ascii"
check "--ascii: the screen comes up" wait_screen plain 15 "^\[RUNNING\]"
until_ok 5 sh -c "tmux -L $TM_SOCK capture-pane -p -t plain | grep -q -- '-[0-9]*s+'"
no_colour() { ! tm capture-pane -e -p -t plain | grep -qE "$(printf '\033')\[[0-9;]*(3[0-7]|4[0-7]|38;|48;)"; }
check "NO_COLOR: no colour sequence on the screen" no_colour
ascii_only() { ! screen plain | LC_ALL=C grep -q '[^ -~]'; }
check "--ascii: only printable ASCII on the screen" ascii_only
ascii_graph() { screen plain | grep -A3 '^footprint (tree)' | grep -q '[#=.-]' && screen plain | grep -q -- '-[0-9]*s+--'; }
check "--ascii: graphs and axis drawn with ASCII" ascii_graph
tm send-keys -t plain q
check "--ascii: q exits 0" wait_screen plain 10 "stagetop-exit=0"
