#!/bin/sh
# The details box (Enter on the process list) end to end, in tmux at 80x24,
# on a real job with more processes than rows: a shell that starts 3 shells
# of 9 sleeps each, then becomes (exec) a python3 holding 20 MiB of random
# bytes with a command line longer than the box is wide (31 processes).
# The root (selected at first), then a sleep found by its pid (/), are
# opened with Enter, and what the box says
# is checked against the system, read by the test itself: the pid, its
# parent and its start time from /proc (Linux: /proc/PID/stat's ppid and
# starttime, /proc/stat's btime, getconf CLK_TCK; elsewhere ps -o
# ppid=,lstart=), its whole command line (the box's rows joined) from
# /proc/PID/cmdline (elsewhere ps -o args=), its own footprint sparkline
# topped by the footprint it shows.  Esc closes it, and Enter does.
set -u
. "$(dirname "$0")/tui_common.inc"

cat >"$T/sub.sh" <<'EOS'
for j in 1 2 3 4 5 6 7 8 9; do sleep 600 & done
wait
EOS
LONG="zq-details-long-argument --alpha=aaaaaaaaaaaaaaaa --beta=bbbbbbbbbbbbbbbbbbbbbbbb \
--gamma=cccccccccccccccccccccc --delta=ddddddddddddddddddddddddddd --epsilon=eeeeeeeeeeee"
cat >"$T/job.sh" <<EOS
for i in 1 2 3; do sh '$T/sub.sh' & done
exec python3 -c 'import os, time; b = os.urandom(20 << 20); time.sleep(600)' $LONG
EOS
# the python3 is the job's root (exec), its shells and sleeps under it
count_of() { [ "$(descendants "$1" | wc -l)" -eq "$2" ]; }
sh "$T/job.sh" </dev/null >/dev/null 2>&1 &
job=$!
remember_job $job
until_ok 20 count_of $job 31
until_ok 20 sh -c "ps -o args= -p $job | grep -q zq-details"
sub=$(proc_children $job | head -1)
sleeper=$(proc_children "$sub" | tail -1)

# What the system says of a pid, one "key=value" a line: ppid, start (UTC,
# %Y-%m-%d %H:%M:%S), cmd (argv joined by spaces).
facts() {
    python3 - "$1" <<'EOP'
import calendar, os, subprocess, sys, time
pid = sys.argv[1]
if os.path.exists("/proc/%s/stat" % pid):  # portable: Linux's branch, ps below elsewhere
    stat = open("/proc/%s/stat" % pid).read()  # portable: in the Linux branch
    f = stat[stat.rindex(")") + 2:].split()  # fields 3.. after the name
    ppid, ticks = int(f[1]), int(f[19])
    btime = [int(l.split()[1]) for l in open("/proc/stat") if l.startswith("btime ")][0]  # portable: Linux branch
    hz = int(subprocess.check_output(["getconf", "CLK_TCK"]))
    start = btime + ticks // hz
    cmd = open("/proc/%s/cmdline" % pid, "rb").read().rstrip(b"\0").replace(b"\0", b" ").decode()  # portable: Linux branch
else:
    ppid = int(subprocess.check_output(["ps", "-o", "ppid=", "-p", pid]))
    lstart = subprocess.check_output(["ps", "-o", "lstart=", "-p", pid], env=dict(os.environ, TZ="UTC"))
    start = calendar.timegm(time.strptime(lstart.decode().strip(), "%a %b %d %H:%M:%S %Y"))
    cmd = subprocess.check_output(["ps", "-ww", "-o", "args=", "-p", pid]).decode().strip()
print("ppid=%d" % ppid)
print("start=" + time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(start)))
print("cmd=" + cmd)
EOP
}

# box PID: the box on the screen says what the system says of PID: its
# title and pid, parent, start time, and the command rows joined.
cat >"$T/box.py" <<'EOP'
import re, sys
screen, facts = sys.stdin.read().split("\n"), dict(l.split("=", 1) for l in open(sys.argv[2]).read().splitlines())
pid, rows_min = sys.argv[1], int(sys.argv[3])
top = [i for i, l in enumerate(screen) if re.search(r"[┌+][─-] process %s " % pid, l)]
if not top:
    print("no box titled 'process %s'" % pid); sys.exit(1)
y = top[0]
x0 = re.search(r"[┌+]", screen[y]).start()
x1 = max(screen[y].rfind("┐"), screen[y].rfind("+", x0 + 1))
rows = []
for l in screen[y + 1:]:
    if l[x0:x0 + 1] in ("└", "+"):
        break
    rows.append(l[x0 + 1:x1].strip())
text = "\n".join(rows)
ok = True
def want(what, cond):
    global ok
    if not cond:
        ok = False
        print("box: %s is wrong" % what)
want("pid", re.search(r"\bpid %s\b" % pid, text))
want("parent", re.search(r"\bparent %s\b" % facts["ppid"], text))
want("start time", "started " + facts["start"] in text)
cmd = rows[rows.index("command:") + 1:] if "command:" in rows else []
joined = " ".join(r for r in cmd if r)
want("command line (%d rows)" % len(cmd), joined == facts["cmd"] and len(cmd) >= rows_min)
# its own footprint over the window: a sparkline whose highest value is the
# footprint the box says now (the process holds its memory still)
sp = re.search(r"footprint, last \S+ \(([0-9.]+)([KMG])-([0-9.]+)([KMG])\): (\S+)", text)
fp = re.search(r"footprint ([0-9.]+) (KiB|MiB|GiB)", text)
want("footprint sparkline", sp and fp and sp.group(4) == fp.group(2)[0] and
     abs(float(sp.group(3)) - float(fp.group(1))) <= 0.05 * float(fp.group(1)) and
     set(sp.group(5)) <= set("▁▂▃▄▅▆▇█"))
if not ok:
    print("\n".join(rows)); print("system:", facts)
sys.exit(0 if ok else 1)
EOP
# box NAME PID ROWS: ROWS the least rows the command takes
box() { facts "$2" >"$T/facts.$2" && screen "$1" | python3 "$T/box.py" "$2" "$T/facts.$2" "$3"; }
wait_box() { wait_for "the details box of $2" 20 box "$@" || box "$@"; }
no_box() { ! screen "$1" | grep -q "process $2 " && screen "$1" | grep -q 'PID'; }

start_pane t 80 24 "TZ=UTC NO_COLOR=1 '$STAGETOP' -p $job --interval 0.2"
check "the list: 31 processes, more than its rows" wait_screen t 20 'rows 1-.* of 31'
key() { tm send-keys -t "$1" "$2"; }
key t Enter
check "Enter on the root (selected first): its box says what the system says (pid, parent, start, the long command wrapped)" \
    wait_box t "$job" 2
key t Escape
check "Esc closes the box: the list is back" until_ok 20 no_box t "$job"
# the last sleep of the first shell: searched for by pid, then its box
key t /
for c in $(echo "$sleeper" | sed 's/./& /g'); do key t "$c"; done
key t Enter
sel_is() { tm capture-pane -p -e -t t | grep -q "$(printf '\033\\[7m') *$sleeper "; }
not_sel() { tm capture-pane -p -e -t t | grep -q "$(printf '\033\\[7m') *[0-9]" && ! sel_is; }
check "search by pid: the sleep $sleeper is selected (reverse video)" until_ok 20 sel_is
key t Enter
check "Enter on it: its box says what /proc says (parent: its shell $sub)" wait_box t "$sleeper" 1
key t Enter
check "Enter closes the box" until_ok 20 no_box t "$sleeper"
# Up, not Down: the sleep may be the list's last row (the three shells fork
# their sleeps at once, so the first shell's last sleep can have the highest
# pid of all), where Down stays; the root's row is always above it.
key t Up
check "Up once it is closed: the list's again (the selection leaves $sleeper)" until_ok 20 not_sel
key t '?'
help_ok() { screen t | grep -q 'Enter  details of the selected process' && screen t | grep -q 'any key closes this help'; }
check "?: the help lists Enter, and it fits at 80x24 (its last line shows)" until_ok 20 help_ok
key t q
