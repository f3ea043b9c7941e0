#!/bin/sh
# Fault: the watched job forks ~1,000 short-lived children a second for 10 s
# (tests/workloads/forkstorm.c), recorded headless at 0.1 s.  stagetop must
# not crash, its sums must stay within bounds that the workload itself gives
# (no negative or wildly wrong numbers), and the tree count must settle back
# to the one process of the baseline.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

"$STAGETOP" --headless --interval 0.1 --record "$T/storm.jsonl" -- \
    "$WORKLOADS/forkstorm" --rate 1000 --seconds 10 --mib 16 --before-ms 1500 --after-ms 2500 \
    >"$T/workload.out" 2>"$T/err"
rc=$?
check "fork storm: stagetop exits with the job's code 0 (no crash)" [ $rc -eq 0 ]
check "fork storm: the record is valid JSONL with its exit event and end" \
    $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/storm.jsonl" --end --event exit --min-samples 100
if $PY "$ST_ROOT/tests/faults/check_forkstorm.py" "$T/storm.jsonl" "$T/workload.out" >"$T/fig" 2>&1; then
    echo "PASS: fork storm: sums within the workload's bounds, tree back to 1 process"
    sed 's/^/    /' "$T/fig"
else
    echo "FAIL: fork storm: sums within the workload's bounds, tree back to 1 process"
    sed 's/^/    /' "$T/fig" "$T/workload.out" "$T/err"
fi
