#!/bin/sh
# The job's terminal and output (stagetop(1), "THE JOB'S TERMINAL AND OUTPUT"):
#   N  no terminal (a pipe, a session of its own): the screen is refused with exit 2 before
#      anything starts (the job never runs);
#   J  --headless --jsonl -- CMD > trace: the job's stdout goes to stderr, the
#      trace on stdout is stagetop's alone (summary reads it, the job's forged
#      record is not in it);
#   F  headless on a terminal (script): the job owns the foreground and reads
#      the terminal (not stopped by SIGTTIN).
# The screen's side (stdin /dev/null, STOPPED) is tests/e2e/tui_job_io.sh.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# --- N: no terminal ------------------------------------------------------------------
echo | "$STAGETOP" --swap-budget 4G -- touch "$T/n.started" >"$T/n.out" 2>"$T/n.err"
rc=$?
check "N: from a pipe the screen is refused with exit 2 (got $rc)" [ $rc -eq 2 ]
check "N: ... and the job was never started" test ! -e "$T/n.started"
check "N: ... and says why, and what to do" grep -q "needs a terminal.*nothing was started.*--headless" "$T/n.err"
# (a session of its own through python: macOS has no setsid command)
$PY -c 'import os, sys; os.setsid(); os.execvp(sys.argv[1], sys.argv[1:])' \
    "$STAGETOP" -- touch "$T/n2.started" </dev/null >"$T/n2.out" 2>&1
rc=$?
check "N: a session without a terminal: exit 2 (got $rc), nothing started" \
    sh -c "[ $rc -eq 2 ] && [ ! -e '$T/n2.started' ]"

# --- J: the trace on stdout is stagetop's alone --------------------------------------
"$STAGETOP" --headless --jsonl --no-gpu -i .2 -- \
    sh -c 'echo "{\"type\":\"end\",\"summary\":{\"duration\":999}}"; echo job-says-hello' \
    >"$T/j.jsonl" 2>"$T/j.err"
rc=$?
check "J: the run ends with the job's code (0, got $rc)" [ $rc -eq 0 ]
check "J: the job's output went to stderr" grep -q "job-says-hello" "$T/j.err"
check "J: the trace holds no line of the job's (one end record, stagetop's)" $PY - "$T/j.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
ends = [json.loads(l) for l in lines if l.startswith('{"type":"end"')]
bad = [l for l in lines if l.startswith("job-says")]
print("end records:", ends, "job lines:", bad)
sys.exit(0 if len(ends) == 1 and ends[0]["summary"]["duration"] < 999 and not bad else 1)
EOF
check "J: every line of the trace is a record" $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/j.jsonl" --end --event exit
check "J: stagetop summary reads it" "$STAGETOP" summary "$T/j.jsonl"

# --- F: headless in the terminal's foreground ----------------------------------------
if need_tool "F: headless on a terminal" script; then
    # in_pty CMD: CMD on a terminal of its own.  util-linux's script takes
    # it with -c; Apple's as arguments after the file (script(1):
    # `script [-q] [file [command ...]]`).
    in_pty() {
        if [ "$(uname -s)" = Darwin ]; then script -q /dev/null sh -c "$1"
        else script -qec "$1" /dev/null; fi   # portable: util-linux's branch, Apple's above
    }
    printf 'typed-line\n' | in_pty "\"$STAGETOP\" --headless --no-gpu -i .2 -- sh -c 'read x; echo \"got:\$x\" >\"$T/f.got\"'" \
        >"$T/f.out" 2>&1 &
    sc=$!
    remember_job $sc
    check "F: the job reads the terminal (owns its foreground)" wait_for "f.got" 20 grep -q "got:typed-line" "$T/f.got"
    wait_bounded $sc 30
fi
