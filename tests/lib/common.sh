# Shared helpers for the shell tests (sourced).  Each check prints one
# PASS:/FAIL: line; tests/run-tests.sh counts them.
: "${STAGETOP:?run through tests/run-tests.sh (or set STAGETOP, WORKLOADS, ST_ROOT)}"
: "${ST_ROOT:?run through tests/run-tests.sh (or set STAGETOP, WORKLOADS, ST_ROOT)}"
ST_JOBS=""

check() { # description, command...
    _d=$1; shift
    if "$@" >/tmp/st-check.$$ 2>&1; then
        echo "PASS: $_d"
    else
        echo "FAIL: $_d"; sed 's/^/    /' /tmp/st-check.$$ | tail -20
    fi
    rm -f /tmp/st-check.$$
}

skip() { echo "SKIP: $1: $2"; }

# wait_for description seconds command...: poll until the command succeeds.
wait_for() {
    _wd=$1; _ws=$2; shift 2
    _wend=$(( $(date +%s) + _ws ))
    while ! "$@" >/dev/null 2>&1; do
        if [ "$(date +%s)" -ge "$_wend" ]; then echo "    (timed out waiting: $_wd)"; return 1; fi
        sleep 0.05
    done
    return 0
}

remember_job() { ST_JOBS="$ST_JOBS $1"; }

# Kill whatever a test started and left behind (and their process groups).
cleanup_jobs() {
    for _p in $ST_JOBS; do
        kill -KILL -- "-$_p" 2>/dev/null; kill -KILL "$_p" 2>/dev/null
    done
    return 0
}

# Facts about processes (state, children, parent, rss, ...): ps and pgrep,
# the same code on Linux and macOS.
. "$ST_ROOT/tests/lib/proc.sh"
