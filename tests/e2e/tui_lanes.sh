#!/bin/sh
# The screen's lanes ([lanes]): the default set (no CPU lane), key l adds the
# tree's CPU and page-ins and takes them away again, --lanes LIST chooses
# them, and 80x24 stays readable with five lanes (every lane's label, the
# time axis, the process list and the status line on screen).  The job is
# busy on one core: the CPU lane reads well above 0.
set -u
. "$(dirname "$0")/tui_common.inc"

cat >"$T/busy.sh" <<'JOB'
while :; do :; done
JOB

# CPU now (percent) of the CPU lane's "now" line, or -1.
cpu_now() { screen "$1" | awk '/^CPU \(tree\)/ {getline; if ($1 == "now") {sub("%", "", $2); print $2; exit}} END {}' ; }
cpu_busy() { c=$(cpu_now "$1"); [ -n "$c" ] && awk -v c="$c" 'BEGIN {exit !(c >= 20)}'; }

# --- the default set, then l ---------------------------------------------------------
start_pane def 100 34 "'$STAGETOP' --interval 0.2 -- sh '$T/busy.sh'"
check "default: footprint, swap and level lanes" wait_screen def 15 '^memory available'
check "default: no CPU lane" sh -c "! tmux -L $TM_SOCK capture-pane -p -t def | grep -q '^CPU (tree)'"
tm send-keys -t def l
check "l adds the CPU lane" wait_screen def 10 '^CPU (tree)'
check "l adds the page-ins lane" wait_screen def 10 '^page-ins (tree)'
check "the CPU lane reads the busy job (>= 20% of a core)" until_ok 10 cpu_busy def
tm send-keys -t def l
check "l again takes them away" until_ok 10 sh -c "! tmux -L $TM_SOCK capture-pane -p -t def | grep -q '^CPU (tree)'"
check "the default lanes are back" wait_screen def 5 '^memory available'
tm send-keys -t def q
check "q quits (the launched job asks)" wait_screen def 10 'quit'
tm send-keys -t def k
check "k: the job is killed and stagetop exits" wait_screen def 20 'stagetop-exit='
tm kill-session -t def 2>/dev/null

# --- --lanes at 80x24 ----------------------------------------------------------------
start_pane small 80 24 "'$STAGETOP' --interval 0.2 --lanes footprint,swap,level,cpu,pageins -- sh '$T/busy.sh'"
check "80x24: the CPU lane" wait_screen small 15 '^CPU (tree)'
check "80x24: the page-ins lane" wait_screen small 5 '^page-ins (tree)'
check "80x24: footprint, swap and level lanes" sh -c "
    s=\$(tmux -L $TM_SOCK capture-pane -p -t small)
    echo \"\$s\" | grep -q '^footprint (tree)' && echo \"\$s\" | grep -q '^swap used' && echo \"\$s\" | grep -q '^memory available'"
check "80x24: the time axis" wait_screen small 5 '^last '
check "80x24: the process list with state and CPU" wait_screen small 5 'PID .*FOOTPRINT.* S .*CPU%'
check "80x24: the status line" wait_screen small 5 '^p pause'
check "80x24: the CPU lane reads the busy job" until_ok 10 cpu_busy small
check "a bad --lanes name is refused" sh -c "'$STAGETOP' --lanes footprint,nope -p $$ 2>&1 | grep -q \"unknown lane 'nope'\""
