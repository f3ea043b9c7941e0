#!/bin/sh
# Peaks that do not leave with the process (docs/metrics.md): a launched job
# whose child maps and fills 1 GiB of random bytes, holds it 50 ms and exits
# between two samples.  No sample sees it; the summary's kernel_peak must
# still hold it, with its source named (wait4), in the JSONL end record, the
# JSON export and `stagetop summary`.  The orphan and cgroup cases need Linux:
# tests/e2e/kernel_peak_linux.sh.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
. "$(dirname "$0")/kernel_peak.inc"

# --- wait4: the root waits for its child ------------------------------------
STAGETOP_CGROUP=0 run_spike wait4
check_run wait4 wait4
