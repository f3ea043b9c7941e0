#!/bin/sh
# --notify end to end, headless: stagetop runs under script(1), which gives it
# a terminal and keeps every raw byte written to it; tests/e2e/check_notify.py
# finds the notifications in them (bell + OSC 9 + OSC 777 each).  The screen's
# and tmux's form, and the 30 s limit on a repeating trigger, are in
# tui_outputs.sh; swap growth near --swap-budget needs swap to grow: it is in
# tests/swap/notify_swap.test.sh (root) and tests/unit/test_notify.c.
set -u
. "$(dirname "$0")/../lib/common.sh"

need_tool notify script bsdutils || exit 0
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
CHECK="$ST_ROOT/tests/e2e/check_notify.py"

# run NAME STAGETOP-ARGS...: stagetop under script, outside tmux; the raw
# bytes in $T/NAME.raw, its exit code in $T/NAME.rc.
run() {
    _n=$1; shift
    printf '%s\n' "$*; echo \$? >'$T/$_n.rc'" >"$T/$_n.sh"
    env -u TMUX script -qfec "sh '$T/$_n.sh'" "$T/$_n.raw" </dev/null >/dev/null 2>&1
}
json() { python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print($2)" "$1"; }
# in_band FILE KILL_FREE: 1 when a sample before the job's end had its level
# within 5 points of KILL_FREE (the record says; the machine's level moves).
in_band() {
    json "$1" "int(any(x.get('level', 999) <= $2 + 5 for x in r[:[i for i, e in enumerate(r) if e.get('kind') == 'exit'][0]] if x.get('type') == 'sample'))"
}

# --- the guard acts (the level is always under --kill-free 100) ---------------
run guard "'$STAGETOP' --headless --notify --interval 0.05 --kill-free 100 --record '$T/guard.jsonl' -- sleep 60"
code=$(json "$T/guard.jsonl" "[e['value'] for e in r if e.get('kind') == 'exit'][0]")
check "--kill-free 100 headless: the guard stops the job (exit 3)" [ "$(cat "$T/guard.rc")" = 3 ]
check "one notification each: level near --kill-free, the guard acting, the job's end with its status" \
    python3 "$CHECK" "$T/guard.raw" --want level=1 --want guard=1 --want exit=1 \
        --text guard="stopping the job" --text exit="exit status $code" --text exit="peak footprint"

# --- the job ends by itself: its own exit status ---------------------------------
run exit5 "'$STAGETOP' --headless --notify --interval 0.05 -- sh -c 'exit 5'"
check "a job that exits 5: one notification, 'exit status 5', nothing else" \
    sh -c "[ \$(cat '$T/exit5.rc') = 5 ] && python3 '$CHECK' '$T/exit5.raw' --want exit=1 --want level=0 --want guard=0 --text exit='exit status 5'"

# --- the level near --kill-free, but not under it --------------------------------
level=$(awk '/^MemTotal:/ {t=$2} /^MemAvailable:/ {a=$2} END {printf "%.2f", a * 100 / t}' /proc/meminfo)
near=$(python3 -c "print(max(0.0, $level - 1.5))")
far=$(python3 -c "print(max(0.0, $level - 25))")
run near "'$STAGETOP' --headless --notify --interval 0.05 --kill-free $near --record '$T/near.jsonl' -- sleep 1"
budgets=$(json "$T/near.jsonl" "min(1, sum(1 for e in r if e.get('kind') == 'budget'))")
band=$(in_band "$T/near.jsonl" "$near")
# (The level usually stays in the band; when the machine's memory moved by
# more than 3.5 points meanwhile, the record says so and no warning is due.)
check "level $level%, --kill-free $near: level notifications as the record's levels ask ($band), guard ones as its budget events ($budgets)" \
    python3 "$CHECK" "$T/near.raw" --want level="$band" --want guard="$budgets" --want exit=1
if python3 -c "import sys; sys.exit(not $level >= 30)"; then
    run far "'$STAGETOP' --headless --notify --interval 0.05 --kill-free $far --record '$T/far.jsonl' -- sleep 1"
    band=$(in_band "$T/far.jsonl" "$far")
    check "--kill-free $far, 25 points under the level: as many level notifications as the record's levels ask ($band)" \
        python3 "$CHECK" "$T/far.raw" --want level="$band" --want exit=1
else
    skip "notify: far from --kill-free" "the memory level ($level%) is too low here"
fi

# --- off by default ------------------------------------------------------------------
run off "'$STAGETOP' --headless --interval 0.05 --kill-free 100 -- sleep 60"
check "without --notify the same run writes no bell and no OSC" \
    sh -c "[ \$(cat '$T/off.rc') = 3 ] && ! grep -q \"\$(printf '\\a')\" '$T/off.raw' && ! grep -q ']9;\\|]777;' '$T/off.raw'"

# --- a hostile job name cannot reach the terminal -------------------------------------
evil=$(printf 'evil\033]0;pwned\007\033[2J\302\233\342\200\256x;y')
for t in /bin/true /usr/bin/true; do [ -x "$t" ] && break; done
ln -s "$t" "$T/$evil"
run evil "'$STAGETOP' --headless --notify --interval 0.05 -- '$T/$evil'"
check "a command named with ESC, BEL, C1 CSI, RLO and ';': it ran, one notification, no stray bell or OSC" \
    sh -c "[ \$(cat '$T/evil.rc') = 0 ] && python3 '$CHECK' '$T/evil.raw' --want exit=1"
check "... and none of the name's escape sequences, C1 or bidi bytes reach the terminal" python3 -c '
import sys
raw = open(sys.argv[1], "rb").read()
for bad in (b"\x1b]0;pwned", b"\x1b[2J", b"\xc2\x9b", b"\xe2\x80\xae"):
    assert bad not in raw, bad
assert b"evil?]0,pwned??[2J??x,y" in raw, raw[-400:]
' "$T/evil.raw"

# --- in the background of a terminal with `stty tostop` --------------------------------
# A background process that writes to its terminal gets SIGTTOU, which stops
# it: a stopped stagetop would no longer guard anything.
cat >"$T/bg.sh" <<SH
set -m
stty tostop
'$STAGETOP' --headless --notify --interval 0.05 -- sh -c 'exit 4' &
wait \$!
echo "bg-rc=\$?"
stty -tostop
SH
env -u TMUX timeout -k 5 60 script -qfec "sh '$T/bg.sh'" "$T/bg.raw" </dev/null >/dev/null 2>&1
check "a background stagetop under 'stty tostop' writes its notification and is not stopped (job's code 4)" \
    sh -c "grep -aq 'bg-rc=4' '$T/bg.raw' && python3 '$CHECK' '$T/bg.raw' --want exit=1 --text exit='exit status 4'"

# --- no terminal at all --------------------------------------------------------------
setsid "$STAGETOP" --headless --notify -- true 2>"$T/err" </dev/null >/dev/null
rc=$?
check "--notify with no terminal (no /dev/tty, stderr a file): exit 1 saying why" \
    sh -c "[ $rc -eq 1 ] && grep -q 'no terminal' '$T/err'"
