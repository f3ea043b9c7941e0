#!/bin/sh
# gpu_fake.sh: the GPU lane end to end.  stagetop --headless --jsonl watches a
# real process tree (sh + two sleeps) while the fake libnvidia-ml.so.1
# (tests/fakenvml, loaded through ST_NVML_LIB) says which of those pids use
# how much GPU memory; the `gpu` field of the samples must be the tree's sum,
# worked out by hand below.  Also: 32-byte entries, no library, --no-gpu, and
# a GPU lost in the middle of the run.
set -u
: "${ST_BUILD:=build}" "${STAGETOP:=$PWD/stagetop}" "${ST_ROOT:=$PWD}"
. "$ST_ROOT/tests/lib/common.sh"
case $ST_BUILD in /*) B=$ST_BUILD ;; *) B=$PWD/$ST_BUILD ;; esac
. "${ST_ROOT:-$PWD}/tests/lib/proc.sh"
FAKE=$B/fakenvml/libnvidia-ml.so.1
if [ ! -x "$STAGETOP" ]; then echo "SKIP: gpu_fake: no stagetop binary"; exit 0; fi
if [ ! -f "$FAKE" ]; then echo "SKIP: gpu_fake: no $FAKE (make tests builds it)"; exit 0; fi
need_tool gpu_fake python3 python3 || exit 0

T=$(mktemp -d); JOB=
cleanup() { [ -n "$JOB" ] && kill "$JOB" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

# A tree: sh (P) with two sleeping children (C1, C2).  Its pids go into the
# script.  It lives until the run has its samples (end_tree), however slow
# the machine.
kids_started() {
    KIDS=$(proc_children $JOB)
    set -- $KIDS
    [ $# -ge 2 ] && C1=$1 && C2=$2
}
start_tree() {
    sh -c 'sleep 600 & sleep 600 & wait' & JOB=$!
    wait_for "the test tree" 60 kids_started ||
        { echo "FAIL: gpu_fake: the test tree did not start"; exit 1; }
    kids_started
}
# enough_samples FILE: 12 samples of the 3-process tree, or any 12
# samples when no sample counts 3 processes after 30 (the lane can be gone).
enough_samples() {
    [ "$(grep -c '"procs":3' "$1")" -ge 12 ] || [ "$(grep -c '"type":"sample"' "$1")" -ge 30 ]
}

# run NAME EXTRA-SCRIPT-LINES [stagetop options...]: samples to $T/NAME.jsonl
run() {
    name=$1 extra=$2; shift 2
    start_tree
    {
        echo "device 10G 141G Fake H200"
        echo "device 1G 80G Fake A100"
        echo "proc 0 $JOB 1G c"          # the root: 1 GiB on GPU 0
        echo "proc 0 $C1 256M c"         # C1 on GPU 0, compute and graphics: once
        echo "proc 0 $C1 256M g"
        echo "proc 1 $C1 512M c"         # C1 on GPU 1 too
        echo "proc 1 $C2 na c"           # C2: not available, skipped
        echo "proc 0 $$ 4G c"            # this shell: not in the tree
        printf '%s\n' "$extra"
    } >"$T/$name.script"
    ST_NVML_LIB=${LIB:-$FAKE} FAKE_NVML_SCRIPT=$T/$name.script \
        "$STAGETOP" --headless --jsonl --interval 0.1 "$@" -p "$JOB" \
        >"$T/$name.jsonl" 2>"$T/$name.err" &
    st=$!
    wait_for "12 samples of the whole tree" 90 enough_samples "$T/$name.jsonl"
    kill "$C1" "$C2" 2>/dev/null   # the tree ends; stagetop follows it out
    wait "$st"
    rc=$?
    wait "$JOB" 2>/dev/null; JOB=
    if [ $rc -ge 128 ] || [ ! -s "$T/$name.jsonl" ]; then
        echo "FAIL: gpu_fake $name: stagetop exit $rc"; sed 's/^/  | /' "$T/$name.err"; return 1
    fi
    return 0
}

# check NAME MODE: MODE all = every sample of the whole tree has gpu ==
# EXPECT (the first one excepted), none = no sample has gpu, lost = gpu == EXPECT first, then absent.
EXPECT=$((1073741824 + 268435456 + 536870912))   # 1 GiB + 256 MiB + 512 MiB
check() {
    python3 - "$T/$1.jsonl" "$2" "$EXPECT" <<'EOF'
import json, sys
path, mode, expect = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples = [r for r in map(json.loads, filter(str.strip, open(path))) if r.get("type") == "sample"]
g = [s.get("gpu") for s in samples]
if len(samples) < 10:
    sys.exit(f"only {len(samples)} samples")
if mode == "all":
    # while the whole tree is alive (3 processes); after it ends the tree is empty
    whole = [s.get("gpu") for s in samples[1:] if s.get("procs") == 3]
    bad = [v for v in whole if v != expect]
    if len(whole) < 10 or bad:
        sys.exit(f"gpu != {expect}: {bad[:5]} ({len(whole)} samples of the whole tree)")
elif mode == "none":
    if any(v is not None for v in g):
        sys.exit(f"gpu present: {g[:5]}")
elif mode == "lost":
    first_gap = next((i for i, v in enumerate(g) if v is None), None)
    if first_gap is None or first_gap < 1:
        sys.exit(f"expected gpu then none: {g}")
    if any(v != expect for v in g[:first_gap]) or any(v is not None for v in g[first_gap:]):
        sys.exit(f"bad series: {g}")
EOF
}

verdict() { # name
    if check "$1" "$2" 2>"$T/$1.why"; then echo "PASS: gpu_fake $1"
    else echo "FAIL: gpu_fake $1: $(cat "$T/$1.why")"; fi
}

run sums "" && verdict sums all
run layout32 "layout 32" && verdict layout32 all
LIB=$T/nonexistent/libnvidia-ml.so.1 run nolib "" && verdict nolib none
run nogpu "" --no-gpu && verdict nogpu none
# GetMemoryInfo is called once per GPU per reading (2 GPUs): GPU lost at the 6th reading
run lost "fail memory 15 after 10" && verdict lost lost
