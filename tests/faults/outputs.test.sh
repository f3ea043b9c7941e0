#!/bin/sh
# Fault: outputs that are not plain new files, and outputs checked only at
# the end (issue 21 items 2 and 6).
#  - report -o / plot -o onto a FIFO (a reader on it), a character device
#    made here with mknod (full: the write fails, exit 1), a symlink to
#    /proc/self/fd/1; --metrics onto such a link: each written in place, the
#    node stays what it was; `-o -` is stdout.
#  - --record into a read-only directory (.json and .jsonl), --metrics DIR:
#    refused before the job starts (the job never runs);
#  - two runs with the same --record x.json: the second is refused while
#    the first runs (with or without --overwrite), the first's trace whole.
# Runs in a private mount namespace (root) for the read-only mount.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
if ! is_root; then
    skip "outputs" "needs root (mknod, a read-only mount)"; exit 0
fi
private_mounts "outputs" "$@" || exit 0
T=$(mktemp -d)
trap 'cleanup_jobs; umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT
TR="$ST_ROOT/tests/fixtures/traces/good-outside-stage.jsonl"

# --- item 2: non-regular targets ------------------------------------------
mkfifo "$T/fifo"
timeout 60 cat "$T/fifo" > "$T/from-fifo" &
reader=$!
"$STAGETOP" report "$TR" -o "$T/fifo"; rc=$?
wait $reader
check "report -o FIFO: exit 0 ($rc), the reader got the report" \
    sh -c "test $rc -eq 0 && grep -q '^#' '$T/from-fifo'"
check "report -o FIFO: still a FIFO" test -p "$T/fifo"
timeout 60 cat "$T/fifo" > "$T/svg-fifo" &
reader=$!
"$STAGETOP" plot "$TR" -o "$T/fifo"; rc=$?
wait $reader
check "plot -o FIFO: exit 0 ($rc), the reader got the SVG" sh -c "test $rc -eq 0 && grep -q '<svg' '$T/svg-fifo'"
mknod "$T/full" c 1 7
"$STAGETOP" report "$TR" -o "$T/full" 2>"$T/full.err"; rc=$?
check "report -o a full device: exit 1 ($rc), ENOSPC said" \
    sh -c "test $rc -eq 1 && grep -q 'No space left' '$T/full.err'"
"$STAGETOP" plot "$TR" -o "$T/full" 2>/dev/null; rc=$?
check "plot -o a full device: exit 1 ($rc)" test "$rc" -eq 1
check "the device is still a character device" test -c "$T/full"
ln -s /proc/self/fd/1 "$T/out"
"$STAGETOP" report "$TR" -o "$T/out" > "$T/via-link"
check "report -o link to /proc/self/fd/1: on stdout, the link stays" \
    sh -c "grep -q '^#' '$T/via-link' && test -L '$T/out'"
"$STAGETOP" report "$TR" -o - > "$T/dash"
check "report -o -: on stdout" grep -q '^#' "$T/dash"
"$STAGETOP" --headless --interval 0.1 --metrics "$T/out" -- sleep 0.5 > "$T/metrics-out" 2>/dev/null
check "--metrics onto a link to stdout: the metrics on stdout, the link stays" \
    sh -c "grep -q '^# TYPE' '$T/metrics-out' && test -L '$T/out'"

# --- item 6: outputs checked before the job starts -------------------------
mkdir "$T/ro"
mount -t tmpfs -o ro tmpfs "$T/ro"
for ext in json jsonl; do
    "$STAGETOP" --headless --record "$T/ro/x.$ext" -- sh -c "touch '$T/ran-$ext'" 2>"$T/ro-$ext.err"; rc=$?
    check "--record in a read-only directory (.$ext): refused ($rc), the job never ran" \
        sh -c "test $rc -ne 0 && test ! -e '$T/ran-$ext' && grep -q 'Read-only' '$T/ro-$ext.err'"
done
mkdir "$T/mdir"
"$STAGETOP" --headless --metrics "$T/mdir" -- sh -c "touch '$T/ran-m'" 2>"$T/m.err"; rc=$?
check "--metrics DIR: refused ($rc) before the job" \
    sh -c "test $rc -ne 0 && test ! -e '$T/ran-m' && grep -q 'is a directory' '$T/m.err'"
"$STAGETOP" --headless --interval 0.1 --record "$T/same.json" -- sh -c "touch '$T/first'; sleep 3" 2>/dev/null &
first=$!
remember_job $first
wait_for "the first run started its job" 10 test -e "$T/first"
"$STAGETOP" --headless --record "$T/same.json" -- sh -c "touch '$T/ran-2'" 2>"$T/two.err"; rc=$?
"$STAGETOP" --headless --overwrite --record "$T/same.json" -- sh -c "touch '$T/ran-3'" 2>"$T/three.err"; rc3=$?
check "a second --record same.json is refused while the first runs ($rc)" \
    sh -c "test $rc -ne 0 && test ! -e '$T/ran-2'"
check "... with --overwrite too ($rc3): another stagetop is recording to it" \
    sh -c "test $rc3 -ne 0 && test ! -e '$T/ran-3' && grep -q 'another stagetop' '$T/three.err'"
wait $first
check "the first run's trace is whole" "$STAGETOP" summary "$T/same.json"
"$STAGETOP" --headless --record "$T/gone.json" -- /nonexistent/cmd 2>/dev/null
check "a run that cannot start leaves no placeholder" test ! -e "$T/gone.json"
