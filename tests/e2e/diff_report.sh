#!/bin/sh
# `stagetop diff`, `stagetop report` and `stagetop plot A B` on the real
# stageload fixtures (Qwen-Image eager vs staged), checked against
# tests/e2e/check_diff_report.py, which re-derives stageload's summarize()
# from the JSONL on its own:
#  - diff --json: per-stage times and peaks of both sides, the summaries,
#    the peak's change in percent, the duration and swap-growth changes;
#    with A and B as stagetop JSON, stagetop JSONL and stageload files;
#  - diff (text): a row per stage, the peak footprint row's change;
#  - --fail-peak, --fail-time: PCT just under the real change of the peak
#    (the duration) exits 1, just over 0, in both directions (A/B swapped);
#  - diff --json per stage: the time's change in seconds and percent, each
#    side's min level; overall the duration's change in percent; bad usage and bad input exit 2, the
#    error naming the file and line;
#  - report FILE, report A B: valid Markdown (python3-markdown: one table row
#    per stage with the right cells, the chart inside <pre><code>, no escape
#    bytes), also with hostile stage names (a|b, backtick runs, ESC, HTML);
#    -o writes the same text atomically (no temporary file left) and the
#    SVG chart beside it (r.md -> r.svg, `plot`'s bytes), linked; the text
#    chart(s) a block for python-markdown's defaults, cmark and cmark-gfm;
#  - plot A B: xmllint and rsvg-convert accept it; A solid, B dashed, both
#    runs' stage bands, a legend.
# Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: diff_report: $ST is not built"; exit 0; }
"$ST" diff --help >/dev/null 2>&1 || { echo "FAIL: diff_report: $ST has no diff command"; exit 1; }
# A missing tool is a skip, and under CI=true a failure (tests/lib/tools.sh);
# scripts/deps.sh installs each one this OS's tests ask for.
. "$ROOT/tests/lib/tools.sh"
need_tool diff_report python3 python3 || exit 0
if [ "$(uname -s)" = Darwin ]; then
    # Homebrew has no python3-markdown: the checker reads the tables with
    # cmark-gfm there.
    need_tool diff_report cmark-gfm cmark-gfm || exit 0
    PY=python3; export ST_MD=cmark-gfm
else
    need_py diff_report markdown python3-markdown || exit 0
    PY=$NEED_PY
fi
CHECK="$PY $ROOT/tests/e2e/check_diff_report.py"
TOOL="$B/tools/trace-summary"

FIX="$ROOT/tests/fixtures/stageload"
EAGER=$(ls "$FIX"/*qwen-image__eager-*.trace.jsonl 2>/dev/null | head -1)
STAGED=$(ls "$FIX"/*qwen-image__staged-*.trace.jsonl 2>/dev/null | head -1)
[ -n "$EAGER" ] && [ -n "$STAGED" ] || { echo "FAIL: diff_report: no eager/staged Qwen-Image pair in $FIX"; exit 1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# ---- diff --json, every format on either side ----
forms="stageload:$EAGER:$STAGED"
if [ -x "$TOOL" ]; then
    "$TOOL" --export "$EAGER" "$tmp/eager.json" && "$TOOL" --export "$STAGED" "$tmp/staged.json" &&
    "$TOOL" --jsonl "$EAGER" >"$tmp/eager.jsonl" && "$TOOL" --jsonl "$STAGED" >"$tmp/staged.jsonl" &&
        forms="$forms json:$tmp/eager.json:$tmp/staged.json jsonl:$tmp/eager.jsonl:$tmp/staged.jsonl mixed:$tmp/eager.json:$tmp/staged.jsonl"
else
    echo "SKIP: diff_report: formats: $TOOL is not built (only stageload files compared)"
fi
for f in $forms; do
    name=${f%%:*}; rest=${f#*:}; a=${rest%%:*}; b=${rest#*:}
    if "$ST" diff --json "$a" "$b" >"$tmp/d.json" 2>"$tmp/err" &&
       $CHECK diffjson "$EAGER" "$STAGED" "$tmp/d.json" >"$tmp/why" 2>&1; then
        pass "diff --json ($name): $(cat "$tmp/why")"
    else
        fail "diff --json ($name)" "$(cat "$tmp/err" "$tmp/why" 2>/dev/null | head -5 | tr '\n' ' ')"
    fi
done
# swapped sides
if "$ST" diff --json "$STAGED" "$EAGER" >"$tmp/d.json" 2>"$tmp/err" &&
   $CHECK diffjson "$STAGED" "$EAGER" "$tmp/d.json" >"$tmp/why" 2>&1; then
    pass "diff --json (staged vs eager): $(cat "$tmp/why")"
else
    fail "diff --json (staged vs eager)" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
fi

# ---- diff, text ----
if "$ST" diff "$EAGER" "$STAGED" >"$tmp/d.txt" 2>"$tmp/err" &&
   $CHECK difftext "$EAGER" "$STAGED" "$tmp/d.txt" >"$tmp/why" 2>&1; then
    pass "diff (text)"
else
    fail "diff (text)" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
fi

# ---- --fail-peak and --fail-time both ways, around the real change ----
gate() { # OPTION CHECK-KIND STDERR-PATTERN A B
    opt=$1 kind=$2 pat=$3; shift 3
    p=$($CHECK "$kind" "$1" "$2") || { fail "$opt" "cannot compute the change"; return; }
    below=$($PY -c "print(repr($p - 0.01))"); above=$($PY -c "print(repr($p + 0.01))")
    "$ST" diff "$opt" "$below" "$1" "$2" >/dev/null 2>"$tmp/err"; r1=$?
    "$ST" diff "$opt" "$above" "$1" "$2" >/dev/null 2>&1; r0=$?
    if [ "$r1" -eq 1 ] && [ "$r0" -eq 0 ] && grep -q "$pat" "$tmp/err"; then
        pass "$opt $(basename "$1") -> $(basename "$2"): change $p %: $below exits 1, $above exits 0"
    else
        fail "$opt $(basename "$1") -> $(basename "$2")" "change $p: $below gave $r1, $above gave $r0"
    fi
}
gate --fail-peak pct 'over the limit' "$EAGER" "$STAGED"
gate --fail-peak pct 'over the limit' "$STAGED" "$EAGER"
# (the duration: around the real change of the duration)
gate --fail-time timepct 'duration.*over the limit.*--fail-time' "$EAGER" "$STAGED"
gate --fail-time timepct 'duration.*over the limit.*--fail-time' "$STAGED" "$EAGER"

# ---- usage and bad input ----
"$ST" diff "$EAGER" >/dev/null 2>&1; r=$?
"$ST" diff --fail-peak lots "$EAGER" "$STAGED" >/dev/null 2>&1; r2=$?
[ "$r" -eq 2 ] && [ "$r2" -eq 2 ] && pass "diff: bad usage exits 2" || fail "diff: bad usage" "exit $r, $r2"
{ head -5 "$EAGER"; printf '{"type":"sample","t":3.0,"footprint":"many"}\n'; } >"$tmp/bad.jsonl"
"$ST" diff "$EAGER" "$tmp/bad.jsonl" >/dev/null 2>"$tmp/err"; r=$?
if [ "$r" -eq 2 ] && grep -q "bad.jsonl" "$tmp/err" && grep -q "line 6" "$tmp/err"; then
    pass "diff: bad input exits 2 naming file and line"
else
    fail "diff: bad input" "exit $r: $(cat "$tmp/err")"
fi
"$ST" report "$tmp/bad.jsonl" >/dev/null 2>"$tmp/err"; r=$?
[ "$r" -eq 1 ] && grep -q "line 6" "$tmp/err" && pass "report: bad input exits 1 naming the line" ||
    fail "report: bad input" "exit $r: $(cat "$tmp/err")"

# ---- report on each fixture ----
for f in "$FIX"/*.trace.jsonl; do
    n=$(basename "$f")
    if "$ST" report "$f" >"$tmp/r.md" 2>"$tmp/err" && $CHECK report "$f" "$tmp/r.md" >"$tmp/why" 2>&1; then
        pass "report $n: $(cat "$tmp/why")"
    else
        fail "report $n" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
    fi
done

# ---- hostile stage names ----
$PY - "$STAGED" "$tmp/hostile.jsonl" <<'PY'
import json, sys
names = iter(["a|b", "x````y <b>z</b> *em* [l](u) \x1b[31m\u202e", "``x`` ~~s~~ $m$ \\ &amp;"])
with open(sys.argv[1], encoding="utf-8") as src, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in src:
        r = json.loads(line) if line.strip() else None
        if r and r.get("type") == "event" and r.get("kind") == "stage":
            r["stage"] = next(names)
            line = json.dumps(r) + "\n"
        out.write(line)
PY
if "$ST" report "$tmp/hostile.jsonl" >"$tmp/h.md" 2>"$tmp/err" &&
   $CHECK report "$tmp/hostile.jsonl" "$tmp/h.md" >"$tmp/why" 2>&1 &&
   ! grep -q '^```' "$tmp/h.md"; then
    pass "report: hostile stage names stay in their cells and the chart's block holds"
else
    fail "report: hostile stage names" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
fi
if "$ST" report "$EAGER" "$tmp/hostile.jsonl" >"$tmp/hd.md" 2>"$tmp/err" &&
   $CHECK reportdiff "$EAGER" "$tmp/hostile.jsonl" "$tmp/hd.md" >"$tmp/why" 2>&1; then
    pass "report A B (hostile B): $(cat "$tmp/why")"
else
    fail "report A B (hostile B)" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
fi
if "$ST" diff "$EAGER" "$tmp/hostile.jsonl" >"$tmp/hd.txt" 2>&1 && ! grep -q "$(printf '\033')" "$tmp/hd.txt"; then
    pass "diff (text): no escape byte from a hostile stage name"
else
    fail "diff (text), hostile" "exit or ESC in the output"
fi

# ---- report A B, and -o ----
if "$ST" report "$EAGER" "$STAGED" >"$tmp/rd.md" 2>"$tmp/err" &&
   $CHECK reportdiff "$EAGER" "$STAGED" "$tmp/rd.md" >"$tmp/why" 2>&1; then
    pass "report A B: $(cat "$tmp/why")"
else
    fail "report A B" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
fi
mkdir "$tmp/out"
# -o r.md: r.svg beside it, the same bytes as `stagetop plot`, linked from
# the report (relative), which is otherwise the text printed to stdout.
if "$ST" report "$STAGED" -o "$tmp/out/r.md" 2>"$tmp/err" && "$ST" report "$STAGED" >"$tmp/stdout.md" &&
   grep -v '^!\[Memory over time\](r\.svg)$' "$tmp/out/r.md" | cat -s >"$tmp/nolink.md" &&
   cat -s "$tmp/stdout.md" | cmp -s - "$tmp/nolink.md" &&
   "$ST" plot "$STAGED" -o "$tmp/plot.svg" && cmp -s "$tmp/plot.svg" "$tmp/out/r.svg" &&
   [ "$(ls -A "$tmp/out" | tr '\n' ' ')" = "r.md r.svg " ]; then
    pass "report -o r.md: r.svg beside it (the plot's bytes), linked; no temporary file left"
else
    fail "report -o" "$(cat "$tmp/err"; ls -A "$tmp/out")"
fi
# The chart section as three parsers read it: the text chart a block with
# python-markdown's default extensions, cmark and cmark-gfm (on a Mac, whose
# Homebrew has no python3-markdown and whose cmark conflicts with cmark-gfm:
# cmark-gfm as CommonMark and with tables); the image linked.
charts=yes
[ -n "${ST_MD:-}" ] || need_tool "report charts" cmark cmark || charts=no
need_tool "report charts" cmark-gfm cmark-gfm || charts=no
if [ "$charts" = yes ]; then
    for c in "$tmp/out/r.md 1 r.svg" "$tmp/stdout.md 1" "$tmp/rd.md 2"; do
        if $CHECK charts $c >"$tmp/why" 2>&1; then
            pass "report charts $(basename "${c%% *}"): $(cat "$tmp/why")"
        else
            fail "report charts $(basename "${c%% *}")" "$(head -3 "$tmp/why" | tr '\n' ' ')"
        fi
    done
    mkdir "$tmp/cmp"
    if "$ST" report "$EAGER" "$STAGED" -o "$tmp/cmp/e vs s.md" 2>"$tmp/err" &&
       $CHECK charts "$tmp/cmp/e vs s.md" 2 "e%20vs%20s.svg" >"$tmp/why" 2>&1 &&
       "$ST" plot "$EAGER" "$STAGED" -o "$tmp/cmp.svg" && cmp -s "$tmp/cmp.svg" "$tmp/cmp/e vs s.svg"; then
        pass "report A B -o: the comparison plot beside it, linked (percent-encoded), two text charts"
    else
        fail "report A B -o" "$(cat "$tmp/err" "$tmp/why" | head -3 | tr '\n' ' '; ls -A "$tmp/cmp")"
    fi
fi
# no "beside" for a report into a directory or a FIFO: no SVG written there
mkdir "$tmp/nb" "$tmp/nb/adir"; mkfifo "$tmp/nb/p.md"
"$ST" report "$STAGED" -o "$tmp/nb/adir" 2>/dev/null; r1=$?
"$ST" report "$STAGED" -o "$tmp/nb/" 2>/dev/null; r2=$?
cat "$tmp/nb/p.md" >"$tmp/fifo.out" 2>/dev/null & reader=$!
"$ST" report "$STAGED" -o "$tmp/nb/p.md" 2>"$tmp/err"; r3=$?
kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
if [ "$r1" -eq 1 ] && [ "$r2" -eq 1 ] && [ ! -e "$tmp/nb/adir.svg" ] && [ ! -e "$tmp/nb/.svg" ] &&
   [ ! -e "$tmp/nb/p.svg" ]; then
    pass "report -o a directory or a FIFO: no SVG beside it (exit $r1, $r2, $r3)"
else
    fail "report -o non-regular" "exit $r1 $r2 $r3: $(ls -A "$tmp/nb" | tr '\n' ' ')"
fi
mkdir -p "$tmp/u/x.svg"   # the chart's name taken by a directory
"$ST" report "$STAGED" -o "$tmp/u/x.md" 2>"$tmp/err"; r=$?
[ "$r" -eq 1 ] && [ ! -e "$tmp/u/x.md" ] && grep -q "x.svg" "$tmp/err" &&
    pass "report -o: a chart that cannot be written fails the report, naming the chart" ||
    fail "report -o, unwritable chart" "exit $r: $(cat "$tmp/err")"
"$ST" report "$STAGED" -o "$tmp/missing/r.md" 2>"$tmp/err"; r=$?
[ "$r" -eq 1 ] && [ ! -e "$tmp/missing" ] && grep -q "missing" "$tmp/err" &&
    pass "report -o into a missing directory fails with a message" ||
    fail "report -o missing directory" "exit $r: $(cat "$tmp/err")"
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$tmp/ro"; chmod 555 "$tmp/ro"
    "$ST" report "$STAGED" -o "$tmp/ro/r.md" 2>"$tmp/err"; r=$?
    [ "$r" -eq 1 ] && [ -z "$(ls -A "$tmp/ro")" ] && pass "report -o into a read-only directory fails, leaving nothing" ||
        fail "report -o read-only" "exit $r: $(ls -A "$tmp/ro")"
else
    echo "SKIP: report -o read-only: running as root (permissions do not stop root)"
fi

# ---- plot A B ----
if "$ST" plot "$EAGER" "$STAGED" -o "$tmp/cmp.svg" 2>"$tmp/err" &&
   $CHECK svg "$EAGER" "$STAGED" "$tmp/cmp.svg" >"$tmp/why" 2>&1; then
    pass "plot A B: both runs, B dashed, both stage bands, a legend"
else
    fail "plot A B" "$(cat "$tmp/err" "$tmp/why" | head -5 | tr '\n' ' ')"
fi
if need_tool "plot A B: xmllint" xmllint libxml2-utils; then
    xmllint --noout "$tmp/cmp.svg" 2>"$tmp/err" && pass "plot A B: xmllint" || fail "plot A B: xmllint" "$(head -3 "$tmp/err")"
fi
if need_tool "plot A B: rsvg-convert" rsvg-convert librsvg2-bin; then
    if rsvg-convert "$tmp/cmp.svg" -o "$tmp/cmp.png" 2>"$tmp/err" &&
       $PY -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); sys.exit(not (d[:8]==b'\x89PNG\r\n\x1a\n' and struct.unpack('>II', d[16:24])==(1000,560)))" "$tmp/cmp.png"; then
        pass "plot A B: rsvg-convert renders 1000x560"
    else
        fail "plot A B: rsvg-convert" "$(head -3 "$tmp/err")"
    fi
fi
printf '{"type":"start","interval":0.5}\n' >"$tmp/empty.jsonl"
"$ST" plot "$EAGER" "$tmp/empty.jsonl" -o "$tmp/out/none.svg" 2>"$tmp/err"; r=$?
[ "$r" -eq 1 ] && [ ! -e "$tmp/out/none.svg" ] && [ "$(ls -A "$tmp/out" | tr '\n' ' ')" = "r.md r.svg " ] &&
    pass "plot A B: a trace without samples fails, leaving no file" ||
    fail "plot A B, no samples" "exit $r: $(cat "$tmp/err")"
