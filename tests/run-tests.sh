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

# The checkout stays as it was: a test writes only in its own temporary
# directory.  After each test, git status (tracked and untracked files, not
# the ignored build outputs) and the list of the root's entries are what
# they were before it; a test that leaves something fails, naming it.
snapshot() {
    git -C "$ST_ROOT" status --porcelain --untracked-files=all 2>/dev/null
    # build/ is the build's own (ignored): a SANITIZE=1 pass builds in
    # build-san/, and macos_build.test.sh's objects go to build/macos, which
    # both passes share (mk/macos-build.mk), so on a fresh clone checked with
    # SANITIZE=1 alone that test is the one that makes build/.
    ls -A "$ST_ROOT" | grep -vx build
}

run_one() {
    for name; do :; done   # the last argument: the test's path
    case "$name" in *${ONLY:-}*) ;; *) return ;; esac
    before=$(snapshot)
    $TIMEOUT "$@" >"$log" 2>&1 </dev/null; rc=$?
    after=$(snapshot)
    if [ "$before" != "$after" ]; then
        echo "FAIL: $name left the checkout changed (it must write only in its temporary directory):" >>"$log"
        printf '%s\n' "$before" >"$log.before"; printf '%s\n' "$after" >"$log.after"
        diff "$log.before" "$log.after" | sed 's/^/    /' >>"$log"
        rm -f "$log.before" "$log.after"
    fi
    count "$name" "$rc"
}

echo "== unit tests"
for t in "$B"/tests/test_*; do
    [ -x "$t" ] && run_one "$t"
done
# The tests that need a fact only Linux has, each with its reason, are
# listed once in tests/linux-only.txt (the Makefile reads it too); elsewhere
# they are skipped with that reason, and every other one runs.
# (ST_OS=Darwin shows on Linux which tests a Mac skips.)
OS=${ST_OS:-$(uname -s)}
LINUX_ONLY_LIST="$ST_ROOT/tests/linux-only.txt"
linux_only() { # path: prints its reason, fails when it is not listed
    awk -v p="$1" '$1 == p { sub(/^[^ \t]+[ \t]+/, ""); print; found = 1 } END { exit !found }' \
        "$LINUX_ONLY_LIST"
}
echo "== shell tests"
for t in ${ST_TESTS:-tests/e2e/*.sh tests/*/*.test.sh}; do   # ST_TESTS: tests/lib/tools.test.sh
    [ -f "$t" ] || continue
    if [ "$OS" != Linux ] && why=$(linux_only "$t"); then
        case "$t" in *${ONLY:-}*) echo "SKIP: $t: Linux-only: $why" >"$log"; count "$t" 77 ;; esac
        continue
    fi
    run_one sh "$t"
done
if [ "$OS" != Linux ]; then   # the unit tests that were not built
    for t in $(awk '$1 ~ /^tests\/unit\// { print $1 }' "$LINUX_ONLY_LIST"); do
        case "$t" in *${ONLY:-}*) echo "SKIP: $t: Linux-only: $(linux_only "$t")" >"$log"; count "$t" 77 ;; esac
    done
fi
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
