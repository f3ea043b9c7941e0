#!/bin/sh
# The live screen end to end, in a real terminal (tmux, 120x40), on the demo
# workload: header, lanes, process list; p (every process stopped, then
# running), e (a valid JSON trace), m, resize to 40x10 and back, k y (the
# tree is gone, a sibling is not), q (exit 0, terminal restored).
set -u
. "$(dirname "$0")/tui_common.inc"

DEMO="$WORKLOADS/demo --encoder-mib 24 --transformer-mib 48 --worker-mib 16 --workers 2 --step-ms 100 --loop"
STAGELOAD_TRACE="$T/demo-events.jsonl" $DEMO </dev/null >/dev/null 2>&1 &
demo=$!
remember_job $demo
sleep 300 </dev/null >/dev/null 2>&1 &
sibling=$!
remember_job $sibling
until_ok 10 proc_has_children $demo 2

start_pane live 120 40 "'$STAGETOP' -p $demo --interval 0.2 --export-dir '$T' --events '$T/demo-events.jsonl'"

# --- what the screen shows -------------------------------------------------
footprint_lane() {
    screen live | grep -A2 '^footprint (tree)' | grep -q '^now  *[0-9.]* [KMG]iB' &&
        screen live | grep -q '^peak  *[0-9.]* [KMG]iB'
}
other_lanes() {
    screen live | grep -q '^swap used' && screen live | grep -q '^memory available' &&
        screen live | grep -A1 '^memory available' | grep -q '^now  *[0-9.]*%'
}
# The process list as python reads it off the screen: [(pid, footprint)].
list_check() { # python condition on `rows`
    tm capture-pane -p -t live | python3 -c '
import re, sys
unit = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
size = r"([0-9.]+) (B|KiB|MiB|GiB)"
ms = list(re.finditer(r"^ *(\d+) +" + size + " +" + size + " +" + size +
                     r" +([RSDTZtIXWP]) +([0-9.]+) +([0-9.]+k?)  (#\d+ )?\S*demo ", sys.stdin.read(), re.M))
rows = [(int(m.group(1)), float(m.group(2)) * unit[m.group(3)]) for m in ms]
acts = [(int(m.group(1)), m.group(8), float(m.group(9))) for m in ms]  # pid, state, CPU %
tags = {int(m.group(1)): (m.group(11) or "").strip() for m in ms}  # pid: "#N" or ""
print(rows, acts)
sys.exit(0 if eval(sys.argv[1]) else 1)' "$1"
}
check "header: job state, pid and command of the root" \
    wait_screen live 15 "^\[RUNNING\] pid $demo .*demo --encoder-mib 24"
metric='pss_anon+pss_shmem+swap_pss ([0-9]*s old)'; [ "$(uname -s)" = Darwin ] && metric=phys_footprint  # docs/metrics.md
check "header: processes in the tree, interval, footprint metric" \
    wait_screen live 10 "3 procs .*every 0.2s.*footprint = $metric"
check "footprint lane: current value and peak" footprint_lane
check "swap and memory-available lanes with values" other_lanes
check "lanes are drawn with block glyphs" wait_screen live 10 '[▁▂▃▄▅▆▇█]\{4\}'
check "a time axis under the graphs" wait_screen live 5 "┴.*-[0-9]*s┴"
w1=$(proc_children $demo | head -1)
w2=$(proc_children $demo | tail -1)
check "process list: its title" wait_screen live 5 "PID *FOOTPRINT▼  *RSS  *SWAP  *S  *CPU%  *PGIN/s  *COMMAND"
check "process list: the root and both workers, with their sizes" \
    list_check "sorted(p for p, f in rows) == sorted([$demo, $w1, $w2])"
check "process list: each member's state and CPU %" \
    list_check "len(acts) == 3 and all(st in 'RSD' and 0 <= c < 250 for p, st, c in acts)"
check "process list: largest footprint first" \
    list_check "len(rows) == 3 and [f for p, f in rows] == sorted([f for p, f in rows], reverse=True)"
check "process list: the two workers (one command) numbered #1 #2 in start order, the root not" \
    list_check "tags == {$demo: '', min($w1, $w2): '#1', max($w1, $w2): '#2'}"
check "stagetop's own cost is shown (CPU % and time per sample)" \
    wait_screen live 10 "cpu [0-9.]*%  *[0-9.]*[µu]s/sample"

# --- p: pause, p: resume -----------------------------------------------------
tm send-keys -t live p
check "p: every process of the tree is stopped (state T)" until_ok 10 tree_stopped $demo
check "p: the header says PAUSED" wait_screen live 5 "^\[PAUSED\]"
tm send-keys -t live p
check "p again: every process runs again" until_ok 10 tree_running $demo
check "p again: the header says RUNNING" wait_screen live 5 "^\[RUNNING\]"

# --- m, e: a mark, then an export with samples and that mark -----------------
tm send-keys -t live m
wait_screen live 5 "mark label" >/dev/null # m asks for a label; Enter: none
tm send-keys -t live Enter
check "m: the mark is acknowledged" wait_screen live 5 "mark added"
tm send-keys -t live e
check "e: the screen shows where the trace went" wait_screen live 10 "exported $T/stagetop-$demo-"
check "e: a valid JSON trace with samples, the root pid and the mark" \
    python3 - "$T" "$demo" <<'EOF'
import glob, json, sys
d, pid = sys.argv[1], int(sys.argv[2])
files = glob.glob(f"{d}/stagetop-{pid}-*.json")
assert len(files) == 1, files
doc = json.load(open(files[0]))
assert doc["format"] == "stagetop-trace" and doc["version"] == 1, doc.get("format")
assert doc["meta"]["pid"] == pid
s = doc["samples"]
assert len(s) >= 5, len(s)
assert all(x["procs"] == 3 for x in s[-3:]), s[-3:]
assert all(x["footprint"] > 16 << 20 for x in s[-3:]), s[-3:]
assert any(e["kind"] == "mark" for e in doc["events"]), doc["events"]
assert any(e["kind"] == "pause" for e in doc["events"]) and any(e["kind"] == "resume" for e in doc["events"])
EOF
# Pause, resume and the mark: their own letters, or, where two or three fell
# in one column (a quick p p m), that column's count (docs/screen.md).
event_row() { screen live | grep -A1 -- '-[0-9]*s┴' | tail -1 | grep -qE 'P.*C|C.*P|M|[23]'; }
check "the mark and the pause/resume are drawn on the event row" until_ok 5 event_row

# --- help, freeze, zoom -------------------------------------------------------
tm send-keys -t live '?'
check "?: the help lists the keys" wait_screen live 5 "p  *pause / resume the whole job"
tm send-keys -t live x
no_help() { ! screen live | grep -q 'pause / resume the whole'; }
check "any key closes the help" until_ok 5 no_help
tm send-keys -t live ' '
check "space: the graphs freeze" wait_screen live 5 "FROZEN"
tm send-keys -t live ' '
tm send-keys -t live -- -
check "-: the window widens (2 samples a column)" wait_screen live 5 "(2/col)"
tm send-keys -t live +
no_zoom() { ! screen live | grep -q '/col)'; }
check "+: back to one sample a column" until_ok 5 no_zoom

# --- resize -------------------------------------------------------------------
tm resize-window -t live -x 40 -y 10
small_screen() {
    screen live | grep -q "^\[RUNNING\] $demo" && screen live | grep -q '^fp .*[▁▂▃▄▅▆▇█]' &&
        screen live | grep -q '^swap ' && screen live | grep -q '^avail'
}
check "40x10: header, one-row lanes with sparklines" until_ok 5 small_screen
check "40x10: the process list keeps a row" wait_screen live 5 "^ *$demo  *[0-9.]* [KMG]iB"
tm resize-window -t live -x 20 -y 5
check "20x5: 'terminal too small'" wait_screen live 5 "terminal too"
tm resize-window -t live -x 120 -y 40
full_screen() { screen live | grep -q '^footprint (tree)' && screen live | grep -q 'PID .*FOOTPRINT'; }
check "back to 120x40: the full screen again" until_ok 5 full_screen

# --- k: kill after y; the sibling is untouched ----------------------------------
tm send-keys -t live k
check "k asks before killing" wait_screen live 5 "Kill pid $demo and its 2 other processes? \[y/n\]"
tm send-keys -t live n
check "n: nothing is killed" wait_screen live 5 "not killed"
check "n: the root still runs" alive $demo
tm send-keys -t live k
wait_screen live 5 "\[y/n\]" >/dev/null
tm send-keys -t live y
tree_gone() { gone $demo && gone $w1 && gone $w2; }
check "k y: the root and its workers are gone" until_ok 15 tree_gone
check "k y: an unrelated sibling process is untouched" alive $sibling
check "the screen says the job exited" wait_screen live 10 "^\[EXITED\]"

# --- q: exit 0, terminal restored ---------------------------------------------
tm send-keys -t live q
check "q: stagetop exits 0" wait_screen live 10 "stagetop-exit=0"
restored() { [ "$(tm display -p -t live '#{alternate_on}')" = 0 ] && ! screen live | grep -q FOOTPRINT; }
check "q: the alternate screen is left (the shell's screen is back)" restored
