#!/bin/sh
# The limit that binds, and who ended the job (docs/metrics.md, "The limit
# that binds").  A real memory cgroup made here with a 96 MiB limit (cgroup
# v1's memory.limit_in_bytes where the memory controller is on v1, as here;
# cgroup v2's memory.max where it is on v2), a shell moved into it that
# execs stagetop, and a job that writes random bytes in 8 MiB steps up to
# 200 MiB: the limit stops it (its swap is limited too), and the kernel's
# OOM killer ends it.  The record's start says the limit and its cgroup, its
# samples the room under the limit falling (limit_free), its exit event that
# the OOM killer ended the job; the closing summary and `summary --text` say
# so.  A run in a cgroup without a limit (none above it either) says "none".
# Needs root (it makes cgroups); the cgroups are removed at the end, the
# shells moved back first.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/cgroup_limit.inc"
if ! why=$(limit_where); then
    skip "memory limit" "$why"; exit 0
fi
limit_where # again in this shell: its variables
T=$(mktemp -d)
C="$MNT$REL/st-limit-$$" U="$MNT$REL/st-nolimit-$$"
CG="$REL/st-limit-$$" UG="$REL/st-nolimit-$$"
cleanup() {
    cleanup_jobs
    limit_cleanup
    rm -rf "$T"
}
trap cleanup EXIT INT TERM
LIM=$((96 * 1024 * 1024))
limit_make "$C" "$LIM" && limit_make "$U" ||
    { echo "FAIL: memory limit: cannot make the test's cgroups under $MNT$REL"; exit 0; }

# the job: random bytes (not zeros) in 8 MiB steps up to 200 MiB
JOB='import os, time
keep = []
for i in range(25):
    keep.append(os.urandom(8 << 20))
    time.sleep(0.05)
print("not stopped at", len(keep) * 8, "MiB")'

in_cg "$C" "$STAGETOP" --headless --record "$T/oom.jsonl" --interval 0.1 -- python3 -c "$JOB" \
    > "$T/oom.out" 2> "$T/oom.err"
rc=$?
sed 's/^/    /' "$T/oom.err" | head -12
check "limit: the 96 MiB limit stops the 200 MiB job, killed (exit $rc)" test "$rc" -eq 137
cat > "$T/check.py" <<'EOF'
import json, re, sys
path, lim, cg, limit_file, want_oom = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
recs = [json.loads(l) for l in open(path) if l.strip()]  # padding lines: docs/trace-format.md
start = recs[0]
assert start["type"] == "start", start
if lim == 0:
    # the launcher's cgroup, or the job's own inside it (docs/metrics.md, "cgroup")
    own = start.get("cgroup") or ""
    assert own == cg or re.fullmatch(re.escape(cg) + r"/stagetop-[0-9]+-[0-9]+", own), ("cgroup", own, cg)
    assert "memory_limit" not in start, start
    assert not any("limit_free" in r for r in recs if r.get("type") == "sample")
    sys.exit(0)
assert start.get("memory_limit") == lim, ("memory_limit", start.get("memory_limit"))
assert start.get("memory_limit_cgroup") == cg, ("memory_limit_cgroup", start.get("memory_limit_cgroup"), cg)
assert start.get("memory_limit_file") == limit_file, start.get("memory_limit_file")
room = [r["limit_free"] for r in recs if r.get("type") == "sample" and "limit_free" in r]
assert len(room) >= 3, room
# the room falls as the job fills the cgroup: from most of the 96 MiB to
# under a third of it before the kill
assert room[0] > lim // 2, room
assert min(room) < lim // 3, room
assert all(0 <= x <= lim for x in room), room
ends = [r for r in recs if r.get("type") == "event" and r.get("kind") == "exit"]
assert len(ends) == 1, ends
ex = ends[0]
if want_oom == "oom":
    assert ex.get("value") == 137, ex
    assert ex.get("name") == "oom_kill", ex
    want = "killed by the kernel's OOM killer at the memory limit of %s (96.0 MiB)" % cg
    assert ex.get("note") == want, (ex.get("note"), want)
end = recs[-1]
assert end["type"] == "end", end
assert end["summary"]["min_limit_free"] == min(room), (end["summary"].get("min_limit_free"), min(room))
EOF
check "limit: the record says the limit, its cgroup, the room falling and the OOM kill" \
    python3 "$T/check.py" "$T/oom.jsonl" "$LIM" "$CG" "$LIMIT_FILE" oom
check "limit: the closing summary says the OOM killer ended the job at that limit" \
    grep -qF "exit status 137 (signal 9, SIGKILL): killed by the kernel's OOM killer at the memory limit of $CG (96.0 MiB)" "$T/oom.err"
check "limit: the closing summary says the limit and where it is set" \
    grep -qF "memory limit    96.0 MiB ($LIMIT_FILE of $CG); least room" "$T/oom.err"
"$STAGETOP" summary --text "$T/oom.jsonl" > "$T/sum.txt" 2>&1
check "limit: summary --text of the record says the OOM kill" \
    grep -qF "exit status     137 (killed by the kernel's OOM killer at the memory limit of $CG (96.0 MiB))" "$T/sum.txt"
check "limit: summary --text says the limit" \
    grep -qF "memory limit    96.0 MiB ($LIMIT_FILE of $CG)" "$T/sum.txt"

# a worker killed, the root left: the job's exit says the cgroup's kill
WORKER='import os, sys, time
pid = os.fork()
if pid == 0:
    keep = []
    for i in range(25):
        keep.append(os.urandom(8 << 20))
        time.sleep(0.05)
    os._exit(0)
_, st = os.waitpid(pid, 0)
print("worker signal", os.WTERMSIG(st) if os.WIFSIGNALED(st) else None)
time.sleep(0.3)'
in_cg "$C" "$STAGETOP" --headless --record "$T/worker.jsonl" --interval 0.1 -- python3 -c "$WORKER" \
    > "$T/worker.out" 2> "$T/worker.err"
rc=$?
check "limit: the worker is the one killed (SIGKILL), the root exits 0 (exit $rc)" \
    sh -c "[ $rc -eq 0 ] && grep -qx 'worker signal 9' '$T/worker.out'"
check "limit: the exit event says the cgroup's OOM killer killed one process" \
    python3 -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ex = [r for r in recs if r.get("type") == "event" and r.get("kind") == "exit"][0]
want = "the kernel\x27s OOM killer killed 1 process in %s (limit 96.0 MiB)" % sys.argv[2]
assert ex.get("value") == 0 and "name" not in ex and ex.get("note") == want, (ex, want)' "$T/worker.jsonl" "$CG"
check "limit: the closing summary says it on its own row, the job's exit stays 0" \
    sh -c "grep -qF \"OOM killer      the kernel's OOM killer killed 1 process in $CG (limit 96.0 MiB)\" '$T/worker.err' &&
           grep -qx '  job             exit status 0' '$T/worker.err'"

# -p of a job in the cgroup, stagetop outside it: the limit is the job's
# cgroup's; its root's signal is not known (not stagetop's child), so the
# exit event counts the cgroup's kill
cat > "$T/grow.py" <<'EOF'
import os, sys, time
open(sys.argv[1], "w").close()
while not os.path.exists(sys.argv[2]):
    time.sleep(0.02)
keep = []
for i in range(25):
    keep.append(os.urandom(8 << 20))
    time.sleep(0.05)
EOF
sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$C" python3 "$T/grow.py" "$T/p.ready" "$T/p.go" &
JP=$! # the shell that becomes the job (in_cg, a function, would run in a subshell of its own)
remember_job "$JP"
if until_ok 20 test -f "$T/p.ready"; then
    ( until_ok 20 test -s "$T/p.jsonl" && touch "$T/p.go" ) &
    "$STAGETOP" --headless -p "$JP" --record "$T/p.jsonl" --interval 0.1 > "$T/p.out" 2> "$T/p.err"
    wait "$JP"; jrc=$?
    check "limit: -p: the job in the cgroup is killed (exit $jrc)" test "$jrc" -eq 137
    check "limit: -p: the record says the job's cgroup's limit, the exit the kill" \
        python3 -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
st = recs[0]
assert st.get("memory_limit") == 96 << 20 and st.get("memory_limit_cgroup") == sys.argv[2], st
assert any("limit_free" in r for r in recs if r.get("type") == "sample")
ex = [r for r in recs if r.get("type") == "event" and r.get("kind") == "exit"][0]
want = "the kernel\x27s OOM killer killed 1 process in %s (limit 96.0 MiB)" % sys.argv[2]
assert ex.get("note") == want and "value" not in ex, (ex, want)' "$T/p.jsonl" "$CG"
else
    echo "FAIL: limit: -p: the job did not start"
fi

# a cgroup without a limit: "none", when no cgroup above it has one either
above=""
d="$MNT$REL"
while :; do
    v=$(cat "$d/$LIMIT_FILE" 2>/dev/null)
    case "$v" in ""|max) ;; *) [ "${#v}" -ge 19 ] || above="$d ($v)";; esac # v1's none: 2^63 - a page
    [ "$d" = "$MNT" ] && break
    d=${d%/*}
done
if [ -n "$above" ]; then
    skip "memory limit: none" "a cgroup above the test's has a limit: $above"
else
    in_cg "$U" "$STAGETOP" --headless --record "$T/free.jsonl" --interval 0.1 -- \
        python3 -c 'import os; b = os.urandom(16 << 20)' > "$T/free.out" 2> "$T/free.err"
    rc=$?
    check "limit: the job without a limit exits 0 (exit $rc)" test "$rc" -eq 0
    check "limit: its record names its cgroup and no limit" \
        python3 "$T/check.py" "$T/free.jsonl" 0 "$UG" "$LIMIT_FILE" none
    check "limit: its closing summary says there is none" \
        grep -qE "memory limit    none \(no memory limit on cgroup $UG(/stagetop-[0-9]+-[0-9]+)? or above it\)" "$T/free.err"
fi
