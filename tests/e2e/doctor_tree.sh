#!/bin/sh
# `stagetop doctor -p PID` (docs/doctor.md): checks the tree the screen sums
# (a small shell over a 64 MiB child), says when there is no swap, and
# explains "rusage flavor: n/a".
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
printf 'import os, time\nb = os.urandom(64 << 20)\nopen("%s/ready", "w").close()\ntime.sleep(60)\n' "$T" >"$T/w.py"
sh -c "python3 '$T/w.py' & wait" &
root=$!
remember_job $root
wait_for "the child holds its bytes" 30 test -e "$T/ready"
child=$(pgrep -P $root | head -1)
remember_job "$child"
"$STAGETOP" doctor -p $root --no-gpu >"$T/out" 2>&1
cat "$T/out" | sed -n '/^tree/,$p' | sed 's/^/    /'
check "the tree the screen sums is checked (2 processes)" grep -q "^tree (what the screen sums.*pid $root alone): 2 process" "$T/out"
check "its footprint (>= 60 MiB, the child's) agrees with the members' references" \
    grep -Eq "^footprint +(6[0-9]|[7-9][0-9])\.[0-9] MiB .* ok$" "$T/out"
swap_total=$(awk '/^SwapTotal:/ {print $2}' /proc/meminfo 2>/dev/null)
if [ "${swap_total:-x}" = 0 ]; then
    check "no swap: doctor says so" grep -q "no swap is configured here" "$T/out"
else
    check "swap configured: doctor does not say there is none" sh -c "! grep -q 'no swap is configured' '$T/out'"
fi
if [ "$(uname)" = Linux ]; then
    check "rusage flavor n/a is explained" grep -q "rusage flavor:  n/a (macOS's proc_pid_rusage" "$T/out"
fi
kill $child $root 2>/dev/null
