#!/bin/sh
# `stagetop summary --text` ([reports] 6) on every stageload fixture,
# checked against stageload's summarize() re-derived in python
# (tests/e2e/check_diff_report.py summarytext): the duration, the peak
# footprint, swap start -> peak and its growth (end - start:
# docs/metrics.md), the minimum level, one row per stage name (windows, time,
# mean, peak, min level); no escape byte; `summary` without --text stays JSON; bad
# usage exits 2.  Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: summary_text: $ST is not built"; exit 0; }
. "$ROOT/tests/lib/tools.sh"
need_tool summary_text python3 python3 || exit 0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in "$ROOT"/tests/fixtures/stageload/*.trace.jsonl; do
    n=$(basename "$f")
    if ! "$ST" summary --text "$f" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: summary --text $n: exit $?: $(cat "$tmp/err")"; continue
    fi
    if python3 "$ROOT/tests/e2e/check_diff_report.py" summarytext "$f" "$tmp/out" >"$tmp/why" 2>&1
    then
        echo "PASS: summary --text $n: $(cat "$tmp/why")"
    else
        echo "FAIL: summary --text $n: $(tail -2 "$tmp/why" | tr '\n' ' ')"
    fi
done
f=$(ls "$ROOT"/tests/fixtures/stageload/*.trace.jsonl | head -1)
if "$ST" summary "$f" | python3 -c 'import json,sys; json.load(sys.stdin)' &&
   "$ST" summary "$f" --text | grep -q '^peak footprint'; then
    echo "PASS: summary stays JSON; --text after the file works too"
else
    echo "FAIL: summary: JSON or --text after the file"
fi
"$ST" summary --text >/dev/null 2>&1; r=$?
"$ST" summary --text a b >/dev/null 2>&1; r2=$?
[ "$r" -eq 2 ] && [ "$r2" -eq 2 ] && echo "PASS: summary --text: bad usage exits 2" ||
    echo "FAIL: summary --text: bad usage exits $r, $r2"
