#!/bin/sh
# A sleep of the machine (a laptop's lid closed): the run's clock stops
# while the machine sleeps (include/stagetop/clock.h), so t has no gap and
# the sleep is said by a "sleep" event with its seconds (docs/trace-format.md).
# The suspend is imitated by tests/tools/sleep_clock.c: CLOCK_BOOTTIME runs
# 42.5 s ahead of CLOCK_MONOTONIC once the test writes the file, as
# clock_gettime(2) says a suspend leaves them.  Then replay shows it.
set -u
. "$(dirname "$0")/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"

case ${ST_BUILD:-build} in /*) _b=$ST_BUILD ;; *) _b=$ST_ROOT/${ST_BUILD:-build} ;; esac
PRE=$_b/tools/sleep_clock.so
[ -f "$PRE" ] || { echo "FAIL: sleep_event: $PRE is not built (make tests)"; exit 1; }

env LD_PRELOAD="$PRE" ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}" ST_FAKE_SLEEP="$T/slept" \
    "$STAGETOP" --headless --no-gpu -i .1 --record "$T/r.jsonl" -- \
    sh -c "while [ ! -e '$T/done' ]; do sleep 0.05; done" 2>"$T/err" &
st=$!
remember_job $st
samples() { [ "$(grep -c '"type":"sample"' "$T/r.jsonl" 2>/dev/null)" -ge "$1" ]; }
until_ok 30 samples 5
echo 42.5 >"$T/slept"
slept() { grep -q '"kind":"sleep"' "$T/r.jsonl" 2>/dev/null; }
check "the first sample after the sleep is followed by a sleep event" until_ok 30 slept
until_ok 30 samples 80
: >"$T/done"
wait_bounded $st 30
check "the run ends (exit 0)" wait $st
check "one sleep event of 42.5 s at a sample's time, samples go on with no gap in t" $PY - "$T/r.jsonl" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ev = [r for r in recs if r.get("type") == "event" and r.get("kind") == "sleep"]
ts = [r["t"] for r in recs if r.get("type") == "sample"]
print("sleep events:", ev, "samples:", len(ts))
gaps = [b - a for a, b in zip(ts, ts[1:])]
ok = (len(ev) == 1 and abs(ev[0]["seconds"] - 42.5) < 0.05 and "slept 42.5 s" in ev[0].get("note", "")
      and any(abs(t - ev[0]["t"]) < 0.0015 for t in ts) and max(gaps) < 5)
print("largest gap between samples:", max(gaps))
sys.exit(0 if ok else 1)
PYEOF
check "stagetop summary reads the record" "$STAGETOP" summary "$T/r.jsonl"

start_pane rp 160 30 "'$STAGETOP' replay '$T/r.jsonl'"
check "replay shows the sleep in the events row" wait_screen rp 10 "the machine slept 42.5 s"
tm send-keys -t rp q
check "replay: q ends it" wait_screen rp 10 "stagetop-exit=0"
tm kill-session -t rp
