#!/bin/sh
# Fault: -p of a root whose tree is the machine.  In a new pid namespace
# (`unshare --pid --fork --mount-proc`, as pidreuse.test.sh), where the
# "machine" is a few dozen processes and an unrelated `sleep` (the
# bystander) stands for everyone else's work:
#   R  refused: -p 1 with the guard set to kill, -p of stagetop's own
#      shell (an ancestor) with a guard (both watched only: a guard could
#      never act), -p of a thread id: exit 2 with a message naming
#      it; the bystander is never stopped nor killed;
#   W  headless, a tree holding most of the namespace's processes: watched
#      read-only (said on stderr), the guard (pause, then kill) crosses its
#      budget and signals nothing: no member goes to state T or dies; with
#      --allow-wide the same guard does pause it (the check can fail);
#   S  the screen on such a tree: the status line says READ-ONLY, p asks,
#      n leaves it untouched, y allows, then p pauses it.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
if [ "$(id -u)" != 0 ]; then
    skip "wide tree" "needs root (a new pid namespace)"; exit 0
fi
pidns_test "wide tree" widetree wide 810000 || exit 0

# --- S: the screen (widetree_pane.sh) ----------------------------------------------
members() { pgrep -x -f "sleep $UNIQ"; }
none_stopped() { for _p in $(members); do [ "$(proc_state "$_p")" != T ] || return 1; done; }
all_stopped() { [ -n "$(members)" ] && for _p in $(members); do [ "$(proc_state "$_p")" = T ] || return 1; done; }
check "S: the status line says READ-ONLY" wait_screen wide 20 "READ-ONLY"
tm send-keys -t wide p
check "S: p asks first" wait_screen wide 5 "Let p, k and the guard signal"
tm send-keys -t wide n
check "S: n: still read-only" wait_screen wide 5 "still read-only"
check "S: ... and nothing was stopped" none_stopped
tm send-keys -t wide p
wait_screen wide 5 "Let p, k and the guard signal" >/dev/null
tm send-keys -t wide y
check "S: y allows signals" wait_screen wide 5 "signals allowed"
tm send-keys -t wide p
check "S: then p pauses the tree" until_ok 15 all_stopped
tm send-keys -t wide q
wait_screen wide 5 "Resume it before quitting" >/dev/null
tm send-keys -t wide y
check "S: q y: exit 0" wait_screen wide 15 "stagetop-exit=0"
check "S: the tree runs again" none_stopped
touch "$T/end"
