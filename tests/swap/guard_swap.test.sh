#!/bin/sh
# The swap guard against REAL swap (issue 5).  Needs root: a 1 GiB swap file
# is switched on, and a job runs in a memory cgroup whose limit (256 MiB) is
# below its working set, so the kernel pushes its pages (random bytes, which
# do not compress) out to swap.  Then:
#   guard_swap_setup   the workload alone swaps: its VmSwap and the system's
#                      SwapTotal - SwapFree grow (the precondition)
#   guard_swap_kill    --swap-budget 128M --on-budget kill: exit 3 within two
#                      samples of the crossing, the job's process group gone,
#                      an unrelated process untouched, budget + kill events
#   guard_swap_pause   --on-budget pause: every process of the tree stopped
#                      (state T), nothing killed, stagetop still watching,
#                      and its samples while the job is stopped agree with
#                      the test's own readings of /proc/meminfo (a stopped
#                      job's swap stays put; the kill run's peak does not:
#                      the kill frees it within milliseconds, before a
#                      poller can be sure to see it)
# Prints PASS:/FAIL:/SKIP: lines.  Swap and cgroup are removed whatever
# happens (trap on EXIT INT TERM).  Takes about 20 s.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
NAMES="guard_swap_setup guard_swap_kill guard_swap_pause"
LIMIT=256M
BUDGET=$((128 * 1024 * 1024))
IVAL=0.2

UNREL=""
SPID=""
POLLER=""
swap_test_stop() {
    [ -n "$POLLER" ] && kill "$POLLER" 2>/dev/null
    [ -n "$SPID" ] && kill -TERM "$SPID" 2>/dev/null
    [ -n "$UNREL" ] && kill -KILL "$UNREL" 2>/dev/null
}
swap_fill_start swap-test "$LIMIT"

state() { proc_state "$1"; }
now() { date +%s.%N; }
# Record SwapTotal - SwapFree every 0.1 s into $1 (the test's own readings).
start_poller() {
    (while :; do swap_used_kib; sleep 0.1; done) >"$1" &
    POLLER=$!
}
stop_poller() { kill "$POLLER" 2>/dev/null; wait "$POLLER" 2>/dev/null; POLLER=""; }
# Sample records written to the record $1 so far.
samples() { _n=$(grep -c '"type": *"sample"' "$1" 2>/dev/null); echo "${_n:-0}"; }
# Live (not zombie) processes whose process group is $1.
group_live() { ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/' | wc -l; }

# --- 1. the workload alone swaps ------------------------------------------
t0=$(now)
s0=$(swap_used_kib)
sh -c "$IN_CG" "$SW_PROCS" "$FILL" --target-mib 384 --step-mib 64 \
    --every-ms 100 --hold-s 30 >"$T/setup.out" 2>&1 &
wpid=$!
if wait_cond 30 'grep -q "^full" "$T/setup.out"'; then
    vmswap=$(awk '/^VmSwap:/ {print $2}' "/proc/$wpid/status")
    s1=$(swap_used_kib)
    grown=$((s1 - s0))
    echo "    measured: workload alone: VmSwap ${vmswap} KiB, system swap grew ${grown} KiB in $(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.1f", b - a}') s (cgroup v$SW_CGV, limit $LIMIT)"
    if [ "${vmswap:-0}" -ge $((64 * 1024)) ] && [ "$grown" -ge $((64 * 1024)) ]; then
        pass guard_swap_setup
    else
        fail guard_swap_setup "VmSwap ${vmswap:-?} KiB, swap growth $grown KiB: expected >= 64 MiB each"
    fi
else
    fail guard_swap_setup "the workload did not fill 384 MiB in 30 s: $(tail -3 "$T/setup.out")"
fi
kill -KILL "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
wait_cond 10 '[ -z "$(swap_cg_pids)" ]'
# let the swap freed by that job settle before the next base is taken
wait_cond 10 '[ "$(swap_used_kib)" -le $((s0 + 16384)) ]'

# --- 2. --on-budget kill ----------------------------------------------------
sleep 600 &
UNREL=$!
start_poller "$T/own-kill.txt"
tk0=$(now)
timeout -k 5 90 "$STAGETOP" --headless --interval $IVAL --swap-budget 128M --on-budget kill \
    --record "$T/kill.jsonl" -- sh -c "$IN_CG" "$SW_PROCS" "$FILL" --target-mib 1024 \
    --step-mib 64 --every-ms 100 --children 2 >"$T/kill.out" 2>"$T/kill.err"
rc=$?
tk1=$(now)
# three more of the test's own readings after stagetop ended
n0=$(wc -l <"$T/own-kill.txt")
wait_cond 60 "[ \$(wc -l <'$T/own-kill.txt') -ge $((n0 + 3)) ]"
stop_poller
root=$(awk '/^ready/ {print $2; exit}' "$T/kill.out")
why=""
[ "$rc" -eq 3 ] || why="$why exit code $rc, expected 3 ($(tail -2 "$T/kill.err" | tr '\n' ' '));"
if [ -z "$root" ]; then
    why="$why the workload never said ready;"
else
    n=$(group_live "$root")
    [ "$n" -eq 0 ] || why="$why $n process(es) of the job's group $root still alive;"
fi
[ -z "$(swap_cg_pids)" ] || why="$why processes left in the cgroup: $(swap_cg_pids | tr '\n' ' ');"
st=$(state "$UNREL")
[ -n "$st" ] && [ "$st" != T ] || why="$why the unrelated process is '$st';"
if out=$(python3 "$HERE/check_guard_trace.py" "$T/kill.jsonl" --budget $BUDGET \
        --interval $IVAL --action kill --own "$T/own-kill.txt" --most $((1024 * 1024 * 1024)) 2>&1); then
    echo "    $out; stagetop ran $(awk -v a="$tk0" -v b="$tk1" 'BEGIN {printf "%.2f", b - a}') s"
else
    why="$why $out;"
fi
if [ -z "$why" ]; then pass guard_swap_kill; else fail guard_swap_kill "$why"; fi
kill -KILL "$UNREL" 2>/dev/null
wait "$UNREL" 2>/dev/null
UNREL=""
wait_cond 10 '[ -z "$(swap_cg_pids)" ]'
s0=$(swap_used_kib)
wait_cond 10 '[ "$(swap_used_kib)" -le $((s0 + 16384)) ]'

# --- 3. --on-budget pause (headless) ----------------------------------------
sleep 600 &
UNREL=$!
timeout -k 5 120 "$STAGETOP" --headless --interval $IVAL --swap-budget 128M --on-budget pause \
    --record "$T/pause.jsonl" -- sh -c "$IN_CG" "$SW_PROCS" "$FILL" --target-mib 1024 \
    --step-mib 64 --every-ms 100 --children 2 >"$T/pause.out" 2>"$T/pause.err" &
SPID=$!
why=""
if ! wait_cond 60 'grep -q "\"kind\": *\"pause\"" "$T/pause.jsonl" 2>/dev/null'; then
    why="no pause event within 60 s ($(tail -2 "$T/pause.err" | tr '\n' ' '));"
else
    pids=$(swap_cg_pids | tr '\n' ' ')
    set -- $pids
    [ $# -eq 3 ] || why="$why $# processes in the cgroup, expected 3 (root + 2 children);"
    # the cgroup lists the job's whole tree, whatever stagetop thinks
    if ! wait_cond 2 'all=1; for p in $pids; do [ "$(state $p)" = T ] || all=0; done; [ $all = 1 ]'; then
        for p in $pids; do why="$why pid $p state $(state "$p");"; done
    fi
    kill -0 "$SPID" 2>/dev/null || why="$why stagetop exited after pausing;"
    st=$(state "$UNREL")
    [ -n "$st" ] && [ "$st" != T ] || why="$why the unrelated process is '$st';"
    if ! grep -q '"kind": *"budget"' "$T/pause.jsonl"; then why="$why no budget event;"; fi
    if grep -q '"kind": *"kill"' "$T/pause.jsonl"; then why="$why a kill event;"; fi
    # the test's own readings while the job is stopped, around three more
    # samples of stagetop's: a stopped job's swap stays where it is
    n0=$(samples "$T/pause.jsonl")
    for i in 1 2 3; do swap_used_kib; done >"$T/own-pause.txt"
    wait_cond 30 "[ \$(samples '$T/pause.jsonl') -ge $((n0 + 3)) ]" ||
        why="$why fewer than 3 samples in 30 s after the pause;"
    for i in 1 2 3; do swap_used_kib; done >>"$T/own-pause.txt"
    if out=$(python3 "$HERE/check_guard_trace.py" "$T/pause.jsonl" --budget $BUDGET \
            --interval $IVAL --action pause --own "$T/own-pause.txt" 2>&1); then
        echo "    $out"
    else
        why="$why $out;"
    fi
fi
if [ -z "$why" ]; then pass guard_swap_pause; else fail guard_swap_pause "$why"; fi
# the test ends the job itself; stagetop sees it go and ends too
for p in $(swap_cg_pids); do kill -KILL "$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; done
if wait_cond 10 '! kill -0 $SPID 2>/dev/null'; then
    wait "$SPID" 2>/dev/null
    echo "    (stagetop ended with $? once the paused job was killed)"
else
    echo "    (stagetop still running 10 s after the job was killed)"
fi
SPID=""
exit $FAILED
