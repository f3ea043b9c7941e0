#!/bin/sh
# Runs every test of `make check` and ends with one line: "N passed, N failed, N skipped".
#  - cmocka unit binaries: $B/tests/test_*  (their own counts are read)
#  - shell tests: tests/e2e/*.sh and tests/*/*.test.sh.  A script prints
#    "PASS: name", "FAIL: name" or "SKIP: name: reason" lines, which are
#    counted; a script that prints none counts as one test by its exit code
#    (0 pass, 77 skip, else fail).
# ONLY=pattern runs the tests whose path contains pattern.
# JOBS=N runs N suites at a time (default: the machine's cores, at least 2
# and at most 8; JOBS=1: one at a time).  Each suite's output goes to a file
# of its own and is printed in the order below once it is done; the suites
# of tests/serial.txt (those that change or read what the whole machine
# shares: swap, the memory level) run after the others, each alone.  The
# suites stay apart by their own temporary directories (mktemp), tmux
# servers (tests/e2e/tui_common.inc: -L st$$), cgroups (named by the test's
# pid) and process names (tests/lib/common.sh uniq_secs).  At the end: the
# ten slowest suites, the sum of all suites' times and the wall time.
# Under CI (CI=true) a skip because a tool is missing ("SKIP: name: X is not
# installed", tests/lib/common.sh need_tool) counts as a failure: a green CI
# means every test ran.  Skips for other reasons (needs root, swap, Linux)
# stay skips and say why.
set -u
B=${1:-build}
export ST_BUILD="$B" STAGETOP="$PWD/$B/stagetop" WORKLOADS="$PWD/$B/workloads" ST_ROOT="$PWD"
# git status (the checkout check, below) beside a suite's own git: no index
# lock taken in passing (git takes it to refresh the index's stat data).
export GIT_OPTIONAL_LOCKS=0
[ -x "$STAGETOP" ] || STAGETOP="$PWD/stagetop"
pass=0 fail=0 skip=0 failed_names=""
W=$(mktemp -d) || exit 2
trap 'rm -rf "$W"' EXIT

if [ -z "${JOBS:-}" ]; then
    # nproc: the cores this process may use; macOS has none: getconf
    JOBS=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) # portable: getconf where no nproc
    case $JOBS in '' | *[!0-9]*) JOBS=2 ;; esac
    [ "$JOBS" -ge 2 ] || JOBS=2
    [ "$JOBS" -le 8 ] || JOBS=8
fi
case $JOBS in '' | 0 | *[!0-9]*) echo "run-tests.sh: JOBS=$JOBS: not a number of suites (1 or more)" >&2; exit 2 ;; esac

# now: seconds, with their fraction where date has %N (GNU; BSD date: whole).
case $(date +%N 2>/dev/null) in # portable: BSD date prints N, so whole seconds there
    [0-9]*) now() { date +%s.%N; } ;; # portable: only where date +%N printed digits
    *) now() { date +%s; } ;;
esac
T_START=$(now)

count() { # name, exit code, seconds; reads $log
    p=$(grep -c '^PASS: ' "$log"); f=$(grep -c '^FAIL: ' "$log"); s=$(grep -c '^SKIP: ' "$log")
    if grep -q '^\[==========\] .* test(s) run' "$log"; then   # cmocka
        p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
        f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
        s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
        grep '^\[  SKIPPED \] [a-z_]' "$log" | sed 's/^/    /'
    fi
    if [ "${CI:-}" = true ]; then   # a missing tool fails under CI
        m=$(grep -c '^SKIP: .*is not installed' "$log")
        f=$((f + m)); s=$((s > m ? s - m : 0))
        [ "$m" -eq 0 ] || grep '^SKIP: .*is not installed' "$log" | sed 's/^SKIP: /FAIL (CI=true, missing tool): /'
    fi
    if [ $((p + f + s)) -eq 0 ]; then
        case $2 in 0) p=1 ;; 77) s=1 ;; *) f=1 ;; esac
    elif [ "$2" -ne 0 ] && [ "$2" -ne 77 ] && [ "$f" -eq 0 ]; then
        f=1   # crashed or exited non-zero after passing lines
    fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    _time=${3:+, $3 s}
    if [ "$f" -ne 0 ]; then
        failed_names="$failed_names $1"; echo "  FAILED: $1 (exit $2$_time)"; sed 's/^/    | /' "$log" | tail -40
    else
        echo "  ok: $1 ($p passed, $s skipped$_time)"
        grep '^SKIP: ' "$log" | sed 's/^/    /'
    fi
}

# GNU timeout (gtimeout from Homebrew's coreutils on macOS); none: no limit.
# A suite runs in the background of this shell, where SIGINT and SIGQUIT are
# ignored; timeout (or, without it, perl) gives them back their default, as
# a suite run in the foreground has them.
PRE=""
for t in timeout gtimeout; do command -v $t >/dev/null 2>&1 && { PRE="$t -k 10 900"; break; }; done
if [ -z "$PRE" ] && command -v perl >/dev/null 2>&1; then
    echo '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec { $ARGV[0] } @ARGV or exit 127;' >"$W/dfl.pl"
    PRE="perl $W/dfl.pl"
fi

# The checkout stays as it was: a test writes only in its own temporary
# directory.  After each test, git status (tracked and untracked files, not
# the ignored build outputs) and the list of the root's entries are what
# they were before it; a test that leaves something fails, naming it.  With
# JOBS > 1 a change is seen by every suite that ran meanwhile: each says
# which others ran beside it (ONLY=that JOBS=1 then says whose it is).
snapshot() {
    git -C "$ST_ROOT" status --porcelain --untracked-files=all 2>/dev/null
    # build/ is the build's own (ignored): a SANITIZE=1 pass builds in
    # build-san/, and macos_build.test.sh's objects go to build/macos, which
    # both passes share (mk/macos-build.mk), so on a fresh clone checked with
    # SANITIZE=1 alone that test is the one that makes build/.
    ls -A "$ST_ROOT" | grep -vx build
}

# The list: one task a line, "KIND|PATH|TEXT" (KIND: unit, sh, skip (TEXT
# its reason), head (TEXT printed)), the suites that run together first,
# then those of tests/serial.txt.
# The tests that need a fact only Linux has, each with its reason, are
# listed once in tests/linux-only.txt (the Makefile reads it too); elsewhere
# they are skipped with that reason, and every other one runs.
# (ST_OS=Darwin shows on Linux which tests a Mac skips.)
OS=${ST_OS:-$(uname -s)}
LINUX_ONLY_LIST="$ST_ROOT/tests/linux-only.txt"
SERIAL_LIST=${ST_SERIAL:-$ST_ROOT/tests/serial.txt}   # ST_SERIAL: tests/lib/runner.test.sh
listed() { # file path [unit binary]: prints the path's reason, fails when it is not listed
    awk -v p="$2" -v u="${3:-}" '/^#/ { next }
        $1 == p || (u != "" && $1 ~ /^tests\/[a-z]*\/test_[a-z0-9_]*\.c$/ && $1 ~ ("/" u "\\.c$")) {
            sub(/^[^ \t]+[ \t]+/, ""); print; found = 1 } END { exit !found }' "$1"
}
linux_only() { listed "$LINUX_ONLY_LIST" "$@"; }
wanted() { case "$1" in *${ONLY:-}*) return 0 ;; esac; return 1; }
: >"$W/par"; : >"$W/ser"
add() { # KIND PATH [TEXT]: to the list of its kind (serial.txt's: the last)
    if [ "$1" != skip ] && [ -f "$SERIAL_LIST" ] && listed "$SERIAL_LIST" "$2" "${3:-}" >/dev/null; then
        echo "$1|$2|" >>"$W/ser"
    else
        echo "$1|$2|${3:-}" >>"$W/par"
    fi
}
echo "head||== unit tests" >>"$W/par"
for t in "$B"/tests/test_*; do
    [ -x "$t" ] && wanted "$t" && add unit "$t" "${t##*/}"
done
echo "head||== shell tests" >>"$W/par"
for t in ${ST_TESTS:-tests/e2e/*.sh tests/*/*.test.sh}; do   # ST_TESTS: tests/lib/tools.test.sh
    [ -f "$t" ] && wanted "$t" || continue
    if [ "$OS" != Linux ] && why=$(linux_only "$t"); then
        add skip "$t" "$why"
    else
        add sh "$t"
    fi
done
if [ "$OS" != Linux ]; then   # the unit tests that were not built
    for t in $(awk '$1 ~ /^tests\/unit\// { print $1 }' "$LINUX_ONLY_LIST"); do
        wanted "$t" && add skip "$t" "$(linux_only "$t")"
    done
fi
n_par=$(wc -l <"$W/par")
if [ -s "$W/ser" ]; then
    echo "head||== alone, one at a time (tests/serial.txt)" >>"$W/par"
    cat "$W/ser" >>"$W/par"
fi
# one file a task: $W/N.kind, N.name, N.text
n=0
while IFS='|' read -r kind name text; do
    n=$((n + 1))
    printf '%s\n' "$kind" >"$W/$n.kind"; printf '%s\n' "$name" >"$W/$n.name"; printf '%s\n' "$text" >"$W/$n.text"
done <"$W/par"

# task N: runs the suite, its output in N.log; then N.rc, and N on fd 3.
task() {
    _k=$(cat "$W/$1.kind") _nm=$(cat "$W/$1.name")
    if [ "$_k" = unit ]; then set -- "$1" "$_nm"; else set -- "$1" sh "$_nm"; fi
    _i=$1; shift
    _before=$(snapshot)
    now >"$W/$_i.t0"
    $PRE "$@" >"$W/$_i.log" 2>&1 </dev/null 3>&- &
    echo $! >"$W/$_i.pid"
    wait $!; _rc=$?
    now >"$W/$_i.t1"
    _after=$(snapshot)
    if [ "$_before" != "$_after" ]; then
        echo "FAIL: $_nm left the checkout changed (it must write only in its temporary directory):" >>"$W/$_i.log"
        printf '%s\n' "$_before" >"$W/$_i.before"; printf '%s\n' "$_after" >"$W/$_i.after"
        diff "$W/$_i.before" "$W/$_i.after" | sed 's/^/    /' >>"$W/$_i.log"
        : >"$W/$_i.changed"
    fi
    echo $_rc >"$W/$_i.rc"
    echo "$_i" >&3
}

# beside N: the other suites that ran while N did
beside() {
    _t0=$(cat "$W/$1.t0") _t1=$(cat "$W/$1.t1") _j=1
    while [ $_j -le $n ]; do
        if [ $_j -ne "$1" ] && [ -f "$W/$_j.t0" ]; then
            awk -v a="$_t0" -v b="$_t1" -v s="$(cat "$W/$_j.t0")" -v e="$(cat "$W/$_j.t1" 2>/dev/null)" \
                'BEGIN { exit !(s < b && (e == "" || e > a)) }' && printf ' %s' "$(cat "$W/$_j.name")"
        fi
        _j=$((_j + 1))
    done
}

# show N: its result, counted (in list order, once it is done)
show() {
    _k=$(cat "$W/$1.kind") _nm=$(cat "$W/$1.name")
    case $_k in
        head) cat "$W/$1.text" ;;
        skip) log="$W/$1.log"; echo "SKIP: $_nm: Linux-only: $(cat "$W/$1.text")" >"$log"; count "$_nm" 77 ;;
        *)
            log="$W/$1.log"
            _secs=$(awk -v a="$(cat "$W/$1.t0")" -v b="$(cat "$W/$1.t1")" 'BEGIN { printf "%.1f", b - a }')
            echo "$_secs $_nm" >>"$W/times"
            [ -f "$W/$1.changed" ] && [ "$JOBS" -gt 1 ] &&
                echo "    (JOBS=$JOBS: it ran beside:$(beside "$1"); ONLY=$_nm JOBS=1 says whether the change is its own)" >>"$log"
            count "$_nm" "$(cat "$W/$1.rc")" "$_secs"
            ;;
    esac
}
shown=0
flush() { # show every task done, in order, up to the first still running
    while [ $shown -lt $n ]; do
        _n=$((shown + 1))
        case $(cat "$W/$_n.kind") in unit | sh) [ -f "$W/$_n.rc" ] || return 0 ;; esac
        show $_n
        shown=$_n
    done
}

mkfifo "$W/done" && exec 3<>"$W/done" || exit 2
running=0
# Interrupted: each running suite's command (timeout passes the signal on).
stop() {
    for _f in "$W"/*.pid; do
        [ -f "$_f" ] && [ ! -f "${_f%.pid}.rc" ] && kill -TERM "$(cat "$_f")" 2>/dev/null
    done
    wait
    exit 130
}
trap stop INT TERM HUP
# pool FIRST LAST MAX: runs tasks FIRST..LAST, MAX at a time
pool() {
    _p=$1
    while [ $_p -le $2 ] || [ $running -gt 0 ]; do
        if [ $_p -le $2 ] && [ $running -lt $3 ]; then
            case $(cat "$W/$_p.kind") in unit | sh) task $_p & running=$((running + 1)) ;; esac
            _p=$((_p + 1))
        else
            read -r _done <&3
            running=$((running - 1))
        fi
        flush
    done
}
pool 1 "$n_par" "$JOBS"
pool $((n_par + 1)) "$n" 1
flush
exec 3>&-

T_END=$(now)
if [ -s "$W/times" ]; then
    echo "== time: the slowest suites (seconds)"
    sort -rn "$W/times" | head -10 | awk '{ printf "  %7.1f  %s\n", $1, $2 }'
    awk -v a="$T_START" -v b="$T_END" -v j="$JOBS" '{ s += $1; k++ }
        END { printf "  %7.1f  all %d suites one after another; %.1f s wall (JOBS=%d)\n", s, k, b - a, j }' "$W/times"
fi
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
