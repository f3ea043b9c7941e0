#!/bin/sh
# Fault: a stage flood in the closing summary (issue 30 item 14).  The job
# writes 10,050 stage lines: the closing summary printed every kept stage
# (10,001 lines) and the "stages folded" count only in a warning written
# once, early, never updated.  It must show at most 20 stage rows, say how
# many more there are, and give the final count of folded stage events.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$STAGETOP" --headless --interval 0.1 --record "$T/r.jsonl" -- sh -c '
    i=0; while [ $i -lt 10050 ]; do echo "stage s$i"; i=$((i + 1)); done >>"$STAGETOP_EVENTS"
    while [ "$(grep -c "\"kind\":\"stage\"" "$1")" -lt 10050 ]; do sleep 0.1; done' sh "$T/r.jsonl" \
    2>"$T/err"
rc=$?
check "stage flood: the run ends with the job's 0" [ $rc -eq 0 ]
rows=$(sed -n '/run summary/,$p' "$T/err" | grep -Ec '^  (s[0-9]+|setup) +[0-9]+ +[0-9.]+s ')
check "stage flood: the closing summary shows at most 20 stage rows ($rows)" sh -c "[ $rows -le 20 ] && [ $rows -ge 10 ]"
check "stage flood: ... and says how many more there are" \
    grep -Eq '\.\.\. and [0-9]+ more stages' "$T/err"
# the job wrote 10,050: 10,000 windows kept, the other 50 are one; when a
# sample came before the first stage line (the job starts after stagetop's
# first sample: it is held until its start is recorded), the samples
# before it are a window of their own ("setup"), and 51 are folded
folded=$(python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
s = [x["t"] for x in r if x.get("type") == "sample"]
e = [x["t"] for x in r if x.get("type") == "event" and x.get("kind") == "stage"]
print(50 + (1 if s and e and s[0] < e[0] else 0))' "$T/r.jsonl")
check "stage flood: the final count of folded stage events ($folded)" \
    grep -q "$folded stage events past the 10000 kept are one window" "$T/err"
check "stage flood: the record keeps every stage event" \
    sh -c "[ \$(grep -c '\"kind\":\"stage\"' '$T/r.jsonl') -eq 10050 ]"
