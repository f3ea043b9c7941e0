#!/bin/sh
# One stage rule (docs/trace-format.md, "Time order"): a sample belongs to the
# stage whose window [stage event t, next stage event t) holds its t, in the
# run's own summary (the end record, the closing summary) as in every reader
# of the record (`stagetop summary`, stageload's summarize()).
#   S  a real job marks each stage with `stagetop stage` right before it
#      allocates random bytes: the end record's stage peaks are those of
#      `stagetop summary` of the record and of stageload's rule re-derived,
#      and the closing summary's stage rows are `summary --text`'s;
#   T  the marks are stamped when the job made them (before the sample that
#      follows them), not when stagetop read them;
#   L  a stamped line read after later samples (it waited) is written in
#      time order, and the record reads back the same (J: a stageload JSONL
#      line with its own t, likewise).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# The job: 8 stages, each marked right before 8 MiB of random bytes are
# allocated and held; then it waits for two samples of the record (a
# condition, no sleep) before the next.
cat >"$T/job.py" <<'EOF'
import os, subprocess, sys, time
st, rec = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.environ["ST_ROOT"], "tests", "lib"))
from record_wait import wait_samples
held = []
mode = sys.argv[3] if len(sys.argv) > 3 else ""
start = time.monotonic()
if mode == "jsonl":   # J: stageload's lines, its own clock from here (a sample aligns it)
    with open(os.environ["STAGETOP_EVENTS"], "a") as fh:
        fh.write('{"type":"sample","t":0.0,"footprint":0,"swap_used":0,"level":100}\n')
wait_samples(rec, 2)
for i in range(8):
    subprocess.run([st, "stage", "s%d" % i], check=True)
    held.append(bytearray(os.urandom(8 << 20)))
    wait_samples(rec, 2)
if mode:   # L, J: a line stamped now, written two samples later
    made = time.monotonic()
    wait_samples(rec, 2)
    with open(os.environ["STAGETOP_EVENTS"], "a") as fh:
        if mode == "jsonl":
            fh.write('{"type":"event","kind":"stage","t":%.3f,"stage":"late"}\n' % (made - start))
        else:
            fh.write("@%.6f stage late\n" % made)
    wait_samples(rec, 2)
EOF

# L stamps its line with Python's time.monotonic(), CLOCK_MONOTONIC on Linux
# (st_now()'s clock); macOS's Python reads another clock.
#   J  the same late stage as a stageload JSONL line with its own t.
runs="S L J"; [ "$(uname -s)" = Linux ] || runs="S J"
for run in $runs; do
    extra=""; [ $run = L ] && extra=late; [ $run = J ] && extra=jsonl
    "$STAGETOP" --headless --no-gpu -i .1 --record "$T/$run.jsonl" \
        -- $PY "$T/job.py" "$STAGETOP" "$T/$run.jsonl" $extra >"$T/$run.out" 2>"$T/$run.err"
    check "$run: the run ends (exit 0)" [ $? -eq 0 ]
    "$STAGETOP" summary "$T/$run.jsonl" >"$T/$run.sum" 2>"$T/$run.sumerr"
    "$STAGETOP" summary --text "$T/$run.jsonl" >"$T/$run.txt" 2>&1
    check "$run: the end record's stages are those of \`stagetop summary\` of the record" \
        $PY - "$T/$run.jsonl" "$T/$run.sum" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
end = [r for r in recs if r["type"] == "end"][0]["summary"]["stages"]
got = json.load(open(sys.argv[2]))["stages"]
key = lambda st: [(s["stage"], s["seconds"], s["peak_footprint"]) for s in st]
print("end record:", key(end)); print("summary:   ", key(got))
sys.exit(0 if key(end) == key(got) and len(end) >= 9 else 1)
EOF
    check "$run: ... and stageload's summarize() rule, re-derived (records in file order)" \
        $PY - "$T/$run.jsonl" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
samples = [r for r in recs if r["type"] == "sample"]
stages = [r for r in recs if r["type"] == "event" and r["kind"] == "stage"]
end = samples[-1]["t"]
starts = [(0.0, "setup")] + [(e["t"], e["stage"]) for e in stages]
if len(starts) > 1 and starts[1][0] <= 0.0:
    starts = starts[1:]
want = []
for i, (t0, name) in enumerate(starts):
    t1 = starts[i + 1][0] if i + 1 < len(starts) else end
    inside = [s["footprint"] for s in samples if t0 <= s["t"] < t1 or s["t"] == t1 == end]
    want.append((name, max(inside) if inside else None))
got = [(s["stage"], s["peak_footprint"])
       for s in [r for r in recs if r["type"] == "end"][0]["summary"]["stages"]]
print("stageload:", want); print("end record:", got)
sys.exit(0 if want == got else 1)
EOF
    check "$run: the closing summary's stage peaks are \`summary --text\`'s" \
        $PY - "$T/$run.err" "$T/$run.txt" <<'EOF'
import re, sys
# one renderer (stage_table.h): the same rows, the closing's indented by 2
row = r" +\d+ +[0-9.]+s +[0-9.]+s +(\S+ \S+|–) "
closing = re.findall(r"^  (s\d|setup|late)" + row, open(sys.argv[1]).read(), re.M)
text = re.findall(r"^(s\d|setup|late)" + row, open(sys.argv[2]).read(), re.M)
print("closing:", closing); print("text:   ", text)
sys.exit(0 if closing == text and len(closing) >= 9 else 1)
EOF
done

check "T: each mark is before the first sample of its stage (stamped when made)" \
    $PY - "$T/S.jsonl" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ok, strict = True, 0
for i, r in enumerate(recs):
    if r.get("kind") == "stage" and r["stage"].startswith("s"):
        prev = [x for x in recs[:i] if x["type"] == "sample"][-1]
        ok &= r["t"] >= prev["t"]
        nxt = [x for x in recs[i:] if x["type"] == "sample"][0]
        print(r["stage"], prev["t"], r["t"], nxt["t"])
        ok &= r["t"] <= nxt["t"]
        strict += r["t"] < nxt["t"]   # made before stagetop read it
sys.exit(0 if ok and strict >= 6 else 1)
EOF
for run in $runs; do [ $run = S ] && continue
check "$run: the late line is in time order in the record, after the samples it missed" \
    $PY - "$T/$run.jsonl" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ts = [r["t"] for r in recs if r["type"] in ("sample", "event")]
late = [r for r in recs if r.get("stage") == "late"]
print(late, ts == sorted(ts))
sys.exit(0 if len(late) == 1 and ts == sorted(ts) else 1)
EOF
done
