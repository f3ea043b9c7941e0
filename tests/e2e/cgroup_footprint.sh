#!/bin/sh
# A launched job in a cgroup of its own counts each page once in one read of
# the cgroup's memory.stat (docs/metrics.md, "Counted once"), end to end:
# real processes, the real binary, its record.  holdmem's root fills 64 MiB
# with random bytes and forks 4 children that keep it copy-on-write (then
# the same through a /dev/shm file each child reads); `stagetop --headless
# --record -- holdmem` runs it in its own cgroup (cgroup v2, or the v1
# memory hierarchy where that is what the machine has).  The record's start
# must name the definition (footprint_metric cgroup:anon+shmem+swap), and
# the last footprint of the whole tree must be within 2 % of the sum of
# Pss_Anon + Pss_Shmem + SwapPss this test reads from each member's
# smaps_rollup (tests/tools/pss_sum.py) and within 2 % of the cgroup's own
# memory.stat, read here (v2: anon + shmem + memory.swap.current; v1:
# total_rss + total_shmem + total_swap); the cgroup is removed at the end.
# Needs root (or a delegated cgroup) and a memory controller: else SKIP.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'exec 8>&-; cleanup_jobs; rm -rf "$T"' EXIT

. "$(dirname "$0")/cgroup_where.inc"
cg_setup "cgroup footprint" || exit 0

# cg_sum DIR: the cgroup's memory counted once, from its own files
cg_sum() {
    python3 - "$VER" "$1" <<'PY'
import os, sys
ver, d = sys.argv[1], sys.argv[2]
st = dict(l.split() for l in open(os.path.join(d, "memory.stat")) if len(l.split()) == 2)
if ver == "v2":
    swap = os.path.join(d, "memory.swap.current")
    s = int(open(swap).read()) if os.path.exists(swap) else 0
    print(int(st["anon"]) + int(st["shmem"]) + s)
else:
    print(int(st["total_rss"]) + int(st["total_shmem"]) + int(st.get("total_swap", 0)))
PY
}

samples_with() { # FILE N: the record holds N samples of 5 processes
    [ "$(grep -c '"type":"sample".*"procs":5' "$1" 2>/dev/null)" -ge "$2" ]
}

one_case() { # name, holdmem's extra argument
    name=$1; shift
    rm -f "$T/fifo" "$T/out"
    mkfifo "$T/fifo"
    sh "$T/in_cg.sh" "$RUNDIR" "$STAGETOP" --headless --interval 0.2 --no-gpu --record "$T/$name.jsonl" -- \
        "$WORKLOADS/holdmem" --mib 64 --cow-children 4 "$@" <"$T/fifo" >"$T/out" 2>"$T/$name.err" &
    st=$!
    remember_job $st
    exec 8>"$T/fifo" # holdmem's stdin, held open: closing it ends the tree
    until_ok 30 grep -q '^ready' "$T/out" || { check "$name: holdmem is ready" false; cat "$T/$name.err"; return; }
    hm=$(sed -n 's/^ready \([0-9]*\) .*/\1/p' "$T/out")
    kids=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/out" | tr '\n' ' ')
    cg=$(job_cgroup $hm)
    # 20 samples (4 s): v2 flushes its per-CPU counters into memory.stat at
    # least every 2 s (a read flushes them only past a threshold), so the
    # numbers have settled when the readings begin
    check "$name: 20 samples of the whole tree" wait_for "20 samples" 60 samples_with "$T/$name.jsonl" 20
    set -- $(python3 "$ST_ROOT/tests/tools/pss_sum.py" $hm $kids)
    pss=$1 status=$2
    cgsum=$(cg_sum "$cg")
    n=$(grep -c '"type":"sample"' "$T/$name.jsonl")
    wait_for "$name: a sample after the test's own readings" 60 samples_with "$T/$name.jsonl" $((n + 2))
    m=$(grep -c '"type":"sample"' "$T/$name.jsonl") # taken while the tree is whole
    exec 8>&- # the tree ends, and stagetop with it
    wait $st
    check "$name: stagetop ends with the tree (exit 0)" [ $? -eq 0 ]
    check "$name: the job ran in a cgroup of its own ($cg)" \
        sh -c "head -1 '$T/$name.err' | grep -q \"runs in cgroup .*/stagetop-[0-9]*-[0-9]*.*its own inside stagetop's\""
    check "$name: the record names the definition (footprint_metric cgroup:anon+shmem+swap)" \
        grep -q '"type":"start".*"footprint_metric":"cgroup:anon+shmem+swap"' "$T/$name.jsonl"
    check "$name: the status sum counts the 64 MiB five times (the case is real)" \
        [ "$status" -ge $((5 * 64 * 1048576)) ]
    check "$name: the last footprint of the whole tree is within 2 % of the sum of PSS ($pss B) and of the cgroup's memory.stat ($cgsum B)" \
        python3 -c '
import json, sys
pss, status, cg = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# the last sample of the whole tree among those taken before it was ended
# (one taken while it ends holds less)
s = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "sample"]
w = [r for r in s[:int(sys.argv[-1])] if r.get("procs") == 5]
print(len(s), "samples,", sys.argv[-1], "before the end,", len(w), "of the whole tree among them")
fp = w[-1]["footprint"]
print("footprint", fp, "pss", pss, "cgroup", cg, "status", status)
sys.exit(0 if abs(fp - pss) <= 0.02 * pss and abs(fp - cg) <= 0.02 * cg and fp * 3 < status else 1)' \
        "$T/$name.jsonl" "$pss" "$status" "$cgsum" "$m"
    check "$name: the job's cgroup is removed at the end" [ ! -d "$cg" ]
}

one_case fork
one_case shm --shm

# The job moves itself out of its own cgroup (back to stagetop's, as a
# launcher script that writes its cgroup.procs does) before it starts
# holdmem: the cgroup no longer charges what the tree allocates, so those
# members are counted by the proportional path, and the footprint is still
# within 2 % of the PSS sum (not the nearly empty cgroup's few KiB).
home=$RUNDIR
[ "$VER" = v1 ] && home=$(job_cgroup $$)
rm -f "$T/fifo" "$T/out"
mkfifo "$T/fifo"
sh "$T/in_cg.sh" "$RUNDIR" "$STAGETOP" --headless --interval 0.2 --no-gpu --record "$T/moved.jsonl" -- \
    sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$home" \
    "$WORKLOADS/holdmem" --mib 64 --cow-children 4 <"$T/fifo" >"$T/out" 2>"$T/moved.err" &
st=$!
remember_job $st
exec 8>"$T/fifo"
if until_ok 30 grep -q '^ready' "$T/out"; then
    hm=$(sed -n 's/^ready \([0-9]*\) .*/\1/p' "$T/out")
    kids=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/out" | tr '\n' ' ')
    check "moved: 20 samples of the whole tree" wait_for "20 samples" 60 samples_with "$T/moved.jsonl" 20
    set -- $(python3 "$ST_ROOT/tests/tools/pss_sum.py" $hm $kids)
    pss=$1 status=$2
    n=$(grep -c '"type":"sample"' "$T/moved.jsonl")
    wait_for "moved: a sample after the test's own readings" 60 samples_with "$T/moved.jsonl" $((n + 2))
    m=$(grep -c '"type":"sample"' "$T/moved.jsonl")
    check "moved: the job left its cgroup for stagetop's ($(job_cgroup $hm))" [ "$(job_cgroup $hm)" = "$home" ]
    exec 8>&-
    wait $st
    check "moved: the record still names the cgroup definition" \
        grep -q '"type":"start".*"footprint_metric":"cgroup:anon+shmem+swap"' "$T/moved.jsonl"
    check "moved: the last footprint of the whole tree is within 2 % of the sum of PSS ($pss B; status sum $status B)" \
        python3 -c '
import json, sys
pss = int(sys.argv[2])
# the last sample of the whole tree among those taken before it was ended
# (one taken while it ends holds less)
s = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "sample"]
w = [r for r in s[:int(sys.argv[-1])] if r.get("procs") == 5]
print(len(s), "samples,", sys.argv[-1], "before the end,", len(w), "of the whole tree among them")
fp = w[-1]["footprint"]
print("footprint", fp, "pss", pss)
sys.exit(0 if abs(fp - pss) <= 0.02 * pss else 1)' "$T/moved.jsonl" "$pss" "$m"
else
    check "moved: holdmem is ready" false
    cat "$T/moved.err"
fi
