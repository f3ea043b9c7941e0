#!/bin/sh
# Long runs on the live screen (issue 29 item 8): f fits the whole run in
# the window (replay's f, tui_view_fit) and keeps fitting it as the run
# grows, until a zoom key; T switches the time axis between seconds ago and
# the local clock time of its ticks.  A real job holds random bytes at
# 0.05 s a sample; the fit's samples per column and the clock labels are
# checked against the record and the test's own clock (python).  In replay
# of that record, T gives its start_utc plus t instead of the time since
# the start.
set -u
. "$(dirname "$0")/tui_common.inc"

cat >"$T/job.py" <<'EOF'
import os, sys, time
held = bytearray(os.urandom(8 << 20))
while not os.path.exists(sys.argv[1]):
    time.sleep(0.05)
EOF
start_pane live 120 30 "'$STAGETOP' --interval 0.05 --no-gpu --record '$T/r.jsonl' -- python3 '$T/job.py' '$T/end'"
check "the window shows the last seconds" wait_screen live 15 '^last [0-9.]*s '
# the run longer than the window (93 columns of 0.05 s at 120 columns): 150 samples
until_ok 60 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/r.jsonl') -ge 150 ]"

# --- T: the clock ---------------------------------------------------------------
tm send-keys -t live T
check "T: the axis gives clock times" wait_screen live 10 '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]┴'
screen live >"$T/clock.txt"
python3 -c 'import time; print(time.time())' >"$T/clock.now"
check "T: each tick's clock time is the time of its column (python, the test's clock)" \
    python3 - "$T/clock.txt" "$T/clock.now" <<'PY'
import re, sys, time
now = float(open(sys.argv[2]).read())
lt = time.localtime(now)
now_day = lt.tm_hour * 3600 + lt.tm_min * 60 + lt.tm_sec + now % 1
rows = open(sys.argv[1]).read().splitlines()
axis = [r for r in rows if re.match(r"^last [0-9.]+s +", r)][0]
x0 = re.match(r"^last [0-9.]+s +", axis).end()
ax = axis[x0:]
w = len(ax)
labels = [(m.end() - 1, m.group(0)[:8]) for m in re.finditer(r"\d\d:\d\d:\d\d┴", ax)]
assert len(labels) >= 3, (ax, labels)
col_s = 0.05
for x, lab in labels:
    h, m, s = map(int, lab.split(":"))
    want = now_day - (w - 1 - x) * col_s      # the right edge is about now (a frame behind at most)
    off = ((h * 3600 + m * 60 + s) - want + 43200) % 86400 - 43200
    print(lab, "at column", x, "of", w, "off by %.2fs" % off)
    assert -2.5 <= off <= 0.5, off
PY
check "T: no seconds-ago label is left" sh -c "! grep -Eq '┴-[0-9]' '$T/clock.txt'"
tm send-keys -t live T
check "T again: seconds ago" wait_screen live 10 '─-[0-9][0-9.]*s┴'

# --- f: the whole run -----------------------------------------------------------
tm send-keys -t live f
check "f: the window says the whole run, with its samples per column" \
    wait_screen live 10 '^whole run [0-9.]*[ms0-9]* ([0-9]*/col)'
screen live >"$T/fit.txt"
check "f: samples per column are the fewest that fit every sample of the record (python)" \
    python3 - "$T/fit.txt" "$T/r.jsonl" <<'PY'
import json, re, sys
rows = open(sys.argv[1]).read().splitlines()
axis = [r for r in rows if r.startswith("whole run ")][0]
m = re.match(r"^whole run \S+ \((\d+)/col\) +", axis)
per_col, w = int(m.group(1)), len(axis) - m.end()
ts = [json.loads(l)["t"] for l in open(sys.argv[2]) if l.startswith('{"type":"sample"')]
# the newest sample's index (t / interval) when the frame was drawn: at most
# a second of samples before the record's last one
ks = [round(t / 0.05) for t in ts[-21:]]
want = sorted({k // w + 1 for k in ks})
print("per_col", per_col, "width", w, "newest k", ks[0], "..", ks[-1], "want one of", want)
assert per_col in want and per_col >= 2
PY
pc=$(grep -o '^whole run [^(]*([0-9]*/col)' "$T/fit.txt" | sed 's/.*(\([0-9]*\)\/col)/\1/')
check "f: it keeps fitting as the run grows ($pc, then $((pc + 1)) samples a column)" \
    wait_screen live 60 "^whole run .* ($((pc + 1))/col)"
tm send-keys -t live +
check "+ ends the fit: the last seconds again" wait_screen live 10 '^last [0-9.]*[ms0-9]* '
: >"$T/end"
check "the job ends" wait_screen live 20 'EXITED\|exited'

# --- replay: T gives the start record's UTC time plus t -------------------------
tm send-keys -t live q
check "q: stagetop ends, its record written" wait_screen live 20 'stagetop-exit='
F="$T/r.jsonl"
start_pane rp 120 30 "'$STAGETOP' replay '$F'"
check "replay: the axis in the trace's time from its start" wait_screen rp 15 '┴0:00─'
tm send-keys -t rp T
check "replay T: clock times" wait_screen rp 10 '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]┴'
screen rp >"$T/rp.txt"
check "replay T: each tick is the record's start_utc plus its column's t (python)" \
    python3 - "$T/rp.txt" "$F" <<'PY'
import json, re, sys, time, calendar
start = json.loads(open(sys.argv[2]).readline())
utc = calendar.timegm(time.strptime(start["start_utc"][:19], "%Y-%m-%dT%H:%M:%S"))
off = time.localtime(utc).tm_gmtoff
iv = start["interval"]
rows = open(sys.argv[1]).read().splitlines()
head = re.compile(r"^0:00\S*( \((\d+)/col\))? +")
axis = [r for r in rows if head.match(r) and "┴" in r][0]
m = head.match(axis)
pc, ax = int(m.group(2) or 1), axis[m.end():]
col_s = pc * iv
ticks = [(m.end() - 1, m.group(0)[:8]) for m in re.finditer(r"\d\d:\d\d:\d\d┴", ax)]
assert len(ticks) >= 2, ax
for x, lab in ticks:   # the whole record fits: column x holds t from x * col_s
    h, mi, s = map(int, lab.split(":"))
    want = (utc + off + (x + 1) * col_s - iv) % 86400
    d = ((h * 3600 + mi * 60 + s) - want + 43200) % 86400 - 43200
    print(lab, "at column", x, "of", len(ax), "(%d/col)" % pc, "off by %.2fs" % d)
    assert -col_s / 2 - 0.1 <= d <= col_s / 2 + 1.1, d   # start_utc: whole seconds, cut
PY
tm send-keys -t rp T
check "replay T again: the trace's time" wait_screen rp 10 '┴0:00─'
