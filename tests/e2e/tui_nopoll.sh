#!/bin/sh
# The screens on a terminal whose poll(2) answers POLLNVAL, as XNU's does for
# /dev/tty (tests/tools/poll_devtty.c cites bsd/kern/sys_generic.c and
# spec_vnops.c): on Linux that poll is preloaded, on a Mac the kernel answers
# so itself.  The keys are waited for with select(2) (tui/term.c
# tui_term_wait), so:
#  - `replay -` (keys on /dev/tty) stays up, idles without spinning (it goes
#    round its loop, blocking each time, and its CPU time stays under a
#    second), and q ends it with 0;
#  - the live screen with /dev/tty as its stdin the same.
set -u
. "$(dirname "$0")/tui_common.inc"
tm() { tmux -L "$TM_SOCK" "$@" 3>&-; }

PRE=""
if [ "$(uname -s)" = Linux ]; then
    case ${ST_BUILD:-build} in /*) _b=$ST_BUILD ;; *) _b=$ST_ROOT/${ST_BUILD:-build} ;; esac
    [ -f "$_b/tools/poll_devtty.so" ] || { echo "FAIL: $TEST_NAME: $_b/tools/poll_devtty.so is not built (make tests)"; exit 1; }
    # ASan wants to come first in the list: a sanitized stagetop takes it second.
    PRE="LD_PRELOAD='$_b/tools/poll_devtty.so' ASAN_OPTIONS=verify_asan_link_order=0:\${ASAN_OPTIONS:-}"
fi

# cpu_s PID: the CPU seconds PID has used (procps: [DD-]HH:MM:SS; BSD ps: M:SS.hh).
cpu_s() {
    ps -o time= -p "$1" 2>/dev/null | awk '{ n = split($1, a, /[-:]/); s = 0
        for (i = 1; i <= n; i++) s = s * (i == n - 3 ? 24 : 60) + a[i]; printf "%d\n", s }'
}
# idles NAME: stagetop in pane NAME goes round its loop 5 times (blocking
# each time: a spinning loop never blocks) and uses under a second of CPU.
idles() {
    _sp=$(stagetop_pid "$1"); [ -n "$_sp" ] || { echo "no stagetop in $1"; return 1; }
    _c0=$(cpu_s "$_sp")
    wait_turns "$_sp" 5 || return 1
    _c1=$(cpu_s "$_sp")
    echo "cpu ${_c0}s -> ${_c1}s over 5 turns"
    [ $((_c1 - _c0)) -le 1 ]
}

# ---- replay - : keys on /dev/tty -------------------------------------------
mkfifo "$T/feed"
start_pane rp 100 30 "env $PRE '$STAGETOP' replay - < '$T/feed'"
exec 3<>"$T/feed"
echo '{"type":"start","stagetop":"0.1.0","interval":0.5,"pid":4242,"command":"far-job","host":"mac"}' >&3
python3 -c '
import json
for i in range(20):
    print(json.dumps({"type": "sample", "t": i * 0.5, "footprint": 100 << 20, "level": 60}))' >&3
check "replay -, poll POLLNVAL on /dev/tty: the screen follows the stream" wait_screen rp 10 "^20 samples "
check "replay -, poll POLLNVAL on /dev/tty: it stays up and idles without spinning" idles rp
check "replay -, poll POLLNVAL on /dev/tty: still drawing" wait_screen rp 5 "pid 4242 far-job"
tm send-keys -t rp q
check "replay -, poll POLLNVAL on /dev/tty: q exits 0" wait_screen rp 10 "stagetop-exit=0"
exec 3>&-
tm kill-session -t rp

# ---- the live screen, its stdin /dev/tty --------------------------------------
start_pane lv 100 30 "env $PRE '$STAGETOP' -- sleep 600 < /dev/tty"
check "live, stdin /dev/tty, poll POLLNVAL: the screen is up" wait_screen lv 10 "sleep 600"
check "live, stdin /dev/tty, poll POLLNVAL: it idles without spinning" idles lv
tm send-keys -t lv q
ends_or_asks() { screen lv | grep -Eq 'stagetop-exit=|kill'; }
check "live, stdin /dev/tty, poll POLLNVAL: q (then k) ends it" until_ok 10 ends_or_asks
screen lv | grep -q "stagetop-exit=" || tm send-keys -t lv k
check "live, stdin /dev/tty, poll POLLNVAL: it exits" wait_screen lv 10 "stagetop-exit="
tm kill-session -t lv
