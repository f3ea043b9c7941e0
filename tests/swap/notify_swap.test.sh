#!/bin/sh
# --notify's swap warning against REAL swap (needs root, like
# guard_swap.test.sh, whose swap file and memory cgroup it shares through
# lib.sh): a job in a 256 MiB cgroup fills 1 GiB of random bytes, so swap
# grows; with --swap-budget 128M --on-budget kill --notify under script(1),
# the raw bytes on the terminal hold one "swap grew ..% of the budget"
# warning (growth >= 80 % of 128 MiB), then one guard notification, then the
# job's end; the record shows the growth that crossed 80 %.  Prints
# PASS:/FAIL:/SKIP:.  Swap and cgroup are removed whatever happens.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
ROOT=${ST_ROOT:-$(cd "$HERE/../.." && pwd)}
STAGETOP=${STAGETOP:-$ROOT/stagetop}
WORKLOADS=${WORKLOADS:-$ROOT/build/workloads}
NAME=notify_swap

why=$(swap_why_not)
[ -z "$why" ] || { echo "SKIP: $NAME: $why"; exit 0; }
. "$ROOT/tests/lib/tools.sh"
need_tool "$NAME" script bsdutils || exit 0
T=$(mktemp -d /tmp/stagetop-notify-swap.XXXXXX)
trap 'swap_cleanup; rm -rf "$T"' EXIT
trap 'swap_cleanup; rm -rf "$T"; exit 130' INT
trap 'swap_cleanup; rm -rf "$T"; exit 143' TERM
if ! swap_setup 256M >"$T/why"; then
    echo "SKIP: $NAME: $(cat "$T/why")"
    exit 0
fi
IN_CG='echo $$ >"$0" && exec "$@"'
cat >"$T/run.sh" <<SH
timeout -k 5 90 '$STAGETOP' --headless --notify --interval 0.1 --swap-budget 128M --on-budget kill \
    --record '$T/run.jsonl' -- sh -c '$IN_CG' '$SW_PROCS' '$WORKLOADS/fillmem' --target-mib 1024 \
    --step-mib 16 --every-ms 100 >'$T/job.out' 2>'$T/err'
echo \$? >'$T/rc'
SH
env -u TMUX script -qfec "sh '$T/run.sh'" "$T/raw" </dev/null >/dev/null 2>&1
why=""
[ "$(cat "$T/rc" 2>/dev/null)" = 3 ] || why="$why stagetop exited $(cat "$T/rc" 2>/dev/null), expected 3 ($(tail -2 "$T/err" | tr '\n' ' '));"
if out=$(python3 "$ROOT/tests/e2e/check_notify.py" "$T/raw" --want swap=1 --want guard=1 --want exit=1 \
        --text swap="of the budget of 128 MiB" --text guard="over the budget of 128 MiB" 2>&1); then
    echo "$out" | sed 's/^/    /'
else
    why="$why $out;"
fi
# In the raw bytes, the warning comes before the guard's notification.
python3 - "$T/raw" <<'PY' || why="$why the swap warning did not come first;"
import sys
raw = open(sys.argv[1], "rb").read()
w, g = raw.find(b"% of the budget of"), raw.find(b"over the budget of")
sys.exit(not (0 <= w < g))
PY
# The warning's percentage against the record: at least 80; and under 100
# when a sample before the budget event had grown 80..100 % (swap grows
# 16 MiB per 100 ms, sampled every 100 ms: the 26 MiB band is usually seen).
python3 - "$T/run.jsonl" "$T/raw" <<'PY' || why="$why the warning's percentage does not match the record;"
import json, re, sys
recs = list(map(json.loads, filter(str.strip, open(sys.argv[1]))))
budget = 128 << 20
first = next(r["swap_used"] for r in recs if r.get("type") == "sample" and "swap_used" in r)
cut = next(i for i, r in enumerate(recs) if r.get("kind") == "budget")
band = [r for r in recs[:cut] if r.get("type") == "sample" and 0.8 * budget <= r.get("swap_used", 0) - first < budget]
pct = int(re.search(rb"swap grew [^,]*, (\d+)% of the budget", open(sys.argv[2], "rb").read()).group(1))
print(f"    warning at {pct} %; samples in the 80-100 % band before the budget event: {len(band)}")
sys.exit(not (pct >= 80 and (pct < 100 or not band)))
PY
if [ -z "$why" ]; then echo "PASS: $NAME"; else echo "FAIL: $NAME:$why"; exit 1; fi
