#!/bin/sh
# `stagetop plot FILE` reads a file twice without keeping its samples
# (core/plot/plot_stream.c, docs/plot.md "Memory"); a pipe once, capped:
#  - on every fixture, the streamed chart is byte for byte the chart of the
#    whole trace ($ST_BUILD/tools/plot-svg, st_trace_load_file +
#    st_plot_svg_file), from the file and from a pipe;
#  - a generated 200,000-sample stagetop record (many samples per pixel
#    column, stages, a spike, a gap) is streamed in one read (the frame
#    guessed from the file's ends; at most one sample kept), gives the whole
#    trace's chart byte for byte, and each pixel
#    column holds exactly its lowest and highest footprint at their times,
#    as python3 computes them from the JSONL;
#  - where the ends do not tell the frame (a late mark mid-file), the file
#    is read twice, and the chart is still the whole trace's;
#  - a stageload trace whose samples are out of time order is read whole
#    (sorted), its chart the whole trace's;
#  - `plot A B` streams each file too: the whole traces' comparison, byte
#    for byte (a pipe beside a file as well);
#  - a pipe of more than 1,048,576 samples stops with exit 1, an error that
#    names the cap and says to plot a file, and no output file; the same
#    record as a file is plotted.
# Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
WHOLE="$B/tools/plot-svg"
. "$ROOT/tests/lib/tools.sh"
need_tool plot_stream python3 python3 || exit 0
[ -x "$ST" ] && [ -x "$WHOLE" ] || { echo "FAIL: plot_stream: build $ST and $WHOLE first"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# ---- every fixture: streamed = whole, from a file and from a pipe ----
n=0 bad=""
for f in $(find "$ROOT/tests/fixtures" \( -name '*.json' -o -name '*.jsonl' \) | sort); do
    rm -f "$tmp/w.svg" "$tmp/s.svg" "$tmp/p.svg"
    "$WHOLE" "$f" -o "$tmp/w.svg" >/dev/null 2>&1 || continue   # not a plottable trace
    n=$((n + 1))
    "$ST" plot "$f" -o "$tmp/s.svg" >/dev/null 2>&1 && cmp -s "$tmp/w.svg" "$tmp/s.svg" ||
        bad="$bad file:${f#"$ROOT"/}"
    "$ST" plot - -o "$tmp/p.svg" <"$f" >/dev/null 2>&1 && cmp -s "$tmp/w.svg" "$tmp/p.svg" ||
        bad="$bad pipe:${f#"$ROOT"/}"
done
if [ "$n" -lt 15 ]; then
    echo "FAIL: plot_stream: fixtures: only $n plottable fixtures found"
elif [ -n "$bad" ]; then
    echo "FAIL: plot_stream: fixtures: the streamed chart differs from the whole trace's:$bad"
else
    echo "PASS: plot_stream: fixtures: $n charts streamed (file and pipe) = the whole trace's"
fi

# ---- a decimated record ----
python3 - "$tmp/big.jsonl" 200000 <<'PY'
import random, sys
random.seed(7)
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write('{"type":"start","stagetop":"0.4.0","platform":"linux","utc":"2026-01-01T00:00:00+00:00",'
            '"interval":0.01,"mem_total":17179869184}\n')
    for i in range(n):
        if i % 40000 == 0:
            f.write('{"type":"event","kind":"stage","stage":"s%d","t":%.3f}\n' % (i // 40000, i * 0.01))
        fp = 2**30 + random.randrange(2**31) + (5 * 2**30 if i == 123457 else 0)
        if 150000 <= i < 150400:          # no footprint here: the line breaks
            f.write('{"type":"sample","t":%.3f,"level":%d}\n' % (i * 0.01, 40 + i % 50))
        else:
            f.write('{"type":"sample","t":%.3f,"footprint":%d,"level":%d}\n' % (i * 0.01, fp, 40 + i % 50))
    f.write('{"type":"end"}\n')
PY
if ! "$WHOLE" "$tmp/big.jsonl" -o "$tmp/bw.svg" --stream 2>"$tmp/bs.err" >/dev/null; then
    echo "FAIL: plot_stream: decimated: plot failed: $(cat "$tmp/bs.err")"
elif ! grep -q '^plot-svg: streamed 1, samples 200000, kept [01], reads 1$' "$tmp/bs.err"; then
    echo "FAIL: plot_stream: decimated: not streamed in one read: $(cat "$tmp/bs.err")"
else
    echo "PASS: plot_stream: decimated: 200000 samples streamed, at most one kept, one read (the frame guessed from the file's ends)"
fi
"$WHOLE" "$tmp/big.jsonl" -o "$tmp/bw0.svg" >/dev/null 2>&1
"$ST" plot "$tmp/big.jsonl" -o "$tmp/bs.svg" >/dev/null 2>&1
if [ -s "$tmp/bs.svg" ] && cmp -s "$tmp/bw0.svg" "$tmp/bs.svg"; then
    echo "PASS: plot_stream: decimated: the streamed chart is the whole trace's, byte for byte"
else
    echo "FAIL: plot_stream: decimated: the streamed chart differs from the whole trace's"
fi
if python3 - "$tmp/big.jsonl" "$tmp/bs.svg" >"$tmp/why" 2>&1 <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
samples = [r for r in recs if r.get("type") == "sample"]
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
W, H = int(root.get("width")), int(root.get("height"))
L, R, T, B = 74.0, W - 54.0, 80.0, H - 72.0
pw = int(R - L)
ts = [s["t"] for s in samples]          # every sample holds a drawn field (level)
tmin, tmax = min(ts), max(ts)
x0 = 0.0 if tmin <= 0.1 * (tmax - tmin) else tmin
x1 = max(tmax, x0 + 1.0)
# the left axis's top: its highest label ("12 GiB")
labels = [e for e in root.iter(NS + "g") if e.get("id") == "axis-left"][0]
num, unit = [t.text for t in labels.iter(NS + "text")][-1].split()
ymax = float(num) * {"KiB": 1024, "MiB": 2**20, "GiB": 2**30}[unit]
def xof(t):
    return min(max(L + (t - x0) / (x1 - x0) * (R - L), L), R)
def yof(v):
    return min(max(B - v / ymax * (B - T), T), B)
cols = {}
for s in samples:
    if "footprint" not in s:
        continue
    x, v = xof(s["t"]), s["footprint"]
    c = min(max(int(x - L), 0), pw - 1)
    k = cols.setdefault(c, [v, x, v, x])
    if v < k[0]: k[0], k[1] = v, x
    if v > k[2]: k[2], k[3] = v, x
want = []
for c in sorted(cols):
    vmin, xmin, vmax, xmax = cols[c]
    a, b = ((xmin, vmin), (xmax, vmax)) if xmin <= xmax else ((xmax, vmax), (xmin, vmin))
    want.append((a[0], yof(a[1])))
    if b != a:
        want.append((b[0], yof(b[1])))
g = [e for e in root.iter(NS + "g") if e.get("id") == "series-footprint"][0]
got, lines = [], 0
for e in g:                             # in drawing order: column by column
    if e.tag == NS + "polyline":
        lines += 1
        for p in e.get("points").split():
            x, y = p.split(",")
            got.append((float(x), float(y)))
    elif e.tag == NS + "circle":
        got.append((float(e.get("cx")), float(e.get("cy"))))
assert lines == 2, "the gap should break the footprint's line in two, got %d lines" % lines
assert len(got) == len(want), "%d points drawn, %d expected (two per column at most)" % (len(got), len(want))
assert len(cols) > 800 and len(samples) / len(cols) > 100, "not decimated: %d columns" % len(cols)
for (gx, gy), (wx, wy) in zip(got, want):
    assert abs(gx - wx) <= 0.051 and abs(gy - wy) <= 0.051, "drawn %s, expected %.2f,%.2f" % ((gx, gy), wx, wy)
top = min(y for _, y in got)
assert abs(top - yof(max(s.get("footprint", 0) for s in samples))) <= 0.051, "the spike is not on top"
print("%d columns, %d points" % (len(cols), len(got)))
PY
then
    echo "PASS: plot_stream: decimated: each column holds its min and max footprint ($(cat "$tmp/why"))"
else
    echo "FAIL: plot_stream: decimated: $(tail -3 "$tmp/why")"
fi

# ---- a frame the file's ends do not tell: read again ----
# (a mark in the middle of the record, stamped after its last sample, stretches
# the time axis: the head and the tail do not show it)
python3 - "$tmp/big.jsonl" "$tmp/late.jsonl" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
mid = len(lines) // 2
lines.insert(mid, '{"type":"event","kind":"mark","name":"late","t":2003.5}\n')
open(sys.argv[2], "w").writelines(lines)
PY
"$WHOLE" "$tmp/late.jsonl" -o "$tmp/lw.svg" >/dev/null 2>&1
"$WHOLE" "$tmp/late.jsonl" -o "$tmp/ls.svg" --stream 2>"$tmp/ls.err" >/dev/null
if ! grep -q '^plot-svg: streamed 1, samples 200000, kept [01], reads 2$' "$tmp/ls.err"; then
    echo "FAIL: plot_stream: wrong guess: not read again: $(cat "$tmp/ls.err")"
elif [ ! -s "$tmp/lw.svg" ] || ! cmp -s "$tmp/lw.svg" "$tmp/ls.svg"; then
    echo "FAIL: plot_stream: wrong guess: the chart differs from the whole trace's"
elif cmp -s "$tmp/lw.svg" "$tmp/bw0.svg"; then
    echo "FAIL: plot_stream: wrong guess: the late mark did not change the chart (no test)"
else
    echo "PASS: plot_stream: wrong guess: a late mark mid-file: read twice, the whole trace's chart"
fi

# ---- a stageload trace out of time order: read whole, sorted ----
python3 - "$tmp/ooo.jsonl" <<'PY'
import random, sys
random.seed(3)
ts = [i * 0.01 for i in range(30000)]
ts[100], ts[20000] = ts[20000], ts[100]     # two samples swapped
with open(sys.argv[1], "w") as f:
    f.write('{"type":"start","utc":"2026-01-01T00:00:00+00:00","interval":0.01}\n')
    for i, t in enumerate(ts):
        if i % 10000 == 0:
            f.write('{"type":"event","kind":"stage","stage":"s%d","t":%.3f}\n' % (i // 10000, i * 0.01))
        f.write('{"type":"sample","t":%.3f,"footprint":%d,"level":%d}\n'
                % (t, 2**30 + random.randrange(2**30) + (2**31 if i == 100 else 0), 50 + i % 30))
PY
"$WHOLE" "$tmp/ooo.jsonl" -o "$tmp/ow.svg" >/dev/null 2>&1
"$WHOLE" "$tmp/ooo.jsonl" -o "$tmp/os.svg" --stream 2>"$tmp/os.err" >/dev/null
if ! grep -q '^plot-svg: streamed 0, samples 0, kept 30000, reads 0$' "$tmp/os.err"; then
    echo "FAIL: plot_stream: out of order: not read whole: $(cat "$tmp/os.err")"
elif ! cmp -s "$tmp/ow.svg" "$tmp/os.svg"; then
    echo "FAIL: plot_stream: out of order: the chart differs from the whole trace's"
else
    echo "PASS: plot_stream: out of order: a stageload trace out of time order is read whole, sorted"
fi

# ---- plot A B: both files streamed, the whole traces' chart ----
"$WHOLE" "$tmp/big.jsonl" "$tmp/ooo.jsonl" -o "$tmp/cw.svg" >/dev/null 2>&1
"$ST" plot "$tmp/big.jsonl" "$tmp/ooo.jsonl" -o "$tmp/cs.svg" >"$tmp/cs.out" 2>&1
"$WHOLE" "$tmp/big.jsonl" "$tmp/ooo.jsonl" -o "$tmp/cs2.svg" --stream 2>"$tmp/cs2.err" >/dev/null
q="$ROOT/tests/fixtures/stageload/2026-10-06-qwen-image__staged-1.trace.jsonl"
"$WHOLE" - "$tmp/big.jsonl" -o "$tmp/qw.svg" <"$q" >/dev/null 2>&1
"$ST" plot - "$tmp/big.jsonl" -o "$tmp/qs.svg" <"$q" >/dev/null 2>&1
# B's last 100 KiB of samples hold no drawn field: its tail does not tell its end
python3 - "$tmp/big.jsonl" "$tmp/bare.jsonl" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)[:-1]
lines += ['{"type":"sample","t":%.3f}\n' % (2000 + i * 0.01) for i in range(4000)]
open(sys.argv[2], "w").writelines(lines + ['{"type":"end"}\n'])
PY
"$WHOLE" "$tmp/ooo.jsonl" "$tmp/bare.jsonl" -o "$tmp/gw.svg" >/dev/null 2>&1
"$WHOLE" "$tmp/ooo.jsonl" "$tmp/bare.jsonl" -o "$tmp/gs.svg" --stream 2>"$tmp/gs.err" >/dev/null
if [ ! -s "$tmp/cw.svg" ] || ! cmp -s "$tmp/cw.svg" "$tmp/cs.svg"; then
    echo "FAIL: plot_stream: plot A B: the streamed comparison differs from the whole traces': $(cat "$tmp/cs.out")"
elif ! grep -q 'big.jsonl: streamed 1, reads 1$' "$tmp/cs2.err" || ! grep -q 'ooo.jsonl: streamed 0, reads 0$' "$tmp/cs2.err"; then
    echo "FAIL: plot_stream: plot A B: A not streamed in one read, or B (out of order) not read whole: $(cat "$tmp/cs2.err")"
elif [ ! -s "$tmp/qw.svg" ] || ! cmp -s "$tmp/qw.svg" "$tmp/qs.svg"; then
    echo "FAIL: plot_stream: plot A B: a pipe beside a file differs from the whole traces' chart"
elif ! grep -q 'bare.jsonl: streamed 1, reads 2$' "$tmp/gs.err" || [ ! -s "$tmp/gw.svg" ] ||
     ! cmp -s "$tmp/gw.svg" "$tmp/gs.svg"; then
    echo "FAIL: plot_stream: plot A B: a wrong guess (B's tail without drawn fields) not read again, or its chart differs: $(cat "$tmp/gs.err")"
else
    echo "PASS: plot_stream: plot A B: streamed in one read (two when the guess is wrong), a pipe beside a file: the whole traces' chart"
fi

# ---- a pipe past the cap ----
python3 "$ST_ROOT/tests/tools/footprint_jsonl.py" "$tmp/cap.jsonl" 1048577
cat "$tmp/cap.jsonl" | "$ST" plot - -o "$tmp/cap.svg" >"$tmp/cap.out" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then
    echo "FAIL: plot_stream: pipe cap: exit $rc, expected 1: $(head -c 300 "$tmp/cap.out")"
elif ! grep -q 'more than 1048576 samples from a pipe' "$tmp/cap.out" ||
     ! grep -q 'write the record to a file and plot the file' "$tmp/cap.out"; then
    echo "FAIL: plot_stream: pipe cap: the error does not name the cap and the way out: $(cat "$tmp/cap.out")"
elif [ -e "$tmp/cap.svg" ]; then
    echo "FAIL: plot_stream: pipe cap: an output file was written"
else
    echo "PASS: plot_stream: pipe cap: 1048577 samples on a pipe: exit 1, the cap named, nothing written"
fi
if "$ST" plot "$tmp/cap.jsonl" -o "$tmp/capf.svg" >"$tmp/capf.out" 2>&1 && grep -q '1048577 samples' "$tmp/capf.svg"; then
    echo "PASS: plot_stream: pipe cap: the same record as a file is plotted (1048577 samples)"
else
    echo "FAIL: plot_stream: pipe cap: the record as a file: $(cat "$tmp/capf.out")"
fi
