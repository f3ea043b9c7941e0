#!/bin/sh
# A Mac trace's metal and tree_compressed lanes ([mps] 3) and its system
# lane gpu_system ([mps] 4) read on this machine, whatever it is: `stagetop
# summary` writes their peaks (peak_metal, peak_tree_compressed,
# peak_gpu_system), `report` and `diff` show their rows; a Linux trace, which
# has none of the keys, shows none, nor does a Mac trace without gpu_system.
# The gpu_system trace is the fixture with the key added to each sample
# here (the tree's Metal memory plus 1.5 GiB of other programs', a value of
# its own per sample).  The expected values are the traces' own samples'
# maxima, computed here.  Prints PASS/FAIL lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: report_mac_lanes: $ST is not built"; exit 0; }
. "$ROOT/tests/lib/tools.sh"
need_tool report_mac_lanes python3 python3 || exit 0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
MAC="$ROOT/tests/fixtures/traces/macos-mps.jsonl"
LIN="$ROOT/tests/fixtures/traces/good-outside-stage.jsonl"
GPU="$tmp/macos-gpu.jsonl"
python3 - "$MAC" "$GPU" <<'PY' || echo "FAIL: the gpu_system trace could not be made"
import json, sys
with open(sys.argv[2], "w") as out:
    for i, line in enumerate(open(sys.argv[1])):
        r = json.loads(line)
        if r.get("type") == "sample":
            r["gpu_system"] = r.get("metal", 0) + 1610612736 + i * 4096
        out.write(json.dumps(r, separators=(",", ":")) + "\n")
PY
for f in "$MAC" "$LIN" "$GPU"; do
    n=$(basename "$f" .jsonl)
    "$ST" summary "$f" >"$tmp/$n.sum" 2>"$tmp/err" || echo "FAIL: summary $n: $(cat "$tmp/err")"
    "$ST" report "$f" >"$tmp/$n.md" 2>"$tmp/err" || echo "FAIL: report $n: $(cat "$tmp/err")"
    "$ST" diff "$f" "$f" >"$tmp/$n.diff" 2>"$tmp/err" || echo "FAIL: diff $n: $(cat "$tmp/err")"
done
python3 - "$MAC" "$tmp" "$GPU" <<'PY'
import json, sys

def b(v):  # units.h's bytes: 3 significant digits, binary units
    u = 0
    while v >= 1024 and u < 6:
        v /= 1024; u += 1
    if u == 0:
        return f"{int(v)} B"
    d = 2 if v < 10 else 1 if v < 100 else 0
    return f"{v:.{d}f} {['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'][u]}"

def check(name, ok, why=""):
    print(("PASS: " if ok else "FAIL: ") + name + ("" if ok else f": {why}"))

mac, tmp, gpu = sys.argv[1], sys.argv[2], sys.argv[3]
recs = [json.loads(l) for l in open(mac)]
samples = [r for r in recs if r.get("type") == "sample"]
assert recs[0]["platform"] == "darwin"
want = {k: max(s[k] for s in samples if k in s) for k in ("metal", "tree_compressed")}
assert want["metal"] > 0 and want["tree_compressed"] > 0
s = json.load(open(f"{tmp}/macos-mps.sum"))
check("summary: peak_metal is the samples' largest metal", s.get("peak_metal") == want["metal"],
      f'{s.get("peak_metal")} != {want["metal"]}')
check("summary: peak_tree_compressed is the samples' largest", s.get("peak_tree_compressed") == want["tree_compressed"],
      f'{s.get("peak_tree_compressed")} != {want["tree_compressed"]}')
md = open(f"{tmp}/macos-mps.md").read()
for label, key in (("Metal peak", "metal"), ("tree compressed peak", "tree_compressed")):
    row = f"| {label} | {b(want[key])} |"
    check(f"report: the row {row}", row in md, "not in the report")
    d = [l for l in open(f"{tmp}/macos-mps.diff") if l.startswith(label + " ")]
    check(f"diff: the {label} row, both sides {b(want[key])}",
          len(d) == 1 and d[0].count(b(want[key])) == 2, repr(d))
lin = json.load(open(f"{tmp}/good-outside-stage.sum"))
check("Linux trace: no peak_metal, no peak_tree_compressed",
      "peak_metal" not in lin and "peak_tree_compressed" not in lin, sorted(lin))
both = open(f"{tmp}/good-outside-stage.md").read() + open(f"{tmp}/good-outside-stage.diff").read()
check("Linux trace: no Metal or tree compressed row", "Metal peak" not in both and "tree compressed" not in both)
check("Linux trace: no peak_gpu_system, no GPU system row",
      "peak_gpu_system" not in lin and "GPU system" not in both)
mac_out = open(f"{tmp}/macos-mps.md").read() + open(f"{tmp}/macos-mps.diff").read()
check("Mac trace without gpu_system: no peak_gpu_system, no GPU system row",
      "peak_gpu_system" not in s and "GPU system" not in mac_out)
g_samples = [json.loads(l) for l in open(gpu) if '"sample"' in l]
want_g = max(x["gpu_system"] for x in g_samples)
assert want_g > want["metal"]
g = json.load(open(f"{tmp}/macos-gpu.sum"))
check("summary: peak_gpu_system is the samples' largest gpu_system", g.get("peak_gpu_system") == want_g,
      f'{g.get("peak_gpu_system")} != {want_g}')
check("summary: the gpu_system trace keeps peak_metal", g.get("peak_metal") == want["metal"])
row = f"| GPU system peak | {b(want_g)} |"
check(f"report: the row {row}", row in open(f"{tmp}/macos-gpu.md").read(), "not in the report")
d = [l for l in open(f"{tmp}/macos-gpu.diff") if l.startswith("GPU system peak ")]
check(f"diff: the GPU system peak row, both sides {b(want_g)}",
      len(d) == 1 and d[0].count(b(want_g)) == 2, repr(d))
PY
