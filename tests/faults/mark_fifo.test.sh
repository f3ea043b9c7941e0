#!/bin/sh
# Fault: `stagetop mark` into a FIFO that nothing reads (issue 21 item 10):
# STAGETOP_EVENTS (or a variable pointed at an --events FIFO) names a FIFO
# whose reader is gone.  `mark` used to block in open() for ever; it waits
# 5 s at most, then exits 1 saying why.  With a reader the line arrives.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
mkfifo "$T/f"
STAGETOP_EVENTS="$T/f" timeout 60 "$STAGETOP" mark x 2> "$T/err"; rc=$?
check "mark into a FIFO without a reader: exit 1 ($rc), not blocked (124)" test "$rc" -eq 1
check "... and it says so" grep -q 'a FIFO that nothing read within' "$T/err"
timeout 60 cat "$T/f" > "$T/got" &
remember_job $!
STAGETOP_EVENTS="$T/f" timeout 60 "$STAGETOP" mark hello there; rc=$?
wait_for "the reader got the line" 10 grep -Eq '^@[0-9]+[.][0-9]{6} mark hello there$' "$T/got"
check "mark with a reader: exit 0 ($rc), the line arrives" grep -Eq '^@[0-9]+[.][0-9]{6} mark hello there$' "$T/got"
