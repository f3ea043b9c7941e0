#!/bin/sh
# tests/run-tests.sh itself (JOBS), on small suites written here that say
# what they saw (ST_TESTS names them, ST_SERIAL is their tests/serial.txt):
#  - JOBS=3: a and b run together (each waits until the other has
#    started: one at a time, the first would time out), and c beside them;
#    c ends first, yet the results come in the list's order (a, b, c), then
#    the suite of the serial list, s, alone: none of the others runs while
#    it does (their start and end lines, in the order they were written);
#  - JOBS=1: one at a time, each started after the one before it ended;
#  - a suite runs with SIGINT as in the foreground (not ignored, as a
#    background job's is): kill -INT ends it;
#  - tests/serial.txt names suites that exist, each with a reason;
#  - the end: the ten slowest suites, the sum and the wall time, then
#    "failed: NAME" and the summary line last ("N passed, N failed, N
#    skipped": CI reads it, tests/lib/tools.test.sh too).
set -u
. "$(dirname "$0")/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# suite NAME BODY: $T/NAME.test.sh, which writes "start NAME" and "end NAME"
# in $T/trace around BODY
suite() {
    printf '%s\n' '#!/bin/sh' ". \"\$ST_ROOT/tests/lib/common.sh\"" "echo start $1 >>'$T/trace'" "$2" \
        "echo end $1 >>'$T/trace'" >"$T/$1.test.sh"
}
suite a "touch '$T/a.up'; if until_ok 20 test -e '$T/b.up'; then echo 'PASS: a saw b start'; else echo 'FAIL: a saw b start'; fi
until_ok 20 test -e '$T/c.done'"
suite b "touch '$T/b.up'; if until_ok 20 test -e '$T/a.up'; then echo 'PASS: b saw a start'; else echo 'FAIL: b saw a start'; fi
until_ok 20 test -e '$T/c.done'"
suite c "echo 'PASS: c'; touch '$T/c.done'"
suite s "echo 'PASS: s ran'"
suite int "sh -c 'kill -INT \$\$; echo \"FAIL: a suite ignores SIGINT\"'; echo 'PASS: int'"
echo "$T/s.test.sh    runs alone (this test's list)" >"$T/serial.txt"
runner() { # JOBS SUITES...: run-tests.sh on those suites, no unit tests
    _j=$1; shift
    : >"$T/trace"; rm -f "$T"/*.up "$T/c.done"
    (cd "$ST_ROOT" && env ONLY= CI= JOBS="$_j" ST_SERIAL="$T/serial.txt" ST_TESTS="$*" sh tests/run-tests.sh "$T/nobuild")
}

runner 3 "$T/s.test.sh" "$T/a.test.sh" "$T/b.test.sh" "$T/c.test.sh" >"$T/j3.out" 2>&1; rc=$?
check "JOBS=3: exit 0, 4 passed (a and b saw each other start: they ran together)" \
    sh -c "[ $rc -eq 0 ] && tail -1 '$T/j3.out' | grep -qx '4 passed, 0 failed, 0 skipped' || { cat '$T/j3.out'; exit 1; }"
check "JOBS=3: c ended before a and b" \
    sh -c "grep -n '^end' '$T/trace' | head -1 | grep -q 'end c\$' || { cat '$T/trace'; exit 1; }"
order() { grep -E '^  ok: |^== alone' "$T/j3.out" | sed 's|^  ok: .*/\([^/ ]*\) (.*|\1|'; }
got=$(echo $(order))
check "JOBS=3: the results in the list's order, the serial list's after a heading ($got)" \
    [ "$got" = 'a.test.sh b.test.sh c.test.sh == alone, one at a time (tests/serial.txt) s.test.sh' ]
check "JOBS=3: s started after every other suite had ended, and ran alone" \
    sh -c "[ \"\$(tail -2 '$T/trace' | tr '\n' ' ')\" = 'start s end s ' ] && [ \$(grep -c '^end' '$T/trace') -eq 4 ] ||
           { cat '$T/trace'; exit 1; }"
check "JOBS=3: each result line has its time" \
    sh -c "[ \$(grep -c '^  ok: .*, [0-9.]* s)\$' '$T/j3.out') -eq 4 ]"
check "JOBS=3: the end lists the slowest suites, the sum and the wall time, before the summary" \
    sh -c "sed -n '/^== time/,\$p' '$T/j3.out' | grep -q '^ *[0-9.]*  *all 4 suites one after another; [0-9.]* s wall (JOBS=3)\$' &&
           [ \$(sed -n '/^== time/,/all 4 suites/p' '$T/j3.out' | grep -c '/[a-z]*\.test\.sh\$') -eq 4 ] || { cat '$T/j3.out'; exit 1; }"

suite a "echo 'PASS: a'"
suite b "echo 'PASS: b'"
runner 1 "$T/a.test.sh" "$T/b.test.sh" "$T/c.test.sh" "$T/s.test.sh" "$T/int.test.sh" >"$T/j1.out" 2>&1; rc=$?
check "JOBS=1: exit 0, 5 passed" \
    sh -c "[ $rc -eq 0 ] && tail -1 '$T/j1.out' | grep -qx '5 passed, 0 failed, 0 skipped' || { cat '$T/j1.out'; exit 1; }"
check "JOBS=1: one at a time (each started after the one before it ended)" \
    sh -c "[ \"\$(echo \$(cat '$T/trace'))\" = 'start a end a start b end b start c end c start int end int start s end s' ] ||
           { cat '$T/trace'; exit 1; }"
check "a suite is ended by SIGINT, as in the foreground (JOBS=1)" \
    sh -c "grep -q '^  ok: .*int.test.sh (1 passed' '$T/j1.out' && ! grep -q 'ignores SIGINT' '$T/j1.out'"

suite bad "echo 'PASS: one'; echo 'FAIL: two'"
runner 2 "$T/a.test.sh" "$T/bad.test.sh" "$T/int.test.sh" >"$T/bad.out" 2>&1; rc=$?
check "JOBS=2, a failing suite: exit 1, 'failed: NAME' and the summary last" \
    sh -c "[ $rc -eq 1 ] && [ \"\$(tail -2 '$T/bad.out' | head -1)\" = 'failed: $T/bad.test.sh' ] &&
           tail -1 '$T/bad.out' | grep -qx '3 passed, 1 failed, 0 skipped' || { cat '$T/bad.out'; exit 1; }"
check "a suite is ended by SIGINT, as in the foreground (JOBS=2)" \
    sh -c "grep -q '^  ok: .*int.test.sh (1 passed' '$T/bad.out' && ! grep -q 'ignores SIGINT' '$T/bad.out'"

# tests/serial.txt names suites that exist, each with its reason
stale=$(awk '!/^#/ && NF { if (NF < 2) print $1 " (no reason)"; else if (system("test -f \"" ENVIRON["ST_ROOT"] "/" $1 "\"")) print $1 }' \
    "$ST_ROOT/tests/serial.txt")
check "tests/serial.txt: every line a suite that exists, with its reason ($(grep -c '^tests/' "$ST_ROOT/tests/serial.txt") suites)${stale:+: $stale}" \
    [ -z "$stale" ]
