# Helpers for the real-swap tests (sourced): a swap file, a memory cgroup
# (v1 or v2) and a wrapper that runs a command inside it.  Needs root.
#
#   swap_why_not                 prints why these tests cannot run here ("" = they can)
#   swap_setup LIMIT             swap file on + cgroup with a memory limit (e.g. 256M)
#   swap_in_cgroup CMD...        (as a command line for stagetop) runs CMD in the cgroup
#   swap_used_kib                system swap in use (SwapTotal - SwapFree), KiB
#   swap_cleanup                 kills what runs in the cgroup, removes it, swapoff + rm
#   swap_fill_start TMPNAME LIMIT  the start of a test that fills memory in the cgroup
#   wait_cond SECONDS COND       waits for a shell condition
#
# Everything is undone by swap_cleanup, which is idempotent and meant for
# `trap ... EXIT INT TERM`.

SW_FILE=""
SW_ON=0
SW_CG=""
SW_CGV=""    # 1 or 2
SW_PROCS=""  # the cgroup's process list file

# The result lines of a test whose checks are named in $NAMES (set by the
# test): all skipped or all failed at once, or one passed or failed
# (FAILED=1 remembers it).
skip_all() { for n in $NAMES; do echo "SKIP: $n: $1"; done; exit 0; }
fail_all() { for n in $NAMES; do echo "FAIL: $n: $1"; done; exit 1; }
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; FAILED=1; }

swap_why_not() {
    if [ "$(id -u)" != 0 ]; then echo "needs root (swapon, cgroups)"; return; fi
    for c in fallocate mkswap swapon swapoff python3; do
        command -v "$c" >/dev/null 2>&1 || { echo "$c is not installed; scripts/deps.sh installs it"; return; }
    done
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
            { echo "cgroup v2 without the memory controller"; return; }
    elif [ ! -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
        echo "no memory cgroup (neither v1 /sys/fs/cgroup/memory nor v2)"; return
    fi
    [ -r /proc/meminfo ] || { echo "no /proc/meminfo"; return; }
    echo ""
}

swap_used_kib() {
    awk '/^SwapTotal:/ {t = $2} /^SwapFree:/ {f = $2} END {print t - f}' /proc/meminfo
}

# swap_setup LIMIT: prints the reason and returns 1 when the system refuses.
swap_setup() {
    _limit=$1
    SW_FILE=$(mktemp /var/tmp/stagetop-swap.XXXXXX) || { echo "mktemp failed"; return 1; }
    if ! fallocate -l 1G "$SW_FILE" 2>/dev/null; then
        dd if=/dev/zero of="$SW_FILE" bs=1M count=1024 status=none ||
            { echo "cannot create a 1 GiB swap file"; return 1; }
    fi
    chmod 600 "$SW_FILE"
    mkswap "$SW_FILE" >/dev/null 2>&1 || { echo "mkswap failed"; return 1; }
    if ! _err=$(swapon "$SW_FILE" 2>&1); then
        echo "swapon failed: $_err"; return 1
    fi
    SW_ON=1
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        SW_CGV=2
        SW_CG=/sys/fs/cgroup/stagetop-swap-$$
        grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
            echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
            { echo "cannot enable the v2 memory controller"; return 1; }
        mkdir "$SW_CG" || { echo "cannot create $SW_CG"; return 1; }
        echo "$_limit" >"$SW_CG/memory.max" || { echo "cannot set memory.max"; return 1; }
        [ -f "$SW_CG/memory.swap.max" ] && echo max >"$SW_CG/memory.swap.max"
        SW_PROCS=$SW_CG/cgroup.procs
    else
        SW_CGV=1
        SW_CG=/sys/fs/cgroup/memory/stagetop-swap-$$
        mkdir "$SW_CG" || { echo "cannot create $SW_CG"; return 1; }
        echo "$_limit" >"$SW_CG/memory.limit_in_bytes" || { echo "cannot set the limit"; return 1; }
        echo 100 >"$SW_CG/memory.swappiness" 2>/dev/null ||
            echo 60 >"$SW_CG/memory.swappiness" 2>/dev/null
        SW_PROCS=$SW_CG/cgroup.procs
    fi
    return 0
}

# The pids in the cgroup now (the job's whole tree: children inherit it).
swap_cg_pids() { cat "$SW_PROCS" 2>/dev/null; }

swap_cleanup() {
    if [ -n "$SW_CG" ] && [ -d "$SW_CG" ]; then
        _i=0
        while [ -n "$(swap_cg_pids)" ] && [ $_i -lt 100 ]; do
            for _p in $(swap_cg_pids); do kill -KILL "$_p" 2>/dev/null; kill -CONT "$_p" 2>/dev/null; done
            sleep 0.1; _i=$((_i + 1))
        done
        _i=0
        while ! rmdir "$SW_CG" 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
        [ -d "$SW_CG" ] && echo "    (cleanup: could not remove $SW_CG)" >&2
        SW_CG=""
    fi
    if [ "$SW_ON" = 1 ]; then
        swapoff "$SW_FILE" 2>/dev/null || echo "    (cleanup: swapoff $SW_FILE failed)" >&2
        SW_ON=0
    fi
    if [ -n "$SW_FILE" ]; then rm -f "$SW_FILE"; SW_FILE=""; fi
    return 0
}

# Wait up to $1 seconds for "$2" (a shell condition) to hold.
wait_cond() {
    _end=$(($(date +%s) + $1))
    while ! eval "$2"; do
        [ "$(date +%s)" -ge "$_end" ] && return 1
        sleep 0.05
    done
    return 0
}

# What a test started, ended on its exit (swap_fill_start's traps call it
# first); a test that starts processes defines its own.
swap_test_stop() { :; }
swap_test_end() {
    swap_test_stop
    swap_cleanup
    rm -rf "$T"
}

# swap_fill_start TMPNAME LIMIT: the start of a test whose checks ($NAMES)
# run the fillmem workload in the memory cgroup (guard_swap, tree_swap;
# HERE is the test's folder).  Sets ROOT, STAGETOP, WORKLOADS, FILL and
# FAILED=0, and sources tests/lib/proc.sh; skips every check where this
# machine cannot swap (swap_why_not, or swap_setup refused, with the
# reason), fails every check when fillmem is not built.  Makes the test's
# directory T (/tmp/stagetop-TMPNAME.XXXXXX), then the swap file and the
# cgroup with the memory limit LIMIT; on EXIT, INT and TERM, swap_test_end
# undoes it all.  IN_CG runs a job in the cgroup through a tiny wrapper:
# sh writes its own pid into the cgroup, then becomes the workload (same
# pid, same process group):
#   sh -c "$IN_CG" "$SW_PROCS" CMD ARGS...
swap_fill_start() {
    ROOT=${ST_ROOT:-$(cd "$HERE/../.." && pwd)}
    . "$ROOT/tests/lib/proc.sh"
    STAGETOP=${STAGETOP:-$ROOT/stagetop}
    WORKLOADS=${WORKLOADS:-$ROOT/build/workloads}
    FILL=$WORKLOADS/fillmem
    FAILED=0
    _why=$(swap_why_not)
    [ -z "$_why" ] || skip_all "$_why"
    [ -x "$FILL" ] || fail_all "workload $FILL is not built (make $WORKLOADS/fillmem)"
    T=$(mktemp -d "/tmp/stagetop-$1.XXXXXX")
    trap 'swap_test_end' EXIT
    trap 'swap_test_end; exit 130' INT
    trap 'swap_test_end; exit 143' TERM
    # (not in a $(...) subshell: the variables it sets are needed by the cleanup)
    if ! swap_setup "$2" >"$T/why"; then
        skip_all "$(cat "$T/why")"
    fi
    IN_CG='echo $$ >"$0" && exec "$@"'
}
