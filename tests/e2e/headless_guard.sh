#!/bin/sh
# Headless mode's first lines say every armed budget, and warn when one
# cannot act: no swap configured for --swap-budget; a --kill-free level
# already crossed at the start.  Without a budget nothing is said.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1 # the jobs' logs stay out of the checkout

no_swap=0
[ "$(awk 'NR > 1' /proc/swaps 2>/dev/null | wc -l)" -eq 0 ] && no_swap=1

"$STAGETOP" --headless -i 0.2 --swap-budget 100M -- sh -c 'exit 0' 2>"$T/swap.err"
# The opening lines: where the job runs (its cgroup, docs/metrics.md), then
# the guard; nothing of the run comes before them.
first() { head -2 "$1" | grep -q -- "$2"; }
check "--swap-budget: the first line says the armed budget and the action" \
    first "$T/swap.err" "^stagetop: guard armed: --swap-budget 100 MiB (then kill the job)$"
if [ $no_swap = 1 ]; then
    second() { awk '/guard armed:/ {getline; print; exit}' "$1" | grep -q -- "$2"; }
    check "no swap: the next line warns that it cannot trigger" \
        second "$T/swap.err" "^stagetop: warning: --swap-budget cannot trigger: no swap is configured$"
else
    skip "no-swap warning" "this machine has swap configured"
fi

"$STAGETOP" --headless -i 0.2 --swap-budget 1G --kill-free 5 --on-budget pause -- sh -c 'exit 0' \
    2>"$T/both.err"
check "both budgets on the first line, with the chosen action" \
    first "$T/both.err" "^stagetop: guard armed: --swap-budget 1.00 GiB, --kill-free 5.0% (then pause the job)$"

level=$(awk '/MemTotal/ {t = $2} /MemAvailable/ {a = $2} END {printf "%d", 100 * a / t}' /proc/meminfo)
if [ "$level" -lt 99 ]; then
    "$STAGETOP" --headless -i 0.2 --kill-free 99.9 -- sleep 30 2>"$T/level.err"
    rc=$?
    crossed() { grep -q -- "^stagetop: warning: --kill-free 99.9% is crossed at the start (level [0-9.]*%)$" "$1"; }
    check "--kill-free over the level: warned before the guard acts" crossed "$T/level.err"
    order() { awk '/is crossed at the start/ {w = NR} /under 99.90% twice/ {g = NR} END {exit !(w && g && w < g)}' "$1"; }
    check "--kill-free over the level: the warning comes before the guard's line" order "$T/level.err"
    check "--kill-free over the level: the guard stopped the job (exit 3)" [ "$rc" -eq 3 ]
else
    skip "--kill-free crossed at the start" "the memory level here is $level% (needs < 99%)"
fi

"$STAGETOP" --headless -i 0.2 -- sh -c 'exit 0' 2>"$T/none.err"
nothing() { ! grep -Eq "guard armed|warning:" "$1"; }
check "no budget: no guard line" nothing "$T/none.err"
