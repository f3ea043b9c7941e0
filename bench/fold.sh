#!/bin/sh
# Folding diff and summary --text: `stagetop diff A B` of two generated
# records (bench/gen_record.py: 40 stages, loads, marks, releases) and
# `stagetop summary --text A`, against the same commands with every sample
# loaded (fold-bench, the way they read before: st_trace_load_file), same
# files, same run: best wall and CPU time of 3 and the peak RSS of each
# process (GNU time's; n/a without it),
# at each size in SIZES (default 100k and 1M samples; docs/performance.md
# quotes "100000 1000000 10000000"), and that both wrote the same bytes.
#   sh bench/fold.sh BUILD_DIR [SIZES]        (called by `make bench`)
# Goals: 2 x 1M samples compared in < 32 MiB and no slower than the whole
# load (CPU: wall follows the machine's load); the peak flat from 100k to
# 10M samples.
set -u
B=${1:-build}
SIZES=${2:-100000 1000000}
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || ST=./stagetop
PEER="$B/bench/fold-bench"
[ -x "$PEER" ] || { echo "fold bench: $PEER not built (make $PEER)"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "fold bench: skipped (no python3)"; exit 0; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/st-fold-bench.XXXXXX"); trap 'rm -rf "$dir"' EXIT
# measure OUT CMD...: "wall_s cpu_s peak_kib" of 3 runs (the best wall and
# CPU, user + system; the largest peak RSS), by GNU time (the process's own
# "Maximum resident set size"; without it wall only, 0 0); stdout to OUT.
TIME=/usr/bin/time
"$TIME" -f %M -o "$dir/tm" true 2>/dev/null || TIME=""
measure() {
    out=$1; shift; best="" cpu="" peak=0
    for _ in 1 2 3; do
        s=$(date +%s%N)
        if [ -n "$TIME" ]; then
            "$TIME" -f '%U %S %M' -o "$dir/tm" "$@" >"$out" || { echo "fail fail fail"; return; }
        else
            "$@" >"$out" || { echo "fail fail fail"; return; }
            echo 0 0 0 >"$dir/tm"
        fi
        w=$(awk -v s="$s" -v e="$(date +%s%N)" 'BEGIN { printf "%.3f", (e - s) / 1e9 }')
        read -r u y k <"$dir/tm"
        c=$(awk -v u="$u" -v y="$y" 'BEGIN { printf "%.2f", u + y }')
        best=$(awk -v a="$best" -v b="$w" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
        cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
        [ "$k" -gt "$peak" ] && peak=$k
    done
    echo "$best $cpu $peak"
}
mib() { awk -v k="$1" 'BEGIN { if (k + 0 > 0) printf "%.1f MiB", k / 1024; else print "n/a" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "fold bench: diff of two records and summary --text of one, folded (stagetop) against"
echo "every sample loaded (fold-bench, the old way): best wall and CPU (user+sys) of 3, peak RSS"
echo "($(uname -sr), $(nproc 2>/dev/null || echo ?) CPUs, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?))"
printf '%-18s %9s %8s %7s %10s %8s %7s %10s %7s %7s %4s\n' operation samples wall CPU peak "old wall" "old CPU" "old peak" "mem n/o" "CPU n/o" same
status=0 first="" last=""
for n in $SIZES; do
    python3 bench/gen_record.py "$dir/a.jsonl" "$n" 40 1 && python3 bench/gen_record.py "$dir/b.jsonl" "$n" 40 2 ||
        { echo "fold bench: cannot write the records"; exit 1; }
    for op in diff text; do
        if [ $op = diff ]; then
            set -- "$ST" diff "$dir/a.jsonl" "$dir/b.jsonl"; label="diff A B"
            new=$(measure "$dir/new.out" "$@")
            old=$(measure "$dir/old.out" "$PEER" diff "$dir/a.jsonl" "$dir/b.jsonl")
        else
            label="summary --text"
            new=$(measure "$dir/new.out" "$ST" summary --text "$dir/a.jsonl")
            old=$(measure "$dir/old.out" "$PEER" text "$dir/a.jsonl")
        fi
        same=no; cmp -s "$dir/new.out" "$dir/old.out" && same=yes
        [ $same = yes ] || status=1
        set -- $new; nw=$1 nc=$2 nk=$3
        set -- $old; ow=$1 oc=$2 ok=$3
        printf '%-18s %9s %7ss %6ss %10s %7ss %6ss %10s %7s %7s %4s\n' "$label" "$n" "$nw" "$nc" "$(mib "$nk")" \
            "$ow" "$oc" "$(mib "$ok")" "$(ratio "$nk" "$ok")" "$(ratio "$nc" "$oc")" "$same"
        [ $op = diff ] && { [ -n "$first" ] || first=$nk; last=$nk; }
    done
    rm -f "$dir/a.jsonl" "$dir/b.jsonl"
done
echo "diff's peak from $(echo "$SIZES" | awk '{ print $1 }') to $(echo "$SIZES" | awk '{ print $NF }') samples:" \
     "$(mib "$first") -> $(mib "$last") (x$(ratio "$last" "$first"))"
[ $status = 0 ] || echo "fold bench: the folded output differs from the whole load's"
exit $status
