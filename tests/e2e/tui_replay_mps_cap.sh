#!/bin/sh
# The MPS cap on the screen ([mps] 2, docs/screen.md "The MPS cap"): a Mac
# trace replayed in tmux (160x40).  With ratios 0.8 + 0.8 (cap 0.8 x the
# recommended working set) and a two-process tree whose footprint passes
# the cap, a line of U+2500 crosses the footprint lane on the row where the
# cap's height falls, computed here from the fixture's own numbers and the
# lane's height read off the screen (the peak's column fills it), labelled
# "MPS cap X"; the metal lane (half the footprint here, under the cap) says
# "cap X, off scale"; the default ratio 1.7 (63.6 GiB on 48 GiB) says it
# off scale on the footprint lane and draws no line; a trace without MPS
# keys has neither.  q ends each.
set -u
. "$(dirname "$0")/tui_common.inc"
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
FX=$ROOT/tests/fixtures/mps
# the fixture: 0.8 + 0.8's start record, footprints in GiB, metal half of it
python3 - "$FX/mac-both-0.8.jsonl" "$T/over.jsonl" "$T/want" <<'PY' || echo "FAIL: no fixture"
import json, math, sys
start = json.loads(open(sys.argv[1]).readline())
G = 1 << 30
fps = [2, 10, 21, 40, 35, 12]
with open(sys.argv[2], "w") as out:
    out.write(json.dumps(start, separators=(",", ":")) + "\n")
    for i, fp in enumerate(fps):
        out.write(json.dumps({"type": "sample", "t": i * 0.5, "footprint": fp * G, "rss": fp * G,
                              "swap_used": 0, "level": 60, "procs": 2, "pressure": 1,
                              "metal": fp * G // 2}, separators=(",", ":")) + "\n")
cap = float(start["mps_high_watermark_ratio"]) * start["mps_recommended_max"]
def b(v):  # units.h's bytes: 3 significant digits, binary units
    u = 0
    while v >= 1024 and u < 6:
        v /= 1024; u += 1
    d = 2 if v < 10 else 1 if v < 100 else 0
    return f"{v:.{d}f} {['B', 'KiB', 'MiB', 'GiB', 'TiB'][u]}"
# cap / peak of the footprint (the graph's top, its bottom 0), and of metal
open(sys.argv[3], "w").write(f"{cap / (max(fps) * G)!r} {b(cap)}\n")
PY
read -r FRAC CAPTXT <"$T/want" 2>/dev/null || { FRAC=; CAPTXT=; }

start_pane over 160 40 "'$STAGETOP' replay '$T/over.jsonl'"
if wait_screen over 10 "6 samples"; then
    screen over >"$T/over.txt"
    python3 - "$T/over.txt" "$FRAC" "$CAPTXT" <<'PY'
import math, sys
rows = open(sys.argv[1]).read().split("\n")
frac, captxt = float(sys.argv[2]), sys.argv[3]
def check(name, ok, why=""):
    print(("PASS: " if ok else "FAIL: ") + name + ("" if ok else f": {why}"))
top = next(i for i, r in enumerate(rows) if r.startswith("footprint"))
end = next(i for i, r in enumerate(rows) if i > top and r.startswith("swap"))
# the lane's height: the peak's column is full from the lane's first row down
x = rows[top].index("\u2588")
h = 0
while top + h < end and len(rows[top + h]) > x and rows[top + h][x] == "\u2588":
    h += 1
e = max(1, min(8 * h, math.ceil(frac * 8 * h - 1e-9)))
want = top + h - 1 - (e - 1) // 8
lines = [i for i in range(top, end) if "\u2500" * 20 in rows[i]]
check(f"footprint lane ({h} rows from row {top}): the cap line on row {want}", lines == [want],
      f"line rows {lines}")
check(f"footprint lane: labelled 'MPS cap {captxt}'",
      any(r.startswith(f"MPS cap {captxt}") for r in rows[top:end]), rows[top:end])
mt = next((i for i, r in enumerate(rows) if r.startswith("Metal")), None)
me = next((i for i, r in enumerate(rows) if mt is not None and i > mt and not r.strip()), None)
check(f"metal lane (peak under the cap): 'cap {captxt}, off scale', no line",
      mt is not None and any(r.startswith(f"cap {captxt}, off scale") for r in rows[mt:me])
      and not any("\u2500" * 20 in r for r in rows[mt:me]), rows[mt:me] if mt else "no metal lane")
PY
else
    echo "FAIL: replay of the over-cap trace: no screen"
fi
tm send-keys -t over q
wait_screen over 10 "stagetop-exit=0" >/dev/null || echo "FAIL: the over-cap replay: q did not end it"

start_pane swap 160 40 "'$STAGETOP' replay '$FX/mac-high-1.7.jsonl'"
if wait_screen swap 10 "cap 63.6 GiB, off scale" && ! screen swap | sed -n '3,10p' | grep -q "────────────────────"; then
    echo "PASS: replay mac-high-1.7: 'cap 63.6 GiB, off scale' on the footprint lane, no line"
else
    echo "FAIL: replay mac-high-1.7: $(screen swap | sed -n '3,10p')"
fi
tm send-keys -t swap q

sed -e 's/,"mps_[a-z_]*":[^,}]*//g' "$T/over.jsonl" >"$T/plain.jsonl"
start_pane plain 160 40 "'$STAGETOP' replay '$T/plain.jsonl'"
if wait_screen plain 10 "6 samples" && ! screen plain | grep -q -E "cap [0-9]|────────────────────"; then
    echo "PASS: replay of a trace without MPS keys: no cap line, no cap word"
else
    echo "FAIL: replay of a trace without MPS keys: $(screen plain | grep -E 'cap [0-9]|────────────────────')"
fi
tm send-keys -t plain q
