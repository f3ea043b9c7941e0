#!/bin/sh
# Fault: outputs that could only fail at the end, or that collide (issue 30
# items 8, 9 and 11).  Each must be refused before the job starts (the job
# would touch a marker file), saying why:
#   --jsonl with --record (no file was written, the closing summary said it was);
#   --report or --plot into a directory that does not exist, TMPDIR gone
#   (the whole job ran, then the output failed);
#   two outputs naming one file; --report X.md over an X.svg nobody named.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
refused() { # description, expected text, stagetop arguments...
    _d=$1 _w=$2; shift 2
    rm -f "$T/ran"
    "$STAGETOP" --headless "$@" -- touch "$T/ran" >"$T/out" 2>"$T/err"; _rc=$?
    check "$_d: refused (exit $_rc), nothing started, saying why" \
        sh -c "[ $_rc -ne 0 ] && [ ! -e '$T/ran' ] && grep -q -- '$_w' '$T/err'"
}
refused "--jsonl with --record" "give one" --jsonl --record "$T/x.jsonl"
check "--jsonl with --record: no file made" test ! -e "$T/x.jsonl"
refused "--report into a missing directory" "--report" --report "$T/none/r.md"
refused "--plot into a missing directory" "--plot" --plot "$T/none/p.svg"
TMPDIR="$T/gone" refused "TMPDIR that does not exist, with --report" "TMPDIR" --report "$T/t.md"
refused "--record and --report on one file" "name one file" --record c.jsonl --report c.jsonl
check "... no record placeholder left" test ! -e "$T/c.jsonl"
refused "--report and --plot on one file" "name one file" --report s.md --plot s.md
refused "--record .json and --plot on one file" "name one file" --record c.json --plot "$T/c.json"
check "... no .json placeholder left" test ! -e "$T/c.json"
refused "--metrics and --plot on one file" "name one file" --metrics m.svg --plot ./m.svg
echo "keep me" >"$T/only.svg"
refused "--report only.md over an only.svg nobody named" "only.svg, which exists" --report only.md
check "... only.svg untouched" grep -q "keep me" "$T/only.svg"
# and what is allowed still runs
rm -f "$T/ran"
"$STAGETOP" --headless --report only.md --overwrite -- touch "$T/ran" 2>"$T/err"; rc=$?
check "--report only.md --overwrite: runs, its chart replaces only.svg" \
    sh -c "[ $rc -eq 0 ] && [ -e '$T/ran' ] && grep -q '<svg' '$T/only.svg' && [ -s '$T/only.md' ]"
rm -f "$T/ran" "$T/r2.svg"
"$STAGETOP" --headless --report r2.md --plot r2.svg -- touch "$T/ran" 2>"$T/err"; rc=$?
check "--report r2.md --plot r2.svg (the report's own chart): runs" \
    sh -c "[ $rc -eq 0 ] && [ -e '$T/ran' ] && grep -q '<svg' '$T/r2.svg'"

# --- stdout fails at the start (issue 30 item 1) ---------------------------
# --jsonl into a full device: the start record cannot be written.  The job
# kept running with no watcher and no guard; it must be gone when stagetop
# exits (exit 1).
secs=$((700 + $$ % 50))
if [ -c /dev/full ]; then
    "$STAGETOP" --headless --jsonl -- sh -c "sleep $secs" >/dev/full 2>"$T/full.err" &
    wait_bounded $! 60; rc=$?
    check "--jsonl > /dev/full: stagetop exits 1 saying why ($rc)" \
        sh -c "[ $rc -eq 1 ] && grep -q 'the job was stopped' '$T/full.err'"
    check "--jsonl > /dev/full: no job left running" sh -c "! pgrep -x -f 'sleep $secs' >/dev/null"
    pkill -x -f "sleep $secs" 2>/dev/null || :
else
    skip "--jsonl > /dev/full" "this system has no /dev/full (Linux's full device)"
fi
