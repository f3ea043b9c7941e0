#!/bin/sh
# `stagetop summary FILE` against an independent re-derivation (python3,
# below) of stageload's summarize() semantics, for the real stageload
# fixtures and for our own edge-case traces (tests/fixtures/traces/good-*).
# Prints PASS/FAIL/SKIP lines per file.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
TOOL="$B/tools/trace-summary"   # our driver: until tui/main.c exists, and for --jsonl
if [ -n "${STAGETOP:-}" ] && [ -x "$STAGETOP" ]; then
    summary() { "$STAGETOP" summary "$1"; }
elif [ -x "$TOOL" ]; then
    summary() { "$TOOL" "$1"; }
else
    echo "SKIP: summary_vs_stageload: neither \$STAGETOP nor $TOOL is built"
    exit 0
fi
. "$ROOT/tests/lib/tools.sh"
need_tool summary_vs_stageload python3 python3 || exit 0

FIX="$ROOT/tests/fixtures/stageload"   # stageload's traces, shipped with the repo (SOURCE.md there)
files=$(ls "$FIX"/*.jsonl "$ROOT"/tests/fixtures/traces/good-*.jsonl 2>/dev/null)
[ -n "$files" ] || { echo "FAIL: summary_vs_stageload: no fixtures found"; exit 1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Each fixture as it is, and (with our driver) re-recorded by stagetop's
# JSONL recorder: stageload's way of reading must work on our files too.
if [ -x "$TOOL" ]; then
    for f in $files; do
        "$TOOL" --jsonl "$f" >"$tmp/rerecorded-$(basename "$f")" 2>/dev/null || true
    done
    files="$files $(ls "$tmp"/rerecorded-* 2>/dev/null)"
fi
for f in $files; do
    name=summary:$(basename "$f")
    if ! summary "$f" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: $name: exit $?: $(cat "$tmp/err")"; continue
    fi
    if python3 - "$f" "$tmp/out" >"$tmp/why" 2>&1 <<'PY'
import json, sys

def expected(path):
    """stageload's summary, re-derived: records in file order, then sorted by t."""
    recs = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                recs.append(json.loads(line))
    start = {}
    for r in recs:
        if r.get("type") == "start":
            start = r
            break
    samples = sorted((r for r in recs if r.get("type") == "sample"), key=lambda r: r["t"])
    events = sorted((r for r in recs if r.get("type") == "event"), key=lambda r: r["t"])
    out = {"meta": {k: v for k, v in start.items() if k != "type"}}
    if not samples:
        out.update(duration=0.0, peak_footprint=0, swap={}, min_level=None, stages=[])
    else:
        last = samples[-1]["t"]
        fps = [s["footprint"] for s in samples]
        sw = [s["swap_used"] for s in samples]
        out["duration"] = round(last - samples[0]["t"], 3)
        out["peak_footprint"] = max(fps)
        out["swap"] = {"start": sw[0], "peak": max(sw), "end": sw[-1]}
        out["min_level"] = min(s["level"] for s in samples)
        lf = [s["limit_free"] for s in samples if "limit_free" in s]
        if lf:  # stagetop's own key (0.4, docs/trace-format.md): the least room to a cgroup limit
            out["min_limit_free"] = min(lf)
        starts = [e for e in events if e["kind"] == "stage"]
        bounds = [(e["stage"], e["t"]) for e in starts]
        if not starts or starts[0]["t"] > 0:       # time before the first stage
            bounds.insert(0, ("setup", 0.0))
        stages = []
        for i, (name, t0) in enumerate(bounds):
            t1 = bounds[i + 1][1] if i + 1 < len(bounds) else last
            fp = [s["footprint"] for s in samples
                  if t0 <= s["t"] < t1 or (s["t"] == t1 and t1 == last)]
            stages.append({"stage": name, "seconds": round(t1 - t0, 3),
                           "peak_footprint": max(fp) if fp else None})
        out["stages"] = stages
    loads = [e for e in events if e["kind"] in ("load", "reload")]
    rel = [e for e in events if e["kind"] == "release"]
    out["loads"] = {"count": len(loads), "bytes": sum(e.get("nbytes", 0) for e in loads),
                    "seconds": round(sum(e.get("seconds", 0.0) for e in loads), 3)}
    out["releases"] = {"count": len(rel), "bytes": sum(e.get("nbytes", 0) for e in rel)}
    out["outside_stage"] = sorted({e["name"] for e in loads if e.get("note") == "outside_stage"})
    return out

def same(a, b, path):
    if isinstance(a, float) or isinstance(b, float):
        ok = isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) < 1e-9
        if not ok:
            print(f"{path}: expected {a!r}, got {b!r}")
        return ok
    if isinstance(a, dict):
        if not isinstance(b, dict) or set(a) != set(b):
            print(f"{path}: keys differ: expected {sorted(a) if isinstance(a, dict) else a}, got {sorted(b) if isinstance(b, dict) else b}")
            return False
        return all(same(a[k], b[k], f"{path}.{k}") for k in a)
    if isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            print(f"{path}: expected {a!r}, got {b!r}")
            return False
        return all(same(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b)))
    if a != b or type(a) != type(b):
        print(f"{path}: expected {a!r}, got {b!r}")
        return False
    return True

exp = expected(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as fh:
    got = json.load(fh)
kp = got.pop("kernel_peak", "missing")       # stagetop's addition
if kp is not None:
    print(f"kernel_peak: expected null for a stageload trace, got {kp!r}")
    sys.exit(1)
sys.exit(0 if same(exp, got, "summary") else 1)
PY
    then
        echo "PASS: $name"
    else
        echo "FAIL: $name: $(head -5 "$tmp/why" | tr '\n' ' ')"
    fi
done
