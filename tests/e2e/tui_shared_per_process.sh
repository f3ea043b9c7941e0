#!/bin/sh
# A footprint that counts a shared page once per process is said so, live
# (docs/metrics.md, "Counted once"): where the root's smaps_rollup cannot be
# read at the start (another user's process), stagetop keeps the status sum,
# footprint_metric anon+shmem+swap.  This test forces that for real: it runs
# stagetop as nobody (setpriv) on a tree of root's own, holdmem's root with
# 16 MiB of random bytes and 2 copy-on-write children (status is readable
# by anyone, smaps_rollup is not).  Then:
#  - the screen's header (tmux) says "footprint = anon+shmem+swap, shared
#    pages counted per process" while the tree has 3 processes, and not for a
#    lone process;
#  - `--headless --record`: the record names that definition, the closing
#    summary says it in one line, and so do `summary --text` and `summary`'s
#    JSON of the record.
set -u
. "$(dirname "$0")/tui_common.inc"
# fds 8 and 9 hold the trees' FIFOs open: tmux (its server) must not inherit them
tm() { tmux -L "$TM_SOCK" "$@" 8>&- 9>&-; }

if [ "$(id -u)" -ne 0 ]; then skip "$TEST_NAME" "needs root (to run stagetop as another user than the job's)"; exit 0; fi
need_tool "$TEST_NAME" setpriv util-linux || exit 0
AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
NOTE="shared pages counted per process"
not() { ! "$@"; }
chmod 711 "$T"
mkdir "$T/out" && chmod 777 "$T/out"  # where nobody writes its record

# start_tree NAME CHILDREN: holdmem (16 MiB, CHILDREN copy-on-write children)
# on its FIFO, which the caller then holds open (fd 8 or 9: closing it ends
# the tree); sets hm to its pid
start_tree() {
    mkfifo "$T/$1.fifo"
    "$WORKLOADS/holdmem" --mib 16 --cow-children "$2" <"$T/$1.fifo" >"$T/$1.hm" &
    hm=$!
    remember_job $hm
}

start_tree three 2
exec 8>"$T/three.fifo"
check "holdmem's tree of 3 is ready" until_ok 30 grep -q '^ready' "$T/three.hm"
three=$hm

# ---- live: the header ----------------------------------------------------
start_pane live 120 30 "$AS_NOBODY '$STAGETOP' -p $three --interval 0.2"
check "live, nobody watching root's tree: the header says footprint = anon+shmem+swap, $NOTE" \
    wait_screen live 15 "^3 procs .*footprint = anon+shmem+swap, $NOTE"
tm send-keys -t live q
wait_screen live 10 "stagetop-exit=" >/dev/null

start_tree lone 0
exec 9>"$T/lone.fifo"
lone=$hm
check "a lone holdmem is ready" until_ok 30 grep -q '^ready' "$T/lone.hm"
start_pane alone 120 30 "$AS_NOBODY '$STAGETOP' -p $lone --interval 0.2"
check "live, a lone process: the header names the definition" \
    wait_screen alone 15 "^1 procs .*footprint = anon+shmem+swap"
check "live, a lone process: and does not say '$NOTE'" not sh -c 'tmux -L "$1" capture-pane -p -t alone | grep -qF "$2"' - "$TM_SOCK" "$NOTE"
tm send-keys -t alone q
wait_screen alone 10 "stagetop-exit=" >/dev/null
exec 9>&-

# ---- headless: the record and the closing summary --------------------------
samples_of_3() { [ "$(grep -c '"type":"sample".*"procs":3' "$T/out/r.jsonl" 2>/dev/null)" -ge 5 ]; }
$AS_NOBODY "$STAGETOP" -p $three --headless --interval 0.2 --record "$T/out/r.jsonl" \
    >"$T/out/headless.out" 2>"$T/out/headless.err" 8>&- &
st=$!
check "headless: 5 samples of the whole tree" until_ok 60 samples_of_3
exec 8>&- # the tree ends, and stagetop with it
wait $st
check "headless: stagetop ends with the tree (exit 0)" [ $? -eq 0 ]
check "the record's definition is the per-process sum (the case is real)" \
    grep -q '"footprint_metric":"anon+shmem+swap"' "$T/out/r.jsonl"
procs=$(python3 -c '
import json, sys
print(max(r.get("procs", 0) for r in (json.loads(l) for l in open(sys.argv[1]) if l.strip())
          if r.get("type") == "sample"))' "$T/out/r.jsonl")
check "the closing summary says it in one line (up to $procs processes)" \
    grep -qxF "  definition      anon+shmem+swap, $NOTE (up to $procs processes)" "$T/out/headless.err"
"$STAGETOP" summary --text "$T/out/r.jsonl" >"$T/text" 2>&1
check "summary --text of the record says it" \
    grep -qxF "definition      anon+shmem+swap, $NOTE (up to $procs processes)" "$T/text"
"$STAGETOP" summary "$T/out/r.jsonl" >"$T/json" 2>&1
check "summary (JSON) of the record says footprint_shared_per_process" \
    python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("footprint_shared_per_process") is True else 1)' "$T/json"
check "the record's samples carry no footprint_age (no proportional reading)" \
    not grep -q footprint_age "$T/out/r.jsonl"
