#!/bin/sh
# The screen says that -p follows the stage file the watched job's
# environment names (issue 32, item 8; headless: pid_env_events.sh), and
# the stage the job writes then shows in the header.
set -u
. "$(dirname "$0")/tui_common.inc"

: >"$T/ev"
cat >"$T/job.sh" <<'JOB'
while [ ! -e "$1.go" ]; do sleep 0.02; done
"$STAGETOP" stage warmup
while :; do sleep 1; done
JOB
env -u STAGELOAD_TRACE STAGETOP_EVENTS="$T/ev" STAGETOP="$STAGETOP" sh "$T/job.sh" "$T/ev" \
    </dev/null >/dev/null 2>&1 &
job=$!
remember_job $job
until_ok 10 grep -q "STAGETOP_EVENTS=$T/ev" /proc/$job/environ
start_pane e 200 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $job"
check "the screen says which file of the job's environment it follows" \
    wait_screen e 20 "following pid $job's \$STAGETOP_EVENTS ($T/ev): its stages and marks, without --events"
: >"$T/ev.go"
check "the stage the job writes shows in the header" wait_screen e 20 "stage warmup"
tm send-keys -t e q
check "q ends it" wait_screen e 10 'stagetop-exit=0'
