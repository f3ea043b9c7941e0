#!/bin/sh
# bench/metrics.sh BUILD_DIR: what --metrics costs per sample, against the
# sample itself, for a tree of 10 processes (holdmem --children 9): CPU time
# (user + system) of one metrics file update (render, temp file, write,
# rename) and of one sample; the update's wall time too.  The file goes to a
# directory on the build dir's file system (a textfile collector directory
# is on disk, not tmpfs).  Docs: docs/performance.md, "--metrics".  The goal
# (issue 15: "costs no more than the sample itself") is reported, not asserted.
set -eu
B=${1:-build}
case $B in build-san*) MK="SANITIZE=1" ;; *) MK="" ;; esac
make --no-print-directory -s $MK "$B/bench/metrics_bench" "$B/workloads/holdmem" >/dev/null
. "$(dirname "$0")/holdmem.sh"
dir=$(mktemp -d "$PWD/$B/metrics-bench.XXXXXX")
exec 4>/dev/null
cleanup() { exec 4>&-; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT INT TERM
mkfifo "$dir/in"
"$B/workloads/holdmem" --children 9 --child-mib 1 <"$dir/in" >"$dir/out" &
exec 4>"$dir/in"
pid=$(holdmem_ready "$dir/out") || exit 1
fs=$(df -T "$dir" 2>/dev/null | awk 'NR == 2 {print $2}')
"$B/bench/metrics_bench" "$pid" "$dir" | awk -v fs="${fs:-?}" '{
  printf "--metrics: one file update vs one sample, tree of %d processes (file system %s, %d bytes)\n", $8, fs, $10
  printf "  sample (CPU)        %8.1f us\n", $2
  printf "  metrics update (CPU)%8.1f us  = %.2fx the sample\n", $4, $4 / $2
  printf "  metrics update (wall)%7.1f us\n", $6
  printf "  of which the text    %8.1f us (CPU; the rest is the file system calls)\n", $12
  printf "goal: the update costs no more than the sample (<= 1x): %s\n", ($4 <= $2) ? "met" : "MISSED"
}'
