#!/bin/sh
# bench/sampling.sh BUILD_DIR: CPU time of one sample of a process tree,
# stagetop (st_tree_sample + read_system) against
#   floor:  a minimal C loop that only opens and reads the same /proc files
#   psutil: the same readings through python3-psutil, as psrecord does them
#           (children(recursive=True), memory_info(), virtual_memory(), swap_memory())
# for trees of 1, 10 and 100 processes and one process with 100 threads,
# first as the machine is, then with 1,000 more idle processes that are not
# part of the tree.  Figures: microseconds of process CPU time (user+system)
# per sample, median of 5 rounds, all measured in this run.  Docs:
# docs/performance.md, "Sampling".  No assertions: timing goals are reported.
set -eu
B=${1:-build}
case $B in build-san*) MK="SANITIZE=1" ;; *) MK="" ;; esac
make --no-print-directory -s $MK "$B/bench/sampling_bench" "$B/workloads/holdmem" >/dev/null
BENCH=$B/bench/sampling_bench
HOLD=$B/workloads/holdmem
. "$(dirname "$0")/holdmem.sh"
PY=""
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import psutil' 2>/dev/null; then PY=$p; break; fi
done

tmp=$(mktemp -d)
fds_open=""
cleanup() {
    for fd in $fds_open; do eval "exec $fd>&-"; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# start NAME FD ARGS...: start holdmem with its stdin held open on FD;
# sets $pid to its root once holdmem says "ready".
start() {
    name=$1 fd=$2; shift 2
    mkfifo "$tmp/$name.in"
    "$HOLD" "$@" <"$tmp/$name.in" >"$tmp/$name.out" &
    eval "bg_$fd=$!"
    eval "exec $fd>\"$tmp/$name.in\""
    fds_open="$fds_open $fd"
    pid=$(holdmem_ready "$tmp/$name.out") || exit 1
}

# stop FD: close holdmem's stdin; it ends its tree.
stop() {
    eval "exec $1>&-"
    fds_open=$(echo "$fds_open" | sed "s/ $1\$//; s/ $1 / /")
    eval "wait \$bg_$1" 2>/dev/null || true
    return 0
}

nprocs() { ls /proc | grep -c '^[0-9]'; }

measure() { # tree-label cond pid -> one result line
    st=$("$BENCH" stagetop "$3" | awk '{print $2}')
    fl=$("$BENCH" floor "$3" | awk '{print $2}')
    if [ -n "$PY" ]; then ps=$("$PY" bench/sampling_psutil.py "$3" | awk '{print $2}'); else ps=nan; fi
    echo "$1 $2 $(nprocs) $st $fl $ps" >>"$tmp/results"
}

run_trees() { # cond
    start "t1$1" 4 --mib 16;                      measure "1-proc" "$1" "$pid"; stop 4
    start "t10$1" 4 --children 9 --child-mib 1;   measure "10-procs" "$1" "$pid"; stop 4
    start "t100$1" 4 --children 99 --child-mib 1; measure "100-procs" "$1" "$pid"
    if [ "$1" = idle ]; then "$BENCH" capped "$pid" | awk '{print $2}' >"$tmp/capped"; fi
    stop 4
    start "tthr$1" 4 --threads 100 --mib 16;      measure "1-proc-100-thr" "$1" "$pid"; stop 4
}

: >"$tmp/results"
run_trees idle
start idle1000 5 --children 1000 --child-mib 0
run_trees "+1000"
stop 5

echo "Sampling cost: microseconds of CPU per sample (st_tree_sample + read_system; discovery every sample)"
[ -n "$PY" ] || echo "(no python3 with psutil: the psutil column is empty)"
awk '
{ key = $1; cond = $2; st[key, cond] = $4; fl[key, cond] = $5; ps[key, cond] = $6; np[key, cond] = $3
  if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
END {
  printf "%-15s %-6s %6s %10s %9s %10s %9s %11s\n", "tree", "extra", "procs", "stagetop", "floor", "psutil", "st/floor", "psutil/st"
  for (c = 1; c <= 2; c++) {
    cond = (c == 1) ? "idle" : "+1000"
    for (i = 1; i <= n; i++) {
      k = order[i]
      printf "%-15s %-6s %6d %10.1f %9.1f %10.1f %8.2fx %10.1fx\n", k, cond, np[k, cond], st[k, cond], fl[k, cond], ps[k, cond],
             st[k, cond] / fl[k, cond], (ps[k, cond] > 0 ? ps[k, cond] / st[k, cond] : 0)
    }
  }
  getline capped < capf
  printf "\n100-procs with at most 16 cached fds (past the cap): %.1f us = %.2fx the floor\n", capped, capped / fl["100-procs", "idle"]
  printf "stagetop cost with 1,000 unrelated processes / without:"
  for (i = 1; i <= n; i++) { k = order[i]; printf "  %s %.2fx", k, st[k, "+1000"] / st[k, "idle"] }
  printf "\n\ngoals: within 1.5x of the floor; >= 5x cheaper than psutil idle, >= 20x with +1000; independent of unrelated processes (<= 1.5x)\n"
  for (i = 1; i <= n; i++) {
    k = order[i]
    a = st[k, "idle"] / fl[k, "idle"]; b = st[k, "+1000"] / fl[k, "+1000"]
    f = (a <= 1.5 && b <= 1.5) ? "met" : "MISSED"
    pi = ps[k, "idle"] / st[k, "idle"]; pb = ps[k, "+1000"] / st[k, "+1000"]
    p = (pi >= 5 && pb >= 20) ? "met" : "MISSED"
    r = st[k, "+1000"] / st[k, "idle"]; q = (r <= 1.5) ? "met" : "MISSED"
    printf "  %-15s floor %-6s psutil %-6s independence %s\n", k, f, p, q
  }
}' capf="$tmp/capped" "$tmp/results"
