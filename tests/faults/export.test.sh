#!/bin/sh
# Fault: exporting the trace (the live screen's `e`, and --record FILE.json
# at the end) into a read-only directory (a read-only bind mount: chmod does
# not stop root), onto a full filesystem (a 64 KiB tmpfs, filled), and to a
# name that is a symlink to elsewhere.  Each time: a clear message on the
# screen, no partial file and no temporary file left, the trace still in
# memory: once the directory is writable again, `e` exports the whole run
# (first sample at t = 0, no gaps).  A symlink is replaced by the file, never
# written through.  A JSONL record that fills the disk stays valid JSONL.
# Runs in a private mount namespace (root), so no mount outlives it.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
if ! is_root; then
    skip "export faults" "needs root (bind mounts, tmpfs)"; exit 0
fi
private_mounts "export faults" "$@" || exit 0
. "$ST_ROOT/tests/e2e/tui_common.inc"

sleep 600 </dev/null >/dev/null 2>&1 &
job=$!
remember_job $job

RO="$T/ro" FULL="$T/full" REAL="$T/real" LINKDIR="$T/linkdir" ELSE="$T/elsewhere"
mkdir -p "$RO" "$FULL" "$REAL" "$ELSE"
trap 'umount "$RO" "$FULL" 2>/dev/null; tui_cleanup' EXIT
mount --bind "$RO" "$RO" && mount -o remount,bind,ro "$RO" || { skip "export faults" "bind mount refused"; exit 0; }
mount -t tmpfs -o size=64k tmpfs "$FULL" || { skip "export faults" "tmpfs mount refused"; exit 0; }
ln -s "$REAL" "$LINKDIR"
printf 'precious\n' >"$ELSE/precious"

# fill DIR: fill the filesystem of DIR to the last block.
fill() { cat /dev/zero >"$1/filler" 2>/dev/null; sync; }
# only_files DIR NAME...: DIR holds exactly these names (no temp file).
only_files() {
    _of=$1; shift
    _have=$(ls -A "$_of" | sort | tr '\n' ' ')
    _want=$(for _n; do echo "$_n"; done | sort | tr '\n' ' ')
    [ "$_have" = "$_want" ] || { echo "in $_of: '$_have', expected '$_want'"; return 1; }
}
# whole_run FILE: a valid export holding the run from t = 0 without gaps.
whole_run() {
    $PY - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["samples"]
iv = d["meta"]["interval"]
if not s or s[0]["t"] != 0:
    sys.exit(f"the export does not start at t = 0: {s[:1]}")
due = round(s[-1]["t"] / iv) + 1
if len(s) + d["dropped_samples"] != due:
    sys.exit(f"{len(s)} samples + {d['dropped_samples']} dropped != {due} due over {s[-1]['t']} s")
if len(s) < 20:
    sys.exit(f"only {len(s)} samples")
print(f"{len(s)} samples over {s[-1]['t']} s")
PY
}
# some_samples PANE: the pane's stagetop went round its loop 40 times (each
# turn is a sample or a frame, frames at most 10 a second): 20 samples or
# more at 0.05 s, for whole_run.
some_samples() { wait_turns "$(stagetop_pid "$1")" 40; }
exported_name() { screen "$1" | sed -n 's|.*exported \([^ ]*\.json\).*|\1|p' | head -1; }

# --- read-only directory -------------------------------------------------------------
start_pane ro 200 30 "'$STAGETOP' -p $job --interval 0.05 --export-dir '$RO'"
wait_screen ro 15 "^\[RUNNING\]" >/dev/null
some_samples ro
tm send-keys -t ro e
check "read-only dir: e says why it failed" wait_screen ro 5 "export failed: .*Read-only file system"
check "read-only dir: nothing left in it" only_files "$RO"
mount -o remount,bind,rw "$RO"
tm send-keys -t ro e
check "read-only dir made writable: e exports" wait_screen ro 5 "exported $RO/stagetop-$job-"
fro=$(ls "$RO")
check "read-only dir: the export holds the whole run" whole_run "$RO/$fro"
check "read-only dir: only the export, no temp file" only_files "$RO" "$fro"
tm send-keys -t ro q
wait_screen ro 10 "stagetop-exit=0" >/dev/null

# --- full filesystem -------------------------------------------------------------------
fill "$FULL"
start_pane full 200 30 "'$STAGETOP' -p $job --interval 0.05 --export-dir '$FULL'"
wait_screen full 15 "^\[RUNNING\]" >/dev/null
some_samples full
tm send-keys -t full e
check "full disk: e says why it failed" wait_screen full 5 "export failed: .*No space left on device"
check "full disk: no partial file, no temp file" only_files "$FULL" filler
rm -f "$FULL/filler"
tm send-keys -t full e
check "full disk freed: e exports" wait_screen full 5 "exported $FULL/stagetop-$job-"
f=$(ls "$FULL")
check "full disk: the export holds the whole run" whole_run "$FULL/$f"
tm send-keys -t full q
wait_screen full 10 "stagetop-exit=0" >/dev/null

# --- symlinks ----------------------------------------------------------------------------
# --export-dir is a symlink to a directory (followed: the user chose it); the
# export's own name is already a symlink to a file elsewhere (planted for
# each second of the next 30: the name is stagetop-PID-YYYYmmdd-HHMMSS.json).
now=$(date +%s)
for k in $(seq 0 30); do
    ln -s "$ELSE/precious" "$REAL/stagetop-$job-$(date -d "@$((now + k))" +%Y%m%d-%H%M%S).json"
done
start_pane link 200 30 "'$STAGETOP' -p $job --interval 0.05 --export-dir '$LINKDIR'"
wait_screen link 15 "^\[RUNNING\]" >/dev/null
some_samples link
tm send-keys -t link e
check "symlink: e exports" wait_screen link 5 "exported $LINKDIR/stagetop-$job-"
name=$(basename "$(exported_name link)")
check "symlink: the file it pointed to is untouched" sh -c "[ \"\$(cat '$ELSE/precious')\" = precious ]"
check "symlink: the name is now a regular file (the link was replaced)" \
    sh -c "[ -f '$REAL/$name' ] && [ ! -L '$REAL/$name' ]"
check "symlink: the export holds the whole run" whole_run "$REAL/$name"
no_tmp() { ! ls -A "$REAL" | grep -q '^\.'; }
check "symlink: no temp file" no_tmp
tm send-keys -t link q
wait_screen link 10 "stagetop-exit=0" >/dev/null

# --- --record FILE.json at exit; a JSONL record that fills the disk -------------------
mount -o remount,bind,ro "$RO"
"$STAGETOP" --headless --interval 0.05 --record "$RO/end.json" -- sleep 0.3 2>"$T/ro.err"
rc=$?
check "--record x.json into a read-only dir: exit 1, the message names the reason" \
    sh -c "[ $rc -eq 1 ] && grep -q 'Read-only file system' '$T/ro.err'"
check "--record x.json into a read-only dir: nothing left" only_files "$RO" "$fro"
rm -f "$FULL"/*; fill "$FULL"
"$STAGETOP" --headless --interval 0.05 --record "$FULL/end.json" -- sleep 0.3 2>"$T/full.err"
rc=$?
check "--record x.json onto a full disk: exit 1, 'No space left'" \
    sh -c "[ $rc -eq 1 ] && grep -q 'No space left' '$T/full.err'"
check "--record x.json onto a full disk: no partial file" only_files "$FULL" filler
ln -s "$ELSE/precious" "$REAL/end.json"
"$STAGETOP" --headless --interval 0.05 --record "$REAL/end.json" -- sleep 0.3 2>"$T/link.err"
rc=$?
check "--record x.json over a symlink: refused (exit 2), link and target untouched" \
    sh -c "[ $rc -eq 2 ] && [ -L '$REAL/end.json' ] && [ \"\$(cat '$ELSE/precious')\" = precious ]"
rm -f "$FULL"/*
dd if=/dev/zero of="$FULL/filler" bs=1k count=40 status=none
# The job lasts until stagetop says the disk is full (120 s at most).
"$STAGETOP" --headless --interval 0.01 --record "$FULL/rec.jsonl" -- sh -c "i=0
    until grep -q 'No space left' '$T/jsonl.err' || [ \$i -ge 2400 ]; do sleep 0.05; i=\$((i + 1)); done" \
    2>"$T/jsonl.err"
rc=$?
check "JSONL record fills the disk: exit 1 with 'No space left' naming the file" \
    sh -c "[ $rc -eq 1 ] && grep -q 'rec.jsonl.*No space left' '$T/jsonl.err'"
check "JSONL record fills the disk: valid JSONL up to its last line" \
    $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$FULL/rec.jsonl" --min-samples 20
check "JSONL record fills the disk: stagetop summary reads it" "$STAGETOP" summary "$FULL/rec.jsonl"
