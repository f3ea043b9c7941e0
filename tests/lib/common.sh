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

# skip NAME REASON: a test that cannot run here says why.  A missing tool is
# not such a reason under CI: use need_tool (tests/lib/tools.sh) for that.
skip() { echo "SKIP: $1: $2"; }
. "${ST_ROOT:-$(dirname "$0")/../..}/tests/lib/tools.sh"

# wait_secs SECONDS: SECONDS, or ST_WAIT_MIN (default 30) when that is more.
# Every wait is for a condition and returns as soon as it holds; its limit
# only says when to give up, so a loaded machine (CI: 2 cores, other tests
# beside) must not reach it: a short limit written in a test is raised.
wait_secs() {
    _wm=${ST_WAIT_MIN:-30}
    if [ "${1%%.*}" -lt "$_wm" ] 2>/dev/null; then echo "$_wm"; else echo "${1%%.*}"; fi
}

# wait_for description seconds command...: poll until the command succeeds.
wait_for() {
    _wd=$1; _ws=$(wait_secs "$2"); shift 2
    _wend=$(( $(date +%s) + _ws ))
    while ! "$@" >/dev/null 2>&1; do
        if [ "$(date +%s)" -ge "$_wend" ]; then echo "    (timed out after ${_ws}s waiting: $_wd)"; return 1; fi
        sleep 0.05
    done
    return 0
}

# until_ok SECONDS COMMAND...: wait_for, the command its own description.
until_ok() { _us=$1; shift; wait_for "$*" "$_us" "$@"; }

remember_job() { ST_JOBS="$ST_JOBS $1"; }

# uniq_secs SECONDS: SECONDS with a fraction that is this test's pid
# (800.0012345), for a `sleep` the test finds again by its command line
# (pgrep -x -f "sleep $secs"): no other suite running beside it
# (tests/run-tests.sh, JOBS) has the same one.
uniq_secs() { printf '%d.%07d\n' "$1" "$$"; }

# Kill whatever a test started and left behind: every job it remembered and
# every background job of this shell, each with all its descendants (a job
# of a non-interactive shell leads no process group of its own, so killing
# its group or itself alone would leave its children running).  The trees
# are stopped first, then read again, so a fork in between is not missed.
cleanup_jobs() {
    _cjf=$(mktemp 2>/dev/null) || _cjf=/tmp/st-jobs.$$
    jobs -p >"$_cjf" 2>/dev/null # ($(jobs -p) is empty in a subshell: dash)
    _cjr="$ST_JOBS $(cat "$_cjf" 2>/dev/null)"
    rm -f "$_cjf"
    for _cjpass in STOP KILL; do
        _cja=$(descendants $_cjr)
        for _p in $ST_JOBS; do kill -"$_cjpass" -- "-$_p" 2>/dev/null; done
        [ -z "$_cja" ] || kill -"$_cjpass" $_cja 2>/dev/null
    done
    return 0
}

# descendants PID...: those pids and all their descendants, from one ps
# listing (a fork storm's thousands of processes cost one ps, not one pgrep
# each).
descendants() {
    [ $# -gt 0 ] || return 0
    ps -A -o pid= -o ppid= 2>/dev/null | awk -v roots="$*" '
        BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
        { pid[NR] = $1; ppid[NR] = $2 }
        END {
            for (more = 1; more; ) {
                more = 0
                for (i = 1; i <= NR; i++)
                    if (!(pid[i] in keep) && (ppid[i] in keep)) { keep[pid[i]] = 1; more = 1 }
            }
            for (k in keep) print k
        }'
}

# Facts about processes (state, children, parent, rss, ...): ps and pgrep,
# the same code on Linux and macOS.
. "$ST_ROOT/tests/lib/proc.sh"

# turns PID: how many times PID has blocked and woken so far (its context
# switches: tests/tools/turns.c, Linux and macOS); empty when it is gone.
turns() {
    case ${ST_BUILD:-build} in /*) _tb=$ST_BUILD ;; *) _tb=$ST_ROOT/${ST_BUILD:-build} ;; esac
    "$_tb/tools/turns" "$1" 2>/dev/null
}

# wait_turns PID N [SECONDS]: poll until PID has blocked and woken N more
# times than when called.  For a screen, whose loop sleeps in poll(): it went
# round N times since, so it has read every key and resize sent before the
# call.  Fails when PID is gone or after SECONDS (default 60).
wait_turns() {
    _tp=$1 _tn=$2 _tsec=$(wait_secs "${3:-60}")
    _t0=$(turns "$_tp")
    [ -n "$_t0" ] || { echo "    (wait_turns: $_tp is gone)"; return 1; }
    _tend=$(( $(date +%s) + _tsec ))
    while :; do
        _t=$(turns "$_tp")
        [ -n "$_t" ] || { echo "    (wait_turns: $_tp is gone)"; return 1; }
        [ "$_t" -ge $((_t0 + _tn)) ] && return 0
        if [ "$(date +%s)" -ge "$_tend" ]; then
            echo "    (timed out after ${_tsec}s: $_tp did not wake $_tn times)"; return 1
        fi
        sleep 0.05
    done
}
