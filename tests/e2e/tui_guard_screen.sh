#!/bin/sh
# The guard and the screen say what they are doing (tmux, 80x24):
#  - every armed budget is on the header, "(!)" and a status-line warning
#    when one cannot act (no swap configured; level threshold already
#    crossed at the start);
#  - the guard's pop-up wraps: nothing of it is cut;
#  - m asks for a label, the mark shows it on the event row; events in one
#    column are counted, never hidden (replay: a stage and a mark 4 ms apart);
#  - at 80x24 "? help  q quit" stay on the status line; without swap the
#    swap lane is one row; the level lane is scaled to what was seen, with
#    its bounds; the kernel peak is "kernel peak" (not VmHWM); pressure in %.
set -u
. "$(dirname "$0")/tui_common.inc"

no_swap=0
[ "$(awk 'NR > 1' /proc/swaps 2>/dev/null | wc -l)" -eq 0 ] && no_swap=1

# --- a job watched at 80x24 with both budgets ----------------------------------
# (jobs are started from $T: their logs stay out of the checkout)
start_pane g 80 24 "cd '$T' && '$STAGETOP' -i 0.2 --swap-budget 100M -- sh -c 'sleep 120'"
check "80x24: the screen comes up" wait_screen g 15 "^\[RUNNING\]"
check "the armed swap budget is on the header" wait_screen g 5 "guard swap+100M"
if [ $no_swap = 1 ]; then
    check "no swap: the budget is marked as unable to act" wait_screen g 5 "guard swap+100M(!)"
    check "no swap: the status line says why" wait_screen g 5 "swap-budget cannot trigger: no swap is configured"
    check "no swap: the swap lane is one row saying so" wait_screen g 10 "^swap used: .*no swap"
    one_row() { screen g | awk '/^swap used: .*no swap/ {s = NR} /^memory available/ {m = NR} END {exit !(s && m && m - s <= 2)}'; }
    check "no swap: the next lane follows right under it" one_row
else
    skip "no-swap screen" "this machine has swap configured"
fi
# the warning above stays 10 s on the status line, then the keys come back
check "80x24: '? help  q quit' stay on the status line" wait_screen g 20 "? help  q quit"
check "80x24: and stagetop's cost beside them" wait_screen g 10 "? help  q quit .*cpu [0-9.]*%"
check "the level lane's scale is labelled and fitted" wait_screen g 10 "^scale [0-9]*-[0-9]*%"
fitted() { screen g | grep -q '^scale [0-9]*-[0-9]*%' && ! screen g | grep -q '^scale 0-100%'; }
check "the level lane is not 0-100 %" fitted
check "the kernel peak is named 'kernel peak'" wait_screen g 10 "^kernel peak [0-9]"
no_vmhwm() { ! screen g | grep -q VmHWM; }
check "no 'VmHWM' on the screen" no_vmhwm
if [ -r /proc/pressure/memory ]; then
    check "pressure shows its unit" wait_screen g 5 "^pressure [0-9.]*%"
else
    skip "pressure unit" "no /proc/pressure/memory (PSI) here"
fi

# --- m: a label ----------------------------------------------------------------
tm send-keys -t g m
check "m asks for a label" wait_screen g 5 "mark label (Enter"
tm send-keys -t g -l "ckpt"
check "the label is echoed as it is typed" wait_screen g 5 "mark label.*: ckpt_"
tm send-keys -t g Enter
check "Enter adds the mark with its label" wait_screen g 5 "mark added: ckpt"
check "the event row shows the mark's label" wait_screen g 10 "Mckpt"
tm send-keys -t g m
wait_screen g 5 "mark label (Enter" >/dev/null
tm send-keys -t g Escape
check "Esc: no mark" wait_screen g 5 "no mark"
tm send-keys -t g q
wait_screen g 5 "\[k\]ill it and quit" >/dev/null
tm send-keys -t g k
check "the job is killed, stagetop ends" wait_screen g 15 "stagetop-exit="

# --- the guard's pop-up, with a level threshold crossed at the start ------------
start_pane p 80 24 "cd '$T' && '$STAGETOP' -i 0.2 --kill-free 99.99 -- sh -c 'sleep 120'"
check "kill-free over the level: the header marks it" wait_screen p 15 "guard free<100.0%(!)"
check "kill-free over the level: the status line says it is crossed" \
    wait_screen p 5 "kill-free 100.0% is crossed at the start (level [0-9.]*%)"
check "the guard acts: its pop-up comes" wait_screen p 15 "BUDGET CROSSED"
check "the pop-up is not cut: its sentence ends" wait_screen p 5 "was lost\."
uncut() { screen p | grep -q "stopped (SIGSTOP); nothing" && screen p | grep -q "was lost\."; }
check "the pop-up wraps the long line onto the next row" uncut
tm send-keys -t p k
wait_screen p 5 "Kill pid" >/dev/null
tm send-keys -t p y
tm send-keys -t p q
check "stagetop ends after the kill" wait_screen p 20 "stagetop-exit="

# --- replay: a stage and a mark 4 ms apart, and a mark with a note -------------
python3 - "$T/coll.jsonl" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"type":"start","utc":"2026-12-02T10:00:00+00:00","interval":0.5,"mode":"edge"}\n')
    for i in range(41):
        t = i * 0.5
        if t == 5.0:
            f.write('{"type":"event","kind":"stage","stage":"encode","t":5.0}\n')
            f.write('{"type":"event","kind":"mark","t":5.004}\n')
        if t == 12.0:
            f.write('{"type":"event","kind":"mark","note":"hello","t":12.0}\n')
        f.write('{"type":"sample","t":%.1f,"footprint":%d,"swap_used":0,"level":%.1f}\n'
                % (t, (100 + i) << 20, 97 - 5 * i / 40))
    f.write('{"type":"end"}\n')
PYEOF
start_pane r 100 40 "'$STAGETOP' replay '$T/coll.jsonl'"
check "replay: the screen comes up" wait_screen r 15 "^footprint"
check "replay: a stage and a mark in one column are counted (2), not hidden" \
    wait_screen r 5 "2[a-z]* .*Mhello"
check "replay: the level lane is scaled to 92-97 % (bounds labelled)" wait_screen r 5 "^scale 91-98%"
tm send-keys -t r q
check "replay: q quits" wait_screen r 10 "stagetop-exit=0"
