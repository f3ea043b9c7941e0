#!/bin/sh
# `stagetop plot A B` as a reader sees it ([reports] 5), on the real
# eager/staged fixtures and on a pair with long file names and GPU lanes:
#  - xmllint accepts the SVG and rsvg-convert renders it;
#  - the title and the run lines are not cut: each run line holds its peak
#    footprint, swap rise and duration; a shortened label keeps the whole
#    line in a <title>; every upright <text>'s estimated width (0.58 em per
#    code point, 0.62 bold) lies inside the view box;
#  - one style rule: every lane of A solid, every lane of B dashed, and the
#    same colour for a lane in both runs; the lanes' colours differ and come
#    from Okabe-Ito's colour-blind safe palette; the single plot draws
#    every lane solid too;
#  - one legend: it names both runs with their line style (solid, dashed)
#    and every lane drawn.
# Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: plot_cmp: $ST is not built"; exit 0; }
. "$ROOT/tests/lib/tools.sh"
need_tool plot_cmp python3 python3 || exit 0
need_tool plot_cmp xmllint libxml2-utils || exit 0
need_tool plot_cmp rsvg-convert librsvg2-bin || exit 0
FIX="$ROOT/tests/fixtures/stageload"
EAGER=$(ls "$FIX"/*qwen-image__eager-*.trace.jsonl | head -1)
STAGED=$(ls "$FIX"/*qwen-image__staged-*.trace.jsonl | head -1)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# a pair with long names, GPU memory and a long command
python3 - "$tmp" <<'PY'
import json, random, sys
random.seed(7)
for side, mult in (("a", 1.0), ("b", 1.4)):
    name = f"{sys.argv[1]}/{side}-very-long-trace-file-name-from-a-nightly-benchmark-run-" + "x" * 40 + ".jsonl"
    with open(name, "w") as f:
        f.write(json.dumps({"type": "start", "stagetop": "0.3.0", "interval": 1,
                            "command": "python generate.py --model some/really-long-model-name --steps 50 " + side * 30}) + "\n")
        for i in range(120):
            f.write(json.dumps({"type": "sample", "t": i, "footprint": int(mult * (2 + i % 7) * 2**30),
                                "swap_used": int((1 + i / 60) * 2**30), "level": 40 + random.randint(0, 30),
                                "gpu": int(mult * 3 * 2**30)}) + "\n")
        for t, st in ((0, "load"), (40, "denoise"), (100, "decode")):
            f.write(json.dumps({"type": "event", "kind": "stage", "t": t, "stage": st}) + "\n")
PY
LONG_A=$(ls "$tmp"/a-very-long-*.jsonl); LONG_B=$(ls "$tmp"/b-very-long-*.jsonl)

check() { # NAME SVG
    python3 - "$2" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"}
root = ET.parse(sys.argv[1]).getroot()
W, H = float(root.get("width")), float(root.get("height"))
ids = {e.get("id"): e for e in root.iter() if e.get("id")}
def fail(m):
    print(m); sys.exit(1)
def own_text(t):  # the text drawn: without a <title> child (a tooltip)
    return (t.text or "") + "".join((c.tail or "") for c in t)
texts = [t for t in root.iter(NS + "text")]
# every upright text inside the view box (estimated width)
for t in texts:
    if t.get("transform") or t.get("x") is None:
        continue
    s = own_text(t)
    fs = float(t.get("font-size") or 12)
    w = len(s) * fs * (0.62 if t.get("font-weight") == "bold" else 0.58)
    x = float(t.get("x"))
    a = t.get("text-anchor") or "start"
    lo, hi = (x, x + w) if a == "start" else (x - w, x) if a == "end" else (x - w / 2, x + w / 2)
    if lo < -0.5 or hi > W + 0.5:
        fail(f"text {s!r} spans {lo:.0f}..{hi:.0f}, outside 0..{W:.0f}")
runs = [t for t in texts if re.match(r"[AB]: .*peak footprint", own_text(t))]
if len(runs) != 2:
    fail(f"{len(runs)} run lines")
for t, side in zip(runs, "AB"):
    s = own_text(t)
    if not s.startswith(side + ": "):
        fail(f"run line {s!r}")
    if not re.search(r"peak footprint [0-9.]+ [KMG]i?B.* · swap rise [^·]+ · [0-9]+(m[0-9]+)?(\.[0-9])?s$|"
                     r"peak footprint [0-9.]+ [KMG]i?B.* · swap rise [^·]+ · [0-9hms.]+$", s):
        fail(f"run line {s!r}: its numbers are cut")
    if "…" in s and t.find(NS + "title") is None:
        fail(f"run line {s!r} is shortened without a <title> holding it whole")
    if t.find(NS + "title") is not None and "peak footprint" not in t.find(NS + "title").text:
        fail("the run line's <title> is not the whole line")
title = texts[0]
if "…" in own_text(title) and title.find(NS + "title") is None:
    fail("the title is shortened without a <title>")
lanes = [k[len("a-series-"):] for k in ids if k.startswith("a-series-")]
colours = {}
for lane in lanes:
    a, b = ids["a-series-" + lane], ids.get("b-series-" + lane)
    if a.get("stroke-dasharray") not in (None, "none"):
        fail(f"A's {lane} is dashed")
    if b is not None and b.get("stroke-dasharray") in (None, "none"):
        fail(f"B's {lane} is not dashed")
    if b is not None and b.get("stroke") != a.get("stroke"):
        fail(f"{lane}: A {a.get('stroke')}, B {b.get('stroke')}")
    colours[lane] = a.get("stroke").upper()
if len(set(colours.values())) != len(colours) or not set(colours.values()) <= OKABE_ITO:
    fail(f"lane colours {colours}: not distinct Okabe-Ito colours")
legend = ids.get("legend")
if legend is None:
    fail("no legend")
lt = " ".join(own_text(t) for t in legend.iter(NS + "text"))
for need in ("A (solid): ", "B (dashed): ", "footprint", "swap used", "memory available"):
    if need not in lt:
        fail(f"legend {lt!r} lacks {need!r}")
if sum(1 for e in root.iter() if e.get("id") == "legend") != 1:
    fail("more than one legend")
print(f"{len(texts)} texts inside {W:.0f}x{H:.0f}; lanes {colours}; run lines whole")
PY
}
for pair in "fixtures:$EAGER:$STAGED" "long names:$LONG_A:$LONG_B"; do
    name=${pair%%:*}; rest=${pair#*:}; a=${rest%%:*}; b=${rest#*:}
    if ! "$ST" plot "$a" "$b" -o "$tmp/c.svg" 2>"$tmp/err"; then
        echo "FAIL: plot_cmp ($name): $(cat "$tmp/err")"; continue
    fi
    if xmllint --noout "$tmp/c.svg" 2>"$tmp/err" && rsvg-convert "$tmp/c.svg" -o "$tmp/c.png" 2>>"$tmp/err" &&
       [ -s "$tmp/c.png" ]; then
        echo "PASS: plot_cmp ($name): xmllint accepts it, rsvg-convert renders it"
    else
        echo "FAIL: plot_cmp ($name): xmllint/rsvg-convert: $(head -3 "$tmp/err" | tr '\n' ' ')"
    fi
    if check "$name" "$tmp/c.svg" >"$tmp/why" 2>&1; then
        echo "PASS: plot_cmp ($name): $(cat "$tmp/why")"
    else
        echo "FAIL: plot_cmp ($name): $(head -3 "$tmp/why" | tr '\n' ' ')"
    fi
done
# the single plot follows the same rule: every lane solid
"$ST" plot "$LONG_A" -o "$tmp/one.svg" 2>"$tmp/err"
if python3 - "$tmp/one.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
s = [e for e in root.iter() if (e.get("id") or "").startswith("series-")]
bad = [e.get("id") for e in s if e.get("stroke-dasharray") not in (None, "none")]
sys.exit(1 if bad or len(s) < 4 else 0)
PY
then
    echo "PASS: plot_cmp: the single plot draws every lane solid (one style rule)"
else
    echo "FAIL: plot_cmp: the single plot dashes a lane: $(cat "$tmp/err")"
fi
