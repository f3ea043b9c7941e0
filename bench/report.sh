#!/bin/sh
# report's memory (docs/performance.md "Plot and report in bounded memory",
# docs/report.md "Memory"): peak RSS and CPU time (user + system) of
# `stagetop report A B -o r.md` of two 1,000,000-sample stagetop records
# (folded numbers, text chart and SVG made sample by sample) against the
# same two read from FIFOs (each read once, whole, every sample kept: how
# report read every file before), best of 3 in the same run, the reports
# and SVGs compared; and `report FILE -o r.md` of 100,000 against 1,000,000
# samples (flat: a ratio near 1).
set -u
B=${1:-${ST_BUILD:-build}}
if ! [ -x "${STAGETOP:-}" ] || ! "$STAGETOP" report --help 2>&1 | grep -q 'report A B'; then
    echo "report bench: skipped (needs \$STAGETOP with report)"; exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "report bench: skipped (no python3)"; exit 0; }
if /usr/bin/time -f %M true >/dev/null 2>&1; then TIMEFMT=gnu
elif /usr/bin/time -l true >/dev/null 2>&1; then TIMEFMT=bsd
else echo "report bench: skipped (no /usr/bin/time)"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen() { # FILE N SEED
    python3 "$(dirname "$0")/gen_spike.py" "$@"
}
mkdir "$tmp/f" "$tmp/p" "$tmp/s"
gen "$tmp/f/a.jsonl" 1000000 1 && gen "$tmp/f/b.jsonl" 1000000 2 && gen "$tmp/s/a.jsonl" 100000 1 ||
    { echo "report bench: could not generate the records"; exit 1; }
mkfifo "$tmp/p/a.jsonl" "$tmp/p/b.jsonl" || { echo "report bench: skipped (no mkfifo)"; exit 0; }
# peak DIR ARGS...: "KB MS" of `stagetop report ARGS -o r.md` run in DIR
peak() {
    d=$1; shift
    if [ $TIMEFMT = gnu ]; then
        (cd "$d" && /usr/bin/time -o "$tmp/rss" -f '%M %U %S' "$STAGETOP" report "$@" -o r.md >/dev/null 2>&1) ||
            { echo fail; return; }
        tail -1 "$tmp/rss" | awk '{printf "%d %d\n", $1, ($2 + $3) * 1000}'
    else
        (cd "$d" && /usr/bin/time -l "$STAGETOP" report "$@" -o r.md >/dev/null 2>"$tmp/rss") || { echo fail; return; }
        awk '/real/ && /user/ {ms = ($3 + $5) * 1000} /maximum resident/ {kb = $1 / 1024}
             END {printf "%d %d\n", kb, ms}' "$tmp/rss"
    fi
}
fk="" ft="" wk="" wt="" sk="" ok=""
low() { [ -z "$1" ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"; }
for _ in 1 2 3; do
    set -- $(peak "$tmp/f" a.jsonl b.jsonl); [ "$1" = fail ] && { echo "report bench: report A B failed"; exit 1; }
    fk=$(low "$fk" "$1"); ft=$(low "$ft" "$2")
    cat "$tmp/f/a.jsonl" >"$tmp/p/a.jsonl" & wa=$!
    cat "$tmp/f/b.jsonl" >"$tmp/p/b.jsonl" & wb=$!
    set -- $(peak "$tmp/p" a.jsonl b.jsonl)
    wait $wa $wb
    [ "$1" = fail ] && { echo "report bench: report FIFO FIFO failed"; exit 1; }
    wk=$(low "$wk" "$1"); wt=$(low "$wt" "$2")
    set -- $(peak "$tmp/s" a.jsonl); [ "$1" = fail ] && { echo "report bench: report 100k failed"; exit 1; }
    sk=$(low "$sk" "$1")
    set -- $(peak "$tmp/f" a.jsonl); [ "$1" = fail ] && { echo "report bench: report 1M failed"; exit 1; }
    ok=$(low "$ok" "$1")
done
# (the last run in f/ was report a.jsonl alone: compare the pair again)
(cd "$tmp/f" && "$STAGETOP" report a.jsonl b.jsonl -o r.md >/dev/null 2>&1)
cat "$tmp/f/a.jsonl" >"$tmp/p/a.jsonl" & wa=$!
cat "$tmp/f/b.jsonl" >"$tmp/p/b.jsonl" & wb=$!
(cd "$tmp/p" && "$STAGETOP" report a.jsonl b.jsonl -o r.md >/dev/null 2>&1)
wait $wa $wb
same=differ
cmp -s "$tmp/f/r.md" "$tmp/p/r.md" && cmp -s "$tmp/f/r.svg" "$tmp/p/r.svg" && same=identical
awk -v fk="$fk" -v ft="$ft" -v wk="$wk" -v wt="$wt" -v sk="$sk" -v ok="$ok" -v same="$same" 'BEGIN {
    printf "report_memory_2x1M: report A B -o 2x1M %.1f MB %d ms CPU, of two FIFOs (whole) %.1f MB %d ms CPU: memory ratio %.3f, CPU ratio %.2f, reports and SVGs %s\n",
        fk / 1024, ft, wk / 1024, wt, fk / wk, ft / wt, same
    printf "report_memory_flat: report FILE -o 100k samples %.1f MB, 1M %.1f MB: ratio %.2f\n", sk / 1024, ok / 1024, ok / sk
}'
