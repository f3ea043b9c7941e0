#!/bin/sh
# Stages marked by the job itself: $STAGETOP_EVENTS in a launched job's
# environment, plain lines written with echo and with `stagetop mark/stage`,
# JSONL lines too; the record holds each at the time it was written.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"   # wait_bounded

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# --- the commands outside a job ----------------------------------------------
env -u STAGETOP_EVENTS "$STAGETOP" mark hello 2>"$T/err"
rc=$?
check "stagetop mark without STAGETOP_EVENTS: exit 1 naming the variable" \
    sh -c "[ $rc -eq 1 ] && grep -q STAGETOP_EVENTS '$T/err'"
STAGETOP_EVENTS="$T/none" "$STAGETOP" stage 2>"$T/err"
check "stagetop stage without a NAME: exit 2" [ $? -eq 2 ]
STAGETOP_EVENTS="$T/missing" "$STAGETOP" stage x 2>"$T/err"
rc=$?
check "stagetop stage to a missing file: exit 1, the file is not created" \
    sh -c "[ $rc -eq 1 ] && [ ! -e '$T/missing' ] && grep -q missing '$T/err'"
: >"$T/own"
STAGETOP_EVENTS="$T/own" "$STAGETOP" mark "two
lines" && STAGETOP_EVENTS="$T/own" "$STAGETOP" stage "de|code"
check "mark and stage append one line each, stamped when made (a newline in the text stays on one line)" \
    sh -c "[ \$(wc -l <'$T/own') -eq 2 ] && head -1 '$T/own' | grep -Eqx '@[0-9]+[.][0-9]{6} mark two lines' &&
           tail -1 '$T/own' | grep -Eqx '@[0-9]+[.][0-9]{6} stage de[|]code'"

# --- a job that marks its own stages -------------------------------------------
# Before each line the job notes the t of the newest sample in the record; it
# then waits until its event is in the record.  So each event's t must lie
# between that sample's t and the t of the first sample after the event.
cat >"$T/job.sh" <<'JOB'
rec=$1 st=$2 notes=$3
last_t() { grep '"type":"sample"' "$rec" | tail -1 | sed 's/.*"t":\([0-9.]*\).*/\1/'; }
until_in_rec() { # pattern: poll, 100 s at most (then the job fails)
    i=0
    while ! grep -q "$1" "$rec" 2>/dev/null; do
        [ $i -lt 2000 ] || { echo "job: no $1 in the record after 100 s" >&2; exit 1; }
        sleep 0.05; i=$((i + 1))
    done
}
until_in_rec '"type":"sample"'
ls -ld "$(dirname "$STAGETOP_EVENTS")" "$STAGETOP_EVENTS" >"$notes.perm"
echo "$STAGETOP_EVENTS" >"$notes.path"
echo "encode $(last_t)" >>"$notes"; echo "stage encode" >>"$STAGETOP_EVENTS"
until_in_rec '"stage":"encode"'
echo "m1 $(last_t)" >>"$notes"; "$st" mark first mark
until_in_rec '"note":"first mark"'
echo "denoise $(last_t)" >>"$notes"; "$st" stage denoise
until_in_rec '"stage":"denoise"'
echo "unet $(last_t)" >>"$notes"; echo "load unet 512M" >>"$STAGETOP_EVENTS"
until_in_rec '"name":"unet"'
echo "json $(last_t)" >>"$notes"
printf '{"type":"event","kind":"stage","t":0.5,"stage":"decode"}\n' >>"$STAGETOP_EVENTS"
until_in_rec '"stage":"decode"'
echo "bogus line" >>"$STAGETOP_EVENTS"
n=$(grep -c '"type":"sample"' "$rec"); i=0
while [ "$(grep -c '"type":"sample"' "$rec")" -lt $((n + 3)) ] && [ $i -lt 2000 ]; do sleep 0.05; i=$((i + 1)); done
JOB
# Bounded by wait_bounded (tests/faults/lib.sh), not GNU timeout (macOS has none).
"$STAGETOP" --headless --interval 0.1 --record "$T/rec.jsonl" -- \
    sh "$T/job.sh" "$T/rec.jsonl" "$STAGETOP" "$T/notes" 2>"$T/err" &
st=$!
remember_job $st
wait_bounded $st 120
rc=$?
check "the job ran to its end (exit 0)" sh -c "[ $rc -eq 0 ] || { cat '$T/err'; exit 1; }"
evfile=$(cat "$T/notes.path" 2>/dev/null)
check "STAGETOP_EVENTS: mode 0600 in a private 0700 directory" \
    sh -c "grep -q '^drwx------' '$T/notes.perm' && grep -q '^-rw-------' '$T/notes.perm'"
check "the events file and its directory are removed at the end" \
    sh -c "[ -n '$evfile' ] && [ ! -e '$evfile' ] && [ ! -e \"\$(dirname '$evfile')\" ]"
check "each event is in the record at the time the job wrote it" \
    python3 - "$T/rec.jsonl" "$T/notes" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
notes = dict(l.split() for l in open(sys.argv[2]))
want = [("encode", "stage", "stage", "encode"), ("m1", "mark", "note", "first mark"),
        ("denoise", "stage", "stage", "denoise"), ("unet", "load", "name", "unet"),
        ("json", "stage", "stage", "decode")]
for key, kind, field, val in want:
    idx = [i for i, r in enumerate(recs) if r.get("type") == "event" and r.get("kind") == kind
           and r.get(field) == val]
    assert len(idx) == 1, (key, idx)
    ev = recs[idx[0]]
    after = [r["t"] for r in recs[idx[0]:] if r.get("type") == "sample"]
    assert after, key
    lo, hi = float(notes[key]), after[0]
    assert lo - 1e-9 <= ev["t"] <= hi + 0.11, (key, lo, ev["t"], hi)
    print(key, lo, ev["t"], hi)
load = [r for r in recs if r.get("kind") == "load"][0]
assert load["nbytes"] == 512 * 1024 * 1024, load
PY

# --- kept on request -------------------------------------------------------------
"$STAGETOP" --headless --interval 0.05 --keep-events -- \
    sh -c 'echo "stage kept" >>"$STAGETOP_EVENTS"; echo "$STAGETOP_EVENTS" >"$1"' sh "$T/kept.path" \
    2>"$T/err2"
kept=$(cat "$T/kept.path")
check "--keep-events keeps the file (its path on stderr)" \
    sh -c "[ -f '$kept' ] && grep -qx 'stage kept' '$kept' && grep -qF '$kept' '$T/err2'"
rm -rf "$(dirname "$kept")"
"$STAGETOP" --headless --keep-events -p $$ 2>/dev/null
check "--keep-events without a command: exit 2" [ $? -eq 2 ]
