#!/bin/sh
# Unsafe characters (utf8.h's one classifier: C0/C1 controls, DEL, bidi
# controls and marks, line/paragraph separators) in a trace's stage names
# and in a job's command line reach no output raw: report (one trace and
# A B), diff (text and --json), summary, plot (one trace and A B), and the
# --metrics file of a live run.  Each output must still hold the visible
# part of the name, so a command that printed nothing would not pass.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
FIX="$ST_ROOT/tests/fixtures/stageload"
EAGER="$FIX/2026-10-06-qwen-image__eager-1.trace.jsonl"
STAGED="$FIX/2026-10-06-qwen-image__staged-1.trace.jsonl"

# The names: each holds one or two unsafe characters between visible words.
python3 - "$STAGED" "$T/evil.jsonl" <<'PY'
import json, sys
names = iter(["rlo\u202eone", "iso\u2066two\u2069", "mark\u200f\u061cthree\x85\x9b\x1b\x7f\u2028"])
with open(sys.argv[1], encoding="utf-8") as src, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in src:
        r = json.loads(line) if line.strip() else None
        if r and r.get("type") == "event" and r.get("kind") == "stage":
            r["stage"] = next(names, r["stage"])
            line = json.dumps(r) + "\n"
        out.write(line)
PY

# no_raw FILE WORD...: no unsafe character in FILE (decoded as UTF-8; JSON's
# \uXXXX escapes are not raw), and each WORD is there.
no_raw() {
    python3 - "$@" <<'PY'
import sys
data = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
bad = [c for c in data if (ord(c) < 0x20 and c not in "\n") or 0x7f <= ord(c) <= 0x9f
       or c in "\u061c\u200e\u200f\u2028\u2029" or 0x202a <= ord(c) <= 0x202e
       or 0x2066 <= ord(c) <= 0x2069]
missing = [w for w in sys.argv[2:] if w not in data]
if bad or missing:
    print("raw:", sorted(set("U+%04X" % ord(c) for c in bad)), "missing:", missing)
    sys.exit(1)
PY
}

"$STAGETOP" report "$T/evil.jsonl" >"$T/r.md" 2>"$T/err"
check "report FILE: no unsafe character, the names' words kept" no_raw "$T/r.md" rlo one iso two mark three
"$STAGETOP" report "$EAGER" "$T/evil.jsonl" >"$T/rab.md" 2>"$T/err"
check "report A B: no unsafe character" no_raw "$T/rab.md" rlo one iso two
"$STAGETOP" diff "$EAGER" "$T/evil.jsonl" >"$T/d.txt" 2>"$T/err"
check "diff: no unsafe character" no_raw "$T/d.txt" rlo one iso two
"$STAGETOP" diff --json "$EAGER" "$T/evil.jsonl" >"$T/d.json" 2>"$T/err"
check "diff --json: no unsafe character raw (escaped)" no_raw "$T/d.json" rlo '\u202e' '\u2066'
"$STAGETOP" summary "$T/evil.jsonl" >"$T/s.json" 2>"$T/err"
check "summary: no unsafe character raw (escaped)" no_raw "$T/s.json" rlo '\u202e'
"$STAGETOP" plot "$T/evil.jsonl" -o "$T/p.svg" 2>"$T/err"
check "plot FILE: the SVG's labels hold no bidi control or control" no_raw "$T/p.svg" rlo iso
"$STAGETOP" plot "$EAGER" "$T/evil.jsonl" -o "$T/pab.svg" 2>"$T/err"
check "plot A B: no unsafe character" no_raw "$T/pab.svg" rlo iso

# --metrics: the command label (on stagetop_run_info) of a live run whose argv holds U+202E, U+2066
# and U+061C.  The job ends when the file has been written once.
"$STAGETOP" --headless --interval 0.05 --metrics "$T/m.prom" \
    -- sh -c 'while [ ! -s "$1" ]; do sleep 0.05; done' "arg$(printf '\342\200\256')rlo$(printf '\342\201\246')iso$(printf '\330\234')x" "$T/m.prom" \
    >"$T/out" 2>"$T/err"
check "--metrics: the command label holds no bidi control" no_raw "$T/m.prom" 'stagetop_run_info{' 'rlo?iso?x'
