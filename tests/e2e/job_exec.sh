#!/bin/sh
# -p follows exec (stagetop(1) -p): a root that execs another program after
# stagetop attached is named by what it became, once, in the trace's meta
# (and so in the export, the report and the plot's title).
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
# exec_run N RECORD: a root that waits for $T/goN, then execs "sleep SECS"
# (SECS unique to this run, set here), watched with -p into RECORD.
exec_run() {
    secs=$1.$(( $$ % 900 + 100 ))
    sh -c "while [ ! -e '$T/go$1' ]; do sleep 0.05; done; exec sleep $secs" &
    target=$!
    remember_job $target
    "$STAGETOP" --headless --no-gpu -i .2 -p $target --record "$2" --metrics "$T/m$1.prom" --quiet 2>"$T/err$1" &
    st=$!
    remember_job $st
    wait_for "the first sample (before the exec)" 30 test -s "$T/m$1.prom"
    : >"$T/go$1"
    wait $st
}

exec_run 1 "$T/r.json"
check "the exported trace names the program the root exec'd" grep -q "\"command\":\"sleep $secs\"" "$T/r.json"
"$STAGETOP" report "$T/r.json" >"$T/r.md"
check "the report names it" grep -q "sleep $secs" "$T/r.md"

# The same with a JSONL record: its start line may be written before the exec,
# so the end record says the command, and every reader takes it.
exec_run 2 "$T/r.jsonl"
secs2=$secs
check "JSONL: the end record names the program the root exec'd" grep -q "^{\"type\":\"end\",\"command\":\"sleep $secs2\"" "$T/r.jsonl"
"$STAGETOP" summary "$T/r.jsonl" >"$T/s2.json"
check "JSONL: summary's meta names it" grep -q "\"command\":\"sleep $secs2\"" "$T/s2.json"
"$STAGETOP" report "$T/r.jsonl" >"$T/r2.md"
check "JSONL: the report names it" grep -q "sleep $secs2" "$T/r2.md"
