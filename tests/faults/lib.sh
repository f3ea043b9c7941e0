# Shared helpers of the fault suite (sourced after tests/lib/common.sh or
# tests/e2e/tui_common.inc).
#
# PY: python3 without site-packages, resolved once: the checkers need only
# the standard library, and on a loaded machine the site import (and a
# pyenv shim) costs up to a second per call.
PY=$(python3 -S -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -n "$PY" ] || PY=python3
PY="$PY -S"

# wait_bounded PID SECONDS: wait for a background PID (a child of this
# shell); SIGKILL it after SECONDS.  Returns its exit status.
wait_bounded() {
    ( trap 'kill "$_wbs" 2>/dev/null; exit 0' TERM
      sleep "$2" & _wbs=$!
      wait $_wbs && kill -KILL "$1" 2>/dev/null ) &
    _wb=$!
    wait "$1"; _wbrc=$?
    kill -TERM "$_wb" 2>/dev/null; wait "$_wb" 2>/dev/null
    return $_wbrc
}

# record_pid FILE: the pid in a record's start line.
record_pid() { sed -n '1s/.*"pid":\([0-9]*\).*/\1/p' "$1"; }

# is_root: 0 when running as root.
is_root() { [ "$(id -u)" = 0 ]; }

# now_s: seconds since the epoch with a fraction (BSD date has no %N).
now_s() { $PY -c 'import time; print("%.3f" % time.time())'; }

# elapsed_since START: seconds since START (from now_s), 1 decimal.
elapsed_since() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.1f", b - a }'; }

# record_after FILE KIND SECONDS: the JSONL record FILE holds a sample taken
# SECONDS or more after its first KIND event (both on stagetop's clock).
record_after() {
    $PY - "$@" <<'EOF'
import json, sys
path, kind, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
t0 = None
for line in open(path):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if t0 is None and r.get("type") == "event" and r.get("kind") == kind:
        t0 = r["t"]
    elif t0 is not None and r.get("type") == "sample" and r["t"] >= t0 + secs:
        sys.exit(0)
sys.exit(1)
EOF
}

# private_mounts NAME "$@": run this script again in a private mount
# namespace (root), so no mount it makes outlives it; returns at once when
# already there, 1 (after saying SKIP for NAME) where one cannot be had.
#   private_mounts "export faults" "$@" || exit 0
private_mounts() {
    _pm_name=$1; shift
    [ -n "${ST_FAULT_MOUNT_NS:-}" ] && return 0
    need_tool "$_pm_name" unshare util-linux || return 1
    if ! unshare --mount --propagation private true 2>/dev/null; then
        skip "$_pm_name" "unshare --mount is refused here"; return 1
    fi
    ST_FAULT_MOUNT_NS=1 exec unshare --mount --propagation private sh "$0" "$@"
}

# pidns_test NAME STEM SESSION BASE: the two halves of a test run in new
# pid namespaces (pidreuse, widetree).  Returns 1, after saying SKIP for
# NAME, where `unshare --pid --fork --mount-proc` is refused.  Else runs
# tests/faults/STEM_inner.sh in one (the headless scenarios: their result
# lines) with T, a new temporary directory, exported, and removes it; then
# sources the tmux helpers (tests/e2e/tui_common.inc: another T, removed on
# exit) and starts the screen's half: a 120x30 pane SESSION running
# STEM_pane.sh in a pid namespace of its own, with T, UNIQ (BASE + $$ %
# 10000, exported) and STAGETOP.  PANE is the pane's shell.  The
# namespace's pid 1 ignores a closing pane's SIGHUP: on exit, the pane's
# processes are SIGKILLed from here (the parent namespace), then
# tui_cleanup.
pidns_test() {
    if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
        skip "$1" "unshare --pid --fork --mount-proc is refused here"; return 1
    fi
    T=$(mktemp -d)
    export T
    unshare --pid --fork --mount-proc sh "$ST_ROOT/tests/faults/$2_inner.sh"
    rm -rf "$T"   # the namespace is gone, and all in it; tui_common.inc makes its own
    . "$ST_ROOT/tests/e2e/tui_common.inc"
    UNIQ=$(($4 + $$ % 10000))
    export UNIQ
    start_pane "$3" 120 30 "T='$T' UNIQ=$UNIQ STAGETOP='$STAGETOP' unshare --pid --fork --mount-proc sh '$ST_ROOT/tests/faults/$2_pane.sh'"
    trap 'touch "$T/end" 2>/dev/null; kill -KILL $(tree_pids "$PANE") 2>/dev/null; tui_cleanup' EXIT
    PANE=$(tm display -p -t "$3" '#{pane_pid}')
}
