#!/bin/sh
# The screen's header says which footprint definition is in force
# (docs/screen.md, docs/metrics.md "Counted once"): a job stagetop launches
# in a cgroup of its own shows `footprint = cgroup:anon+shmem+swap`, with
# no age (one read a sample carries nothing over), and the footprint lane
# shows what the cgroup holds, not the members' sum; the cgroup is removed
# when stagetop ends.  Needs root (or a delegated cgroup) and a memory
# controller (tests/e2e/cgroup_where.inc): else SKIP.
set -u
. "$(dirname "$0")/tui_common.inc"
. "$(dirname "$0")/cgroup_where.inc"
cg_setup "cgroup header" || exit 0

start_pane cg 120 40 "sh '$T/in_cg.sh' '$RUNDIR' '$STAGETOP' --interval 0.2 --no-gpu -- \
    '$WORKLOADS/demo' --encoder-mib 24 --transformer-mib 16 --worker-mib 8 --step-ms 100 --loop"
until_ok 10 has_stagetop cg
st=$(stagetop_pid cg)
until_ok 10 proc_has_children $st
job=$(proc_children "$st" | head -1)
remember_job "$job"
cg=$(job_cgroup "$job")
check "the job runs in a cgroup of its own ($cg)" sh -c "echo '$cg' | grep -q '/stagetop-[0-9]*-[0-9]*\$'"
check "header: footprint = cgroup:anon+shmem+swap" \
    wait_screen cg 15 "footprint = cgroup:anon+shmem+swap"
check "header: no age after the definition (nothing is carried)" \
    sh -c "! tmux -L $TM_SOCK capture-pane -p -t cg | grep -q 'cgroup:anon+shmem+swap ([0-9]*s old)'"
kill -TERM $(tree_pids "$job") 2>/dev/null
check "the job's end shows" wait_screen cg 15 '^\[EXITED'
tm send-keys -t cg q
check "q: stagetop exits" wait_screen cg 15 'stagetop-exit='
check "the job's cgroup is removed at the end" until_ok 10 test ! -d "$cg"
