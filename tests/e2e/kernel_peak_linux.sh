#!/bin/sh
# Peaks that do not leave with the process (docs/metrics.md), the cases that
# need Linux (tests/linux-only.txt): an orphan that stagetop reaps as the
# job's child subreaper (PR_SET_CHILD_SUBREAPER: macOS has none, so there
# the orphan goes to launchd and its peak with it), and cgroup v2
# memory.peak.  The shared part: tests/e2e/kernel_peak.inc; the case that
# runs everywhere: tests/e2e/kernel_peak.sh.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
. "$(dirname "$0")/kernel_peak.inc"

# --- wait4: the root leaves its exited child unreaped; stagetop, its
# subreaper, reaps it once the root has exited --------------------------------
STAGETOP_CGROUP=0 run_spike orphan --no-wait
check_run orphan wait4

# --- cgroup v2 memory.peak ---------------------------------------------------
# stagetop makes the job's cgroup only under its own cgroup, and only where
# that has the memory controller enabled for children (docs/metrics.md), which
# a non-root cgroup holding processes cannot have (cgroup v2's no-internal-
# process rule).  So: stagetop's own cgroup when it has it; else, as root, the
# hierarchy's root cgroup (exempt from that rule), into which the test moves
# the shell that execs stagetop.  Found here independently of
# core/platform/linux_cgroup.c; prints the directory, or why there is none.
cg_dir() {
    mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i+1) == "cgroup2") print $5; break } }' \
        /proc/self/mountinfo | head -1)
    [ -n "$mnt" ] || { echo "cgroup v2 not mounted"; return 1; }
    grep -qw memory "$mnt/cgroup.controllers" 2>/dev/null ||
        { echo "cgroup v2 (at $mnt) has no memory controller: cgroup v1 holds it"; return 1; }
    kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
    set -- $kv
    [ "$1" -gt 5 ] || { [ "$1" -eq 5 ] && [ "$2" -ge 19 ]; } ||
        { echo "Linux $(uname -r) has no memory.peak (5.19 or later)"; return 1; }
    rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
    own=$mnt${rel%/}
    if grep -qw memory "$own/cgroup.subtree_control" 2>/dev/null && [ -w "$own" ]; then
        echo "$own"; return 0
    fi
    if [ "$(id -u)" = 0 ] && grep -qw memory "$mnt/cgroup.subtree_control" 2>/dev/null; then
        echo "$mnt"; return 0
    fi
    echo "stagetop's cgroup ($own) has no memory controller enabled for children (a cgroup" \
         "holding processes cannot), and the root cgroup's needs root"
    return 1
}
if why=$(cg_dir); then
    before=$(ls -d "$why"/stagetop-* 2>/dev/null | wc -l)
    # stagetop runs in $why: the shell moves itself there, then execs it
    printf '%s\n' 'd=$1; shift; echo $$ >"$d/cgroup.procs" && exec "$@"' >"$T/in_cg.sh"
    ST_LAUNCH="sh $T/in_cg.sh $why" run_spike cgroup
    check_run cgroup cgroup
    check "cgroup: the job's cgroup is removed at the end" \
        sh -c "[ \$(ls -d '$why'/stagetop-* 2>/dev/null | wc -l) -eq $before ]"
else
    skip "cgroup memory.peak" "$why"
fi
