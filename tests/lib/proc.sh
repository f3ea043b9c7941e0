# Facts about processes for the shell tests (sourced by tests/lib/common.sh).
# Every lookup goes through ps and pgrep, whose options used here mean the
# same on Linux (procps) and macOS (BSD ps, pgrep), so Linux runs the very
# code a Mac runs.  A test that needs a fact only Linux has (VmHWM, pid
# namespaces, cgroups, hidepid, /proc fd lists) reads it itself and is
# listed in tests/linux-only.txt (docs/macos.md says why).
# Each prints nothing (and fails where it tests) when the process is gone.

# proc_exists PID: the process exists (a zombie too; another user's too).
proc_exists() { ps -p "$1" >/dev/null 2>&1; }

# proc_state PID: its state letter (R, S, T, Z, ...; macOS adds I and U).
proc_state() { ps -o stat= -p "$1" 2>/dev/null | sed -n 's/^ *\(.\).*/\1/p'; }

# proc_parent PID: its parent's pid.
proc_parent() { ps -o ppid= -p "$1" 2>/dev/null | tr -d ' '; }

# proc_children PID: its children's pids, one a line, ascending.
proc_children() { pgrep -P "$1" 2>/dev/null | sort -n; }

# proc_has_children PID [N]: it has at least N children (default 1).
proc_has_children() { [ "$(proc_children "$1" | wc -l)" -ge "${2:-1}" ]; }

# proc_child_named PID NAME: the pid of its first child whose name is NAME.
proc_child_named() { pgrep -P "$1" -x "$2" 2>/dev/null | sort -n | head -1; }

# proc_tree PID: the process and all its descendants, one pid a line.
proc_tree() {
    echo "$1"
    for _ptc in $(proc_children "$1"); do proc_tree "$_ptc"; done
}

# proc_rss_kib PID: its resident set size, KiB.
proc_rss_kib() { ps -o rss= -p "$1" 2>/dev/null | tr -d ' '; }

# proc_name PID: its name (the executable's base name).
proc_name() { ps -o comm= -p "$1" 2>/dev/null | sed 's|.*/||'; }

# proc_args PID: its command line, arguments joined by spaces, uncut.
proc_args() { ps -ww -o args= -p "$1" 2>/dev/null; }

# free_pid: a pid that no process has now (below the system's pid limit:
# Linux's kernel.pid_max, macOS's 99999: PID_MAX in XNU's
# bsd/sys/proc_internal.h).
free_pid() {
    _fpm=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 99999)   # portable: 99999 where there is no /proc
    _fp=$((_fpm - 7))
    while proc_exists "$_fp"; do _fp=$((_fp - 1)); done
    echo "$_fp"
}
