#!/bin/sh
# -p follows exec (stagetop(1) -p): a root that execs another program after
# stagetop attached is named by what it became, once, in the trace's meta
# (and so in the export, the report and the plot's title).
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
secs=1.$(( $$ % 900 + 100 ))
sh -c "while [ ! -e '$T/go' ]; do sleep 0.05; done; exec sleep $secs" &
target=$!
remember_job $target
"$STAGETOP" --headless --no-gpu -i .2 -p $target --record "$T/r.json" --metrics "$T/m.prom" --quiet 2>"$T/err" &
st=$!
remember_job $st
wait_for "the first sample (before the exec)" 30 test -s "$T/m.prom"
: >"$T/go"
wait $st
check "the exported trace names the program the root exec'd" grep -q "\"command\":\"sleep $secs\"" "$T/r.json"
"$STAGETOP" report "$T/r.json" >"$T/r.md"
check "the report names it" grep -q "sleep $secs" "$T/r.md"
