#!/bin/sh
# The job's log with a screen (docs/screen.md, stagetop(1) --job-log):
#   F  a job that fails: after the screen closes, its last lines are printed
#      (control characters made visible), then the closing summary naming
#      the log; the log sits in --export-dir and its path is in the record's
#      meta (job_log);
#   E  a job that prints nothing leaves no empty log behind;
#   the status line names the log (key o).
set -u
. "$(dirname "$0")/tui_common.inc"
mkdir -p "$T/out"

start_pane f 110 40 "'$STAGETOP' --no-gpu --interval 0.2 --export-dir '$T/out' --record '$T/f.jsonl' -- sh -c 'printf \"Traceback line\\033[31m one\\nValueError: bad input\\n\"; exit 1'"
check "F: the job ends with 1" wait_screen f 20 '^\[EXITED 1'
check "F: the status line names the log (o shows it), beside help and quit" \
    wait_screen f 10 'o log stagetop-job-.*\.log .*? help  q quit'
tm send-keys -t f q
check "F: after the screen: the job failed, with its last lines" wait_screen f 20 'the job failed (exit status 1)'
check "F: ... the traceback's last line" wait_screen f 5 '| ValueError: bad input'
check "F: ... escape bytes made visible" wait_screen f 5 '| Traceback line?\[31m one'
check "F: the closing summary names the log" wait_screen f 5 "job log .*$T/out/stagetop-job-"
check "F: the log is in --export-dir" sh -c "ls '$T/out'/stagetop-job-*.log"
log=$(ls "$T/out"/stagetop-job-*.log 2>/dev/null | head -1)
check "F: the record's meta says where the log is" grep -q "^{\"type\":\"start\".*\"job_log\":\"$log\"" "$T/f.jsonl"

# C: the tail is made safe by the one classifier: C1 controls (raw 0x9b and
# UTF-8 U+009B, a CSI to xterm) and a bidi override (U+202E) never reach the
# terminal raw; the text around them stays.
start_pane c 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --export-dir '$T/out' -- sh -c 'printf \"c1 raw \\233 utf8 \\302\\233 bidi \\342\\200\\256 end\\n\"; exit 1' 2>'$T/c.err'"
check "C: the job ends with 1" wait_screen c 20 '^\[EXITED 1'
tm send-keys -t c q
check "C: stagetop exits" wait_screen c 20 'stagetop-exit='
check "C: the tail's text is printed" grep -q '| c1 raw ? utf8 ? bidi ? end' "$T/c.err"
check "C: no C1 or bidi control reaches the terminal raw" python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
sys.exit(any(b in d for b in (b'\\x9b', b'\\xc2\\x9b', b'\\xe2\\x80\\xae')))" "$T/c.err"

# P: the job plants a FIFO at its log's name and fails: the end reads no
# FIFO (it hung there, before the record's end was written), says so, and
# the record ends.
start_pane p 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/p.log' --record '$T/p.jsonl' -- sh -c 'rm -f \"$T/p.log\"; mkfifo \"$T/p.log\"; exit 3' 2>'$T/p.err'"
check "P: the job ends with 3" wait_screen p 20 '^\[EXITED 3'
tm send-keys -t p q
check "P: stagetop exits though the log is a FIFO" wait_screen p 20 'stagetop-exit='
check "P: ... the tail says the log is not a regular file" grep -q 'not a regular file: not read' "$T/p.err"
check "P: ... the record has its end" grep -q '"type":"end"' "$T/p.jsonl"

# N: --job-log naming a FIFO that nothing reads: refused at once, nothing
# started (it blocked in open() before the screen, silently).
mkfifo "$T/n.fifo"
start_pane n 110 30 "'$STAGETOP' --no-gpu --job-log '$T/n.fifo' -- touch '$T/n.ran'"
check "N: --job-log FIFO without a reader: refused, saying so" wait_screen n 20 'a FIFO that nothing reads'
check "N: ... stagetop exits" wait_screen n 5 'stagetop-exit=[1-9]'
check "N: ... the job never ran" test ! -e "$T/n.ran"

start_pane e 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --export-dir '$T/out' -- true"
check "E: the job ends" wait_screen e 20 '^\[EXITED 0'
n_before=$(ls "$T/out" | wc -l)
tm send-keys -t e q
check "E: stagetop exits" wait_screen e 20 'stagetop-exit=0'
check "E: no empty log is left behind" sh -c "[ \$(ls '$T/out' | wc -l) -eq $((n_before - 1)) ]"

# --- O: key o shows the tail of the job's output -------------------------------------
cat >"$T/o.sh" <<'JOB'
i=1; while [ $i -le 60 ]; do echo "output line $i"; i=$((i + 1)); done
printf 'evil \033[2J bytes\n'
exec sleep 300
JOB
start_pane o 110 30 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/o.log' -- sh '$T/o.sh'"
check "O: the job runs" wait_screen o 20 '^\[RUNNING\]'
check "O: the status line names the log first" wait_screen o 10 "the job's output goes to $T/o.log (o shows it)"
until_ok 20 grep -q "evil" "$T/o.log"
tm send-keys -t o o
check "O: o opens the job's output, naming the log" wait_screen o 10 "job output: $T/o.log"
check "O: ... its tail shows" wait_screen o 5 'output line 60'
check "O: ... control characters made visible" wait_screen o 5 'evil ^\[\[2J bytes'
tm send-keys -t o PPage PPage PPage PPage PPage
check "O: PgUp scrolls back to the first line" wait_screen o 10 'output line 1  '
tm send-keys -t o End
check "O: End goes back to the tail" wait_screen o 10 'output line 60'
tm send-keys -t o o
check "O: o closes it" until_ok 10 sh -c "! tmux -L $TM_SOCK capture-pane -p -t o | grep -q 'job output:'"
tm send-keys -t o q
wait_screen o 10 'ill it and quit' >/dev/null
tm send-keys -t o k
check "O: k: the job is killed and stagetop exits" wait_screen o 20 'stagetop-exit='

# --- U: UTF-8 whose width the table and the C library disagree on ---------
# (issue 30 item 16): U+1F680 is two columns to glibc (and curses, which
# draws with it) and one to the screen's table; U+0378 is unassigned
# (wcwidth -1).  A line of them drawn as if one column each ran over the
# `o` box's right border.  Every row of the box keeps both borders, at the
# same column.
python3 - "$T/u.txt" <<'PYEOF'
import random, sys
random.seed(30)
cps = [0x1F680, 0x0378, 0x2329, 0x4E00, 0x0301, 0xE9] + [random.randrange(0xA0, 0x2FFFF) for _ in range(60)]
line = "".join(chr(random.choice(cps)) for _ in range(160))
with open(sys.argv[1], "w", encoding="utf-8", errors="replace") as f:
    f.write("rockets " + "\U0001F680" * 90 + "\n" + "mixed " + line.encode("utf-8", "replace").decode("utf-8", "replace") + "\n")
PYEOF
start_pane u 100 30 "'$STAGETOP' --no-gpu --interval 0.2 --job-log '$T/u.log' -- sh -c 'cat \"$T/u.txt\"; exec sleep 300'"
check "U: the job runs" wait_screen u 20 '^\[RUNNING\]'
until_ok 20 grep -q "mixed" "$T/u.log"
tm send-keys -t u o
check "U: o opens the job's output" wait_screen u 10 "job output: $T/u.log"
tm capture-pane -p -t u >"$T/u.screen"
check "U: every row of the box keeps its right border, in its column" python3 - "$T/u.screen" <<'PYEOF'
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
top = next(i for i, r in enumerate(rows) if "job output:" in r) - 1
cols = set()
for r in rows[top + 1:]:
    if "\u2514" in r:  # the bottom corner
        break
    bars = [width(r[:i]) for i, c in enumerate(r) if c == "\u2502"]
    if len(bars) != 2:
        sys.exit(f"a row with {len(bars)} borders: {r!r}")
    cols.add(tuple(bars))
sys.exit(0 if len(cols) == 1 else f"borders at {cols}")
PYEOF
tm send-keys -t u o q
wait_screen u 10 'ill it and quit' >/dev/null
tm send-keys -t u k
check "U: stagetop exits" wait_screen u 20 'stagetop-exit='
