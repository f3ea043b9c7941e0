#!/bin/sh
# Fault: memory errors and leaks, under valgrind's memcheck, of
#  - a 20 s live run in tmux (demo job, --record, --events, --export-dir) with
#    p p m e + - space space ? and resizes to 40x10, 1x1 and back, 60 quick
#    resizes between 1x1 and 120x40, then q;
#  - the picker, resized to 1x1, 1x5 and back, then q;
#  - a headless launched job that the guard kills (fork, exec, subreaper,
#    kill with grace, export at close to .json);
#  - `stagetop replay` of a fixture in tmux (keys, resizes to 1x1 and back)
#    when this tree has it, and `stagetop summary` and `stagetop plot` on the stageload fixtures and
#    on good and bad trace files (the error paths too).
# Every leak kind counts, "still reachable" included, except what ncurses
# itself keeps (tests/faults/valgrind.supp says what, entry by entry);
# any error makes valgrind exit 99.  An ASan build cannot run under valgrind:
# then this skips (the plain build's `make check` runs it).
set -u
. "$(dirname "$0")/../e2e/tui_common.inc"
. "$ST_ROOT/tests/faults/lib.sh"
need_tool valgrind valgrind valgrind || exit 0
if ldd "$STAGETOP" 2>/dev/null | grep -q 'libasan'; then
    skip "valgrind" "$STAGETOP is an ASan build (SANITIZE=1); valgrind runs in the plain build's check"
    exit 0
fi
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
--errors-for-leak-kinds=all --track-fds=no --num-callers=30 \
--suppressions=$ST_ROOT/tests/faults/valgrind.supp"
# clean NAME: valgrind's log for NAME holds no error (with -q it holds only
# errors, "==PID==" lines; "--PID--" lines are valgrind's own notes, such as
# "unhandled syscall 434": valgrind 3.19 lacks pidfd_open, so stagetop's
# kill() fallback runs here instead of its pidfd path).
clean() { ! grep -q '^==[0-9]*==' "$T/vg-$1.log" 2>/dev/null || { grep '^==' "$T/vg-$1.log" | head -60; false; }; }

# --- live, 20 s ------------------------------------------------------------------------
DEMO="$WORKLOADS/demo --encoder-mib 8 --transformer-mib 16 --worker-mib 4 --workers 1 --step-ms 100 --loop"
STAGELOAD_TRACE="$T/events.jsonl" $DEMO </dev/null >/dev/null 2>&1 &
demo=$!
remember_job $demo
t0=$(date +%s)
start_pane live 120 40 "$VG --log-file='$T/vg-live.log' '$STAGETOP' -p $demo --interval 0.1 \
--record '$T/live.jsonl' --events '$T/events.jsonl' --export-dir '$T'; echo \$? >'$T/live.rc'"
check "live: the screen comes up under valgrind" wait_screen live 60 "^\[RUNNING\]"
vg=$(pane_child live)
# key NAME KEY: send KEY, then wait until the screen's loop has gone round
# twice (it read the key) -- by conditions, never by time.
key() { tm send-keys -t "$1" "$2"; wait_turns "$vg" 2 60; }
no_text() { ! screen "$1" | grep -q -- "$2"; }
key live p; wait_screen live 60 "^\[PAUSED\]"
key live p; wait_screen live 60 "^\[RUNNING\]"
key live m; wait_screen live 60 "mark label"; key live Enter; wait_screen live 60 "mark added"
key live e; wait_screen live 60 "exported "
key live +; key live -; wait_screen live 60 "(2/col)"
key live space; wait_screen live 60 "FROZEN"
key live space; until_ok 60 no_text live FROZEN
key live '?'; wait_screen live 60 "pause / resume the whole"
key live x; until_ok 60 no_text live "pause / resume the whole"
resize() { tm resize-window -t "$1" -x "${2%x*}" -y "${2#*x}"; wait_turns "$vg" 2 60; }
resize live 40x10; resize live 1x1; resize live 120x40
wait_screen live 60 "^footprint (tree)"
# Resizes between 1x1 and 120x40 at a pace that lands some during a frame:
# ncurses 6.4 reads outside a line when it draws a screen one column wide
# (tests/faults/ncurses_onecol.c), and once resized itself inside doupdate()
# after the loop checked the width (docs/reliability.md).  The sleeps set the
# rhythm of the resizes; nothing waits on them.
i=0
while [ $i -lt 60 ]; do
    tm resize-window -t live -x 1 -y 1; sleep 0.0$((i % 7 + 2))
    tm resize-window -t live -x 120 -y 40; sleep 0.0$((i % 5 + 3))
    i=$((i + 1))
done
wait_screen live 60 "^footprint (tree)"
until_ok 30 sh -c "[ \$(( \$(date +%s) - $t0 )) -ge 20 ]"
tm send-keys -t live q
until_ok 60 test -s "$T/live.rc"
check "live: 20 s, keys, resizes and 60 quick 1x1 resizes: exit 0 (valgrind: 99 on an error)" sh -c "[ \"\$(cat '$T/live.rc')\" = 0 ]"
check "live: no invalid access, no leak" clean live
check "live: the record it wrote is valid" $PY "$ST_ROOT/tests/e2e/check_jsonl.py" "$T/live.jsonl" --end --min-samples 50
check "live: e exported a trace" sh -c "ls '$T'/stagetop-$demo-*.json >/dev/null"

# --- the picker, resized to 1x1 and back -----------------------------------------------------
start_pane pick 120 40 "$VG --log-file='$T/vg-pick.log' '$STAGETOP'; echo \$? >'$T/pick.rc'"
check "picker: comes up under valgrind" wait_screen pick 60 "Enter watch"
vg=$(pane_child pick)
resize pick 1x1; resize pick 1x5; resize pick 120x40
wait_screen pick 60 "Enter watch"
key pick Down
tm send-keys -t pick q
until_ok 30 test -s "$T/pick.rc"
check "picker: q exits 0" sh -c "[ \"\$(cat '$T/pick.rc')\" = 0 ]"
check "picker: no invalid access, no leak" clean pick

# --- headless, launched, guard kill, export at close ------------------------------------
$VG --log-file="$T/vg-headless.log" "$STAGETOP" --headless --interval 0.05 --kill-free 100 --on-budget kill \
    --grace 0.5 --record "$T/headless.json" -- $DEMO >/dev/null 2>"$T/headless.err"
rc=$?
check "headless guard kill: exit 3" [ $rc -eq 3 ]
check "headless guard kill: no invalid access, no leak" clean headless
check "headless guard kill: the .json export is a trace" $PY -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['samples']" "$T/headless.json"

# --- replay, or summary and plot ------------------------------------------------------------
FIX="$ST_ROOT/tests/fixtures/stageload"
good=$(ls "$FIX"/*.jsonl "$ST_ROOT"/tests/fixtures/traces/good-*.jsonl 2>/dev/null)
bad=$(ls "$ST_ROOT"/tests/fixtures/traces/bad-*.json* 2>/dev/null | head -8)
if "$STAGETOP" --help 2>/dev/null | grep -q 'stagetop replay'; then
    f=$(ls "$FIX"/*.jsonl "$ST_ROOT"/tests/fixtures/traces/good-*.jsonl 2>/dev/null | head -1)
    start_pane replay 120 40 "$VG --log-file='$T/vg-replay.log' '$STAGETOP' replay '$f'; echo \$? >'$T/replay.rc'"
    until_ok 60 sh -c "screen replay | grep -q '[a-z]'"
    vg=$(pane_child replay)
    for k in + - space '?' x; do key replay "$k"; done
    resize replay 1x1; resize replay 40x10; resize replay 120x40
    tm send-keys -t replay q
    until_ok 60 test -s "$T/replay.rc"
    check "replay $(basename "$f"): exit 0" sh -c "[ \"\$(cat '$T/replay.rc')\" = 0 ]"
    check "replay: no invalid access, no leak" clean replay
fi
n=0 errs=""
for f in $good; do
    n=$((n + 1))
    $VG --log-file="$T/vg-sum$n.log" "$STAGETOP" summary "$f" >/dev/null 2>&1 || errs="$errs summary $(basename "$f"): exit $?;"
    clean "sum$n" >/dev/null || errs="$errs summary $(basename "$f"): $(head -3 "$T/vg-sum$n.log");"
    $VG --log-file="$T/vg-plot$n.log" "$STAGETOP" plot "$f" -o "$T/plot$n.svg" >/dev/null 2>"$T/plot$n.err" ||
        grep -q 'no samples' "$T/plot$n.err" || errs="$errs plot $(basename "$f"): exit $?;"
    clean "plot$n" >/dev/null || errs="$errs plot $(basename "$f"): $(head -3 "$T/vg-plot$n.log");"
done
for f in $bad; do
    n=$((n + 1))
    $VG --log-file="$T/vg-bad$n.log" "$STAGETOP" summary "$f" >/dev/null 2>&1
    [ $? -eq 1 ] || errs="$errs summary $(basename "$f"): not exit 1;"
    clean "bad$n" >/dev/null || errs="$errs summary $(basename "$f"): $(head -3 "$T/vg-bad$n.log");"
done
check "summary and plot of $(echo $good | wc -w) traces, summary of $(echo $bad | wc -w) bad ones: no invalid access, no leak" \
    sh -c "[ -n '$good' ] && [ -z '$errs' ] || { echo '$errs'; exit 1; }"
