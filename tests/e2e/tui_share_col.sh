#!/bin/sh
# The process list's ALONE/SHARED column (docs/screen.md): what each member
# held alone and shared (smaps_rollup's Private_* and Shared_*) at the
# tree's last proportional read, "-" where it was not read.
#   F  a parent writes 64 MiB of random bytes and forks 3 children that
#      sleep; `stagetop -p` of it, 130 columns: every member's row shows
#      alone/shared, the shared part at least the 64 MiB, both within 5 % +
#      2 MiB of what this test reads itself from /proc/PID/smaps_rollup;
#   L  a lone process without shared memory is never read: "-";
#   N  120 columns: no room, no column (the list keeps 45 columns of command).
set -u
. "$(dirname "$0")/tui_common.inc"

cat >"$T/w.py" <<PY
import os, sys, time
b = bytearray(os.urandom(64 << 20))
kids = []
for i in range(int(sys.argv[1])):
    p = os.fork()
    if p == 0:
        time.sleep(300); os._exit(0)
    kids.append(p)
open(sys.argv[2] + ".t", "w").write(" ".join(map(str, kids)) + "\n")
os.rename(sys.argv[2] + ".t", sys.argv[2])
time.sleep(300)
PY
python3 "$T/w.py" 3 "$T/fork" &
root=$!
remember_job $root
python3 "$T/w.py" 0 "$T/lone" &
lone=$!
remember_job $lone
wait_for "the forked tree is ready" 60 test -s "$T/fork"
wait_for "the lone process is ready" 60 test -e "$T/lone"
kids=$(cat "$T/fork")

# own PID: "ALONE SHARED" bytes, Private_* and Shared_* of smaps_rollup
own() {
    awk '/^Private_(Clean|Dirty):/ { a += $2 } /^Shared_(Clean|Dirty):/ { s += $2 }
         END { printf "%.0f %.0f\n", a * 1024, s * 1024 }' "/proc/$1/smaps_rollup"
}
# cell NAME PID: that row's alone/shared cell in bytes ("A S"), "-" when the
# row shows "-", nothing when the row is not on the screen
cell() {
    screen "$1" | awk -v pid="$2" '$1 == pid' | python3 -c '
import re, sys
t = sys.stdin.read()
m = re.search(r"([0-9.]+) (B|KiB|MiB|GiB)/([0-9.]+) (B|KiB|MiB|GiB)", t)
u = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
if m:
    print(round(float(m.group(1)) * u[m.group(2)]), round(float(m.group(3)) * u[m.group(4)]))
elif re.search(r"B +- +[A-Z] ", t):
    print("-")'
}
all_read() { for _p in $root $kids; do cell F $_p | grep -q '^[0-9]' || return 1; done; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * 0.05 + 2097152) }'; }

# --- F: a forked tree -------------------------------------------------------------
start_pane F 130 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $root"
check "F: the list has the ALONE/SHARED column" wait_screen F 30 "ALONE/SHARED"
check "F: every member's row shows alone/shared" until_ok 30 all_read
screen F | grep -E "ALONE/SHARED|^ *($(echo $root $kids | tr ' ' '|')) " | sed 's/^/    | /'
for p in $root $kids; do
    set -- $(cell F $p) ; shown_a=${1:--999999999} shown_s=${2:-0}
    set -- $(own $p) ; my_a=$1 my_s=$2
    echo "    pid $p: screen alone $shown_a shared $shown_s; smaps_rollup alone $my_a shared $my_s"
    check "F: pid $p shares the 64 MiB (shared >= 64 MiB)" [ "$shown_s" -ge 67108864 ]
    check "F: pid $p's shared is its smaps_rollup's Shared_* (5 % + 2 MiB)" near "$shown_s" "$my_s"
    check "F: pid $p's alone is its smaps_rollup's Private_* (5 % + 2 MiB)" near "$shown_a" "$my_a"
done

# --- L: a lone process -------------------------------------------------------------
start_pane L 130 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $lone"
check "L: the list has the column" wait_screen L 30 "ALONE/SHARED"
check "L: its row shows the footprint (64 MiB and the interpreter)" wait_screen L 30 "^ *$lone  *[67][0-9]\.[0-9] MiB"
check "L: a lone process is not read: '-'" [ "$(cell L $lone)" = "-" ]

# --- N: a narrow screen ---------------------------------------------------------------
start_pane N 120 30 "'$STAGETOP' --no-gpu --interval 0.2 -p $root"
check "N: the list is drawn" wait_screen N 30 "FOOTPRINT"
check "N: 120 columns: no ALONE/SHARED" sh -c "! tmux -L '$TM_SOCK' capture-pane -p -t N | grep -q 'ALONE/SHARED'"
