#!/bin/sh
# Fault: a record with thousands of long stage names (issue 21 item 3).  The
# job marks 3,000 stages of 60-byte descriptive names; the JSONL record's end
# record once carried every one in its summary (a 200 KB line every reader
# refused: "line longer than 65536 bytes").  Every line of the record must
# fit the one limit (ST_TRACE_MAX_LINE, 65536 bytes), and summary, report,
# plot and the replay's stream reader (trace-summary, the same reader)
# must read it back with all 3,000 stages; the .json export too.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=3000
# the job: N stage lines, then it exits
cat > "$T/job.sh" <<'JOB'
i=0
while [ $i -lt 3000 ]; do
    printf 'stage preprocessing shard %04d of the training corpus, pass one\n' $i
    i=$((i + 1))
done >> "$STAGETOP_EVENTS"
sleep 0.3
JOB
"$STAGETOP" --headless --interval 0.05 --record "$T/r.jsonl" -- sh "$T/job.sh" 2> "$T/err"
check "long record: the run ends (exit $?)" test -s "$T/r.jsonl"
check "long record: every line fits 65536 bytes" \
    awk 'length($0) > 65535 { print NR ": " length($0); bad = 1 } END { exit bad }' "$T/r.jsonl"
check "long record: the end record says how many stages it left out" \
    sh -c "tail -1 '$T/r.jsonl' | grep -q '\"stages_omitted\":[1-9]'"
"$STAGETOP" summary "$T/r.jsonl" > "$T/sum.json" 2> "$T/sum.err"
check "long record: summary reads it back" test -s "$T/sum.json"
check "long record: summary has all $N stages (+1: the time before the first)" \
    sh -c "test \$(grep -o '\"stage\":' '$T/sum.json' | wc -l) -ge $N"
check "long record: the last stage is there" grep -q 'shard 2999 of the training corpus' "$T/sum.json"
check "long record: report reads it" sh -c "'$STAGETOP' report '$T/r.jsonl' -o '$T/r.md' && grep -q 'shard 2999' '$T/r.md'"
check "long record: plot reads it" "$STAGETOP" plot "$T/r.jsonl" -o "$T/r.svg"
check "long record: the stream reader (replay's) reads it" "$ST_BUILD/tools/trace-summary" "$T/r.jsonl"
"$STAGETOP" --headless --interval 0.05 --record "$T/r.json" -- sh "$T/job.sh" 2>/dev/null
check "long record: the .json export reads back with all stages" \
    sh -c "'$STAGETOP' summary '$T/r.json' | grep -q 'shard 2999'"
