#!/bin/sh
# Fault: hostile terminals and hostile processes, in tmux.
#  - terminal sizes 1x1, 40x10 and 500x200 (resize-window while running, and
#    starting at 1x1), with the help box, zoom and freeze drawn at each: no
#    crash, q still exits 0, the screen comes back at a normal size;
#  - a command line of 100 KB (10 arguments of 10,000 bytes);
#  - process names (comm) and command lines holding escape sequences
#    (title, clear screen, colour), newlines, CR, invalid UTF-8 and a
#    right-to-left override (tests/workloads/evilname.c): shown with the
#    control characters made visible, nothing reaches the terminal (the
#    title stays, the screen is not cleared, no line is broken), and the
#    JSONL record of such a run is valid JSON (strict UTF-8).
set -u
. "$(dirname "$0")/../e2e/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"

# --- hostile names --------------------------------------------------------------------
"$WORKLOADS/evilname" "$(printf '%0200d' 0)" >"$T/evil.out" </dev/null 2>/dev/null &
remember_job $!
until_ok 10 grep -q '^ready' "$T/evil.out"
root=$(awk '{print $2}' "$T/evil.out") child=$(awk '{print $3}' "$T/evil.out")
start_pane evil 220 30 "'$STAGETOP' -p $root --interval 0.2"
check "hostile names: the screen comes up" wait_screen evil 15 "^\[RUNNING\] pid $root"
title_kept() { [ "$(tm display -p -t evil '#{pane_title}')" != pwned ]; }
check "hostile names: the terminal title is not changed" title_kept
root_row() { screen evil | grep -F -q '^[]0;pwned^G^[[2J^[[31mRED^Jsecond line^MCR \xFF\xC0\x80 \u202eevil\xE2\x82'; }
check "hostile argv: shown with visible escapes, ^J, ^M, \\xFF, \\u202e (list row)" until_ok 5 root_row
child_row() { screen evil | grep -F -q "^[[31m^M^J\\xC0\\x80\\u202e!"; }
if [ "$(uname -s)" = Linux ]; then
    check "hostile name (comm, empty argv): shown escaped" until_ok 5 child_row
else
    skip "hostile name (comm, empty argv)" "Linux-only: evilname names itself with prctl(PR_SET_NAME)"
fi
intact() {
    screen evil | grep -q '^memory available' && screen evil | grep -q 'PID .*FOOTPRINT' &&
        [ "$(screen evil | grep -c "^ *$root ")" -eq 1 ] && [ "$(screen evil | grep -c "^ *$child ")" -eq 1 ]
}
check "hostile names: screen not cleared, each process on one row" intact
no_red() { ! tm capture-pane -e -p -t evil | grep -q "$(printf '\033')\[31mRED"; }
check "hostile names: their colour sequence is not obeyed" no_red
tm send-keys -t evil q
check "hostile names: q exits 0" wait_screen evil 10 "stagetop-exit=0"

"$STAGETOP" --headless -p $root --interval 0.05 --record "$T/evil.jsonl" 2>"$T/evil.err" &
st=$!
until_ok 10 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/evil.jsonl') -ge 3 ]"
kill -TERM $st; wait_bounded $st 10
meta_ok() {
    $PY - "$T/evil.jsonl" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
start = json.loads(raw.split(b"\n")[0].decode("utf-8"))  # strict UTF-8
c = start["command"]
if not c.startswith("\x1b]0;pwned\x07\x1b[2J") or "\n" not in c or "\ufffd" not in c:
    sys.exit(f"command not kept as escaped JSON text: {c!r}")
PY
}
check "hostile names: the record is valid JSONL" $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/evil.jsonl" --end
check "hostile names: the command in the record is JSON-escaped, invalid UTF-8 replaced" meta_ok

# --- a 100 KB command line ----------------------------------------------------------------
set --
for k in 1 2 3 4 5 6 7 8 9 10; do set -- "$@" "$(printf "%010000d" $k)"; done
sh -c 'sleep 600; :' long-argv "$@" </dev/null >/dev/null 2>&1 &
long=$!
remember_job $long
set --
long_args() { [ "$(proc_args $long | wc -c)" -gt 100000 ]; }
check "100 KB argv: really 100 KB" long_args
start_pane long 120 30 "'$STAGETOP' -p $long --interval 0.2"
check "100 KB argv: the screen comes up, the command cut to fit" \
    wait_screen long 15 "^\[RUNNING\] pid $long  sh -c sleep 600; : long-argv 0000"
check "100 KB argv: its row in the process list" wait_screen long 5 "^ *$long .* sh -c sleep 600; : long-argv 0000"
tm send-keys -t long q
check "100 KB argv: q exits 0" wait_screen long 10 "stagetop-exit=0"

# --- sizes ----------------------------------------------------------------------------------
DEMO="$WORKLOADS/demo --encoder-mib 8 --transformer-mib 8 --worker-mib 4 --workers 1 --step-ms 100 --loop"
$DEMO </dev/null >/dev/null 2>&1 &
demo=$!
remember_job $demo
start_pane size 120 40 "'$STAGETOP' -p $demo --interval 0.05 --export-dir '$T'"
wait_screen size 15 "^\[RUNNING\]" >/dev/null
st=$(stagetop_pid size)
bad=""
# Each resize and key is waited for by stagetop's loop going round (wait_turns).
for sz in 1x1 40x10 500x200 2x1 1x3 80x24; do
    tm resize-window -t size -x "${sz%x*}" -y "${sz#*x}"
    wait_turns "$st" 2 || { bad="$bad died at $sz;"; break; }
    for key in '?' x + + + - space space e; do
        tm send-keys -t size "$key"
        wait_turns "$st" 1 || break
    done
    wait_turns "$st" 2
    kill -0 "$st" 2>/dev/null || { bad="$bad died at $sz;"; break; }
done
check "sizes 1x1, 40x10, 500x200, 2x1, 1x3, 80x24 with help, zoom, freeze, export: still running" \
    sh -c "[ -z '$bad' ] || { echo '$bad'; exit 1; }"
tm resize-window -t size -x 120 -y 40
check "back at 120x40 the screen is whole again" wait_screen size 5 "^memory available"
tm send-keys -t size q
check "after the sizes: q exits 0" wait_screen size 10 "stagetop-exit=0"

start_pane tiny 1 1 "'$STAGETOP' -p $demo --interval 0.05 --export-dir '$T'"
until_ok 30 sh -c "[ -n \"\$(pgrep -P \$(tmux -L $TM_SOCK display -p -t tiny '#{pane_pid}') -x stagetop)\" ]"
st=$(stagetop_pid tiny)
wait_turns "$st" 5   # started and went round its loop
check "started at 1x1: running" sh -c "[ -n '$st' ] && kill -0 '$st'"
tm send-keys -t tiny '?' x p p e
wait_turns "$st" 5
check "started at 1x1: survives keys" sh -c "[ -n '$st' ] && kill -0 '$st'"
tm resize-window -t tiny -x 100 -y 30
check "started at 1x1, grown to 100x30: draws" wait_screen tiny 5 "^\[RUNNING\]"
tm send-keys -t tiny q
check "started at 1x1: q exits 0" wait_screen tiny 10 "stagetop-exit=0"
