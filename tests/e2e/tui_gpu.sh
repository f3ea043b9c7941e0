#!/bin/sh
# The GPU lane and the GPU column on the screen (issue 7), with the fake
# libnvidia-ml.so.1 (tests/fakenvml, through ST_NVML_LIB) serving a scripted
# table for a real process tree: the lane shows the tree's sum and each
# process's row its own bytes, worked out by hand below.
set -u
. "$(dirname "$0")/tui_common.inc"
case $ST_BUILD in /*) B=$ST_BUILD ;; *) B=$ST_ROOT/$ST_BUILD ;; esac
FAKE=$B/fakenvml/libnvidia-ml.so.1
[ -f "$FAKE" ] || { echo "FAIL: tui_gpu: no $FAKE (make tests builds it)"; exit 1; }

sh -c 'sleep 300 & sleep 300 & wait' &
root=$!
remember_job $root
until_ok 10 proc_has_children $root 2
set -- $(proc_children $root)
c1=$1 c2=$2
cat >"$T/gpu.script" <<EOS
device 10G 141G Fake H200
device 1G 80G Fake A100
proc 0 $root 1G c
proc 0 $c1 256M c
proc 1 $c1 512M c
proc 0 $$ 4G c
EOS
start_pane gpu 110 36 "ST_NVML_LIB='$FAKE' FAKE_NVML_SCRIPT='$T/gpu.script' '$STAGETOP' -p $root --interval 0.2"

check "the GPU lane shows the tree's sum: 1 GiB + 256 MiB + 512 MiB = 1.75 GiB" \
    until_ok 15 sh -c "tmux -L $TM_SOCK capture-pane -p -t gpu | grep -A1 '^GPU memory (tree)' | grep -q 'now  *1.75 GiB'"
check "the list has a GPU column" sh -c "tmux -L $TM_SOCK capture-pane -p -t gpu | grep -q 'SWAP  *GPU S  *CPU%  *PGIN/s  COMMAND'"
check "the root's row: 1.00 GiB on the GPU" sh -c "tmux -L $TM_SOCK capture-pane -p -t gpu | grep -E '^ *$root ' | grep -Eq ' 1.00 GiB [A-Z-]  *[0-9.-]+  *[0-9.-]+  sh'"
# The two children run one command: numbered #1 and #2 in start order (c1 first).
check "a child on two GPUs: 768 MiB" sh -c "tmux -L $TM_SOCK capture-pane -p -t gpu | grep -E '^ *$c1 ' | grep -Eq ' 768 MiB [A-Z-]  *[0-9.-]+  *[0-9.-]+  #1 sleep'"
check "a child that NVML does not list: 0 B" sh -c "tmux -L $TM_SOCK capture-pane -p -t gpu | grep -E '^ *$c2 ' | grep -Eq ' 0 B [A-Z-]  *[0-9.-]+  *[0-9.-]+  #2 sleep'"
tm send-keys -t gpu q
check "q: stagetop exits 0" wait_screen gpu 10 'stagetop-exit=0'
