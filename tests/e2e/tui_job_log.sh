#!/bin/sh
# The job's log with a screen (docs/screen.md, stagetop(1) --job-log):
#   F  a job that fails: after the screen closes, its last lines are printed
#      (control characters made visible), then the closing summary naming
#      the log; the log sits in --export-dir and its path is in the record's
#      meta (job_log);
#   E  a job that prints nothing leaves no empty log behind.
set -u
. "$(dirname "$0")/tui_common.inc"
mkdir -p "$T/out"

start_pane f 110 40 "'$STAGETOP' --no-gpu --interval 0.2 --export-dir '$T/out' --record '$T/f.jsonl' -- sh -c 'printf \"Traceback line\\033[31m one\\nValueError: bad input\\n\"; exit 1'"
check "F: the job ends with 1" wait_screen f 20 '^\[EXITED 1'
tm send-keys -t f q
check "F: after the screen: the job failed, with its last lines" wait_screen f 20 'the job failed (exit status 1)'
check "F: ... the traceback's last line" wait_screen f 5 '| ValueError: bad input'
check "F: ... escape bytes made visible" wait_screen f 5 '| Traceback line?\[31m one'
check "F: the closing summary names the log" wait_screen f 5 "job log .*$T/out/stagetop-job-"
check "F: the log is in --export-dir" sh -c "ls '$T/out'/stagetop-job-*.log"
log=$(ls "$T/out"/stagetop-job-*.log 2>/dev/null | head -1)
check "F: the record's meta says where the log is" grep -q "^{\"type\":\"start\".*\"job_log\":\"$log\"" "$T/f.jsonl"

start_pane e 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --export-dir '$T/out' -- true"
check "E: the job ends" wait_screen e 20 '^\[EXITED 0'
n_before=$(ls "$T/out" | wc -l)
tm send-keys -t e q
check "E: stagetop exits" wait_screen e 20 'stagetop-exit=0'
check "E: no empty log is left behind" sh -c "[ \$(ls '$T/out' | wc -l) -eq $((n_before - 1)) ]"
