#!/bin/sh
# Who is in a launched job's tree (docs/metrics.md, "Who is in the tree"):
# membership is by identity.
#   W  `sh -c 'sh -c "WORKER & sleep 1.5"; sleep 4'`: once the middle shell
#      exits, the worker (64 MiB of random bytes) is still counted;
#   Wp the same with -p (the worker re-parents to init, not to stagetop).
# What needs stagetop to be the job's subreaper (Linux) is job_reaper.sh.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
until_ok() { wait_for "$*" "$@"; }

# --- W: the worker of a middle shell that exits ----------------------------
printf 'import os, time\nb = os.urandom(64 << 20)\ntime.sleep(4)\n' >"$T/worker.py"
"$STAGETOP" --headless --no-gpu -i .25 --record "$T/w.jsonl" -- \
    sh -c "sh -c 'python3 $T/worker.py & sleep 1.5'; sleep 4" 2>"$T/w.err" &
st=$!
remember_job $st
wait_bounded $st 60
check "W: the run ends" test -s "$T/w.jsonl"
# Samples from 2.0 s to 3.3 s (the middle shell has gone, the worker holds
# its 64 MiB until about 4 s after it started): each counts >= 60 MiB.
check "W: the orphaned worker is still counted after its parent exited" $PY - "$T/w.jsonl" <<'EOF'
import json, sys
s = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "sample"]
mid = [r for r in s if 2.0 <= float(r["t"]) <= 3.3]
low = [(r["t"], r.get("footprint", 0) >> 20) for r in mid if r.get("footprint", 0) < (60 << 20)]
print("samples 2.0-3.3 s:", len(mid), "under 60 MiB:", low)
sys.exit(0 if mid and not low else 1)
EOF

# --- Wp: the same rule for -p -----------------------------------------------------------
sh -c "while [ ! -e '$T/wp.go' ]; do sleep 0.05; done; sh -c 'python3 $T/worker.py & sleep 1.5'; sleep 4" &
target=$!
remember_job $target
"$STAGETOP" --headless --no-gpu -i .25 -p $target --record "$T/wp.jsonl" --metrics "$T/wp.prom" 2>"$T/wp.err" &
st=$!
remember_job $st
wait_for "the first sample" 30 test -s "$T/wp.prom"
: >"$T/wp.go"
wait_bounded $st 60
check "Wp: -p: the orphaned worker is still counted after its parent exited" $PY - "$T/wp.jsonl" <<'EOF'
import json, sys
s = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "sample"]
t0 = min((float(r["t"]) for r in s if r.get("procs", 0) >= 3), default=None)
mid = [r for r in s if t0 is not None and t0 + 2.0 <= float(r["t"]) <= t0 + 3.3]
low = [(r["t"], r.get("footprint", 0) >> 20) for r in mid if r.get("footprint", 0) < (60 << 20)]
print("first sample with the worker:", t0, "samples 2.0-3.3 s after:", len(mid), "under 60 MiB:", low)
sys.exit(0 if mid and not low else 1)
EOF

exit 0
