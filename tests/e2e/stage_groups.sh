#!/bin/sh
# Repeated stages are one row (issue 29 item 8; stage_table.h): a real job
# marks `load`, then `step` six times with an `eval` between the third and
# fourth, then `save`, each stage right before it allocates random bytes and
# holds them for two samples.  The closing summary and `stagetop summary
# --text` of the record (one renderer) show `step` once: its count, total
# time, mean time per repetition, highest peak, swap growth added up and
# lowest level, each checked against the record's samples and stage events
# re-derived in python (stageload's window rule, docs/trace-format.md).
# A run without stage events says "stages none" in its closing summary.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
need_tool stage_groups python3 python3 || exit 0
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
cd "$T" || exit 1 # the job's log stays out of the checkout

cat >"$T/job.py" <<'EOF'
import os, subprocess, sys, time
st, rec = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.environ["ST_ROOT"], "tests", "lib"))
from record_wait import wait_samples
held = []
wait_samples(rec, 2)
for i, name in enumerate(["load"] + ["step"] * 3 + ["eval"] + ["step"] * 3 + ["save"]):
    subprocess.run([st, "stage", name], check=True)
    held.append(bytearray(os.urandom((2 + i) << 20)))
    wait_samples(rec, 2)
EOF
"$STAGETOP" --headless --no-gpu -i .1 --record "$T/r.jsonl" \
    -- $PY "$T/job.py" "$STAGETOP" "$T/r.jsonl" >"$T/out" 2>"$T/err"
check "the run ends (exit 0)" [ $? -eq 0 ]
"$STAGETOP" summary --text "$T/r.jsonl" >"$T/txt" 2>&1
check "summary --text of the record ends 0" [ $? -eq 0 ]

cat >"$T/ref.py" <<'EOF'
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
samples = [r for r in recs if r.get("type") == "sample"]
stages = [r for r in recs if r.get("type") == "event" and r.get("kind") == "stage"]
ms = lambda t: round(t * 1000)
end = ms(samples[-1]["t"])
starts = [(ms(e["t"]), e["stage"]) for e in sorted(stages, key=lambda e: e["t"])]
if starts[0][0] > 0:                       # the time before the first stage
    starts.insert(0, (0 if ms(samples[0]["t"]) >= 0 else ms(samples[0]["t"]), "setup"))
groups, prev_swap = [], None
for i, (t0, name) in enumerate(starts):
    last = i + 1 == len(starts)
    t1 = end if last else starts[i + 1][0]
    win = [s for s in samples if t0 <= ms(s["t"]) and (ms(s["t"]) < t1 or (last and ms(s["t"]) == end))]
    g = next((g for g in groups if g["name"] == name), None)
    if g is None:
        g = {"name": name, "n": 0, "ms": 0, "peaks": [], "levels": [], "swap": 0}
        groups.append(g)
    g["n"] += 1
    g["ms"] += t1 - t0
    g["peaks"] += [s["footprint"] for s in win]
    g["levels"] += [s["level"] for s in win if "level" in s]
    if win:   # swap at the window's last sample minus the reading before it
        base = prev_swap if prev_swap is not None else win[0].get("swap_used", 0)
        g["swap"] += win[-1].get("swap_used", 0) - base
        prev_swap = win[-1].get("swap_used", 0)

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
    c = round(v * 100)
    return f"{c // 100}%" if c % 100 == 0 else f"{c / 100:.2f}%"
want = []
for g in groups:
    m = g["ms"] / 1000.0 / g["n"]
    want.append([g["name"], str(g["n"]), f"{g['ms'] / 1000.0:.1f}s", f"{m:.2f}s" if m < 9.995 else f"{m:.1f}s",
                 b(max(g["peaks"])) if g["peaks"] else "–", b(g["swap"], True),
                 lvl(min(g["levels"])) if g["levels"] else "–"])
assert [w[0] for w in want][-4:] == ["load", "step", "eval", "save"], want
assert want[-3][1] == "6", want
text = open(sys.argv[2]).read()
indent = sys.argv[3]
head = re.search("^" + indent + r"stage +n +time +mean +peak +swap growth +min level$", text, re.M)
assert head, "no table header"
rows = text[head.end() + 1:].splitlines()[:len(want)]
got = []
for r in rows:
    assert r.startswith(indent) and not r.startswith(indent + " "), r
    f = r.split()
    rest, cells = f[4:-1], []
    while rest:   # peak, swap growth: "–" or a number and its unit
        k = 1 if rest[0] == "–" else 2
        cells.append(" ".join(rest[:k])); rest = rest[k:]
    got.append(f[:4] + cells + [f[-1]])
print("want:", want)
print("got: ", got)
assert got == want
assert sum(1 for r in text.splitlines() if re.match(indent + r"step ", r)) == 1, "step has more than one row"
EOF
check "summary --text: step is one row, its numbers the record's (python)" \
    $PY "$T/ref.py" "$T/r.jsonl" "$T/txt" ""
check "closing summary: the same grouped rows, the record's numbers (python)" \
    $PY "$T/ref.py" "$T/r.jsonl" "$T/err" "  "
check "closing summary: every line of its stage table fits 80 columns" \
    $PY -c 'import sys
t = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = [k for k, l in enumerate(t) if l.startswith("  stage ")][0]
rows = [l for l in t[i:] if l.startswith("  ") and not l.startswith("  ran in") and not l.startswith("  record")][:6]
print([len(l) for l in rows]); sys.exit(0 if all(len(l) <= 80 for l in rows) else 1)' "$T/err"

# a run without stage events: one row says so, no table
"$STAGETOP" --headless --no-gpu -i .1 -- $PY -c 'import os; b = bytearray(os.urandom(1 << 20))' \
    >"$T/none.out" 2>"$T/none.err"
check "no stage events: the closing summary says none, with no table" \
    sh -c "grep -Eq '^  stages +none \(no stage events' '$T/none.err' && ! grep -Eq '^  stage +n +time' '$T/none.err'"
