#!/bin/sh
# Fault: signals to the screen beyond SIGTERM/SIGHUP/SIGINT, and crashes.
#   L  a job the screen launched (`stagetop -- sleep N`): Ctrl-C typed,
#      SIGTERM, SIGHUP: stagetop exits 128+N and the job is gone (not
#      re-parented to init, still running);
#   P  a job paused with `p`: SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM (ends
#      through the main loop) and SIGSEGV, SIGABRT, SIGBUS (the crash
#      handler): exit 128+N, the job runs again, the terminal has left the
#      alternate screen;
#   C  a launched job when stagetop crashes (SIGSEGV): the job is gone;
#   H  headless, the guard paused the job, SIGUSR1 / SIGQUIT: exit 128+N,
#      the job runs again.
set -u
. "$ST_ROOT/tests/e2e/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"
# One idle session for the whole test: killing the last session ends the
# tmux server, and a new-session racing with that shutdown fails.
start_pane keep 20 5 "true"

# signum NAME: this system's number of SIGNAME (they differ: USR1 is 10 on
# Linux, 30 on macOS; BUS 7 and 10), from the C library's own table.
signum() { $PY -c 'import signal, sys; print(int(signal.Signals["SIG" + sys.argv[1]]))' "$1"; }
restored() { [ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ] && ! screen "$1" | grep -q FOOTPRINT; }
pane_rc() { cat "$T/$1.rc" 2>/dev/null; }
gone_pid() { [ -z "$(proc_state "$1")" ] || [ "$(proc_state "$1")" = Z ]; }

# --- L: a launched job ends with the screen ------------------------------------
n=0
for sig in INT-KEY TERM HUP; do
    n=$((n + 1))
    secs=$(uniq_secs $((300 + n)))
    start_pane "l$n" 100 30 "trap '' INT; ulimit -c 0; '$STAGETOP' --grace 2 --job-log '$T/l$n.log' -- sleep $secs; echo \$? >'$T/l$n.rc'"
    if ! wait_screen "l$n" 20 "^\[RUNNING\]"; then
        check "L: $sig: the screen came up" false; continue
    fi
    job=$(pgrep -x -f "sleep $secs" | head -1)
    remember_job "$job"
    st=$(stagetop_pid "l$n")
    if [ "$sig" = INT-KEY ]; then tm send-keys -t "l$n" C-c; want=130; else kill -"$sig" "$st"; want=$((128 + $(signum "$sig"))); fi
    until_ok 30 test -s "$T/l$n.rc" >/dev/null
    check "L: $sig: stagetop exits $want" [ "$(pane_rc "l$n")" = "$want" ]
    check "L: $sig: the job it launched (sleep $secs, pid $job) is gone" until_ok 15 gone_pid "$job"
    check "L: $sig: the terminal is restored" restored "l$n"
    tm kill-session -t "l$n" 2>/dev/null
done

# --- P: a paused job resumes whatever ends stagetop -------------------------------
DEMO="$WORKLOADS/demo --encoder-mib 8 --transformer-mib 16 --worker-mib 4 --workers 1 --step-ms 50 --loop"
$DEMO </dev/null >/dev/null 2>&1 &
demo=$!
remember_job $demo
until_ok 10 sh -c "[ -n \"\$(pgrep -P $demo)\" ]"
n=0
for sig in QUIT USR1 USR2 ALRM SEGV ABRT BUS; do
    n=$((n + 1))
    start_pane "p$n" 100 30 "ulimit -c 0; '$STAGETOP' -p $demo --interval 0.1; echo \$? >'$T/p$n.rc'"
    if ! wait_screen "p$n" 20 "^\[RUNNING\]" >/dev/null; then
        check "P: SIG$sig: the screen came up" false; continue
    fi
    tm send-keys -t "p$n" p
    if ! until_ok 15 tree_stopped $demo >/dev/null; then
        check "P: SIG$sig: p paused the job" false; continue
    fi
    kill -"$sig" "$(stagetop_pid "p$n")"
    want=$((128 + $(signum "$sig")))
    until_ok 30 test -s "$T/p$n.rc" >/dev/null
    check "P: SIG$sig while paused: stagetop exits $want" [ "$(pane_rc "p$n")" = "$want" ]
    check "P: SIG$sig: the job runs again" until_ok 10 tree_running $demo
    check "P: SIG$sig: the terminal left the alternate screen" until_ok 5 restored "p$n"
    case $sig in SEGV|ABRT|BUS)
        check "P: SIG$sig: the crash is said" wait_screen "p$n" 5 "stagetop: crashed (signal $(signum "$sig"))" ;;
    esac
    kill -CONT $(tree_pids $demo) 2>/dev/null   # whatever happened, the next run starts clean
    tm kill-session -t "p$n" 2>/dev/null
done

# --- C: a crash with a launched job -----------------------------------------------
secs=$(uniq_secs 400)
start_pane c 100 30 "ulimit -c 0; '$STAGETOP' --job-log '$T/c.log' -- sleep $secs; echo \$? >'$T/c.rc'"
if wait_screen c 20 "^\[RUNNING\]" >/dev/null; then
    job=$(pgrep -x -f "sleep $secs" | head -1)
    remember_job "$job"
    kill -SEGV "$(stagetop_pid c)"
    until_ok 30 test -s "$T/c.rc" >/dev/null
    check "C: SIGSEGV: stagetop ends 139" [ "$(pane_rc c)" = 139 ]
    check "C: SIGSEGV: the job it launched is gone" until_ok 15 gone_pid "$job"
    check "C: SIGSEGV: the terminal is restored" until_ok 5 restored c
else
    check "C: the screen came up" false
fi

# --- H: headless, the guard paused the job ----------------------------------------
for sig in USR1 QUIT; do
    "$STAGETOP" --headless -p $demo --interval 0.1 --kill-free 100 --on-budget pause \
        2>"$T/h$sig.err" &
    st=$!
    if ! until_ok 15 tree_stopped $demo >/dev/null; then
        check "H: SIG$sig: the guard paused the job" false; kill -KILL $st; continue
    fi
    kill -"$sig" $st
    wait_bounded $st 20; rc=$?
    check "H: SIG$sig: exit $((128 + $(signum "$sig")))" [ $rc -eq $((128 + $(signum "$sig"))) ]
    check "H: SIG$sig: the job runs again" until_ok 10 tree_running $demo
    kill -CONT $(tree_pids $demo) 2>/dev/null
done
