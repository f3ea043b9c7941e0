#!/bin/sh
# The level lane's row shows the room under the cgroup memory limit that
# binds the job (docs/screen.md, docs/metrics.md "The limit that binds"):
# stagetop runs in a memory cgroup made here with a 96 MiB limit, its job
# holds 40 MiB of random bytes; the row says "limit 96.0M: N free", N
# within a few MiB of the limit less the cgroup's own usage file read here.
# Needs root (makes cgroups; tests/e2e/cgroup_limit.inc).
set -u
. "$(dirname "$0")/tui_common.inc"
. "$(dirname "$0")/cgroup_limit.inc"
if ! why=$(limit_where); then
    skip "limit on the screen" "$why"; exit 0
fi
limit_where
C="$MNT$REL/st-tuilimit-$$"
trap 'tui_cleanup; limit_cleanup' EXIT INT TERM
limit_make "$C" $((96 * 1024 * 1024)) ||
    { echo "FAIL: limit on the screen: cannot make a cgroup under $MNT$REL"; exit 0; }
cat > "$T/hold.py" <<'EOF'
import os, sys, time
keep = os.urandom(40 << 20)
open(sys.argv[1] + ".tmp", "w").close()
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)
EOF
start_pane lim 110 30 "echo \$\$ > '$C/cgroup.procs' && exec '$STAGETOP' --interval 0.2 -- python3 '$T/hold.py' '$T/ready'"
check "limit: the job holds its 40 MiB" until_ok 20 test -f "$T/ready"
check "limit: the level row says the limit and the room under it" \
    wait_screen lim 20 'limit 96.0M: [0-9.]*M free'
# the room shown against the cgroup's own numbers, read now (the screen is
# at most a sample old: both move little while the job only holds)
room_ok() {
    shown=$(screen lim | sed -n 's/.*limit 96.0M: \([0-9.]*\)M free.*/\1/p' | head -1)
    usage=$(cat "$C/$USAGE_FILE")
    python3 -c 'import sys
shown, usage = float(sys.argv[1]), int(sys.argv[2])
want = (96 * 2**20 - usage) / 2**20
print("shown %.1f MiB, the cgroup has %.1f MiB left" % (shown, want))
sys.exit(0 if abs(shown - want) <= 4 and shown < 96 - 40 else 1)' "${shown:-nan}" "$usage"
}
check "limit: the room shown is the cgroup's (limit - $USAGE_FILE)" until_ok 10 room_ok
room_ok | sed 's/^/    /'
