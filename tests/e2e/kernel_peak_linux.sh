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
# stagetop's own cgroup v2 directory (or its parent) with the memory
# controller enabled for children, found here independently of core/run/peak.c.
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
    for d in "$mnt${rel%/}" "$(dirname "$mnt${rel%/}")"; do
        grep -qw memory "$d/cgroup.subtree_control" 2>/dev/null && [ -w "$d" ] && \
            [ -e "$d/cgroup.procs" ] && { echo "$d"; return 0; }
    done
    echo "no writable cgroup v2 with the memory controller enabled for children"
    return 1
}
if why=$(cg_dir); then
    before=$(ls -d "$why"/stagetop-* 2>/dev/null | wc -l)
    run_spike cgroup
    check_run cgroup cgroup
    check "cgroup: the job's cgroup is removed at the end" \
        sh -c "[ \$(ls -d '$why'/stagetop-* 2>/dev/null | wc -l) -eq $before ]"
else
    skip "cgroup memory.peak" "$why"
fi
