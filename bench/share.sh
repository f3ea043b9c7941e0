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
set -u
B=${1:-build}
S=${2:-20}
. "$(dirname "$0")/holdmem.sh"
T=$(mktemp -d)
trap 'exec 8>&-; [ -n "${st:-}" ] && kill $st 2>/dev/null; rm -rf "$T"' EXIT
mkfifo "$T/fifo"
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
