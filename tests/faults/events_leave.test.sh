#!/bin/sh
# Fault: a job left running ("q", "l") keeps appending to $STAGETOP_EVENTS
# after stagetop has gone (issue 21 item 5).  stagetop used to remove its
# private directory at exit: another local user (here `nobody`) could then
# make the same path again, with `events` a symlink to a file of the job's
# user, and the job's `>> "$STAGETOP_EVENTS"` appended to that file.  Now the
# directory (0700) stays while the job runs, and stagetop says so.
set -u
. "$(dirname "$0")/../e2e/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"
if ! is_root; then
    skip "events left running" "needs root (acts as nobody with setpriv)"; exit 0
fi
need_tool "events left running" setpriv util-linux || exit 0
chmod 711 "$T" # nobody may pass through to nothing here but the victim's name
: > "$T/victim"
start_pane leave 120 20 "'$STAGETOP' --interval 0.2 --job-log '$T/job.log' -- sh -c '
    echo \"\$STAGETOP_EVENTS\" > $T/path
    while [ ! -e $T/go ]; do sleep 0.05; done
    echo \"mark after stagetop\" >> \"\$STAGETOP_EVENTS\" && echo wrote > $T/wrote
    exec sleep 300' 2> $T/err"
until_ok 10 has_stagetop leave
st=$(stagetop_pid leave)
until_ok 10 proc_has_children "$st"
job=$(proc_children "$st" | head -1)
remember_job "$job"
until_ok 10 test -s "$T/path"
EV=$(cat "$T/path") DIR=$(dirname "$(cat "$T/path")")
wait_screen leave 10 'RUNNING' >/dev/null
tm send-keys -t leave q
wait_screen leave 5 'eave it running' >/dev/null
tm send-keys -t leave l
check "l: stagetop exits 0, the job runs on" \
    sh -c "until tmux -L $TM_SOCK capture-pane -p -t leave | grep -q 'stagetop-exit=0'; do sleep 0.05; done; kill -0 $job"
check "the private directory is still there, 0700" \
    sh -c "test \"\$(stat -c %a '$DIR')\" = 700"
check "stagetop says the events file stays while the job runs" \
    grep -q "events file stays while the job runs: $EV" "$T/err"
# another user tries to make the path again, events -> the victim
setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
    sh -c "mkdir '$DIR' && ln -s '$T/victim' '$EV'" 2>/dev/null
touch "$T/go"
until_ok 10 test -e "$T/wrote"
check "the job's mark did not reach another file" test ! -s "$T/victim"
check "the job's mark is in its own events file" grep -q "mark after stagetop" "$EV"
kill -KILL "$job" 2>/dev/null
rm -rf "$DIR"
