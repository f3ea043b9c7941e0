#!/bin/sh
# Runs every test of `make check` and ends with one line: "N passed, N failed, N skipped".
#  - cmocka unit binaries: $B/tests/test_*  (their own counts are read)
#  - shell tests: tests/e2e/*.sh and tests/*/*.test.sh.  A script prints
#    "PASS: name", "FAIL: name" or "SKIP: name: reason" lines, which are
#    counted; a script that prints none counts as one test by its exit code
#    (0 pass, 77 skip, else fail).
# ONLY=pattern runs the tests whose path contains pattern.
# Under CI (CI=true) a skip because a tool is missing ("SKIP: name: X is not
# installed", tests/lib/common.sh need_tool) counts as a failure: a green CI
# means every test ran.  Skips for other reasons (needs root, swap, Linux)
# stay skips and say why.
set -u
B=${1:-build}
export ST_BUILD="$B" STAGETOP="$PWD/$B/stagetop" WORKLOADS="$PWD/$B/workloads" ST_ROOT="$PWD"
[ -x "$STAGETOP" ] || STAGETOP="$PWD/stagetop"
pass=0 fail=0 skip=0 failed_names=""
log=$(mktemp); trap 'rm -f "$log"' EXIT

count() { # name, exit code; reads $log
    p=$(grep -c '^PASS: ' "$log"); f=$(grep -c '^FAIL: ' "$log"); s=$(grep -c '^SKIP: ' "$log")
    if grep -q '^\[==========\] .* test(s) run' "$log"; then   # cmocka
        p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
        f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
        s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
        grep '^\[  SKIPPED \] [a-z_]' "$log" | sed 's/^/    /'
    fi
    if [ "${CI:-}" = true ]; then   # a missing tool fails under CI
        m=$(grep -c '^SKIP: .*is not installed' "$log")
        f=$((f + m)); s=$((s > m ? s - m : 0))
        [ "$m" -eq 0 ] || grep '^SKIP: .*is not installed' "$log" | sed 's/^SKIP: /FAIL (CI=true, missing tool): /'
    fi
    if [ $((p + f + s)) -eq 0 ]; then
        case $2 in 0) p=1 ;; 77) s=1 ;; *) f=1 ;; esac
    elif [ "$2" -ne 0 ] && [ "$2" -ne 77 ] && [ "$f" -eq 0 ]; then
        f=1   # crashed or exited non-zero after passing lines
    fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    if [ "$f" -ne 0 ]; then
        failed_names="$failed_names $1"; echo "  FAILED: $1 (exit $2)"; sed 's/^/    | /' "$log" | tail -40
    else
        echo "  ok: $1 ($p passed, $s skipped)"
        grep '^SKIP: ' "$log" | sed 's/^/    /'
    fi
}

# GNU timeout (gtimeout from Homebrew's coreutils on macOS); none: no limit.
TIMEOUT=""
for t in timeout gtimeout; do command -v $t >/dev/null 2>&1 && { TIMEOUT="$t -k 10 900"; break; }; done

run_one() {
    for name; do :; done   # the last argument: the test's path
    case "$name" in *${ONLY:-}*) ;; *) return ;; esac
    $TIMEOUT "$@" >"$log" 2>&1 </dev/null; rc=$?
    count "$name" "$rc"
}

echo "== unit tests"
for t in "$B"/tests/test_*; do
    [ -x "$t" ] && run_one "$t"
done
echo "== shell tests"
for t in ${ST_TESTS:-tests/e2e/*.sh tests/*/*.test.sh}; do   # ST_TESTS: tests/lib/tools.test.sh
    [ -f "$t" ] || continue
    if [ "$(uname -s)" != Linux ]; then
        # They watch real processes through /proc (docs/macos.md).
        case "$t" in *${ONLY:-}*) echo "SKIP: $t: reads Linux /proc, not ported" >"$log"; count "$t" 77 ;; esac
        continue
    fi
    run_one sh "$t"
done
if [ "$(uname -s)" != Linux ]; then
    for t in tests/unit/test_tree_real.c tests/unit/test_linux_backend.c tests/unit/test_jobctl.c; do
        echo "SKIP: $t: drives processes through Linux /proc" >"$log"; count "$t" 77
    done
fi
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
