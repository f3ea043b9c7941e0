#!/bin/sh
# The shell tests a Mac runs (every one not in tests/linux-only.txt, and the
# helpers they source) must run with macOS's userland: bash 3.2 as sh, BSD
# sed/grep/awk/ps/date/stat/readlink, no GNU coreutils, no /proc.
# tests/lib/portable.sh scans them for the GNU/Linux-only idioms; first it
# must catch each idiom in a sample (and pass the portable way of saying
# it), then the tests themselves must be clean.  The unit tests a Mac builds
# must not open /proc either.
set -u
. "$(dirname "$0")/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
SCAN="sh tests/lib/portable.sh"

# caught WHAT LINE: the scanner flags LINE, naming WHAT.
caught() {
    printf '%s\n' "$2" >"$T/sample.sh"
    $SCAN "$T/sample.sh" >"$T/out" 2>&1 && { echo "not flagged: $2"; return 1; }
    grep -q -- "$1" "$T/out" || { echo "flagged, but not as '$1':"; cat "$T/out"; return 1; }
}
while IFS='|' read -r what line; do
    check "portable.sh catches $what: $line" caught "$what" "$line"
done <<'EOF_IDIOMS'
numeric signal|kill -10 "$pid"
numeric signal|kill -s 30 $st
numeric signal in trap|trap 'cleanup' 15
a signal number written down|    case $1 in USR1) echo 10 ;; esac
GNU sed option|sed -i 's/a/b/' "$f"
GNU sed option|sed -r 's/(a)+/b/' "$f"
GNU BRE escape|grep -q 'a\|b' "$f"
GNU BRE escape|sed -n 's/x\+/y/p' "$f"
GNU grep option|grep -P '\d+' "$f"
GNU grep option|grep --include='*.c' -r x .
GNU date|t=$(date +%s.%N)
GNU date|date -d @0
GNU stat|stat -c %s "$f"
GNU readlink|d=$(readlink -f "$0")
timeout|timeout 120 "$STAGETOP" --headless -- true
/proc|sed -n 1p "/proc/$pid/status"
C.UTF-8|env LC_ALL=C.UTF-8 sh x
GNU findutils/coreutils|find . -printf '%p '
GNU findutils/coreutils|n=$(nproc)
setsid command|setsid "$STAGETOP" -- touch x
setsid command|    sh -c 'setsid sleep 5 & echo $!'
ps -o sid|[ "$(ps -o sid= -p $w)" = $w ]
ps --long option|ps -o stat= --ppid $st
script -c|script -qec "$cmd" /dev/null
EOF_IDIOMS

cat >"$T/clean.sh" <<'EOF_CLEAN'
kill -0 "$pid"; kill -TERM "$pid"; kill -s USR1 $st
trap 'cleanup' EXIT INT TERM
sed -n 's/a/b/p' "$f"; grep -qE 'a|b' "$f"; sed -E 's/x+/y/' "$f"
pgrep -P "$pid"; ps -o ppid= -p "$pid"; ps -A -o ppid= -o stat=
$PY -c 'import os, sys; os.setsid(); os.execvp(sys.argv[1], sys.argv[1:])' cmd; $PY "$T/setsid.py" sleep 5
script -q /dev/null sh -c "$cmd"
t=$(date +%s); stat -f %z "$f" 2>/dev/null
x=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 99999)   # portable: a fallback where there is no /proc
# a comment may say timeout 5 or /proc/self: it is not run
EOF_CLEAN
check "portable.sh passes the portable equivalents" $SCAN "$T/clean.sh"

# The tests a Mac runs, and the helpers of the folders they are in.
# (This test itself is left out: its samples are the idioms.)
mac_tests=""
for t in tests/e2e/*.sh tests/*/*.test.sh; do
    [ "$t" = tests/lib/portable.test.sh ] && continue
    grep -q "^$t[[:space:]]" tests/linux-only.txt || mac_tests="$mac_tests $t"
done
helpers=""
for h in tests/lib/*.sh tests/*/*.inc tests/*/lib.sh; do
    case $h in tests/lib/portable.sh|*.test.sh) continue ;; esac
    case " $mac_tests " in *" $(dirname "$h")/"*) helpers="$helpers $h" ;; esac
done
# and the runner itself (tests/run-tests.sh: make check on a Mac)
helpers="tests/run-tests.sh$helpers"
check "the $(echo $mac_tests | wc -w | tr -d ' ') shell tests a Mac runs and their helpers ($(echo $helpers)) use no GNU/Linux-only idiom" \
    $SCAN $mac_tests $helpers

# The unit tests a Mac builds (tests/unit/test_*.c not in linux-only.txt).
units=""
for u in tests/unit/test_*.c; do
    grep -q "^$u[[:space:]]" tests/linux-only.txt || units="$units $u"
done
check "the unit tests a Mac builds do not open /proc (but where a comment says portable: why)" \
    sh -c "! grep -n '\"/proc/' $units | grep -v 'portable: '"
