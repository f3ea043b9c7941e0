#!/bin/sh
# Fault: the watched root exits while it is being sampled, and its pid is at
# once reused by an unrelated process.  stagetop must report the exit
# (headless: the exit event; screen: EXITED) and never adopt the newcomer
# (no sample counts it) nor signal it (pause, resume and kill all refuse).
# The reuse is forced inside a new pid namespace (ns_last_pid), as root;
# stagetop is SIGSTOPped while the pid changes hands so that its next look
# is at the newcomer.  Scenarios:
#   A  headless: exit + reuse, the stranger keeps running, exit event;
#   B  headless: the guard paused the job, it dies, a stopped stranger takes
#      the pid, SIGTERM before stagetop samples again: no SIGCONT to it;
#   C  as B, but stagetop samples first: exit, still no SIGCONT;
#   S  screen (tmux): EXITED shown, p and k refuse, the stranger runs on.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
if [ "$(id -u)" != 0 ]; then
    skip "pid reuse" "needs root (a new pid namespace and ns_last_pid)"; exit 0
fi
need_tool "pid reuse" unshare util-linux || exit 0
pidns_test "pid reuse" pidreuse reuse 900000 || exit 0

# --- S: the screen (pidreuse_pane.sh) ---------------------------------------------
until_ok 15 test -s "$T/victim"
victim=$(cat "$T/victim")
check "S: the screen watches the victim" wait_screen reuse 15 "^\[RUNNING\] pid $victim .*sleep 600"
# stagetop's outer pid: the stagetop process of this pane's tree
st=$(for p in $(tree_pids "$(tm display -p -t reuse '#{pane_pid}')"); do
        [ "$(proc_name $p)" = stagetop ] && echo $p; done | head -1)
kill -STOP "$st"
touch "$T/go"
until_ok 10 test -s "$T/stranger"
check "S: the stranger got the watched pid $victim" [ "$(cat "$T/stranger")" = "$victim" ]
outer=$(pgrep -x -f "sleep $UNIQ" | head -1)
kill -CONT "$st"
check "S: the screen says EXITED" wait_screen reuse 10 "^\[EXITED\] pid $victim"
tm send-keys -t reuse p
check "S: p refuses: the job has exited" wait_screen reuse 5 "the job has exited"
not_stopped() { [ -n "$outer" ] && [ "$(proc_state "$outer")" != T ] && [ -n "$(proc_state "$outer")" ]; }
check "S: after p the stranger is not stopped" until_ok 1 not_stopped
wait_turns "$st" 3   # stagetop went round its loop three more times
check "S: ... nor later" not_stopped
tm send-keys -t reuse k
wait_turns "$st" 2
tm send-keys -t reuse y
wait_turns "$st" 3
check "S: after k (y) the stranger still runs" not_stopped
not_listed() { ! screen reuse | grep -q "sleep $UNIQ"; }
check "S: the stranger is not in the process list" not_listed
tm send-keys -t reuse q
check "S: q exits 0" wait_screen reuse 10 "stagetop-exit=0"
touch "$T/end"
