#!/bin/sh
# Durability and hostile-size costs (docs/performance.md, "Keeping the trace"):
#  - the summary of N loads noted "outside_stage" (300,000 and 1,000,000
#    distinct names): sorted once at the end, not inserted in order;
#  - --record-sync never / 1s / always: microseconds per recorded line and
#    fdatasync calls, as a ratio against never (records as fast as they can
#    be written: the worst case; at the default 0.5 s interval a line costs
#    the same and a sample is 500,000 us apart);
#  - `stagetop summary` of a 1,000,000-sample JSONL file: peak RSS against
#    the file's size (the reader streams it in 64 KiB chunks).
#   sh bench/durability.sh BUILD_DIR      (called by `make bench`)
# Goals: 1,000,000 outside-stage loads under 5 s; summary of 1,000,000
# samples under 80 MB peak RSS.
set -u
B=${1:-build}
BIN="$B/bench/durability-bench"
ST=${STAGETOP:-$B/stagetop}
[ -x "$BIN" ] || { echo "durability bench: $BIN not built (make $BIN)"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/st-dur-bench.XXXXXX"); trap 'rm -rf "$dir"' EXIT
val() { sed -n "s/^$1 //p" "$2"; }

echo "durability bench ($(uname -sr), $(nproc 2>/dev/null || echo ?) CPUs," \
     "load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)); files in ${TMPDIR:-/tmp}"
printf '%-52s %12s %10s\n' "summary of outside-stage loads" "seconds" "names"
for n in 300000 1000000; do
    "$BIN" outside $n >"$dir/o" || exit 1
    printf '%-52s %11ss %10s\n' "$n loads, distinct names, random order" "$(val outside_s "$dir/o")" \
        "$(val outside_names "$dir/o")"
done

printf '\n%-22s %8s %14s %10s %16s\n' "--record-sync" "lines" "us per line" "syncs" "ratio vs never"
never_us=""
for m in never 1s always; do
    n=200000; [ $m = always ] && n=2000
    "$BIN" record "$dir" $n $m >"$dir/r" || exit 1
    us=$(val record_us_per_line "$dir/r")
    [ $m = never ] && never_us=$us
    ratio=$(awk -v a="$us" -v b="$never_us" 'BEGIN { printf "%.2fx", a / b }')
    printf '%-22s %8s %14s %10s %16s\n' "$m" $n "$us" "$(val record_syncs "$dir/r")" "$ratio"
done

if [ -x /usr/bin/time ] && command -v python3 >/dev/null 2>&1; then
    python3 "$(dirname "$0")/../tests/tools/big_jsonl.py" "$dir/big.jsonl"
    /usr/bin/time -f '%M %e' -o "$dir/t" "$ST" summary "$dir/big.jsonl" >/dev/null || exit 1
    read -r kib secs <"$dir/t"
    printf '\n%-52s %s\n' "summary of 1,000,000 JSONL samples ($(( $(wc -c <"$dir/big.jsonl") / 1000000 )) MB)" \
        "peak RSS $(awk -v k="$kib" 'BEGIN { printf "%.1f MB", k * 1024 / 1e6 }'), ${secs} s (goal < 80 MB)"
fi
