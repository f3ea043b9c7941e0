#!/bin/sh
# `stagetop doctor -p PID`'s counted-once check (docs/doctor.md, "The tree,
# counted once"), with real processes: a parent writes 64 MiB of random bytes
# and forks 3 children that sleep, keeping them copy-on-write.  doctor must
# say the tree the screen sums agrees with the sum of PSS (within 2 % + 1 MiB)
# and print both numbers; the sum of PSS it prints must be the one this test
# reads itself from /proc/PID/smaps_rollup, and each process's own sum about
# 4 x 64 MiB.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

cat >"$T/w.py" <<PY
import os, sys, time
b = bytearray(os.urandom(64 << 20))
kids = []
for i in range(3):
    p = os.fork()
    if p == 0:
        time.sleep(300); os._exit(0)
    kids.append(p)
open("$T/kids", "w").write(" ".join(map(str, kids)) + "\n")
os.rename("$T/kids", "$T/ready")
time.sleep(300)
PY
python3 "$T/w.py" &
root=$!
remember_job $root
wait_for "the parent holds 64 MiB and has forked 3 children" 60 test -s "$T/ready"
kids=$(cat "$T/ready")
for k in $kids; do remember_job $k; done

# pss_sum PID...: Pss_Anon + Pss_Shmem + SwapPss summed, bytes (-1: none)
pss_sum() { python3 "$ST_ROOT/tests/tools/pss_sum.py" "$@" | cut -d" " -f1; }
mine=$(pss_sum $root $kids)
if [ "$mine" -lt 0 ]; then
    skip "doctor's counted-once check" "the kernel's smaps_rollup has no Pss_Anon (before 5.8)"
    exit 0
fi
"$STAGETOP" doctor -p $root --no-gpu >"$T/out" 2>&1
rc=$?
sed -n '/^tree/,$p' "$T/out" | sed 's/^/    /'
check "doctor -p exits 0 (every check agrees)" test $rc = 0
check "the tree is 4 processes" grep -q "^tree (what the screen sums.*pid $root alone): 4 process" "$T/out"
check "the tree check agrees" grep -Eq "^footprint .* ok$" "$T/out"
line=$(grep "counted once: tree" "$T/out")
check "both numbers are printed, and it says they agree" \
    grep -Eq 'counted once: tree [0-9.]+ [KMG]iB, sum of PSS [0-9.]+ [KMG]iB \(agrees, within 2% \+ 1 MiB\)' "$T/out"
# bytes of "N.N UNIT"
to_b() { awk -v n="$1" -v u="$2" 'BEGIN { m = u == "KiB" ? 1024 : u == "MiB" ? 1048576 : u == "GiB" ? 1073741824 : 1; printf "%.0f\n", n * m }'; }
set -- $(echo "$line" | sed -n 's/.*counted once: tree \([0-9.]*\) \([KMG]iB\), sum of PSS \([0-9.]*\) \([KMG]iB\).*own sum \([0-9.]*\) \([KMG]iB\).*/\1 \2 \3 \4 \5 \6/p')
tree=$(to_b "${1:-0}" "${2:-B}") pss=$(to_b "${3:-0}" "${4:-B}") own=$(to_b "${5:-0}" "${6:-B}")
after=$(pss_sum $root $kids)
echo "    this test's sum of PSS: $mine before, $after after; doctor: tree $tree, sum of PSS $pss, own sums $own"
check "doctor's sum of PSS is the one read here (within 2 % + 1 MiB)" \
    awk -v d="$pss" -v a="$mine" -v b="$after" 'BEGIN { lo = (a < b ? a : b); hi = (a > b ? a : b); t = hi * 0.02 + 1048576 + 52429; exit !(d >= lo - t && d <= hi + t) }'
check "the tree sum is within 2 % + 1 MiB of it" \
    awk -v t="$tree" -v p="$pss" 'BEGIN { d = t - p; if (d < 0) d = -d; exit !(d <= p * 0.02 + 1048576 + 104858) }'
check "the 64 MiB are counted once in the tree (64-80 MiB)" \
    awk -v t="$tree" 'BEGIN { exit !(t >= 64 * 1048576 && t < 80 * 1048576) }'
check "each process's own sum counts them 4 times (>= 256 MiB)" awk -v o="$own" 'BEGIN { exit !(o >= 256 * 1048576) }'
kill $kids $root 2>/dev/null
