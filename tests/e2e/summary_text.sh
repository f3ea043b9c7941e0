#!/bin/sh
# `stagetop summary --text` ([reports] 6) on every stageload fixture,
# checked against stageload's summarize() re-derived in python
# (tests/e2e/check_diff_report.py's expected()): the duration, the peak
# footprint, swap start -> peak and its growth (end - start:
# docs/metrics.md), the minimum level, one row per stage with its time, peak
# and min level; no escape byte; `summary` without --text stays JSON; bad
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
    if python3 - "$ROOT" "$f" "$tmp/out" >"$tmp/why" 2>&1 <<'PY'
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/tests/e2e")
from check_diff_report import expected

def b(v, sign=False):  # units.h's bytes: 3 significant digits, binary units
    s = ("-" if v < 0 else "+") if sign else ""
    v = abs(v)
    u = 0
    while v >= 1024 and u < 6:
        v /= 1024; u += 1
    if u == 0:
        return f"{s}{int(v)} B"
    d = 2 if v < 10 else 1 if v < 100 else 0
    return f"{s}{v:.{d}f} {['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'][u]}"

def lvl(v):
    return f"{v:g}%" if float(v).is_integer() else f"{v:.2f}%"

e = expected(sys.argv[2])
raw = open(sys.argv[3], "rb").read()
assert b"\x1b" not in raw, "an escape byte"
text = raw.decode()
lines = {l[:16].strip(): l[16:] for l in text.splitlines()[:6]}
def want(key, v):
    assert lines.get(key, "").startswith(v), f"{key}: {lines.get(key)!r}, expected {v!r}..."
dur = e["duration"]
want("duration", f"{int(dur) // 60}m{int(dur) % 60:02d}s" if dur >= 60 else f"{dur:.1f}s")  # whole seconds, cut
want("peak footprint", b(e["peak_footprint"]))
sw = e["swap"]
want("swap", f"{b(sw['start'])} start → {b(sw['peak'])} peak, growth {b(sw['end'] - sw['start'], True)}")
want("min level", lvl(e["min_level"]))
want("exit status", "–")
rows = [l.split() for l in text.splitlines()[7:]]
groups = []  # stage_table.h: one row per name, in the order names first appear
for s in e["stages"]:
    g = next((g for g in groups if g["stage"] == s["stage"]), None)
    if g is None:
        g = {"stage": s["stage"], "n": 0, "seconds": 0.0, "peaks": [], "levels": []}
        groups.append(g)
    g["n"] += 1
    g["seconds"] += s["seconds"]
    if s["peak_footprint"] is not None:
        g["peaks"].append(s["peak_footprint"])
    if s["min_level"] is not None:
        g["levels"].append(s["min_level"])
assert len(rows) == len(groups), f"{len(rows)} stage rows, expected {len(groups)}"
for r, g in zip(rows, groups):
    assert r[0] == g["stage"], (r, g["stage"])
    assert r[1] == str(g["n"]), (r, g["n"])
    assert r[2] == f"{g['seconds']:.1f}s", (r, g["seconds"])
    m = g["seconds"] / g["n"]
    assert r[3] == (f"{m:.2f}s" if m < 9.995 else f"{m:.1f}s"), (r, m)
    peak = r[4] if r[4] == "–" else " ".join(r[4:6])
    assert peak == (b(max(g["peaks"])) if g["peaks"] else "–"), r
    assert r[-1] == (lvl(min(g["levels"])) if g["levels"] else "–"), r
print(f"{len(rows)} stage rows of {len(e['stages'])} windows, peak {b(e['peak_footprint'])}, swap growth {b(sw['end'] - sw['start'], True)}")
PY
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
