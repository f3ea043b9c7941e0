#!/bin/sh
# Fault: stagetop gets SIGTERM, SIGHUP, SIGINT or SIGKILL at a random moment
# while it records.  Every time: the record is valid JSONL up to its last line
# (tests/e2e/check_jsonl.py; the recorder's whitespace page padding is the
# only unterminated tail allowed), stagetop exits 128+N, a job it had paused
# runs again (except after SIGKILL, which nothing can catch), and with a
# screen the terminal is restored (alternate screen left, the shell's next
# line printed).
#   headless: 20 runs, random signal, random delay 0-1.2 s after the record
#             starts; the guard (--kill-free 100 --on-budget pause) pauses the
#             job in about half of them, some runs launch the job (-- CMD),
#             whose SIGTERM/SIGHUP/SIGINT then ends it;
#   screen:   8 runs in tmux (each signal twice, p pressed in half), plus
#             Ctrl-C typed on the terminal.
# SEED=N repeats a sequence (the seed is printed).
set -u
. "$ST_ROOT/tests/e2e/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"

SEED=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "seed $SEED (SEED=$SEED repeats this run)"
# rand N: sets R to the next pseudo-random number in 0..N-1 (a sequence of
# fractions drawn once from awk's generator, seeded).
RANDS=$(awk -v s="$SEED" 'BEGIN { srand(s % 2147483646 + 1); for (i = 0; i < 400; i++) printf "%.6f ", rand() }')
rand() {
    set -- "$1" $RANDS
    R=$(awk -v n="$1" -v r="$2" 'BEGIN { print int(n * r) }')
    shift 2
    RANDS="$*"
}
signame() { case $1 in 0) echo TERM ;; 1) echo HUP ;; 2) echo INT ;; 3) echo KILL ;; esac; }
signum() { case $1 in TERM) echo 15 ;; HUP) echo 1 ;; INT) echo 2 ;; KILL) echo 9 ;; esac; }

DEMO="$WORKLOADS/demo --encoder-mib 8 --transformer-mib 16 --worker-mib 4 --workers 1 --step-ms 50 --loop"
$DEMO </dev/null >/dev/null 2>&1 &
demo=$!
remember_job $demo
until_ok 10 proc_has_children $demo

any_stopped() { for _p in $(tree_pids "$1"); do [ "$(proc_state "$_p")" = T ] && return 0; done; return 1; }
unstop() { kill -CONT $(tree_pids "$1") 2>/dev/null; until_ok 5 tree_running "$1"; }

# --- headless ------------------------------------------------------------------
t_start=$(now_s)
bad=0 runs=0 paused_runs=0 launched_runs=0 tally=""
i=0
while [ $i -lt 20 ]; do
    i=$((i + 1))
    rand 4; sig=$(signame $R)
    rand 1200; delay_ms=$R
    rand 2; guard=$R
    rand 5; launch=$([ $R = 0 ] && echo 1 || echo 0)
    rec="$T/h$i.jsonl"
    gopts=""
    [ "$guard" = 1 ] && gopts="--kill-free 100 --on-budget pause"
    if [ "$launch" = 1 ]; then
        "$STAGETOP" --headless --interval 0.02 --grace 1 $gopts --record "$rec" -- $DEMO \
            >/dev/null 2>"$T/h$i.err" &
    else
        "$STAGETOP" --headless -p $demo --interval 0.02 $gopts --record "$rec" 2>"$T/h$i.err" &
    fi
    st=$!
    until_ok 10 test -s "$rec"
    job=$demo
    if [ "$launch" = 1 ]; then
        job=$(record_pid "$rec")
        remember_job "$job"
    fi
    sleep "$(awk -v m="$delay_ms" 'BEGIN { printf "%.3f", m / 1000 }')"
    was_paused=0
    any_stopped "$job" && was_paused=1
    kill -"$sig" $st
    { wait_bounded $st 15; rc=$?; } 2>/dev/null
    what="run $i: SIG$sig after ${delay_ms}ms$([ "$launch" = 1 ] && echo ', launched job')$([ $was_paused = 1 ] && echo ', job paused')"
    err=""
    [ $rc -eq $((128 + $(signum "$sig"))) ] || err="$err exit $rc;"
    if [ "$sig" = KILL ]; then
        out=$($PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$rec" 2>&1) || err="$err $out;"
    else
        out=$($PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$rec" --end 2>&1) || err="$err $out;"
        if [ "$launch" = 1 ]; then
            until_ok 5 gone "$job" >/dev/null || err="$err the job it started is still there;"
        elif any_stopped "$job"; then
            err="$err the job is still stopped;"
        fi
    fi
    if [ "$launch" = 1 ]; then
        kill -KILL -- "-$job" 2>/dev/null
        launched_runs=$((launched_runs + 1))
    elif [ "$sig" = KILL ] && any_stopped "$job"; then
        unstop "$job" >/dev/null   # SIGKILL left it paused, as documented
    fi
    [ $was_paused = 1 ] && paused_runs=$((paused_runs + 1))
    runs=$((runs + 1))
    tally="$tally $sig"
    if [ -n "$err" ]; then
        bad=$((bad + 1)); echo "    $what:$err"
    fi
done
echo "    headless: $runs runs ($paused_runs with the job paused, $launched_runs launched):$tally"
echo "    headless runs took $(elapsed_since "$t_start") s"
check "headless: 20 random signals, every record valid, exit 128+N, job resumed" [ $bad -eq 0 ]

# --- screen ----------------------------------------------------------------------
restored() { [ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ] && ! screen "$1" | grep -q FOOTPRINT; }
bad=0
t_start=$(now_s)
for i in 1 2 3 4 5 6 7 8 9; do
    case $i in 9) sig=INT-KEY ;; *) sig=$(signame $(( (i - 1) % 4 ))) ;; esac
    pause=$((i % 2))
    rand 800; delay_ms=$R
    rec="$T/s$i.jsonl"
    # The pane's shell ignores SIGINT (as an interactive shell's job control
    # would keep it out of the way of Ctrl-C); stagetop sets its own handler.
    # The exit code also goes to a file: after SIGKILL the shell's line lands
    # wherever the dead screen left the cursor.
    start_pane "s$i" 100 30 "trap '' INT; '$STAGETOP' -p $demo --interval 0.05 --record '$rec'; echo \$? >'$T/s$i.rc'"
    if ! wait_screen "s$i" 15 "^\[RUNNING\]" >/dev/null; then
        bad=$((bad + 1)); echo "    screen run $i: the screen did not come up"; continue
    fi
    [ $pause = 1 ] && { tm send-keys -t "s$i" p; until_ok 10 tree_stopped $demo >/dev/null; }
    sleep "$(awk -v m="$delay_ms" 'BEGIN { printf "%.3f", m / 1000 }')"
    st=$(stagetop_pid "s$i")
    if [ "$sig" = INT-KEY ]; then
        tm send-keys -t "s$i" C-c; n=2
    else
        kill -"$sig" "$st"; n=$(signum "$sig")
    fi
    what="screen run $i: SIG$sig after ${delay_ms}ms$([ $pause = 1 ] && echo ', job paused with p')"
    err=""
    until_ok 10 test -s "$T/s$i.rc" >/dev/null
    [ "$(cat "$T/s$i.rc" 2>/dev/null)" = $((128 + n)) ] || err="$err exit '$(cat "$T/s$i.rc" 2>/dev/null)' not $((128 + n));"
    [ "$sig" = KILL ] || wait_screen "s$i" 5 "stagetop-exit=" >/dev/null || err="$err the shell's next line is not shown;"
    if [ "$sig" = KILL ]; then
        out=$($PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$rec" 2>&1) || err="$err $out;"
        any_stopped $demo && unstop $demo >/dev/null
    else
        restored "s$i" || err="$err terminal not restored;"
        out=$($PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$rec" --end 2>&1) || err="$err $out;"
        if any_stopped $demo; then err="$err the job is still stopped;"; unstop $demo >/dev/null; fi
    fi
    tm kill-session -t "s$i" 2>/dev/null
    [ -n "$err" ] && { bad=$((bad + 1)); echo "    $what:$err"; }
done
echo "    screen runs took $(elapsed_since "$t_start") s"
check "screen: TERM, HUP, INT (twice each, and Ctrl-C), KILL: exit 128+N, terminal restored, job resumed, record valid" [ $bad -eq 0 ]
