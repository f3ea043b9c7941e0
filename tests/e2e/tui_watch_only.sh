#!/bin/sh
# -p 1 and -p of one of stagetop's ancestors (issue 32, item 6): watched
# read-only.  Pause, kill and the guard are refused and say why, headless
# and on the screen; watching signals no one.
#   H  headless -p $$ (this shell: stagetop's parent) and -p 1, each until
#      it has recorded 3 samples, then SIGINT: exit 130, the reason on stderr;
#   G  either with a guard: exit 2 before anything is watched, saying why;
#   S  the screen on -p of the pane's own shell and on -p 1: READ-ONLY on the
#      status line, p and k refused with the reason, no prompt to allow.
set -u
. "$(dirname "$0")/tui_common.inc"

# samples FILE N: the record has N sample lines or more
samples() { [ "$(grep -c '"type":"sample"' "$1" 2>/dev/null)" -ge "$2" ]; }
# headless_watch NAME PID: watch PID headless until 3 samples, then SIGINT
headless_watch() {
    "$STAGETOP" --headless --no-gpu --interval 0.1 -p "$2" --record "$T/$1.jsonl" \
        2>"$T/$1.err" </dev/null >/dev/null &
    _hw=$!
    until_ok 20 samples "$T/$1.jsonl" 3 || { kill -KILL $_hw; return 1; }
    kill -INT $_hw
    wait $_hw
    echo $? >"$T/$1.rc"
}

# --- H: headless ---------------------------------------------------------------
state_before=$(proc_state $$)
check "H: -p \$\$ (stagetop's parent) is watched" headless_watch anc $$
check "H: ... and ends 130 on SIGINT (128 + 2, as any run)" [ "$(cat "$T/anc.rc" 2>/dev/null)" = 130 ]
check "H: ... saying it is watched read-only, and why" \
    grep -q "pid $$ is an ancestor of stagetop, never signalled: watching it read-only (no pause, kill or guard)" "$T/anc.err"
check "H: ... not as a wide tree that --allow-wide would open" sh -c "! grep -q 'allow-wide' '$T/anc.err'"
check "H: this shell was never stopped" [ "$(proc_state $$)" = "$state_before" ]
check "H: -p 1 is watched" headless_watch init 1
check "H: ... and ends 130 on SIGINT (128 + 2, as any run)" [ "$(cat "$T/init.rc" 2>/dev/null)" = 130 ]
check "H: ... saying pid 1 is never signalled" \
    grep -q "pid 1 (init) is never signalled: watching it read-only" "$T/init.err"

# --- G: a guard on a job watched only -------------------------------------------
guard_refused() { # PID WORD: exit 2, the reason and the guard named
    "$STAGETOP" --headless --no-gpu -p "$1" --kill-free 100 --on-budget kill 2>"$T/g.err" </dev/null >/dev/null
    _rc=$?
    cat "$T/g.err"
    [ $_rc -eq 2 ] && grep -q "$2.*watched read-only, so the guard (--swap-budget, --kill-free) cannot act" "$T/g.err"
}
check "G: -p 1 --kill-free: exit 2, the guard cannot act" guard_refused 1 'pid 1 (init)'
check "G: -p \$\$ --kill-free: exit 2, the guard cannot act" guard_refused $$ 'an ancestor of stagetop'

# --- S: the screen ----------------------------------------------------------------
for who in anc init; do
    if [ $who = anc ]; then target='$$' why='an ancestor of stagetop'; else target=1 why='pid 1 (init)'; fi
    start_pane $who 160 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $target"
    check "S $who: READ-ONLY on the status line, with why" \
        wait_screen $who 20 "^READ-ONLY (.*$why.*no pause, kill or guard)"
    tm send-keys -t $who p
    check "S $who: p is refused, saying why" wait_screen $who 5 "not pausing: watched read-only: .*$why"
    tm send-keys -t $who k
    check "S $who: k is refused, saying why (no prompt)" wait_screen $who 5 "not killing: watched read-only: .*$why"
    check "S $who: no prompt to allow signals" sh -c "! tmux -L '$TM_SOCK' capture-pane -p -t $who | grep -q 'Let p, k'"
    tm send-keys -t $who q
    check "S $who: q ends it" wait_screen $who 10 'stagetop-exit=0'
done
