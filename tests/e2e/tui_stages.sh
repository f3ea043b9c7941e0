#!/bin/sh
# The stage table (key s) over the lanes, live (stages the job marks through
# $STAGETOP_EVENTS) and in replay (a stageload fixture); s closes it again.
set -u
. "$(dirname "$0")/tui_common.inc"

# --- live: the job marks its stages -----------------------------------------------
# (The first stage comes after t = 0, so the table also has "setup".)
cat >"$T/job.sh" <<JOB
while [ ! -e "$T/go1" ]; do sleep 0.05; done
echo "stage load-model" >>"\$STAGETOP_EVENTS"
echo "load unet 256M" >>"\$STAGETOP_EVENTS"
echo "mark ready" >>"\$STAGETOP_EVENTS"
while [ ! -e "$T/go" ]; do sleep 0.05; done
"$STAGETOP" stage 'denoise|x'
exec sleep 300
JOB
start_pane live 110 34 "'$STAGETOP' --interval 0.2 --job-log '$T/job.log' -- sh '$T/job.sh'"
check "the status line offers s" wait_screen live 15 's stages'
: >"$T/go1"
check "the job's first stage shows in the event row" wait_screen live 10 'stage load-model'
tm send-keys -t live s
check "s opens the stage table" wait_screen live 10 'stages (2; s closes)'
check "the table lists the job's first stage with its load" \
    wait_screen live 10 'load-model.* 1 (256 MiB)'
: >"$T/go"
check "a stage marked later (stagetop stage) appears while it is open" \
    wait_screen live 15 'stages (3; s closes)'
check "the stage's name is shown as written, | included" wait_screen live 5 'denoise|x'
check "the table has its column heads" wait_screen live 5 'stage .*time .*peak .*swap +/- .*min lvl .*loads'
tm send-keys -t live s
check "s closes it" until_ok 10 sh -c "! tmux -L $TM_SOCK capture-pane -p -t live | grep -q 'stages ('"
tm send-keys -t live q
check "q asks about the running job" wait_screen live 10 'ill it and quit'
tm send-keys -t live k
check "k: the job is killed and stagetop exits" wait_screen live 20 'stagetop-exit='

# --- replay: the same numbers as stagetop summary ------------------------------------
F="$ST_ROOT/tests/fixtures/stageload/2026-10-06-qwen-image__eager-1.trace.jsonl"
"$STAGETOP" summary "$F" >"$T/sum.json"
start_pane rp 120 40 "'$STAGETOP' replay '$F'"
check "replay's status line offers s" wait_screen rp 15 's stages'
tm send-keys -t rp s
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["stages"]))' "$T/sum.json")
check "s opens the stage table in replay" wait_screen rp 10 "stages ($n; s closes)"
screen rp >"$T/rp.txt"
check "each stage of the summary is a row, with its peak as stagetop summary gives it" \
    python3 - "$T/sum.json" "$T/rp.txt" <<'PY'
import json, sys
stages = json.load(open(sys.argv[1]))["stages"]
rows = open(sys.argv[2]).read().splitlines()
def fmt(b):  # st_format_bytes: 2 decimals under 10, 1 under 100, else 0
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << k:
            v = b / (1 << k)
            return "%.2f %s" % (v, unit) if v < 10 else "%.1f %s" % (v, unit) if v < 100 else "%.0f %s" % (v, unit)
    return "%d B" % b
for st in stages:
    row = [r for r in rows if (" " + st["stage"] + " ") in r]
    assert row, (st["stage"], rows)
    assert fmt(st["peak_footprint"]) in row[0], (fmt(st["peak_footprint"]), row[0])
PY
tm send-keys -t rp s
check "s closes it in replay" until_ok 10 sh -c "! tmux -L $TM_SOCK capture-pane -p -t rp | grep -q 'stages ('"
tm send-keys -t rp q
check "q ends replay" wait_screen rp 10 'stagetop-exit=0'
