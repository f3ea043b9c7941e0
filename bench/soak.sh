#!/bin/sh
# The full soak (issue 8): 10,000,000 samples (27.8 hours at 10 ms) through a
# scripted backend, the monitor, the ring (--history 2h: 720,001 samples),
# the JSONL record (about 1.1 GB, in a temporary directory, removed after)
# and the export.  Prints stagetop's VmRSS at 1M, 5M and 10M samples, the
# CPU cost per sample, the export time, and checks the record (every sample
# as scripted) and the export (exactly the ring) with tests/faults/check_soak.py.
# Fails when VmRSS grows by 1 MiB or more between 1M and 10M samples.
B=${1:-build}
N=${SOAK_SAMPLES:-10000000}
make --no-print-directory "$B/faults/soak" >/dev/null || exit 1
T=$(mktemp -d "${TMPDIR:-/var/tmp}/stagetop-soak.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
start=$(date +%s)
"$B/faults/soak" "$N" 7200 "$T" >"$T/out" || { cat "$T/out"; echo "soak: failed"; exit 1; }
took=$(( $(date +%s) - start ))
echo "soak: $N samples in $took s; record $(du -h "$T/soak.jsonl" | cut -f1), export $(du -h "$T/soak.json" | cut -f1)"
awk '$1 == "checkpoint" { printf "  at %9d samples: VmRSS %6d KiB, %.2f us/sample (step + record), export %.2f s\n", $2, $3, $4, $5 }
     $1 == "done" { printf "  ring holds %d of %d samples (full); VmHWM %d KiB\n", $4, $6, $12 }' "$T/out"
awk '$1 == "checkpoint" { r[++n] = $3 } END { if (r[3] - r[1] >= 1024) { printf "soak: VmRSS grew %d KiB from 1M to 10M samples\n", r[3] - r[1]; exit 1 } }' "$T/out" || exit 1
start=$(date +%s)
python3 -S tests/faults/check_soak.py "$T" "$N" 7200 || { echo "soak: check failed"; exit 1; }
echo "  (checked in $(( $(date +%s) - start )) s)"
