#!/bin/sh
# The process list's keys end to end, in tmux at 80x24, on a real job with
# more processes than rows: a shell that starts 3 shells of 9 sleeps each
# (31 processes).  Up/Down, PgUp/PgDn, Home/End move the selection (the
# reverse-video row) and scroll (the title's "rows A-B of 31"), the root's
# row staying first; < > I M P sort (pid order checked against the pids the
# test started); t the tree (each shell's sleeps under it); \ filters, /
# searches, F3 finds the next match, Esc clears the filter; --sort and
# --tree start that way; --ascii draws the tree in ASCII; a member whose
# parent exited is shown under the root, marked (orphan).
set -u
. "$(dirname "$0")/tui_common.inc"

cat >"$T/sub.sh" <<'EOF'
for j in 1 2 3 4 5 6 7 8 9; do sleep 600 & done
wait
EOF
cat >"$T/job.sh" <<EOF
for i in 1 2 3; do sh '$T/sub.sh' & done
wait
EOF
count_of() { [ "$(descendants "$1" | wc -l)" -eq "$2" ]; }
sh "$T/job.sh" </dev/null >/dev/null 2>&1 &
job=$!
remember_job $job
until_ok 20 count_of $job 31
subs=$(proc_children $job | tr '\n' ' ')
sleeps=$(for s in $subs; do proc_children "$s"; done | sort -n | tr '\n' ' ')
pylist() { echo "[$(echo $* | sed 's/ /, /g')]"; }
# What the test knows of the job, for the conditions below.
KNOWN="root = $job; subs = $(pylist $subs); sleeps = $(pylist $sleeps); \
kids = {s: [] for s in subs}"
for s in $subs; do KNOWN="$KNOWN; kids[$s] = $(pylist $(proc_children "$s"))"; done

# The list as the screen shows it (capture-pane -e: the selected row is in
# reverse video): header (the column titles and the list's title), rows
# (pids, top to bottom), cmds (their command text, tree glyphs included),
# tags (what tells each apart: "[NAME]" its own name, "#N" its start order),
# fps (their footprints in bytes), sel (the selected row's pid), status (the
# last line).  Exits 0 when the python condition holds.
cat >"$T/table.py" <<'EOF'
import re, sys
raw = sys.stdin.read()
lines, cur, rev = [], [], False
i = 0
while i < len(raw):  # text and each character's reverse-video state
    m = re.match(r"\x1b\[([0-9;]*)m", raw[i:])
    if m:
        for p in (m.group(1) or "0").split(";"):
            if p in ("0", ""): rev = False
            elif p == "7": rev = True
            elif p == "27": rev = False
        i += m.end()
        continue
    if raw[i] == "\x1b":
        i += 1
        continue
    if raw[i] == "\n":
        lines.append(cur); cur = []
    else:
        cur.append((raw[i], rev))
    i += 1
lines.append(cur)
text = ["".join(c for c, _ in l) for l in lines]
while text and not text[-1].strip():
    text.pop()
unit = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
header, rows, cmds, fps, tags, sel = "", [], [], [], [], None
for n, t in enumerate(text):
    if re.match(r"^ *PID", t):
        header = t
        continue
    m = re.match(r"^ *(\d+) +([0-9.]+) (B|KiB|MiB|GiB) +[0-9.]+ \S+ +[0-9.]+ \S+ +\S \s+\S+ +\S+  (.*)$", t)
    if header and m:
        rows.append(int(m.group(1)))
        fps.append(float(m.group(2)) * unit[m.group(3)])
        # what tells siblings apart ("[NAME] ", "#N ") is in tags, not cmds
        g = re.match(r"^([^\[#(A-Za-z0-9/]*(?:\(orphan\) )?)((?:\[[^\]]*\] )?(?:#\d+ )?)(.*)$", m.group(4))
        cmds.append(g.group(1) + g.group(3))
        tags.append(g.group(2).strip())
        if lines[n][t.index(m.group(1))][1]:
            sel = int(m.group(1))
status = text[-1] if text else ""
exec(sys.argv[2])
ok = eval(sys.argv[1])
if not ok:
    print("header:", header); print("rows:", rows); print("sel:", sel); print("status:", status)
    print("cmds:", cmds); print("tags:", tags)
sys.exit(0 if ok else 1)
EOF
table() { tm capture-pane -p -e -t "$1" | python3 "$T/table.py" "$2" "$KNOWN"; }
# wait_table NAME CONDITION: until the screen's list satisfies it.
wait_table() { wait_for "$2" 20 table "$1" "$2" || table "$1" "$2"; }
key() { tm send-keys -t "$1" "$2"; }
nonroot="sorted(subs + sleeps)"
title="re.search(r'rows (\d+)-(\d+) of 31', header)"
first() { echo "int($title.group(1))"; }

# NO_COLOR: the header bar and the selection are both plain reverse video
start_pane t 80 24 "NO_COLOR=1 '$STAGETOP' -p $job --interval 0.2"

# --- 80x24: the root, the count, the selection ---------------------------------
check "80x24: the title says rows 1-K of 31, K the rows shown" \
    wait_table t "$title and $(first) == 1 and int($title.group(2)) == len(rows) < 31"
check "80x24: the root's row is first, and selected" wait_table t "rows[0] == root and sel == root"
key t Down
check "Down: the selection moves to the second row" wait_table t "len(rows) > 3 and sel == rows[1]"
key t Down
check "Down again: the third row" wait_table t "sel == rows[2]"
key t Up
check "Up: back to the second row" wait_table t "sel == rows[1]"
for i in 1 2 3 4 5 6 7 8 9 10; do key t Down; done
check "Down past the bottom: the list scrolls (rows A-B with A > 1), the root stays first" \
    wait_table t "$title and $(first) > 1 and rows[0] == root and sel == rows[-1]"
key t End
check "End: the last of 31 rows is selected and shown" \
    wait_table t "$title and $title.group(2) == '31' and sel == rows[-1] and rows[0] == root"
key t PPage
check "PgUp: a page up (rows A-B, B < 31), the selection at the top of the scrolled rows" \
    wait_table t "$title and int($title.group(2)) < 31 and $(first) > 1 and sel == rows[1]"
key t NPage
check "PgDn: a page down, to the last row again" \
    wait_table t "$title and $title.group(2) == '31' and sel == rows[-1]"
key t Home
check "Home: back to rows 1-K, the root selected" wait_table t "$title and $(first) == 1 and sel == root"

# --- sort ------------------------------------------------------------------------
check "the default sort: footprint, largest first (the header's arrow)" \
    wait_table t "'FOOTPRINT▼' in header and fps[1:] == sorted(fps[1:], reverse=True)"
key t '<'
check "<: sorted by pid, ascending: the smallest pids the test started, root first" \
    wait_table t "'PID▲' in header and rows == [root] + ${nonroot}[:len(rows) - 1]"
key t I
check "I: inverted: the largest pids first" \
    wait_table t "'PID▼' in header and rows == [root] + ${nonroot}[::-1][:len(rows) - 1]"
key t I
check "I again: ascending again" wait_table t "'PID▲' in header and rows == [root] + ${nonroot}[:len(rows) - 1]"
key t Down; key t Down; key t Down
check "Down 3 times: the third smallest pid the test started is selected" \
    wait_table t "sel == ${nonroot}[2] and rows[3] == sel"
key t I
check "I: the selection follows its process to the end of the list (it scrolls there)" \
    wait_table t "'PID▼' in header and sel == ${nonroot}[2] and sel in rows and $(first) > 1"
key t Home
key t '>'
check ">: the next column (footprint, largest first again)" \
    wait_table t "'FOOTPRINT▼' in header and 'PID▼' not in header"
key t P
check "P: sorted by CPU" wait_table t "'CPU%▼' in header and 'FOOTPRINT▼' not in header"
check "P: the job is not paused" until_ok 5 tree_running $job
check "P: the header still says RUNNING" wait_screen t 5 '^\[RUNNING\]'
key t M
check "M: sorted by footprint, no mark prompt" \
    wait_table t "'FOOTPRINT▼' in header and 'mark label' not in status"

# --- tree ------------------------------------------------------------------------
key t '<'
key t t
check "t: the tree: the first shell under the root, its sleeps under it (pid order)" \
    wait_table t "'PID▲' in header and rows[:2] == [root, subs[0]] and cmds[1].startswith('├─ sh') and \
rows[2:] == kids[subs[0]][:len(rows) - 2] and all(c.startswith('│  ├─ sleep') for c in cmds[2:])"
check "t: siblings of one command numbered in start order (#1 #2 ... each shell's sleeps, the shells)" \
    wait_table t "tags[1] == '#1' and tags[2:] == ['#%d' % (i + 1) for i in range(len(rows) - 2)] and tags[0] == ''"
key t End
check "t, End: the last shell's last sleep ends the tree (└─)" \
    wait_table t "rows[-1] == kids[subs[-1]][-1] and cmds[-1].startswith('   └─ sleep') and \
cmds[-2].startswith('   ├─ sleep')"
key t t
check "t again: the sorted list (no glyphs)" \
    wait_table t "not any('─' in c for c in cmds) and rows[1:] == [p for p in $nonroot if p in rows]"
key t Home

# --- filter, search ----------------------------------------------------------------
tm send-keys -t t -l '\sub.sh'
check "\\: the filter prompt" wait_screen t 5 'filter by command or pid.*sub.sh_'
key t Enter
check "\\ sub.sh: only the root and the 3 shells, the title says a filter is on" \
    wait_table t "sorted(rows) == sorted([root] + subs) and 'filter' in header"
key t Escape
check "Esc: the filter is cleared, every row again" \
    wait_table t "'filter' not in header and $title and len(rows) > 4"
x=$(echo $sleeps | awk '{print $12}')
tm send-keys -t t -l "\\$x"
key t Enter
check "\\ PID: only that process (and the root)" wait_table t "rows == [root, $x] and 'filter' in header"
tm send-keys -t t -l '\'
key t Escape
check "\\ then Esc: the filter is cleared" wait_table t "'filter' not in header and $title and len(rows) > 4"
# a sleep far down the list in pid order (the 16th of 30 or after)
y=$(echo $subs $sleeps | tr ' ' '\n' | sort -n | sed -n '16,$p' | while read -r p; do
    case " $sleeps " in *" $p "*) echo "$p"; break ;; esac; done)
key t /
tm send-keys -t t -l "$y"
check "/ PID: the selection goes to that process, the list scrolls to it" \
    wait_table t "sel == $y and $title and $(first) > 1 and 'search' in status"
key t Enter
tm send-keys -t t -l "/sleep"
check "/ sleep: the selected sleep matches: the selection stays" \
    wait_table t "sel == $y and $title and 'search' in status and 'sleep_' in status"
key t F3
check "F3 in the prompt: the next sleep in the list is selected" \
    wait_table t "sel == [p for p in $nonroot if p in sleeps and p > $y][0]"
key t Enter
key t F3
check "F3 after it: the one after" \
    wait_table t "sel == [p for p in $nonroot if p in sleeps and p > $y][1] and 'search' not in status"
tm send-keys -t t -l "/$job"
check "/ ROOT: the root is selected" wait_table t "sel == root and 'search' in status"
key t Escape
check "Esc closes the search, the selection stays" wait_table t "sel == root and 'search' not in status"

# --- q --------------------------------------------------------------------------------
key t q
check "q: stagetop exits 0" wait_screen t 10 "stagetop-exit=0"

# --- --sort, --tree, --ascii; orphans under the root ------------------------------------
start_pane s 80 24 "NO_COLOR=1 '$STAGETOP' -p $job --interval 0.2 --sort pid"
check "--sort pid: the screen starts sorted by pid" \
    wait_table s "'PID▲' in header and rows == [root] + ${nonroot}[:len(rows) - 1]"
key s q
wait_screen s 10 "stagetop-exit=" >/dev/null
check "--sort nosuch: refused (exit 2), the columns named" \
    sh -c "'$STAGETOP' --sort nosuch -p $job >'$T/bad' 2>&1; [ \$? -eq 2 ] && grep -q \"unknown column 'nosuch' (pid, footprint\" '$T/bad'"
check "--tree with --headless: refused (exit 2)" \
    sh -c "'$STAGETOP' --tree --headless -p $job >'$T/bad' 2>&1; [ \$? -eq 2 ] && grep -q 'not with --headless' '$T/bad'"

# tall enough for all 31 rows: the orphans are the root's last children
start_pane a 100 100 "NO_COLOR=1 '$STAGETOP' --tree --sort pid --ascii --interval 0.2 -- sh '$T/job.sh'"
launched() { _st=$(stagetop_pid a) && [ -n "$_st" ] && _r=$(proc_child_named "$_st" sh) && [ -n "$_r" ] &&
    count_of "$_r" 31; }
check "--tree: a launched job of 31 processes" until_ok 20 launched
st=$(stagetop_pid a)
r2=$(proc_child_named "$st" sh)
s2=$(proc_children "$r2" | head -1)
gone_kids=$(proc_children "$s2" | tr '\n' ' ')
KNOWN="$KNOWN; r2 = $r2; s2 = $s2; orphans = $(pylist $gone_kids)"
check "--tree --ascii: starts as the tree in ASCII (|- and |  |-)" \
    wait_table a "rows[:2] == [r2, s2] and cmds[1].startswith('|- sh') and cmds[2].startswith('|  |- sleep')"
kill -KILL "$s2"
# re-parented: to stagetop where it is the job's subreaper (Linux), else to init
reparented() { _pp=$(proc_parent "$(echo $gone_kids | cut -d' ' -f1)") && [ -n "$_pp" ] && [ "$_pp" != "$s2" ]; }
until_ok 10 reparented || echo "FAIL: a killed shell's sleeps were not re-parented"
check "orphans: under the root, marked (orphan)" \
    wait_table a "s2 not in rows and [p for p, c in zip(rows, cmds) if '(orphan)' in c] == \
[p for p in orphans if p in rows] and len([p for p in orphans if p in rows]) > 0 and \
all(c[:12] in ('|- (orphan) ', '\`- (orphan) ') for p, c in zip(rows, cmds) if p in orphans)"
key a k
wait_screen a 5 '\[y/n\]' >/dev/null
key a y
wait_screen a 15 '^\[EXITED' >/dev/null
key a q
check "q after the launched job ended: exit 0" wait_screen a 15 "stagetop-exit=0"
