#!/bin/sh
# The reports, summaries and comparisons pasted into README.md and
# docs/report.md are what the built binary prints today: each block marked
# <!-- output: stagetop ... --> is regenerated from the fixtures and
# compared (tests/e2e/check_docs_output.py; `--update` rewrites them).
# Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: diff_report_docs: $ST is not built"; exit 0; }
. "$ROOT/tests/lib/tools.sh"
need_tool diff_report_docs python3 python3 || exit 0
case "$ST" in /*) ;; *) ST="$(pwd)/$ST" ;; esac
if python3 "$ROOT/tests/e2e/check_docs_output.py" "$ST" "$ROOT" "$ROOT/README.md" \
       "$ROOT/docs/report.md" >"${TMPDIR:-/tmp}/docs_output.$$" 2>&1; then
    echo "PASS: diff_report_docs: $(tail -1 "${TMPDIR:-/tmp}/docs_output.$$")"
else
    echo "FAIL: diff_report_docs: $(head -8 "${TMPDIR:-/tmp}/docs_output.$$" | tr '\n' ' ')"
fi
rm -f "${TMPDIR:-/tmp}/docs_output.$$"
