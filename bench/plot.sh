#!/bin/sh
# Plot cost on a 1,000,000-sample stageload trace: `summary` (read the trace)
# against `plot` (read it and draw the SVG), same file, same run, best of 3.
# The difference is what drawing costs; the SVG's size is printed too.
# Then plot's memory (docs/performance.md "Plot and report in bounded
# memory"): peak RSS and CPU time of `plot FILE` (read twice, per pixel column)
# against `plot - <FILE` (stdin: read once, every sample kept, as plot read
# every trace before), as ratios, with the two SVGs compared; and `plot
# FILE` of 100,000 against 1,000,000 samples (flat: a ratio near 1); and
# `plot A B` of two such records against the same read from two FIFOs.
set -u
B=${1:-${ST_BUILD:-build}}
if [ -x "${STAGETOP:-}" ] && "$STAGETOP" --help 2>&1 | grep -q 'plot FILE'; then
    SUM="$STAGETOP summary" PLOT="$STAGETOP plot"
elif [ -x "$B/tools/plot-svg" ] && [ -x "$B/tools/trace-summary" ]; then
    SUM="$B/tools/trace-summary" PLOT="$B/tools/plot-svg"
else
    echo "plot bench: skipped (build $B/tools/plot-svg and $B/tools/trace-summary)"; exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "plot bench: skipped (no python3)"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen() { # FILE N
    python3 "$(dirname "$0")/gen_spike.py" "$1" "$2" 1 stageload
}
gen "$tmp/big.jsonl" 1000000
best() { # command...: best wall time of 3 runs, in ms
    b=""
    for _ in 1 2 3; do
        s=$(date +%s%N); "$@" >/dev/null 2>&1 || { echo "fail"; return; }; e=$(date +%s%N)
        t=$(( (e - s) / 1000000 )); [ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
    done
    echo "$b"
}
s=$(best $SUM "$tmp/big.jsonl")
p=$(best $PLOT "$tmp/big.jsonl" -o "$tmp/big.svg")
size=$(wc -c <"$tmp/big.svg" 2>/dev/null || echo 0)
echo "plot_1M_samples: summary ${s} ms, plot ${p} ms (plot minus summary: $((p - s)) ms), svg ${size} bytes"

case "$PLOT" in *plot-svg) echo "plot_memory: skipped (needs \$STAGETOP with plot)"; exit 0 ;; esac
gen "$tmp/small.jsonl" 100000
# peak STDIN COMMAND...: "KB MS" of one run: its peak RSS and CPU time
# (user + system: the machine's load blurs wall time), by /usr/bin/time:
# GNU's -f, or BSD's -l (bytes; "real user sys" on its first line).
if /usr/bin/time -f %M true >/dev/null 2>&1; then TIMEFMT=gnu
elif /usr/bin/time -l true >/dev/null 2>&1; then TIMEFMT=bsd
else echo "plot_memory: skipped (no /usr/bin/time)"; exit 0; fi
peak() {
    in=$1; shift
    if [ $TIMEFMT = gnu ]; then
        /usr/bin/time -o "$tmp/rss" -f '%M %U %S' "$@" <"$in" >/dev/null 2>&1 || { echo fail; return; }
        tail -1 "$tmp/rss" | awk '{printf "%d %d\n", $1, ($2 + $3) * 1000}'
    else
        /usr/bin/time -l "$@" <"$in" >/dev/null 2>"$tmp/rss" || { echo fail; return; }
        awk '/real/ && /user/ {ms = ($3 + $5) * 1000} /maximum resident/ {kb = $1 / 1024}
             END {printf "%d %d\n", kb, ms}' "$tmp/rss"
    fi
}
bestpeak() { # like best: the lowest RSS and time of 3 runs
    bk="" bt=""
    for _ in 1 2 3; do
        set -- $(peak "$@"); [ "$1" = fail ] && { echo "fail"; return; }
        [ -z "$bk" ] || [ "$1" -lt "$bk" ] && bk=$1; [ -z "$bt" ] || [ "$2" -lt "$bt" ] && bt=$2
        set -- "$PEAK_IN" $PEAK_CMD
    done
    echo "$bk $bt"
}
run_peak() { # IN OUT ARG: bestpeak of $STAGETOP plot ARG -o OUT with stdin IN
    PEAK_IN=$1 PEAK_CMD="$STAGETOP plot $3 -o $2"
    bestpeak "$PEAK_IN" $PEAK_CMD
}
set -- $(run_peak "$tmp/big.jsonl" "$tmp/file.svg" "$tmp/big.jsonl"); fk=$1 ft=$2
set -- $(run_peak "$tmp/big.jsonl" "$tmp/pipe.svg" -); pk=$1 pt=$2
set -- $(run_peak "$tmp/small.jsonl" "$tmp/small.svg" "$tmp/small.jsonl"); sk=$1
same=differ; cmp -s "$tmp/file.svg" "$tmp/pipe.svg" && same=identical
awk -v fk="$fk" -v ft="$ft" -v pk="$pk" -v pt="$pt" -v sk="$sk" -v same="$same" 'BEGIN {
    printf "plot_memory_1M: plot FILE %.1f MB %d ms CPU, plot - (whole) %.1f MB %d ms CPU: memory ratio %.3f, CPU ratio %.2f, SVGs %s\n",
        fk / 1024, ft, pk / 1024, pt, fk / pk, ft / pt, same
    printf "plot_memory_flat: plot FILE 100k samples %.1f MB, 1M %.1f MB: ratio %.2f\n", sk / 1024, fk / 1024, fk / sk
}'
# plot A B of two 1M-sample records: two files (streamed) against two FIFOs
# (each read once, whole: the comparison as it was), best of 3.
mkdir "$tmp/p"   # FIFOs of the files' names: the chart's labels are the same
mkfifo "$tmp/p/big.jsonl" "$tmp/p/big2.jsonl" || { echo "plot_memory_cmp: skipped (no mkfifo)"; exit 0; }
cp "$tmp/big.jsonl" "$tmp/big2.jsonl"
ck="" ct="" wk="" wt=""
for _ in 1 2 3; do
    set -- $(peak /dev/null "$STAGETOP" plot "$tmp/big.jsonl" "$tmp/big2.jsonl" -o "$tmp/cmpf.svg")
    [ "$1" = fail ] && { echo "plot_memory_cmp: plot A B failed"; exit 1; }
    { [ -z "$ck" ] || [ "$1" -lt "$ck" ]; } && ck=$1; { [ -z "$ct" ] || [ "$2" -lt "$ct" ]; } && ct=$2
    cat "$tmp/big.jsonl" >"$tmp/p/big.jsonl" & wa=$!
    cat "$tmp/big2.jsonl" >"$tmp/p/big2.jsonl" & wb=$!
    set -- $(peak /dev/null "$STAGETOP" plot "$tmp/p/big.jsonl" "$tmp/p/big2.jsonl" -o "$tmp/cmpp.svg")
    wait $wa $wb
    [ "$1" = fail ] && { echo "plot_memory_cmp: plot FIFO FIFO failed"; exit 1; }
    { [ -z "$wk" ] || [ "$1" -lt "$wk" ]; } && wk=$1; { [ -z "$wt" ] || [ "$2" -lt "$wt" ]; } && wt=$2
done
same=differ
cmp -s "$tmp/cmpf.svg" "$tmp/cmpp.svg" && same=identical
awk -v ck="$ck" -v ct="$ct" -v wk="$wk" -v wt="$wt" -v same="$same" 'BEGIN {
    printf "plot_memory_cmp_2x1M: plot A B %.1f MB %d ms CPU, of two FIFOs (whole) %.1f MB %d ms CPU: memory ratio %.3f, CPU ratio %.2f, SVGs %s\n",
        ck / 1024, ct, wk / 1024, wt, ck / wk, ct / wt, same
}'
