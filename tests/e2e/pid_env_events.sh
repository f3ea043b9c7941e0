#!/bin/sh
# -p follows the stage files the watched job's environment names (issue 32,
# item 8): a job started outside stagetop with STAGETOP_EVENTS=FILE (plain
# `stage`/`mark` lines) or STAGELOAD_TRACE=FILE (stageload's JSONL), watched
# with `stagetop --headless -p PID --record R` and no --events: stderr says
# which file is followed, and R holds the stages the job writes after
# stagetop has started.  A relative path is not followed, and says so.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

# The job: says it runs ($T/NAME.up), waits for $T/NAME.go (stagetop is sampling), writes its stages
# with 0.3 s of work between them, then waits for $T/NAME.end and exits.
cat >"$T/job.sh" <<'JOB'
dir=$1 name=$2 style=$3 file=$4
: >"$dir/$name.up"    # this shell runs: its environment is the job's now
while [ ! -e "$dir/$name.go" ]; do sleep 0.02; done
for s in load train; do
    case $style in
    plain) "$STAGETOP" stage "$s" ;;
    jsonl) printf '{"type":"event","kind":"stage","t":0,"stage":"%s"}\n' "$s" >>"$file" ;;
    esac
    sleep 0.3
done
"$STAGETOP" mark done 2>/dev/null || true
while [ ! -e "$dir/$name.end" ]; do sleep 0.02; done
JOB
samples() { [ "$(grep -c '"type":"sample"' "$1" 2>/dev/null)" -ge "$2" ]; }
stage_names() { # REC: the stage events' names, in order, one line
    python3 -c '
import json, sys
print(" ".join(r.get("stage", "") for r in map(json.loads, filter(str.strip, open(sys.argv[1])))
               if r.get("type") == "event" and r.get("kind") == "stage"))' "$1"
}
# watch NAME VAR STYLE: the job with VAR=FILE, watched with -p until its end
watch() {
    _n=$1 _var=$2 _style=$3 _f="$T/$1.events"
    : >"$_f"
    env -u STAGETOP_EVENTS -u STAGELOAD_TRACE "$_var=$_f" STAGETOP="$STAGETOP" \
        sh "$T/job.sh" "$T" "$_n" "$_style" "$_f" </dev/null >/dev/null 2>&1 &
    _job=$!
    remember_job $_job
    # -p reads the environment once: start it after env(1) has exec'd the job
    until_ok 20 test -e "$T/$_n.up" || return 1
    "$STAGETOP" --headless --no-gpu --interval 0.1 -p $_job --record "$T/$_n.jsonl" \
        </dev/null >/dev/null 2>"$T/$_n.err" &
    _st=$!
    until_ok 20 samples "$T/$_n.jsonl" 2 || return 1
    : >"$T/$_n.go"
    until_ok 20 grep -q '"stage":"train"' "$T/$_n.jsonl" || { cat "$T/$_n.err"; return 1; }
    : >"$T/$_n.end"
    wait $_st
    echo $? >"$T/$_n.rc"
}

# --- STAGETOP_EVENTS, plain lines ---------------------------------------------------
check "plain: -p PID of a job with STAGETOP_EVENTS: its stages reach the record" watch plain STAGETOP_EVENTS plain
check "plain: stagetop ends 0 with the job" [ "$(cat "$T/plain.rc" 2>/dev/null)" = 0 ]
check "plain: stderr says the file is followed, without --events" \
    grep -q "following pid [0-9]*'s \$STAGETOP_EVENTS ($T/plain.events): its stages and marks, without --events" "$T/plain.err"
check "plain: the record's stages are load then train" [ "$(stage_names "$T/plain.jsonl")" = "load train" ]
check "plain: the job's mark too" grep -q '"kind":"mark".*"done"' "$T/plain.jsonl"
check "plain: the end summary has both stages" \
    python3 -c '
import json, sys
end = [r for r in map(json.loads, filter(str.strip, open(sys.argv[1]))) if r.get("type") == "end"]
names = [s["stage"] for s in end[0]["summary"]["stages"]]
print(names)
sys.exit(0 if "load" in names and "train" in names else 1)' "$T/plain.jsonl"

# --- STAGELOAD_TRACE, stageload's JSONL ------------------------------------------------
check "jsonl: -p PID of a job with STAGELOAD_TRACE: its stages reach the record" watch sl STAGELOAD_TRACE jsonl
check "jsonl: stderr says the trace is followed" \
    grep -q "following pid [0-9]*'s \$STAGELOAD_TRACE ($T/sl.events)" "$T/sl.err"
check "jsonl: the record's stages are load then train" [ "$(stage_names "$T/sl.jsonl")" = "load train" ]

# --- a relative path: not followed, said ---------------------------------------------
(cd "$T" && exec env -u STAGELOAD_TRACE STAGETOP_EVENTS=rel.events sleep 300) </dev/null >/dev/null 2>&1 &
rel=$!
remember_job $rel
until_ok 10 grep -q STAGETOP_EVENTS=rel.events /proc/$rel/environ
"$STAGETOP" --headless --no-gpu --interval 0.1 -p $rel --record "$T/rel.jsonl" </dev/null >/dev/null 2>"$T/rel.err" &
st=$!
until_ok 20 samples "$T/rel.jsonl" 1
kill -INT $st; wait $st
check "relative: not followed, and stderr says why" \
    grep -q "pid $rel's \$STAGETOP_EVENTS is a relative path (rel.events): not followed (--events takes it)" "$T/rel.err"
