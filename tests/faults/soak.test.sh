#!/bin/sh
# Soak (reduced for `make check`): 1,000,000 samples (2.8 hours at 10 ms)
# through a scripted backend, the monitor, the ring (--history 600 s: 60,001
# samples, full after 6 % of the run), the JSONL record and the export
# ($ST_BUILD/faults/soak, tests/faults/soak.c).  stagetop's RSS must stay
# flat once the ring is full (less than 1 MiB more at 1,000,000 samples than
# at 100,000; not asserted under ASan, whose quarantine holds freed memory),
# the record must hold every sample as scripted and the export exactly what
# the ring holds (tests/faults/check_soak.py).  The full 10,000,000-sample
# soak is bench/soak.sh (`make bench`).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
SOAK="$ST_ROOT/$ST_BUILD/faults/soak"
[ -x "$SOAK" ] || SOAK="$ST_BUILD/faults/soak"
if [ ! -x "$SOAK" ]; then
    skip "soak" "$ST_BUILD/faults/soak is not built (make tests)"; exit 0
fi
N=${SOAK_SAMPLES:-1000000} HIST=600
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$SOAK" "$N" "$HIST" "$T" >"$T/out" 2>"$T/err"
rc=$?
sed 's/^/    /' "$T/out"
check "soak: $N samples through backend, monitor, ring, record and export (exit 0)" \
    sh -c "[ $rc -eq 0 ] || { cat '$T/err'; exit 1; }"
flat() {
    awk -v asan="$(ldd "$SOAK" 2>/dev/null | grep -c libasan)" '
        $1 == "checkpoint" { rss[++n] = $3; k[n] = $2 }
        END {
            if (n != 3) { print "no checkpoints"; exit 1 }
            printf "VmRSS %d KiB at %d, %d KiB at %d, %d KiB at %d samples\n", rss[1], k[1], rss[2], k[2], rss[3], k[3]
            if (asan > 0) { print "(ASan build: not asserted)"; exit 0 }
            exit !(rss[3] - rss[1] < 1024)
        }' "$T/out"
}
check "soak: RSS flat once the ring is full (< 1 MiB growth from 10% to 100% of the run)" flat
check "soak: every sample recorded as scripted, the export holds exactly the ring" \
    $PY "$ST_ROOT/tests/faults/check_soak.py" "$T" "$N" "$HIST"
