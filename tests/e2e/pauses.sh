#!/bin/sh
# Paused time is said (issue 32 item 3): a run whose guard paused the job
# (--kill-free 100 --on-budget pause: the level is always under 100 %)
# and whose job was then ended while stopped.  The closing summary says how
# many pauses, how long and whose; the stage row gives its time without the
# pause; the end record's summary and `stagetop summary` of the record say
# the same pauses.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
cd "$T" || exit 1 # the job's log stays out of the checkout

"$STAGETOP" --headless --no-gpu -i .1 --kill-free 100 --on-budget pause --record "$T/r.jsonl" \
    -- sh -c "echo \$\$ >'$T/pid'; '$STAGETOP' stage work; while :; do :; done" >"$T/out" 2>"$T/err" &
remember_job $!
wait_for "the guard's pause in the record" 30 grep -q '"kind":"pause"' "$T/r.jsonl"
# two samples of the stopped job, so the pause lasts (a condition, no sleep)
n0=$(grep -c '"type":"sample"' "$T/r.jsonl")
wait_for "two samples while paused" 30 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/r.jsonl') -ge $((n0 + 2)) ]"
kill -KILL "$(cat "$T/pid")"
wait_for "the end record" 30 grep -q '^{"type":"end"' "$T/r.jsonl"
wait_for "the closing summary" 30 grep -q '^  record ' "$T/err"
check "the closing summary says the pause: 1, by the guard, still paused at the end" \
    grep -Eq '^  paused +1 time, [0-9.]+s in all \(1 by the guard\); still paused at the end$' "$T/err"
check "the stage row gives its time without the pause (the line under it)" \
    sh -c "grep -EA1 '^  work +1 +[0-9.]+s ' '$T/err' | grep -Eq '^    \([0-9.]+s without pauses\)\$'"
"$STAGETOP" summary "$T/r.jsonl" >"$T/sum"
check "the end record's pauses are those of \`stagetop summary\` of the record, within the run" \
    $PY - "$T/r.jsonl" "$T/sum" "$T/err" <<'PY'
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
end = [r for r in recs if r["type"] == "end"][0]["summary"]
got = json.load(open(sys.argv[2]))
pause_t = [r["t"] for r in recs if r.get("kind") == "pause"][0]
last_t = [r["t"] for r in recs if r["type"] == "sample"][-1]
print(end.get("pauses"), got.get("pauses"), pause_t, last_t)
p = end["pauses"]
closing = re.search(r"^  paused +1 time, ([0-9.]+)s", open(sys.argv[3]).read(), re.M)
ok = p == got["pauses"] and p["count"] == 1 and p["guard"] == 1
ok &= abs(p["seconds"] - round(last_t - pause_t, 3)) < 1e-9 and p["seconds"] >= 0.15
ok &= end["stages"] == got["stages"] and end["stages"][-1]["paused_seconds"] == p["seconds"]
ok &= closing is not None and abs(float(closing.group(1)) - p["seconds"]) < 0.051
sys.exit(0 if ok else 1)
PY
"$STAGETOP" summary --text "$T/r.jsonl" >"$T/text"
check "\`summary --text\` of the record says the closing summary's pauses" \
    sh -c "[ \"\$(grep '^paused ' '$T/text' | sed 's/^paused *//')\" = \"\$(grep '^  paused ' '$T/err' | sed 's/^  paused *//')\" ] && grep -q '^paused ' '$T/text'"
