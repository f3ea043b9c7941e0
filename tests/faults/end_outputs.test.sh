#!/bin/sh
# Fault: --report/--plot at the end described the history ring, not the
# run (issue 30 item 5): --history 1s on a 5 s run whose 64 MiB peak came
# early gave a report of the last second, without the peak.  With a .jsonl
# --record they must equal `stagetop report` / `plot` of that record;
# without one, of the run's JSONL (--jsonl: the same record on stdout).
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
# Without a record: the whole run, not the history.  --history 3s on a run
# of about 7 s whose 64 MiB peak is in its first 2 s; --jsonl's stdout is
# the whole record, so `stagetop report` and `plot` of it are the reference.
job2="import os, time; b = os.urandom(64 << 20); time.sleep(1.5); del b; time.sleep(5.0)"
"$STAGETOP" --headless --interval 0.1 --history 3s --jsonl --report R.md --plot P.svg \
    -- python3 -c "$job2" >whole.jsonl 2>"$T/err2"
rc=$?
check "no record: the run ends with the job's 0 ($rc)" [ $rc -eq 0 ]
mkdir ref
(cd ref && "$STAGETOP" report ../whole.jsonl -o R.md && "$STAGETOP" plot ../whole.jsonl -o P.svg) 2>"$T/err3"
# The report names its input (its title and "trace" row: the command here,
# the file there); every other byte is the same.

for f in R.md ref/R.md; do grep -v -e '^### Memory report: ' -e '^| trace | ' "$f" >"$f.rest"; done
check "no record: --report equals report of the run's JSONL, but for the two lines naming the input" \
    sh -c "[ -s R.md.rest ] && cmp R.md.rest ref/R.md.rest"
check "... which are its title and trace row, naming the command and the file" \
    sh -c "[ \$(diff R.md ref/R.md | grep -c '^<') -eq 2 ] && grep -q '^| trace | python3 ' R.md && grep -q '^| trace | ../whole.jsonl |' ref/R.md"
# the run's duration (the record's last sample), not the history's 3 s
last=$(sed -n 's/^{"type":"sample","t":\([0-9.]*\),.*/\1/p' whole.jsonl | tail -1)
dur=$(sed -n 's/^| samples | [0-9]* over \([0-9.]*\)s,.*/\1/p' R.md)
check "no record: the report's duration is the run's ($dur s, last sample at $last s), not 3 s" \
    awk -v d="$dur" -v l="$last" 'BEGIN { exit !(d != "" && d >= 6 && d >= l - 0.1 && d <= l + 0.1) }'
check "... and its peak is the 64 MiB one of the first seconds" \
    grep -Eq '^[|] peak footprint [|] (6[4-9]|[7-9][0-9])([.][0-9]+)? MiB' R.md
check "no record: --plot equals plot of the run's JSONL (a short run: every sample a point)" cmp P.svg ref/P.svg
check "... and so does the report's chart" cmp R.svg ref/R.svg
span=$(sed -n 's/.*[^0-9.]\([0-9.]*\) s, [0-9]* samples.*/\1/p' P.svg | head -1)
check "no record: the plot's time axis spans the run ($span s)" \
    awk -v s="$span" 'BEGIN { exit !(s != "" && s >= 6) }'
check "no record: nothing said of a history kept" sh -c "! grep -q 'history' '$T/err2'"
