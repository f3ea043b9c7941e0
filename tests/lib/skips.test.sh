#!/bin/sh
# No silent skip: a test that cannot run for want of a tool says so through
# the one rule (need_tool, tests/lib/tools.sh), which is a failure under
# CI=true; so a green CI run means every test ran.
#  - every skip a test prints itself (`skip NAME REASON`, `echo "SKIP: ..."`)
#    is read from the tests: none may name a tool scripts/deps.sh installs on
#    this OS unless that file asks need_tool for the tool first (its skip is
#    then for something else: "unshare --mount is refused here"); elsewhere
#    than Linux, the tests of tests/linux-only.txt do not run and are not read;
#  - diff_report.sh and doctor.sh, run under CI=true on a PATH without one
#    tool that deps.sh installs (cmark-gfm, free), fail naming it, and print
#    no SKIP that names it; without CI, the same is a skip; run-tests.sh
#    under CI=true fails the run;
#  - a Linux-only test stays a skip on a Mac under CI=true (ST_OS=Darwin).
set -u
. "$(dirname "$0")/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
OS=$(uname -s)
tools=$(sh "$ST_ROOT/scripts/deps.sh" tools | sort -u)

# The reasons of the skips the tests print themselves: FILE@@LINE@@REASON.
for f in "$ST_ROOT"/tests/*/*.sh "$ST_ROOT"/tests/e2e/*.inc; do
    rel=tests/${f#"$ST_ROOT"/tests/}
    case $rel in tests/lib/tools.sh | tests/lib/common.sh | tests/lib/skips.test.sh) continue ;; esac
    [ "$OS" = Linux ] || ! grep -q "^$rel " "$ST_ROOT/tests/linux-only.txt" || continue
    grep -n '' "$f" | grep -v -E '^[0-9]+: *#' |
        sed -E -n -e 's/^([0-9]+):.*(^|[^_A-Za-z])skip +("[^"]*"|[^ "]+) +"([^"]*)".*/\1@@\4/p' \
                  -e "s/^([0-9]+):.*echo [\"']SKIP: [^:]*: ([^\"']*).*/\\1@@\\2/p" |
        while IFS= read -r l; do echo "$rel@@$l"; done
done >"$T/reasons"
n=$(wc -l <"$T/reasons")
: >"$T/bad"
while IFS= read -r l; do
    file=${l%%@@*} l=${l#*@@}; line=${l%%@@*} reason=${l#*@@}
    for w in $(printf '%s\n' "$reason" | tr -c 'A-Za-z0-9_./+-' ' '); do
        echo "$tools" | grep -qx -- "$w" || continue
        # asked for through the rule first: this skip is for something else
        grep -v '^ *#' "$ST_ROOT/$file" | grep -q -E "(need_tool|tool_missing) +(\"[^\"]*\"|[^ \"]+) +$w( |\$)" && continue
        echo "$file:$line: names $w: $reason" >>"$T/bad"
    done
done <"$T/reasons"
check "no test prints its own skip for a tool deps.sh installs ($n skips read, tools: $(echo $tools))" \
    sh -c "[ $n -gt 20 ] && [ ! -s '$T/bad' ] || { cat '$T/bad'; exit 1; }"

# hide TOOL: a PATH ($T/path-TOOL) of every command on this PATH but TOOL.
hide() {
    _h="$T/path-$1"; mkdir -p "$_h"
    _IFS=$IFS; IFS=:
    for _d in $PATH; do
        [ -d "$_d" ] || continue
        IFS=$_IFS
        ln -s "$_d"/* "$_h"/ 2>/dev/null # the first of a name wins, as on the PATH
        IFS=:
    done
    IFS=$_IFS
    rm -f "$_h/$1"
    echo "$_h"
}

# diff_report.sh without cmark-gfm (the issue's fresh clone: CI green with
# "SKIP: report charts: needs cmark, cmark-gfm and python3-markdown").
if echo "$tools" | grep -qx cmark-gfm && need_tool "diff_report without cmark-gfm" cmark-gfm cmark-gfm; then
    P=$(hide cmark-gfm)
    (cd "$ST_ROOT" && PATH="$P" CI=true sh tests/e2e/diff_report.sh) >"$T/dr-ci.out" 2>&1
    (cd "$ST_ROOT" && PATH="$P" CI= sh tests/e2e/diff_report.sh) >"$T/dr.out" 2>&1
    check "diff_report.sh under CI=true without cmark-gfm: FAIL names it, no SKIP names it" \
        sh -c "grep -q '^FAIL: .*cmark-gfm is not installed' '$T/dr-ci.out' &&
               ! grep '^SKIP: ' '$T/dr-ci.out' | grep -q cmark || { cat '$T/dr-ci.out'; exit 1; }"
    check "diff_report.sh without cmark-gfm, not under CI: a SKIP that says it is not installed" \
        sh -c "grep -q '^SKIP: .*cmark-gfm is not installed' '$T/dr.out' && ! grep -q '^FAIL' '$T/dr.out' ||
               { cat '$T/dr.out'; exit 1; }"
    (cd "$ST_ROOT" && PATH="$P" CI=true ONLY=tests/e2e/diff_report.sh sh tests/run-tests.sh "$ST_BUILD") >"$T/run.out" 2>&1
    rc=$?
    check "run-tests.sh under CI=true without cmark-gfm: the run fails (exit $rc)" \
        sh -c "[ $rc -ne 0 ] && tail -1 '$T/run.out' | grep -q ' [1-9][0-9]* failed' || { tail -5 '$T/run.out'; exit 1; }"
fi

# doctor.sh (Linux) without free, a reference of its level.
if [ "$OS" = Linux ] && need_tool "doctor without free" free procps; then
    P=$(hide free)
    (cd "$ST_ROOT" && PATH="$P" CI=true sh tests/e2e/doctor.sh) >"$T/doc.out" 2>&1
    check "doctor.sh under CI=true without free: FAIL names it, no SKIP" \
        sh -c "grep -q '^FAIL: doctor: free is not installed' '$T/doc.out' && ! grep -q '^SKIP' '$T/doc.out' ||
               { cat '$T/doc.out'; exit 1; }"
fi

# A Linux-only test stays a skip under CI=true on a Mac (its reason may name
# a Linux tool: events_leave.test.sh's setpriv).
(cd "$ST_ROOT" && CI=true ST_OS=Darwin ONLY=tests/faults/events_leave.test.sh sh tests/run-tests.sh "$T/nobuild") \
    >"$T/mac.out" 2>&1
check "under CI=true on a Mac (ST_OS=Darwin), a Linux-only test is a skip, not a failure" \
    sh -c "grep -q '^ *SKIP: tests/faults/events_leave.test.sh: Linux-only: .*setpriv' '$T/mac.out' &&
           tail -1 '$T/mac.out' | grep -qx '0 passed, 0 failed, 1 skipped' || { cat '$T/mac.out'; exit 1; }"
