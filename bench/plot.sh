#!/bin/sh
# Plot cost on a 1,000,000-sample stageload trace: `summary` (read the trace)
# against `plot` (read it and draw the SVG), same file, same run, best of 3.
# The difference is what drawing costs; the SVG's size is printed too.
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
python3 - "$tmp/big.jsonl" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write('{"type":"start","utc":"2026-01-01T00:00:00+00:00","interval":0.01,"pipeline":"bench"}\n')
    for i in range(1000000):
        if i % 100000 == 0:
            f.write('{"type":"event","kind":"stage","stage":"s%d","t":%.3f}\n' % (i // 100000, i * 0.01))
        fp = 2**30 + random.randrange(2**28) + (7 * 2**30 if i == 612345 else 0)
        f.write('{"type":"sample","t":%.3f,"footprint":%d,"swap_used":%d,"level":%d}\n'
                % (i * 0.01, fp, 2**30 + i * 1000, 50 + (i // 10000) % 40))
    f.write('{"type":"end"}\n')
PY
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
echo "plot_1M_samples: summary ${s} ms, plot ${p} ms (drawing adds $((p - s)) ms), svg ${size} bytes"
