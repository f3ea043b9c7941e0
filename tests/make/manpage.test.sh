#!/bin/sh
# The man page, docs/stagetop.1, linted on every make check: mandoc's lint
# (-T lint -W warning: warnings, errors and unsupported input; its style
# notes, such as lines over 80 bytes, are not reported) finds nothing.  A
# control: the same page with an unknown macro is reported, so a clean
# result means mandoc read the page; and it renders with its sections.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
need_tool "man page lint" mandoc mandoc || exit 0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

mandoc -T lint -W warning docs/stagetop.1 >"$T/lint" 2>&1; rc=$?
check "mandoc -T lint -W warning docs/stagetop.1: exit 0, nothing reported" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$T/lint' ] || { cat '$T/lint'; exit 1; }"
{ sed -n '1,/^\.SH DESCRIPTION/p' docs/stagetop.1; echo '.XQ bogus'
  sed '1,/^\.SH DESCRIPTION/d' docs/stagetop.1; } >"$T/bad.1"
mandoc -T lint -W warning "$T/bad.1" >"$T/bad" 2>&1; rc=$?
check "control: the page with an unknown macro is reported (exit $rc)" \
    sh -c "[ $rc -ne 0 ] && grep -q 'bad.1:.*unknown macro: .XQ' '$T/bad' || { cat '$T/bad'; exit 1; }"
n=$(grep -c '^\.SH ' docs/stagetop.1)
check "the page renders (mandoc -T html) with its $n section headings" \
    sh -c "[ \"\$(mandoc -T html docs/stagetop.1 | grep -c '<h1 class=.Sh.')\" -eq $n ] && [ $n -gt 10 ]"
