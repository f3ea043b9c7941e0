#!/bin/sh
# cgroup_run.sh DIR: the job's cgroup on a Linux machine whose cgroup v2 has
# the memory controller (this project's CI machine has it on v1), as root.
# DIR holds stagetop (and lib/ for a machine without ncursesw); run from a
# checkout with build/workloads built.  Prints, for docs/metrics.md:
#   a   stagetop where it is: where the job runs, and why
#   b   a launcher's cgroup with memory.max=64M (a child of the root cgroup):
#       a 200 MiB write must be OOM-killed there, with and without
#       STAGETOP_CGROUP=0 (the job never leaves its launcher's limits)
#   b3  stagetop in the root cgroup: the job's own cgroup nested in it,
#       removed at the end
#   c   tests/e2e/kernel_peak_linux.sh (its cgroup case runs here)
# `cgroup_run.sh DIR c` runs c only.  Results in $OUT (default ./cg-out).
D=$(cd "${1:-.}" && pwd)
R=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$PWD/cg-out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
JOB='echo "job cgroup: $(cat /proc/self/cgroup)"; python3 -c "import os; b = os.urandom(200 << 20); print(len(b))"'
# in_cg DIR CMD...: run CMD in cgroup DIR (this shell moves itself there, then execs)
in_cg() { sh -c 'd=$1; shift; echo $$ >"$d/cgroup.procs" && exec "$@"' in_cg "$@"; }
if [ "${2:-}" != c ]; then
    M=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
    rel=$(sed -n 's/^0:://p' /proc/self/cgroup); [ "$rel" = / ] && rel=""
    echo "== uid $(id -u), cgroup v2 at $M, own cgroup '$rel'"
    echo "controllers: $(cat "$M$rel/cgroup.controllers"); subtree_control: $(cat "$M$rel/cgroup.subtree_control")"
    echo "== a: stagetop where it is"
    "$D/stagetop" --headless --no-gpu -i .2 --record "$OUT/a.jsonl" -- sh -c "$JOB"
    echo "rc=$?"
    L=$M/st-lim-$$
    for off in "" 0; do
        echo "== b: a launcher's cgroup with memory.max=64M${off:+, STAGETOP_CGROUP=0}"
        mkdir "$L" && echo 64M >"$L/memory.max" && { echo 0 >"$L/memory.swap.max"; } 2>/dev/null
        echo "memory.max: $(cat "$L/memory.max")"
        STAGETOP_CGROUP=${off:-1} in_cg "$L" "$D/stagetop" --headless --no-gpu -i .2 -- sh -c "$JOB"
        echo "rc=$? (expected 137: the job OOM-killed inside the limit)"
        grep -E '^(oom|oom_kill) ' "$L/memory.events"
        rmdir "$L"
    done
    echo "== b3: stagetop in the root cgroup"
    in_cg "$M" "$D/stagetop" --headless --no-gpu -i .2 -- sh -c "$JOB"
    echo "rc=$?; left: $(ls -d "$M"/stagetop-* 2>/dev/null | wc -l) stagetop-* cgroup(s)"
fi
echo "== c: tests/e2e/kernel_peak_linux.sh"
STAGETOP=$D/stagetop WORKLOADS=$R/build/workloads ST_ROOT=$R sh "$R/tests/e2e/kernel_peak_linux.sh"
echo "kernel_peak rc=$?"
