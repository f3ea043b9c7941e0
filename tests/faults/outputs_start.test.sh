#!/bin/sh
# Fault: outputs that could only fail at the end, or that collide (issue 30
# items 8, 9 and 11).  Each must be refused before the job starts (the job
# would touch a marker file), saying why:
#   --jsonl with --record (no file was written, the closing summary said it was);
#   --report or --plot into a directory that does not exist (the whole job
#   ran, then the output failed);
#   two outputs naming one file; --report X.md over an X.svg nobody named.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
refused() { # description, expected text, stagetop arguments...
    _d=$1 _w=$2; shift 2
    rm -f "$T/ran"
    "$STAGETOP" --headless "$@" -- touch "$T/ran" >"$T/out" 2>"$T/err"; _rc=$?
    check "$_d: refused (exit $_rc), nothing started, saying why" \
        sh -c "[ $_rc -ne 0 ] && [ ! -e '$T/ran' ] && grep -q -- '$_w' '$T/err'"
}
refused "--jsonl with --record" "give one" --jsonl --record "$T/x.jsonl"
check "--jsonl with --record: no file made" test ! -e "$T/x.jsonl"
refused "--report into a missing directory" "--report" --report "$T/none/r.md"
refused "--plot into a missing directory" "--plot" --plot "$T/none/p.svg"
# --report and --plot no longer go through a temporary directory (the whole
# run is kept in memory); a TMPDIR that does not exist is still refused
# before the job starts, for its events directory ($STAGETOP_EVENTS)
TMPDIR="$T/gone" refused "TMPDIR that does not exist, with --report" "private directory in $T/gone" --report "$T/t.md"
refused "--record and --report on one file" "name one file" --record c.jsonl --report c.jsonl
check "... no record placeholder left" test ! -e "$T/c.jsonl"
refused "--report and --plot on one file" "name one file" --report s.md --plot s.md
refused "--record .json and --plot on one file" "name one file" --record c.json --plot "$T/c.json"
check "... no .json placeholder left" test ! -e "$T/c.json"
refused "--metrics and --plot on one file" "name one file" --metrics m.svg --plot ./m.svg
echo "keep me" >"$T/only.svg"
refused "--report only.md over an only.svg nobody named" "only.svg, which exists" --report only.md
check "... only.svg untouched" grep -q "keep me" "$T/only.svg"
# and what is allowed still runs
rm -f "$T/ran"
"$STAGETOP" --headless --report only.md --overwrite -- touch "$T/ran" 2>"$T/err"; rc=$?
check "--report only.md --overwrite: runs, its chart replaces only.svg" \
    sh -c "[ $rc -eq 0 ] && [ -e '$T/ran' ] && grep -q '<svg' '$T/only.svg' && [ -s '$T/only.md' ]"
rm -f "$T/ran" "$T/r2.svg"
"$STAGETOP" --headless --report r2.md --plot r2.svg -- touch "$T/ran" 2>"$T/err"; rc=$?
check "--report r2.md --plot r2.svg (the report's own chart): runs" \
    sh -c "[ $rc -eq 0 ] && [ -e '$T/ran' ] && grep -q '<svg' '$T/r2.svg'"

# --- stdout fails at the start (issue 30 item 1) ---------------------------
# The start record cannot be written: stdout a full device, or a pipe whose
# reader has gone (`| true` once true has exited).  The job is held before
# its exec until its start is recorded, so its first act (a marker file)
# never happens: stagetop exits 1 saying so, no process of the job is left
# (its argv, unique to this test, is looked for: the held child's too), and
# its events directory (in TMPDIR) is gone.
mkdir "$T/tmp"
secs=$((700 + $$ % 50))
none_running() { ! pgrep -a -f "$1"; } # (pgrep's caller, not an sh -c naming it)
unrun() { # description, marker, stderr file, exit status
    check "$1: stagetop exits 1 saying the job was not started ($4)" \
        sh -c "[ $4 -eq 1 ] && grep -q 'the job was not started' '$3'"
    check "$1: the job never ran (no marker)" test ! -e "$2"
    check "$1: no process of the job left" none_running "$2"
    check "$1: its events directory is gone" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"
    pkill -KILL -f "$2" 2>/dev/null || :
}
if [ -c /dev/full ]; then
    TMPDIR="$T/tmp" "$STAGETOP" --headless --jsonl -- \
        sh -c "touch '$T/full.m'; sleep $secs" >/dev/full 2>"$T/full.err" &
    wait_bounded $! 60; rc=$?
    unrun "--jsonl > /dev/full" "$T/full.m" "$T/full.err" $rc
else
    skip "--jsonl > /dev/full" "this system has no /dev/full (Linux's full device)"
fi
TMPDIR="$T/tmp" ERR="$T/pipe.err" $PY -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)  # the reader has gone: as `| true` once true has exited
sys.exit(subprocess.call(sys.argv[1:], stdout=w, stderr=open(os.environ["ERR"], "w")))
' "$STAGETOP" --headless --jsonl -- sh -c "touch '$T/pipe.m'; sleep $secs" &
wait_bounded $! 60; rc=$?
unrun "--jsonl | true (the reader gone)" "$T/pipe.m" "$T/pipe.err" $rc
# A reader that leaves while stagetop is writing the start: stdout a full
# pipe, so the start record's write blocks; once stagetop is seen blocked in
# it, and either the marker exists (the job ran) or stagetop's child is still
# stagetop (held before its exec), the reader closes the pipe.
cat >"$T/full_pipe.py" <<'PYEOF'
import os, subprocess, sys, time
marker, err, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
r, w = os.pipe()
os.set_blocking(w, False)
try:
    while True:
        os.write(w, b"x" * 4096)
except BlockingIOError:
    pass
os.set_blocking(w, True)
p = subprocess.Popen(argv, stdout=w, stderr=open(err, "w"))
os.close(w)
def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""
def blocked_writing():
    return ("pipe_write" in read("/proc/%d/wchan" % p.pid)  # portable: run only where /proc/self/wchan exists (below)
            or read("/proc/%d/syscall" % p.pid).startswith(("1 0x1 ", "64 0x1 ")))  # portable: run only where /proc/self/wchan exists (below)
def held():
    own = os.path.realpath(argv[0])
    for c in read("/proc/%d/task/%d/children" % (p.pid, p.pid)).split():  # portable: run only where /proc/self/wchan exists (below)
        try:
            if os.path.realpath("/proc/%s/exe" % c) == own:  # portable: run only where /proc/self/wchan exists (below)
                return True
        except OSError:
            pass
    return False
end = time.time() + 60
while p.poll() is None and time.time() < end:
    if blocked_writing() and (os.path.exists(marker) or held()):
        break
    time.sleep(0.02)
print("held" if held() else "ran" if os.path.exists(marker) else "neither")
os.close(r)
try:
    sys.exit(p.wait(60))
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit(125)
PYEOF
if [ -r /proc/self/wchan ]; then  # portable: the check of this branch, a Mac skips it
    TMPDIR="$T/tmp" $PY "$T/full_pipe.py" "$T/block.m" "$T/block.err" \
        "$STAGETOP" --headless --jsonl -- sh -c "touch '$T/block.m'; sleep $secs" >"$T/block.out" &
    wait_bounded $! 120; rc=$?
    unrun "--jsonl into a full pipe whose reader then leaves ($(cat "$T/block.out"))" "$T/block.m" "$T/block.err" $rc
else
    skip "--jsonl into a full pipe whose reader then leaves" "seeing stagetop blocked in its write needs a wchan file per process (Linux)"
fi

# and a stdout that can be written still runs the job
TMPDIR="$T/tmp" "$STAGETOP" --headless --jsonl -- sh -c "touch '$T/ok.m'" >"$T/ok.jsonl" 2>"$T/ok.err"; rc=$?
check "--jsonl to a file: runs (exit $rc), the marker made, start and end recorded" \
    sh -c "[ $rc -eq 0 ] && [ -e '$T/ok.m' ] && head -1 '$T/ok.jsonl' | grep -q '\"type\":\"start\"' &&
           tail -1 '$T/ok.jsonl' | grep -q '\"type\":\"end\"'"
check "... its events directory is gone" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"
# a command that cannot run is still refused before anything is written
TMPDIR="$T/tmp" "$STAGETOP" --headless --jsonl -- "stagetop-no-such-cmd-$$" >"$T/nf.jsonl" 2>"$T/nf.err"; rc=$?
check "a command not found: exit 1, 'cannot run ...: No such file', no record ($rc)" \
    sh -c "[ $rc -eq 1 ] && grep -q \"cannot run 'stagetop-no-such-cmd-$$': No such file\" '$T/nf.err' &&
           [ ! -s '$T/nf.jsonl' ] && [ -z \"\$(ls -A '$T/tmp')\" ]"
# an exec that fails only once released (a #! naming no interpreter): said,
# and the job's exit 127 ends the run, its start and end recorded
printf '#!%s/no-such-interpreter\n' "$T" >"$T/bad.sh"; chmod +x "$T/bad.sh"
TMPDIR="$T/tmp" "$STAGETOP" --headless --jsonl -- "$T/bad.sh" >"$T/bad.jsonl" 2>"$T/bad.err"; rc=$?
check "a bad #! line: exit 127, 'cannot run', the record ends ($rc)" \
    sh -c "[ $rc -eq 127 ] && grep -q \"cannot run '$T/bad.sh': No such file\" '$T/bad.err' &&
           tail -1 '$T/bad.jsonl' | grep -q '\"type\":\"end\"'"
