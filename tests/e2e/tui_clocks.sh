#!/bin/sh
# The screen's clocks and words (issue 32, item 7), in tmux:
#   U  the header's time stops at the job's exit: "ran T", T the job's time,
#      however long the screen stays open after;
#   F  a run shorter than the window, frozen: the graph stays as it was while
#      the job grows on (after space, after space then <-, zoomed out first);
#   K  k's prompt counts the root's other processes, not the root among them.
set -u
. "$(dirname "$0")/tui_common.inc"
PY=$(python3 -S -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -n "$PY" ] || PY=python3

# --- U: a launched job of about 1 s; the screen stays 3 s more ------------------
# The job stamps its own start and end (python's clock): the header's T is
# checked against the job's own time and against itself later, not against a
# fixed bound a loaded machine passes (spawn and reap take longer under load).
cat >"$T/u.py" <<EOP
import time
open("$T/u.t0", "w").write(repr(time.time()))
time.sleep(1)
open("$T/u.t1", "w").write(repr(time.time()))
EOP
start_pane u 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/u.log' -- $PY '$T/u.py'"
check "U: the job ends, the screen stays" wait_screen u 20 '^\[EXITED 0'
st=$(stagetop_pid u)
check "U: the screen goes on for 3 s (15 samples' time)" wait_turns "$st" 15
ran_secs() { # T of "ran T" in the header's second line, "" when it does not say so
    screen u | sed -n 2p | tee "$T/u.head" | sed -n 's/^1 procs  ran \([0-9.]*\)s  every 0\.2s.*/\1/p'
}
ran_ok() { # "ran T", T at least the job's own time (it slept 1 s)
    _r=$(ran_secs)
    awk -v r="$_r" -v a="$(cat "$T/u.t0")" -v b="$(cat "$T/u.t1")" \
        'BEGIN { exit !(r != "" && r + 0.1 >= b - a && b - a >= 1) }' ||
        { echo "    (header: $(cat "$T/u.head"); the job's own clock: $(cat "$T/u.t0") to $(cat "$T/u.t1"))"; return 1; }
}
check "U: the header says how long the job ran (at least the job's own 1 s)" ran_ok
ran1=$(ran_secs)
wait_turns "$st" 5 >/dev/null
still_ran() { [ -n "$ran1" ] && screen u | sed -n 2p | grep -q "^1 procs  ran ${ran1}s  every 0\.2s"; }
check "U: ... not how long the screen has been up: 5 samples later it still says ran ${ran1}s" still_ran
tm send-keys -t u q
check "U: q ends it" wait_screen u 10 'stagetop-exit=0'

# --- F: freeze a run shorter than the window ------------------------------------
# The job grows by 1 MiB of random bytes every 50 ms for a minute.
GROW="import os, sys, time
b = []
for i in range(1200):
    b.append(os.urandom(1 << 20)); time.sleep(0.05)"
printf '%s\n' "$GROW" >"$T/grow.py"
# the footprint lane's graph: its rows from column 28 on (the labels are left of it)
graph() { screen "$1" | sed -n '/^footprint (tree)/,/^$/p' | cut -c28-; }
now_mib() { screen "$1" | sed -n 's/^now  *\([0-9.]*\) MiB.*/\1/p' | head -1; }
# grown NAME MIB: the lane's "now" (which goes on while frozen) is MIB + 8 or more
grown() { _n=$(now_mib "$1"); [ -n "$_n" ] && $PY -c "import sys; sys.exit(0 if $_n >= $2 + 8 else 1)"; }
frozen_holds() { # NAME KEYS...: press KEYS, the graph must not change while the job grows
    _fn=$1; shift
    for _k in "$@"; do tm send-keys -t "$_fn" "$_k"; done
    wait_screen "$_fn" 5 'FROZEN' >/dev/null || return 1
    graph "$_fn" >"$T/$_fn.before"
    _m=$(now_mib "$_fn")
    until_ok 20 grown "$_fn" "$_m" || return 1
    graph "$_fn" >"$T/$_fn.after"
    diff "$T/$_fn.before" "$T/$_fn.after"
}
grows_on() { # the unfrozen graph follows the job again
    graph "$1" >"$T/$1.now"
    ! cmp -s "$T/$1.now" "$T/$1.after"
}
start_pane f 120 40 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/f.log' -- $PY '$T/grow.py'"
check "F: the job grows on the screen" wait_screen f 20 '^now  *[1-9][0-9]*\.[0-9]* MiB'
until_ok 20 grown f 0
check "F: space freezes the graph of a run shorter than the window" frozen_holds f Space
tm send-keys -t f Space
check "F: space again follows the job" until_ok 10 grows_on f
check "F: frozen, then <-: the window stays (the run is shorter than it)" frozen_holds f Space Left
tm send-keys -t f Space
check "F: zoomed out (2 samples a column), frozen: the last column stays too" frozen_holds f - Space
tm send-keys -t f q
check "F: q asks (a launched job still runs)" wait_screen f 10 'stagetop started this job'
tm send-keys -t f k
check "F: k kills it and quits" wait_screen f 20 'stagetop-exit='

# --- K: the kill prompt's count ---------------------------------------------------
sh -c 'sleep 300 & sleep 300 & wait' </dev/null >/dev/null 2>&1 &
root=$!
remember_job $root
until_ok 10 proc_has_children $root 2
start_pane k 120 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $root"
check "K: the tree of three is seen" wait_screen k 20 '^3 procs  up'
tm send-keys -t k k
check "K: k asks to kill the root and its 2 other processes" \
    wait_screen k 5 "Kill pid $root and its 2 other processes? \[y/n\]"
tm send-keys -t k n
check "K: n leaves it running" alive $root
tm send-keys -t k q
check "K: q ends it" wait_screen k 10 'stagetop-exit=0'
