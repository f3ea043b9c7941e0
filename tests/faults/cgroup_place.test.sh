#!/bin/sh
# Fault: a launcher that limits what it starts (issue 21 item 1).  A shell in
# a real cgroup made here (a v1 memory cgroup with memory.limit_in_bytes =
# 64 MiB under the test's own, and a v2 cgroup under the test's own v2
# cgroup) execs stagetop, which starts a job writing 200 MiB of random bytes.
# The job must stay inside both cgroups (so the launcher's limit holds: it
# is OOM-killed, as it is with STAGETOP_CGROUP=0): on the v1 memory
# hierarchy stagetop gives it a cgroup of its own *inside* the launcher's
# (removed at the end), on v2 (no memory controller here) it stays in the
# launcher's; stagetop's first line says where the job runs.
# What cannot be made here: a cgroup v2 *with* the memory controller (this
# kernel has it on v1, with children, so it cannot be moved to v2); the
# placement rule itself (never beside stagetop's cgroup) is tested against a
# laid-out cgroup tree in tests/unit/test_cgroup_place.c.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
if ! is_root; then
    skip "cgroup placement" "needs root (makes cgroups)"; exit 0
fi
V1=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
V1MNT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
V2MNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
V2=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup)
if [ -z "$V1MNT" ] || [ -z "$V2MNT" ]; then
    skip "cgroup placement" "needs a cgroup v1 memory hierarchy and a cgroup v2 mount (hybrid)"; exit 0
fi
[ "$V1" = "/" ] && V1=""
[ "$V2" = "/" ] && V2=""
C1="$V1MNT$V1/st-place-$$" C2="$V2MNT$V2/st-place-$$"
T=$(mktemp -d)
cleanup() {
    cleanup_jobs
    for c in "$C1" "$C2"; do
        [ -d "$c" ] && while read -r p; do echo "$p" > "${c%/*}/cgroup.procs"; done < "$c/cgroup.procs"
        rmdir "$c" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
mkdir "$C1" "$C2" || { echo "FAIL: cgroup placement: cannot make test cgroups"; exit 0; }
echo $((64 * 1024 * 1024)) > "$C1/memory.limit_in_bytes"

# run NAME ENV...: the launcher joins both cgroups, then execs stagetop
run() {
    n=$1; shift
    env "$@" sh -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" &&
        exec "$3" --headless --interval 0.2 -- sh -c "cat /proc/self/cgroup > $4; exec $5 --target-mib 200 --step-mib 20 --every-ms 10 --hold-s 1"' \
        sh "$C1" "$C2" "$STAGETOP" "$T/$n.cg" "$WORKLOADS/fillmem" > "$T/$n.out" 2> "$T/$n.err"
}
run off STAGETOP_CGROUP=0; off=$?
run on; on=$?
head -3 "$T/on.err" | sed 's/^/    /'
check "cgroup: with placement off, the 64 MiB limit kills the 200 MiB job (exit $off)" \
    test "$off" -eq 137
check "cgroup: by default too: the job stays under the launcher's limit (exit $on)" \
    test "$on" -eq 137
check "cgroup: the job's v2 cgroup is the launcher's" grep -qx "0::$V2/st-place-$$" "$T/on.cg"
check "cgroup: with placement off, the job's v1 memory cgroup is the launcher's" \
    grep -q "^[0-9]*:memory:$V1/st-place-$$\$" "$T/off.cg"
check "cgroup: by default, the job's v1 memory cgroup is its own, inside the launcher's" \
    grep -q "^[0-9]*:memory:$V1/st-place-$$/stagetop-[0-9]*-[0-9]*\$" "$T/on.cg"
check "cgroup: the first line says where the job runs (its own v1 cgroup inside stagetop's)" \
    sh -c "head -1 '$T/on.err' | grep -q \"^stagetop: job [0-9]* runs in cgroup $V1/st-place-$$/stagetop-[0-9]*-0 (cgroup v1, memory), its own inside stagetop's\""
check "cgroup: with placement off, the first line says why it has none" \
    sh -c "head -1 '$T/off.err' | grep -q \"^stagetop: job [0-9]* runs in stagetop's own cgroup (no cgroup of its own: turned off (STAGETOP_CGROUP=0))\""
check "cgroup: the job's v1 cgroup is removed at the end" \
    sh -c "! ls -d '$C1'/stagetop-* 2>/dev/null"
check "cgroup: nothing made beside the launcher's cgroup" \
    sh -c "! ls -d '$V2MNT$V2'/stagetop-* '$V1MNT$V1'/stagetop-* 2>/dev/null"
