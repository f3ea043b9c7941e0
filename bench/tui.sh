#!/bin/sh
# The live screen's cost (make bench; $1 = build dir).
#
# 1. Frame time on a 200x60 terminal (bench/tui_frame.c): a curses frame of
#    the live screen drawn from a real monitor, output to /dev/null: the
#    9-member tree as a sorted list (colour, NO_COLOR), then a pool of 500
#    real processes with the tree view on, and the ratio of its CPU median
#    and p99 to the 9-member frame's of the same run.  Goal: under 1 ms.
# 2. CPU used while watching: stagetop (the demo workload, --interval 1),
#    htop (-d 10) and btop (update_ms = 1000) side by side, each in its own
#    200x60 tmux pane, for the same 30 s on the same machine.  CPU time is
#    utime+stime of /proc/PID/stat (clock ticks) and, finer, the on-CPU
#    nanoseconds of /proc/PID/task/*/schedstat.  Goal: stagetop uses at most
#    a fifth of htop's CPU.
# SECONDS_WATCH=N changes the 30 s window.
set -u
B=${1:-build}
ROOT=${ST_ROOT:-$PWD}
case $B in /*) BD=$B ;; *) BD=$ROOT/$B ;; esac
STAGETOP=${STAGETOP:-$BD/stagetop}
WORKLOADS=${WORKLOADS:-$BD/workloads}
WATCH=${SECONDS_WATCH:-30}

echo "-- frame time (200x60)"
FT=$(mktemp)
for run in "color 9 list" "nocolor 9 list" "color 500 tree"; do
    # shellcheck disable=SC2086
    "$BD/bench/tui_frame" 200 60 500 $run | tee -a "$FT" || echo "tui_frame failed"
done
# the CPU lines: median and p99 of the first (9, colour) and the last (500, tree)
awk '/^  CPU time/ { n++; med[n] = $(NF - 7); p99[n] = $(NF - 1) }
     END { if (n < 3 || med[1] <= 0 || p99[1] <= 0) { print "  (no ratio: a run failed)"; exit }
           printf "  500 members (tree) / 9 members (list), CPU of draw + doupdate: median %.2fx, p99 %.2fx\n",
                  med[3] / med[1], p99[3] / p99[1]
           printf "  goal: a 500-member frame under 1 ms: %s (median %.3f ms, p99 %.3f ms)\n",
                  p99[3] < 1 ? "met" : med[3] < 1 ? "median met, p99 NOT" : "NOT met", med[3], p99[3] }' "$FT"
rm -f "$FT"

echo "-- CPU while watching for ${WATCH}s at a 1 s refresh (same run, same machine)"
for t in tmux htop btop python3; do
    if ! command -v $t >/dev/null 2>&1; then
        echo "SKIP: CPU comparison: $t is not installed"
        exit 0
    fi
done
T=$(mktemp -d)
S="stb$$"
tm() { tmux -L "$S" "$@"; }
demo=""
cleanup() {
    tm kill-server 2>/dev/null
    if [ -n "$demo" ]; then
        kill -KILL $(pgrep -P "$demo") "$demo" 2>/dev/null
        wait "$demo" 2>/dev/null
    fi
    rm -rf "$T"
}
trap cleanup EXIT

"$WORKLOADS/demo" --encoder-mib 64 --transformer-mib 128 --worker-mib 32 --workers 2 \
    --step-ms 200 --loop </dev/null >/dev/null 2>&1 &
demo=$!
mkdir -p "$T/home" "$T/cfg/btop"
printf 'update_ms = 1000\n' >"$T/cfg/btop/btop.conf"
if infocmp tmux-256color >/dev/null 2>&1; then PTERM=tmux-256color; else PTERM=screen; fi
ENV="env HOME=$T/home XDG_CONFIG_HOME=$T/cfg LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=$PTERM"
tm new-session -d -s stagetop -x 200 -y 60 "exec $ENV '$STAGETOP' -p $demo --interval 1"
tm new-session -d -s htop -x 200 -y 60 "exec $ENV htop -d 10"
tm new-session -d -s btop -x 200 -y 60 "exec $ENV btop"

# wait until each one draws (polling), then a settling second for all
waitfor() { # session pattern
    i=0
    while ! tm capture-pane -p -t "$1" 2>/dev/null | grep -q "$2"; do
        i=$((i + 1))
        if [ $i -gt 300 ]; then echo "bench: $1 did not start"; return 1; fi
        sleep 0.05
    done
}
waitfor stagetop 'footprint (tree)' && waitfor htop 'Load average' && waitfor btop 'cpu' || exit 1
sleep 1

pid_of() { tm display -p -t "$1" '#{pane_pid}'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
nanos() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
for s in stagetop htop btop; do
    p=$(pid_of $s)
    echo "$s $p $(ticks "$p") $(nanos "$p")" >>"$T/before"
done
sleep "$WATCH"
for s in stagetop htop btop; do
    p=$(pid_of $s)
    echo "$s $p $(ticks "$p") $(nanos "$p")" >>"$T/after"
done

python3 - "$T/before" "$T/after" "$WATCH" "$(getconf CLK_TCK)" <<'EOF'
import sys
before = {l.split()[0]: l.split() for l in open(sys.argv[1])}
after = {l.split()[0]: l.split() for l in open(sys.argv[2])}
watch, hz = float(sys.argv[3]), float(sys.argv[4])
rows = {}
for name in ("stagetop", "htop", "btop"):
    b, a = before[name], after[name]
    if b[1] != a[1]:
        print(f"bench: {name} restarted during the run"); sys.exit(1)
    rows[name] = ((int(a[2]) - int(b[2])) / hz, (int(a[3]) - int(b[3])) / 1e9)
print(f"  {'tool':10} {'utime+stime':>12} {'on-CPU (schedstat)':>19} {'CPU %':>7} {'vs htop':>8}")
h = rows["htop"][1]
for name, (tk, ns) in rows.items():
    print(f"  {name:10} {tk:11.2f}s {ns:18.3f}s {100 * ns / watch:6.2f}% {ns / h if h else 0:8.3f}")
ratio = rows["stagetop"][1] / h if h else float("inf")
print(f"  goal: stagetop <= 1/5 of htop's CPU: {'met' if ratio <= 0.2 else 'NOT met'} "
      f"(ratio {ratio:.3f}; btop/htop {rows['btop'][1] / h if h else 0:.2f})")
EOF
