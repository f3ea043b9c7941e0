#!/bin/sh
# bench/before_after.sh REV [ROUNDS]: the same benchmarks on REV (built in a
# temporary git worktree) and on this checkout, taken in turns in one run
# (before, after, after, before, ...), so the machine's load falls on both
# alike.  It is what docs/performance.md's "before and after" tables come
# from; it is not part of `make bench` (it builds a second tree).
#   sampling  CPU per sample of a held tree of 1, 10 and 100 processes
#             (bench/sampling_bench's median of 5 rounds)
#   frame     CPU time of draw + doupdate, 200x60 colour, median of 300 frames
#             (bench/tui_frame)
#   trace     CPU of export, import, record and JSONL import of 1,000,000
#             samples (bench/trace-bench)
#   summary   peak RSS of `stagetop summary` on 1,000,000 JSONL samples
# Prints each figure's median over ROUNDS (default 5) with its range, and
# after / before.  Needs git, python3 and GNU time (/usr/bin/time -f: the
# summary row is left empty without it).  Linux: the sampling and frame
# benchmarks read /proc.  No assertions.
set -u
REV=${1:?usage: bench/before_after.sh REV [ROUNDS]}
ROUNDS=${2:-5}
HERE=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/st-before-after.XXXXXX")
HOLDPID=""
cleanup() {
    for fd in 4 5 6; do eval "exec $fd>&-" 2>/dev/null; done
    wait 2>/dev/null
    git -C "$HERE" worktree remove --force "$tmp/before" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

TARGETS="stagetop build/bench/trace-bench build/bench/tui_frame build/bench/sampling_bench build/workloads/holdmem"
git -C "$HERE" worktree add --detach -q "$tmp/before" "$REV" || exit 1
for d in "$tmp/before" "$HERE"; do
    (cd "$d" && make -s $TARGETS >/dev/null) || { echo "before_after: cannot build in $d"; exit 1; }
done
. "$HERE/bench/holdmem.sh"
python3 "$HERE/tests/tools/big_jsonl.py" "$tmp/big.jsonl"

# held trees (this checkout's holdmem: the same tree for both sides)
hold() { # FD NAME ARGS...: sets $pid
    fd=$1 name=$2; shift 2
    mkfifo "$tmp/$name.in"
    "$HERE/build/workloads/holdmem" "$@" <"$tmp/$name.in" >"$tmp/$name.out" &
    eval "exec $fd>\"$tmp/$name.in\""
    pid=$(holdmem_ready "$tmp/$name.out") || exit 1
}
hold 4 t1 --mib 16; P1=$pid
hold 5 t10 --children 9 --child-mib 1; P10=$pid
hold 6 t100 --children 99 --child-mib 1; P100=$pid

# one round of one side: "figure value" lines appended to $tmp/SIDE
measure() { # SIDE DIR
    out=$tmp/res.$1
    for p in 1 10 100; do
        eval "pp=\$P$p"
        echo "sampling_${p}_us $("$2/build/bench/sampling_bench" stagetop "$pp" | awk '{print $2}')" >>"$out"
    done
    TERM=xterm-256color "$2/build/bench/tui_frame" 200 60 300 color 2>/dev/null |
        awk '/CPU time of draw/ { print "frame_cpu_ms", $(NF - 7) }' >>"$out"
    mkdir -p "$tmp/tr"
    "$2/build/bench/trace-bench" "$tmp/tr" 1000000 |
        awk '$1 ~ /^(export|import|record|import_jsonl)_cpu$/ { print $1 "_s", $2 }' >>"$out"
    rm -rf "$tmp/tr"
    /usr/bin/time -f '%M' -o "$tmp/t" "$2/stagetop" summary "$tmp/big.jsonl" >/dev/null 2>&1 &&
        echo "summary_rss_mb $(awk '{ printf "%.1f", $1 * 1024 / 1e6 }' "$tmp/t")" >>"$out"
}

r=1
while [ $r -le "$ROUNDS" ]; do
    if [ $((r % 2)) -eq 1 ]; then
        measure before "$tmp/before"; measure after "$HERE"
    else
        measure after "$HERE"; measure before "$tmp/before"
    fi
    echo "round $r of $ROUNDS done" >&2
    r=$((r + 1))
done

echo "before: $REV ($(git -C "$HERE" log -1 --format=%h "$REV")); after: $(git -C "$HERE" describe --always --dirty)"
echo "($(uname -sr), $(nproc 2>/dev/null || echo ?) CPUs, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?));" \
     "median (min-max) of $ROUNDS rounds each, taken in turns"
printf '%-22s %24s %24s %8s\n' figure before after after/before
for f in sampling_1_us sampling_10_us sampling_100_us frame_cpu_ms export_cpu_s import_cpu_s \
         record_cpu_s import_jsonl_cpu_s summary_rss_mb; do
    stat() { awk -v f="$f" '$1 == f { print $2 }' "$tmp/res.$1" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) printf "%s %s %s\n", v[int((NR + 1) / 2)], v[1], v[NR]; else print "nan nan nan" }'; }
    set -- $(stat before) $(stat after)
    printf '%-22s %24s %24s %8s\n' "$f" "$1 ($2-$3)" "$4 ($5-$6)" \
        "$(awk -v a="$1" -v b="$4" 'BEGIN { if (a + 0 > 0) printf "%.2fx", b / a; else print "n/a" }')"
done
