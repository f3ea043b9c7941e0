#!/bin/sh
# `stagetop plot FILE -o OUT.svg` on the real stageload fixtures, checked
# against numbers python3 derives from the same JSONL (independently):
#  - the SVG parses (xml.etree), has one stage band per stage event, with
#    its name, and every point inside the plot area;
#  - the footprint's highest point sits where the peak footprint falls on
#    the left axis (read from the axis labels), the level's lowest point
#    where the minimum level falls on the right axis;
#  - a real renderer (rsvg-convert) turns it into a 1000x560 PNG that is
#    not blank and shows the footprint's blue and the swap's vermillion
#    (Okabe-Ito: #0072B2, #D55E00);
#  - a trace without samples and an unwritable output fail, leaving no file.
# Uses $STAGETOP plot when that binary has the plot command, else the
# driver $ST_BUILD/tools/plot-svg (mk/tool-plot-svg.mk).  Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
if [ -n "${STAGETOP:-}" ] && [ -x "$STAGETOP" ] &&
   "$STAGETOP" --help 2>&1 | grep -q 'plot FILE'; then
    RUN="$STAGETOP plot"
elif [ -x "$B/tools/plot-svg" ]; then
    RUN="$B/tools/plot-svg"
else
    echo "SKIP: plot_render: neither \$STAGETOP with 'plot' nor $B/tools/plot-svg is built"
    exit 0
fi
. "$ROOT/tests/lib/tools.sh"
need_tool plot_render python3 python3 || exit 0
HAVE_RSVG=1
command -v rsvg-convert >/dev/null 2>&1 || HAVE_RSVG=0

FIX="$ROOT/tests/fixtures/stageload"   # stageload's traces, shipped with the repo (SOURCE.md there)
files=$(ls "$FIX"/*.trace.jsonl 2>/dev/null)
[ -n "$files" ] || { echo "FAIL: plot_render: no fixtures in $FIX"; exit 1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in $files; do
    base=$(basename "$f" .trace.jsonl)
    name=plot:$base
    svg="$tmp/$base.svg"
    if ! $RUN "$f" -o "$svg" >"$tmp/out" 2>&1; then
        echo "FAIL: $name: exit $?: $(cat "$tmp/out")"; continue
    fi
    if python3 - "$f" "$svg" >"$tmp/why" 2>&1 <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET

trace, svg = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(trace, encoding="utf-8") if l.strip()]
samples = sorted((r for r in recs if r.get("type") == "sample"), key=lambda r: r["t"])
stages = [r for r in recs if r.get("type") == "event" and r.get("kind") == "stage"]
peak = max(s["footprint"] for s in samples)
min_level = min(s["level"] for s in samples)

NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()            # well-formed, or this raises
assert root.tag == NS + "svg", root.tag
assert (root.get("width"), root.get("height")) == ("1000", "560")
by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
pa = by_id["plot-area"]
x0, y0 = float(pa.get("x")), float(pa.get("y"))
x1, y1 = x0 + float(pa.get("width")), y0 + float(pa.get("height"))

# one band per stage event, named in its tooltip
bands = [g for g in by_id["stages"] if g.get("class") == "stage"] if stages else []
assert len(bands) == len(stages), (len(bands), len(stages))
for g, ev in zip(bands, sorted(stages, key=lambda r: r["t"])):
    title = g.find(NS + "title").text
    assert title.startswith(ev["stage"] + ": "), (title, ev["stage"])

def pts(group):
    out = []
    for pl in group.iter(NS + "polyline"):
        for pair in pl.get("points").split():
            x, y = pair.split(",")
            out.append((float(x), float(y)))
    for c in group.iter(NS + "circle"):
        out.append((float(c.get("cx")), float(c.get("cy"))))
    return out

allp = []
for sid in ("series-footprint", "series-swap", "series-level"):
    p = pts(by_id[sid])
    assert p, sid + " has no points"
    allp += p
bad = [p for p in allp if not (x0 - 0.05 <= p[0] <= x1 + 0.05 and y0 - 0.05 <= p[1] <= y1 + 0.05)]
assert not bad, ("points outside the plot area", bad[:5])

def axis(gid, unit_re):
    """(value, y) of an axis' labels: its scale, read from the drawing."""
    out = []
    for t in by_id[gid].iter(NS + "text"):
        m = re.fullmatch(unit_re, t.text.strip())
        assert m, t.text
        out.append((float(m.group(1)) * {"GiB": 2**30, "MiB": 2**20, "KiB": 2**10, "%": 1}[m.group(2)],
                    float(t.get("y")) - 4))
    out.sort()
    return out

def y_of(scale, v):
    (va, ya), (vb, yb) = scale[0], scale[-1]
    return ya + (v - va) * (yb - ya) / (vb - va)

left = axis("axis-left", r"([0-9.]+) (GiB|MiB|KiB)")
assert left[0][0] == 0 and left[-1][0] >= peak, (left, peak)
fp_top = min(y for _, y in pts(by_id["series-footprint"]))
assert abs(fp_top - y_of(left, peak)) < 0.6, (fp_top, y_of(left, peak))
right = axis("axis-right", r"([0-9.]+) (%)")
lv_low = max(y for _, y in pts(by_id["series-level"]))
assert abs(lv_low - y_of(right, min_level)) < 0.6, (lv_low, y_of(right, min_level))

# the summary line states the peak as a person would read it
g = peak / 2**30
want = "peak footprint " + (f"{g:.2f}" if g < 10 else f"{g:.1f}") + " GiB"
text = " ".join(t.text or "" for t in root.iter(NS + "text"))
assert want in text, (want, text[:300])
print("ok")
PY
    then echo "PASS: $name: svg"
    else echo "FAIL: $name: svg: $(tail -3 "$tmp/why")"; continue
    fi
    if [ "$HAVE_RSVG" = 0 ]; then
        tool_missing "$name: png" rsvg-convert librsvg2-bin; continue
    fi
    if ! rsvg-convert "$svg" -o "$tmp/$base.png" 2>"$tmp/why"; then
        echo "FAIL: $name: png: rsvg-convert: $(cat "$tmp/why")"; continue
    fi
    if python3 - "$tmp/$base.png" >"$tmp/why" 2>&1 <<'PY'
import struct, sys, zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = ihdr
assert (w, h) == (1000, 560), (w, h)
assert depth == 8 and ctype in (2, 6) and interlace == 0, ihdr
bpp = 4 if ctype == 6 else 3
raw, stride = zlib.decompress(idat), w * bpp
rows, prev, i = [], bytearray(stride), 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
nonwhite = blue = red = 0
for line in rows:
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        alpha = line[x + 3] if bpp == 4 else 255
        assert alpha == 255, "transparent pixel: the white background is missing"
        if (r, g, b) != (255, 255, 255):
            nonwhite += 1
        if abs(r - 0x00) < 24 and abs(g - 0x72) < 24 and abs(b - 0xb2) < 24:  # #0072B2
            blue += 1
        if abs(r - 0xd5) < 24 and abs(g - 0x5e) < 24 and abs(b - 0x00) < 24:  # #D55E00
            red += 1
assert nonwhite > 0.05 * w * h, ("nearly blank", nonwhite)
assert blue > 300 and red > 300, ("series colours not drawn", blue, red)
print("ok", nonwhite, blue, red)
PY
    then echo "PASS: $name: png"
    else echo "FAIL: $name: png: $(tail -3 "$tmp/why")"
    fi
done

# No samples: an error naming the problem, and no file.
printf '{"type":"start","utc":"2026-01-01T00:00:00+00:00","interval":0.5}\n{"type":"end"}\n' >"$tmp/empty.jsonl"
if $RUN "$tmp/empty.jsonl" -o "$tmp/empty.svg" >"$tmp/out" 2>&1; then
    echo "FAIL: plot:empty: exit 0"
elif [ -e "$tmp/empty.svg" ] || ls -A "$tmp" | grep -q '^\.empty\.svg\.'; then
    echo "FAIL: plot:empty: left a file behind"
elif grep -q "no samples" "$tmp/out"; then
    echo "PASS: plot:empty"
else
    echo "FAIL: plot:empty: unclear message: $(cat "$tmp/out")"
fi

# An output directory that does not exist: an error, nothing written.
f=$(echo "$files" | head -1)
if $RUN "$f" -o "$tmp/missing/dir/out.svg" >"$tmp/out" 2>&1; then
    echo "FAIL: plot:bad-output: exit 0"
elif [ -e "$tmp/missing" ]; then
    echo "FAIL: plot:bad-output: created $tmp/missing"
else
    echo "PASS: plot:bad-output"
fi
