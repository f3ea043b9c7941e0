#!/bin/sh
# bench/share.sh BUILD [SECONDS]: the cost of counting a shared page once
# (docs/metrics.md, "Counted once").  10 processes each mapping 1 GiB
# (holdmem's root fills 1 GiB with random bytes and forks 9 children that
# keep it copy-on-write: the kernel walks 1 GiB of page tables for each
# one's smaps_rollup, as for 10 processes holding 1 GiB each, in 1 GiB of
# RAM); stagetop -p watches it every 0.5 s for SECONDS (default 20).
# Prints stagetop's CPU as a share of one core (the goal: within 2 %), the
# CPU of one smaps_rollup and of one status read of a member and their
# ratio, and the footprint against the status sum.
# The cgroup path (a launched job in a cgroup of its own: one read of its
# memory.stat a sample; goal: at most 1.2x today's sampling cost): where
# this runs as root with a memory controller, the tree runs in a cgroup made
# here (v2: under the root cgroup; v1: under this shell's memory cgroup),
# and bench/sampling_bench times one sample of it three ways in the same
# run: the plain status sum (status), the cgroup's reads in its place
# (cgroup: memory.stat, and cgroup.procs for members that left) and the proportional path at 0.5 s (stagetop: its budget spends
# 2 % of 0.5 s a sample); printed as microseconds of CPU per sample and as
# ratios to the status sum.
set -u
B=${1:-build}
S=${2:-20}
. "$(dirname "$0")/holdmem.sh"
T=$(mktemp -d)
CG="" VER=""
cg_gone() { [ -z "$CG" ] || [ -z "$(cat "$CG/cgroup.procs" 2>/dev/null)" ]; }
cleanup() {
    exec 8>&-
    [ -n "${st:-}" ] && kill $st 2>/dev/null
    wait 2>/dev/null
    if [ -n "$CG" ]; then
        i=0; until cg_gone || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
        rmdir "$CG" 2>/dev/null
    fi
    rm -rf "$T"
}
trap cleanup EXIT
# make_cg: a cgroup for the tree (sets CG, VER), or why there is none
make_cg() {
    [ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
    mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
    if [ -n "$mnt" ] && grep -qw memory "$mnt/cgroup.subtree_control" 2>/dev/null; then
        CG=$mnt/st-bench-$$ VER=v2
    else
        v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
        [ -n "$v1" ] || { echo "no memory controller for a cgroup"; return 1; }
        own=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}memory\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' /proc/self/cgroup)
        CG=$v1${own%/}/st-bench-$$ VER=v1
    fi
    mkdir "$CG" || { echo "cannot make $CG"; return 1; }
}
mkfifo "$T/fifo"
make_cg >"$T/why" 2>&1 || CG=""
why=$(cat "$T/why")
sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1; shift; exec "$@"' sh "$CG" \
    "$B/workloads/holdmem" --mib 1024 --cow-children 9 <"$T/fifo" >"$T/out" &
exec 8>"$T/fifo"
pid=$(holdmem_ready "$T/out") || exit 1
kid=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/out" | head -1)
"$B/stagetop" -p "$pid" --headless --interval 0.5 --record "$T/r.jsonl" 2>"$T/err" 8>&- &
st=$!
sleep "$S" # the measurement's length, not a wait for a condition
set -- $(cut -d' ' -f14,15 /proc/$st/stat)
ticks=$(getconf CLK_TCK)
python3 - "$1" "$2" "$ticks" "$S" "$kid" "$T/r.jsonl" <<'PY'
import json, sys, time
ut, stt, hz, secs, kid, rec = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
print(f"stagetop CPU over {secs:.0f} s at 0.5 s, 10 members x 1 GiB mapped: {100 * (ut + stt) / hz / secs:.2f} % of one core")
def cost(path, n):
    c = time.process_time()
    for _ in range(n):
        with open(path, "rb") as f:
            f.read()
    return (time.process_time() - c) / n
r, s = cost(f"/proc/{kid}/smaps_rollup", 20), cost(f"/proc/{kid}/status", 2000)
print(f"one member: smaps_rollup {r * 1e3:.2f} ms CPU, status {s * 1e6:.1f} us CPU, ratio {r / s:.0f}x")
samples = [json.loads(l) for l in open(rec) if '"type":"sample"' in l]
last = samples[-1]
print(f"record: {len(samples)} samples, last footprint {last['footprint'] / 2**20:.0f} MiB, procs {last.get('procs')}")
PY
kill $st 2>/dev/null; wait $st 2>/dev/null; st=""
if [ -z "$CG" ]; then
    echo "cgroup path: not measured here ($why)"
    exit 0
fi
make --no-print-directory -s "$B/bench/sampling_bench" >/dev/null || exit 1
set -- $("$B/bench/sampling_bench" status "$pid") ; us_status=$2 n=$3
set -- $("$B/bench/sampling_bench" cgroup "$pid" "$CG" $VER) ; us_cg=$2
set -- $("$B/bench/sampling_bench" stagetop "$pid") ; us_pss=$2
python3 - "$us_status" "$us_cg" "$us_pss" "$n" "$VER" <<'PY'
import sys
st, cg, pss, n, ver = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
print(f"cgroup path ({ver}), one sample of {n} members, CPU: status sum {st:.1f} us, "
      f"cgroup memory.stat + cgroup.procs {cg:.1f} us ({cg / st:.2f}x the status sum), "
      f"proportional at 0.5 s {pss:.1f} us ({pss / st:.1f}x)")
PY
