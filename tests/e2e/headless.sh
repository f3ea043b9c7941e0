#!/bin/sh
# Headless mode end to end: real processes, real /proc, the real binary.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# --- exit code passthrough -------------------------------------------------
"$STAGETOP" --headless --interval 0.05 -- sh -c 'exit 7' 2>"$T/err"
check "exit code of the command is passed through (7)" [ $? -eq 7 ]
"$STAGETOP" --headless --interval 0.05 -- sh -c 'kill -KILL $$' 2>"$T/err"
check "a command killed by SIGKILL gives 137" [ $? -eq 137 ]
"$STAGETOP" --headless -- /nonexistent/command 2>"$T/err"
rc=$?
check "a command that cannot start: exit 1 with the reason" \
    sh -c "[ $rc -eq 1 ] && grep -q 'nonexistent' '$T/err'"

# --- usage errors ------------------------------------------------------------
"$STAGETOP" --headless --interval 0 -p $$ 2>"$T/err"
rc=$?
check "interval out of range: exit 2 with a message" \
    sh -c "[ $rc -eq 2 ] && grep -q 'interval' '$T/err'"
"$STAGETOP" --headless --interval 61 -p $$ 2>/dev/null
check "interval 61 is refused" [ $? -eq 2 ]
"$STAGETOP" --bogus 2>/dev/null
check "unknown option: exit 2" [ $? -eq 2 ]
pid=$(free_pid)
"$STAGETOP" --headless -p "$pid" 2>"$T/err"
rc=$?
check "no such pid: exit 1 with a message" \
    sh -c "[ $rc -eq 1 ] && grep -qiE 'no such process|no process' '$T/err'"
sleep 300 </dev/null >/dev/null 2>&1 &
bg=$!
"$STAGETOP" --headless -p $bg --record /nonexistent-dir/x.jsonl 2>"$T/err"
rc=$?
kill $bg 2>/dev/null; wait $bg 2>/dev/null
check "unwritable record path: exit 1 with the path in the message" \
    sh -c "[ $rc -eq 1 ] && grep -q 'nonexistent-dir' '$T/err'"
"$STAGETOP" --help >"$T/help"
check "--help documents every option of the design" \
    sh -c "for o in --interval --record --headless --jsonl --events --swap-budget --kill-free \
        --wait-free --on-budget --export-dir --history --ascii --no-gpu --version; do \
        grep -q -- \"\$o\" '$T/help' || { echo missing \$o; exit 1; }; done"

# --- --wait-free: start when there is room, give up with 4 --------------------
"$STAGETOP" --headless --wait-free 100 --start-timeout 1s -- sh -c "touch '$T/started'" 2>"$T/err"
rc=$?
check "--wait-free 100: never room, exit 4 after --start-timeout, the command never ran" \
    sh -c "[ $rc -eq 4 ] && [ ! -e '$T/started' ] && grep -q 'no room to start' '$T/err' && grep -q 'waiting to start' '$T/err'"
"$STAGETOP" --headless --wait-free 0 -- sh -c "touch '$T/started'" 2>"$T/err"
rc=$?
check "--wait-free 0: room at once, the command runs" sh -c "[ $rc -eq 0 ] && [ -e '$T/started' ]"

# --- watching an existing process until it exits ----------------------------
"$WORKLOADS/demo" --steps 4 --step-ms 100 --encoder-mib 32 --transformer-mib 32 --hold &
demo=$!
remember_job $demo
"$STAGETOP" --headless -p $demo --interval 0.1 --record "$T/watch.jsonl" 2>"$T/err" &
st=$!
# Past two discovery periods (0.5 s each at this interval): the worker, forked
# at the demo's start, must be a member by then even if stagetop's first
# discovery ran before the fork.
wait_for "the record has samples for 1.2 s" 10 \
    python3 -c "import json,sys; t=[json.loads(l).get('t',0) for l in open(sys.argv[1]) if '\"sample\"' in l]; sys.exit(not (len(t) >= 5 and t[-1] >= 1.2))" "$T/watch.jsonl"
kill -TERM $demo; wait $demo 2>/dev/null
wait $st
rc=$?
check "stagetop -p exits 0 when the watched process exits" [ $rc -eq 0 ]
check "the record is complete (start, samples, exit event, end)" \
    python3 "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/watch.jsonl" --end --min-samples 5 --event exit
check "the tree held the worker process too (procs >= 2)" \
    python3 "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/watch.jsonl" --min-procs 2

# --- JSONL to stdout -------------------------------------------------------------
# the job lives until 3 samples are out (120 s at most)
"$STAGETOP" --headless --jsonl --interval 0.05 -- sh -c "i=0
    until [ \$(grep -c '\"type\":\"sample\"' '$T/out.jsonl') -ge 3 ] || [ \$i -ge 2400 ]; do
        sleep 0.05; i=\$((i + 1)); done" >"$T/out.jsonl" 2>"$T/err"
check "--jsonl streams valid records to stdout" \
    python3 "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/out.jsonl" --end --min-samples 3

# --- SIGTERM to stagetop stops the job it started, completes the trace -----------
"$STAGETOP" --headless --interval 0.05 --grace 1 --record "$T/term.jsonl" -- \
    "$WORKLOADS/demo" --loop --encoder-mib 16 --transformer-mib 16 --step-ms 50 2>"$T/err" &
st=$!
wait_for "the job started" 10 sh -c "[ -s '$T/term.jsonl' ]"
job=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['pid'])" "$T/term.jsonl")
remember_job "$job"
wait_for "samples are recorded" 10 \
    sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/term.jsonl') -ge 3 ]"
kill -TERM $st
wait $st
rc=$?
check "SIGTERM: stagetop exits 143" [ $rc -eq 143 ]
check "SIGTERM: the job it started is gone" sh -c "! kill -0 $job 2>/dev/null"
check "SIGTERM: the trace is complete with the kill event" \
    python3 "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/term.jsonl" --end --event kill

# --- SIGKILL to stagetop leaves a readable record -----------------------------------
"$STAGETOP" --headless --interval 0.02 --record "$T/killed.jsonl" -- \
    "$WORKLOADS/demo" --loop --encoder-mib 16 --transformer-mib 16 --step-ms 20 2>/dev/null &
st=$!
wait_for "the job started" 10 sh -c "[ -s '$T/killed.jsonl' ]"
job=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['pid'])" "$T/killed.jsonl")
remember_job "$job"
wait_for "samples are recorded" 10 \
    sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/killed.jsonl') -ge 20 ]"
kill -KILL $st
wait $st 2>/dev/null
check "SIGKILL: the record is valid JSONL up to its last line (no end record)" \
    python3 "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/killed.jsonl" --no-end --min-samples 20
check "SIGKILL: stagetop's summary reads the killed record" \
    sh -c "'$STAGETOP' summary '$T/killed.jsonl' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"peak_footprint\"] > 0'"
kill -KILL -- -"$job" 2>/dev/null

# --- no drift: every sample sits on its deadline t0 + k * interval ----------------
"$STAGETOP" --headless --interval 0.01 --record "$T/drift.json" -- sleep 10.05 2>"$T/err"
check "1000 samples at 10 ms: each on its own deadline k*10ms (no drift), none twice" \
    python3 "$ST_ROOT/tests/e2e/check_drift.py" "$T/drift.json" 0.01 10

# --- a spike between two samples still shows in the export's kernel peak -----
# A child of holdmem allocates 1 GiB of random bytes, holds it 50 ms, frees
# it and lives on until stagetop has sampled twice more (a process that exits
# takes its high-water mark with it: docs/metrics.md).
cat >"$T/spike.sh" <<SH
mkfifo "$T/spike.in"
'$WORKLOADS/holdmem' --children 1 --child-mib 8 --spike 1024 --hold-ms 50 --spike-in-child \
    <"$T/spike.in" >"$T/spike.out" &
exec 3>"$T/spike.in"
echo spike >&3
i=0 # the spike is done (120 s at most)
until grep -q '^spiked' "$T/spike.out" || [ \$i -ge 2400 ]; do sleep 0.05; i=\$((i + 1)); done
# two more samples of stagetop's after the spike (120 s at most)
n=\$(grep -c '"type":"sample"' "$T/peak.out")
i=0
until [ \$(grep -c '"type":"sample"' "$T/peak.out") -ge \$((n + 2)) ] || [ \$i -ge 2400 ]; do
    sleep 0.05; i=\$((i + 1))
done
exec 3>&-
wait
SH
"$STAGETOP" --headless --jsonl --interval 0.5 --record "$T/peak.json" -- sh "$T/spike.sh" >"$T/peak.out" 2>"$T/err"
check "a 1 GiB spike held 50 ms at a 0.5 s interval: summary.kernel_peak >= 1 GiB" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
kp, sampled = d["summary"]["kernel_peak"], max(s["footprint"] for s in d["samples"])
print("kernel_peak", kp, "largest sampled footprint", sampled)
assert kp >= 1 << 30, kp
' "$T/peak.json"
