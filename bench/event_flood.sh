#!/bin/sh
# event_flood.sh STAGETOP [N_MARKS] [N_STAGES]: what a flood of job events
# costs stagetop (docs/reliability.md, "Event floods").
#  1. a launched job appends N_MARKS (default 200,000) "mark x" lines to
#     $STAGETOP_EVENTS at once and sleeps; stagetop --headless --interval 0.1
#     --record (--record-sync 1s, then never) follows it; SIGTERM 1 s after
#     the start: seconds from SIGTERM to stagetop's exit, its VmHWM, the
#     samples and events in the record;
#  2. the job writes N_STAGES (default 1,500,000) distinct "stage sN" lines;
#     stagetop's VmHWM once the record holds them all.
set -u
ST=$1 N=${2:-200000} NS=${3:-1500000}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
for SYNC in 1s never; do
    rm -f "$D/r.jsonl"
    "$ST" --headless --interval 0.1 --record-sync "$SYNC" --record "$D/r.jsonl" -- python3 -c "
import os, time
f = open(os.environ['STAGETOP_EVENTS'], 'a')
f.write('mark x\n' * $N)
f.close()
time.sleep(60)" 2>/dev/null &
    pid=$!
    sleep 1
    t0=$(date +%s.%N)
    kill -TERM $pid
    hwm=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status)
    wait $pid
    t1=$(date +%s.%N)
    echo "marks=$N sync=$SYNC: SIGTERM->exit $(echo "$t1 - $t0" | bc) s, VmHWM $hwm KiB," \
         "samples $(grep -c '"type":"sample"' "$D/r.jsonl"), events $(grep -c '"type":"event"' "$D/r.jsonl")"
done
rm -f "$D/r.jsonl"
"$ST" --headless --interval 0.1 --record-sync never --record "$D/r.jsonl" -- python3 -c "
import os, time
f = open(os.environ['STAGETOP_EVENTS'], 'a')
for i in range($NS): f.write('stage s%d\n' % i)
f.close()
time.sleep(300)" 2>/dev/null &
pid=$!
cnt() { c=$(grep -c '"kind":"stage"' "$D/r.jsonl" 2>/dev/null); echo "${c:-0}"; }
t0=$(date +%s)
while [ "$(cnt)" -lt "$NS" ] && [ $(( $(date +%s) - t0 )) -lt 290 ]; do sleep 1; done
hwm=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status)
kill -TERM $pid
wait $pid
echo "stages=$NS: VmHWM $hwm KiB once the record held $(cnt) of them"
