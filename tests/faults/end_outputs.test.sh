#!/bin/sh
# Fault: --report/--plot at the end described the history ring, not the
# run (issue 30 item 5): --history 1s on a 5 s run whose 64 MiB peak came
# early gave a report of the last second, without the peak.  With a .jsonl
# --record they must equal `stagetop report` / `plot` of that record;
# without one, stagetop says what the history held.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
job="import os, time; b = os.urandom(64 << 20); time.sleep(1.0); del b; time.sleep(3.0)"
"$STAGETOP" --headless --interval 0.1 --history 1s --record r.jsonl --report end.md --plot end.svg \
    -- python3 -c "$job" 2>"$T/err"
rc=$?
check "the run ends with the job's 0 ($rc)" [ $rc -eq 0 ]
"$STAGETOP" report r.jsonl -o again.md 2>/dev/null
"$STAGETOP" plot r.jsonl -o again.svg 2>/dev/null
check "--report equals report of the record (samples, peak)" sh -c "row() { grep -E '^[|] (samples|peak footprint) ' \"\$1\"; }; [ -n \"\$(row end.md)\" ] && [ \"\$(row end.md)\" = \"\$(row again.md)\" ]"
check "... and its peak is the 64 MiB one (random bytes, not the last second's)" \
    grep -Eq '^[|] peak footprint [|] (6[4-9]|[7-9][0-9])([.][0-9]+)? MiB' end.md
check "--plot equals plot of the record" cmp end.svg again.svg
# without a record: said
"$STAGETOP" --headless --interval 0.1 --history 1s --report ring.md -- python3 -c "$job" 2>"$T/err2"
check "no record: stagetop says the report holds the history kept" \
    grep -q 'holds the last .* samples' "$T/err2"
