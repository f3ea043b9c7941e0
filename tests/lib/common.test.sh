#!/bin/sh
# The shell tests' own helpers (tests/lib/common.sh), on real processes:
#  - cleanup_jobs ends every job a test started with all its descendants: a
#    remembered job's children (a job of a non-interactive shell leads no
#    process group, so killing its group misses them) and a background job
#    the test never remembered;
#  - until_ok and wait_for give up after their limit with a "timed out"
#    line, instead of polling until the runner's limit.
set -u
. "$(dirname "$0")/common.sh"
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# The helpers run in a child shell (cleanup_jobs there sees that shell's
# jobs); it writes the pids it started, then cleans up and exits.
cat >"$T/inner.sh" <<'EOF'
. "$ST_ROOT/tests/lib/common.sh"
T=$1
# a remembered job with two children; a job not remembered, with a grandchild
sh -c 'sleep 600 & echo $! >"$1.a"; sleep 601 & echo $! >"$1.b"; wait' sh "$T/kept" &
remember_job $!
echo $! >"$T/kept"
sh -c 'sh -c "sleep 602 & echo \$! >\"\$1\"; wait" sh "$1.c" & wait' sh "$T/loose" &
echo $! >"$T/loose"
wait_for "the children" 30 sh -c "test -s '$T/kept.b' && test -s '$T/loose.c'" || exit 1
: >"$T/ready"
cleanup_jobs
: >"$T/cleaned"
EOF
ST_WAIT_MIN=30 sh "$T/inner.sh" "$T" >"$T/inner.out" 2>&1
check "the inner shell started its jobs and called cleanup_jobs" \
    sh -c "test -e '$T/cleaned' || { cat '$T/inner.out'; exit 1; }"
# ended: no such process, or a zombie its (killed) parent left to init
ended() { [ -z "$(proc_state "$1")" ] || [ "$(proc_state "$1")" = Z ]; }
for f in kept kept.a kept.b loose loose.c; do
    pid=$(cat "$T/$f" 2>/dev/null)
    [ -n "$pid" ] && remember_job "$pid" # so that this test leaves nothing behind
    check "cleanup_jobs: $f (pid ${pid:-?}) is gone" until_ok 10 ended "${pid:-0}"
done

# until_ok / wait_for: a condition that never holds fails after the limit
# (ST_WAIT_MIN lowered to 1 s here) with a "timed out" line.
start=$(date +%s)
ST_WAIT_MIN=1 sh -c '. "$ST_ROOT/tests/lib/common.sh"; until_ok 2 false' >"$T/u.out" 2>&1
urc=$? took=$(( $(date +%s) - start ))
check "until_ok 2 false: fails (rc $urc) within 10 s (took ${took}s)" \
    sh -c "[ $urc -ne 0 ] && [ $took -le 10 ]"
check "until_ok says it timed out" grep -q 'timed out after 2s waiting: false' "$T/u.out"
