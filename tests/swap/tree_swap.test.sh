#!/bin/sh
# The tree_swap lane and the guard's attribution against REAL swap ([lanes]).
# Needs root: a 1 GiB swap file is switched on, and a job of two processes
# (fillmem and an idle child) runs in a memory cgroup whose limit (256 MiB)
# is below its working set (384 MiB of random bytes), so the kernel pushes
# its pages out to swap.  stagetop watches it headless with --swap-budget
# 128M --on-budget pause, recording every sample.  Then, with the job paused
# (nothing moves):
#   tree_swap_equals_vmswap  the last sample's tree_swap equals the sum of the
#                            job's VmSwap that this test reads from
#                            /proc/PID/status itself (within 1 MiB)
#   tree_swap_attribution    the budget event carries the job's share in
#                            nbytes (the growth of tree_swap from the first
#                            sample to the crossing's), at least 64 MiB here,
#                            and the headless message says it
# Prints PASS:/FAIL:/SKIP: lines.  Swap and cgroup are removed whatever
# happens.  Takes about 15 s.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
NAMES="tree_swap_equals_vmswap tree_swap_attribution"

SPID=""
swap_test_stop() { [ -n "$SPID" ] && kill -TERM "$SPID" 2>/dev/null; }
swap_fill_start treeswap-test 256M
samples() { _n=$(grep -c '"type":"sample"' "$T/rec.jsonl" 2>/dev/null); echo "${_n:-0}"; }

timeout -k 5 120 "$STAGETOP" --headless --interval 0.2 --swap-budget 128M --on-budget pause \
    --record "$T/rec.jsonl" -- sh -c "$IN_CG" "$SW_PROCS" "$FILL" --target-mib 384 \
    --step-mib 64 --every-ms 100 --children 1 >"$T/out" 2>"$T/err" &
SPID=$!
if ! wait_cond 60 'grep -q "\"kind\":\"pause\"" "$T/rec.jsonl" 2>/dev/null'; then
    fail_all "no pause within 60 s: $(tail -3 "$T/err" | tr '\n' ' ')"
fi
pids=$(swap_cg_pids | tr '\n' ' ')
# every process stopped (T), then two more samples: the last one is read
# while nothing moves
wait_cond 5 'all=1; for p in $pids; do [ "$(proc_state $p)" = T ] || all=0; done; [ $all = 1 ]' ||
    fail_all "the job is not paused: $(for p in $pids; do printf '%s:%s ' "$p" "$(proc_state "$p")"; done)"
n=$(samples)
wait_cond 10 "[ \$(samples) -ge $((n + 2)) ]" || fail_all "no samples after the pause"
own=0
for p in $pids; do
    kb=$(awk '/^VmSwap:/ {print $2}' "/proc/$p/status" 2>/dev/null)
    own=$((own + ${kb:-0} * 1024))
done
n=$(samples)
wait_cond 10 "[ \$(samples) -ge $((n + 1)) ]" || fail_all "no sample after the test's read"
out=$(python3 - "$T/rec.jsonl" "$own" "$T/err" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
own = int(sys.argv[2])
samples = [r for r in recs if r.get("type") == "sample"]
last = samples[-1]
assert "tree_swap" in last, last
ok1 = abs(last["tree_swap"] - own) <= 1 << 20 and own >= 64 << 20
print("tree_swap %d, the job's own VmSwap %d (%s)" % (last["tree_swap"], own, "ok" if ok1 else "MISMATCH"))
budget = [r for r in recs if r.get("kind") == "budget"][0]
at = [s for s in samples if s["t"] <= budget["t"]][-1]
share = at["tree_swap"] - samples[0]["tree_swap"]
err = open(sys.argv[3]).read()
ok2 = budget.get("nbytes") == share and share >= 64 << 20 and "of it is this job's own memory" in err
print("budget: swap grew %d, the job's share %s (tree_swap growth %d) (%s)"
      % (budget["value"], budget.get("nbytes"), share, "ok" if ok2 else "MISMATCH"))
sys.exit((0 if ok1 else 1) | (0 if ok2 else 2))
PY
)
rc=$?
echo "$out" | sed 's/^/    /'
if [ $((rc & 1)) -eq 0 ]; then pass tree_swap_equals_vmswap; else fail tree_swap_equals_vmswap "see above"; fi
if [ $((rc & 2)) -eq 0 ]; then pass tree_swap_attribution; else fail tree_swap_attribution "see above"; fi
for p in $(swap_cg_pids); do kill -KILL "$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; done
wait_cond 10 '! kill -0 $SPID 2>/dev/null' && wait "$SPID" 2>/dev/null
SPID=""
exit $FAILED
