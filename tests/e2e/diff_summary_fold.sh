#!/bin/sh
# `stagetop diff` and `summary --text` fold a stagetop record as they read
# it (tui/say.c, cli_load_summary): on two generated records of 250,000
# samples and 40 stages each (bench/gen_record.py: names that repeat, loads,
# marks, releases, every lane), `diff --json A B`, `diff A B` and
# `summary --text` of each are checked against stageload's summarize()
# re-derived in python over the JSON (tests/e2e/check_diff_report.py:
# diffjson, difftext, summarytext); the --fail-peak verdict against the
# peak change python computes; and each command's peak RSS stays under
# 24 MiB (every sample kept, 112 bytes each, is 28 MB per record: the
# commands before the fold took 29 and 55 MB with 104-byte samples;
# folded, 9 to 15).  Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: diff_summary_fold: $ST is not built"; exit 0; }
. "$ROOT/tests/lib/common.sh"
need_tool diff_summary_fold python3 python3 || exit 0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
N=250000
python3 "$ROOT/bench/gen_record.py" "$T/a.jsonl" $N 40 1 &&
    python3 "$ROOT/bench/gen_record.py" "$T/b.jsonl" $N 40 2 || { echo "FAIL: cannot write the records"; exit 0; }
CHECK="$ROOT/tests/e2e/check_diff_report.py"

"$ST" diff --json "$T/a.jsonl" "$T/b.jsonl" >"$T/d.json" 2>"$T/d.err"; r1=$?
"$ST" diff "$T/a.jsonl" "$T/b.jsonl" >"$T/d.txt" 2>>"$T/d.err"; r2=$?
"$ST" summary --text "$T/a.jsonl" >"$T/a.txt" 2>>"$T/d.err"; r3=$?
"$ST" summary --text "$T/b.jsonl" >"$T/b.txt" 2>>"$T/d.err"; r4=$?
check "diff, diff --json and summary --text of $N-sample records end 0, say nothing on stderr" \
    sh -c "[ $r1$r2$r3$r4 = 0000 ] && [ ! -s '$T/d.err' ]"
python3 "$CHECK" diffjson "$T/a.jsonl" "$T/b.jsonl" "$T/d.json" + difftext "$T/a.jsonl" "$T/b.jsonl" "$T/d.txt" \
    + summarytext "$T/a.jsonl" "$T/a.txt" + summarytext "$T/b.jsonl" "$T/b.txt" + \
    pct "$T/a.jsonl" "$T/b.jsonl" >"$T/why" 2>&1; rc=$?
check "diff --json, diff and summary --text of two $N-sample, 40-stage records: python's summarize() numbers" \
    sh -c "[ $rc -eq 0 ] && cat '$T/why'"
# --fail-peak at python's peak change, just under and just over it
p=$(tail -1 "$T/why"); [ $rc -eq 0 ] || p=x
lo=$(awk -v p="$p" 'BEGIN { printf "%.6f", p - 0.001 }') hi=$(awk -v p="$p" 'BEGIN { printf "%.6f", p + 0.001 }')
"$ST" diff --fail-peak "$lo" "$T/a.jsonl" "$T/b.jsonl" >/dev/null 2>&1; g1=$?
"$ST" diff --fail-peak "$hi" "$T/a.jsonl" "$T/b.jsonl" >/dev/null 2>&1; g2=$?
check "--fail-peak below python's peak change ($p %) exits 1, above it 0" sh -c "[ $p != x ] && [ $g1 -eq 1 ] && [ $g2 -eq 0 ]"

case "$B" in
*san*) skip "diff/summary --text memory" "ASan's shadow memory and quarantine are not the program's" ;;
*)
    if need_tool "diff/summary --text memory" /usr/bin/time time; then
        /usr/bin/time -f '%M' -o "$T/rss1" "$ST" diff "$T/a.jsonl" "$T/b.jsonl" >/dev/null 2>&1; m1=$?
        /usr/bin/time -f '%M' -o "$T/rss2" "$ST" summary --text "$T/a.jsonl" >/dev/null 2>&1; m2=$?
        k1=$(tail -1 "$T/rss1") k2=$(tail -1 "$T/rss2")
        check "diff of two $N-sample records: peak RSS $k1 KiB < 24 MiB (the samples are let go)" \
            sh -c "[ $m1 -eq 0 ] && [ $k1 -lt 24576 ]"
        check "summary --text of $N samples: peak RSS $k2 KiB < 24 MiB" sh -c "[ $m2 -eq 0 ] && [ $k2 -lt 24576 ]"
    fi ;;
esac
