#!/bin/sh
# Headless mode reports the run's warnings list as the screen shows it
# (include/stagetop/run_view.h): here a malformed line of the --events file,
# which headless mode used to keep to itself.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# A line that is neither a plain event line nor JSON; then a good one.
printf '%s\n' '{"type":"event","t":' > "$T/ev.jsonl"
: > "$T/err"
# The job lives until stagetop has said something about the events file
# (or 60 s), so the follower had its turns.
"$STAGETOP" --headless --interval 0.05 --events "$T/ev.jsonl" -- \
    sh -c 'i=0; while [ $i -lt 600 ] && ! grep -q "events" "$1"; do sleep 0.1; i=$((i+1)); done' \
    sh "$T/err" 2>"$T/err"
rc=$?
check "the job ends by itself (exit 0)" [ $rc -eq 0 ]
check "headless names the --events read failure on stderr" \
    grep -q 'stagetop: events: 1 bad line' "$T/err"
check "it says it once" sh -c "[ \$(grep -c 'stagetop: events:' '$T/err') -eq 1 ]"

# A good file: no warning at all.
printf '%s\n' 'mark hello' > "$T/good.jsonl"
"$STAGETOP" --headless --interval 0.05 --events "$T/good.jsonl" -- sh -c 'exit 0' 2>"$T/err2"
check "a good --events file gives no warning" sh -c "! grep -q 'stagetop: events' '$T/err2'"
