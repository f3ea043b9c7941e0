#!/bin/sh
# "stagetop" with no target: the picker lists the largest process trees;
# choosing one watches it; q quits with 0.
set -u
. "$(dirname "$0")/tui_common.inc"

# A tree worth picking: the demo holding ~200 MiB in two processes, started
# through a wrapper shell (which the picker shows as the demo itself).
sh -c "'$WORKLOADS/demo' --encoder-mib 96 --transformer-mib 160 --worker-mib 64 --workers 1 --step-ms 100 --loop; :" \
    </dev/null >/dev/null 2>&1 &
wrapper=$!
remember_job $wrapper
until_ok 10 proc_has_children $wrapper
demo=$(proc_children $wrapper)
until_ok 10 proc_has_children $demo

start_pane pick 160 50 "'$STAGETOP'"
check "the picker comes up" wait_screen pick 15 "pick a process tree to watch"
check "the demo's tree is listed with its size and 2 processes" \
    wait_screen pick 10 "^ *$demo  *[0-9.]* [MG]iB  *2  .*demo --encoder-mib 96"
no_wrapper() { ! screen pick | grep -q "^ *$wrapper "; }
check "its wrapper shell is folded into it" no_wrapper
self_hidden() { _me=$(stagetop_pid pick); [ -n "$_me" ] && ! screen pick | grep -q "^ *$_me "; }
check "stagetop itself is not offered" self_hidden

# move the selection to the demo's row and press Enter
row=$(screen pick | awk -v p="$demo" 'NR > 2 && $1 == p { print NR - 3; exit }')
i=0
while [ "$i" -lt "${row:-0}" ]; do tm send-keys -t pick Down; i=$((i + 1)); done
tm send-keys -t pick Enter
check "Enter watches the chosen tree" wait_screen pick 15 "^\[RUNNING\] pid $demo "
check "the chosen tree's processes are listed" wait_screen pick 10 "^ *$(proc_children $demo | head -1)  "
tm send-keys -t pick q
check "q: exit 0" wait_screen pick 10 "stagetop-exit=0"

start_pane pick2 100 30 "'$STAGETOP'"
wait_screen pick2 15 "pick a process tree" >/dev/null
tm send-keys -t pick2 q
check "q in the picker: exit 0 without watching anything" wait_screen pick2 10 "stagetop-exit=0"
