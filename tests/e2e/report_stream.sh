#!/bin/sh
# `stagetop report FILE|A B [-o OUT.md]` reads its files in bounded memory
# (tui/report_read.c, plot.h st_plot_also, docs/report.md "Memory"): the
# numbers folded, the text chart's columns and the SVG's filled sample by
# sample.  The whole trace is what a FIFO gives (read once, every sample
# kept, as report read every file before):
#  - on every fixture and on consecutive pairs, the report of the files
#    (Markdown on stdout; -o OUT.md with OUT.svg) is byte for byte the
#    report of the same paths as FIFOs;
#  - so are two generated 400,000-sample stagetop records (stages, a spike,
#    swap and level), alone and compared, and a record whose last 64 KiB
#    hold only events (the frame guessed from its ends is wrong: read again);
#  - those two records compared, with their SVG, in 64 MB of address space
#    (ulimit -v; the whole read needs about twice that);
#  - a pipe of more than 1,048,576 samples stops with exit 1, an error that
#    names the cap and says to report a file, and no output file; the same
#    record as a file is reported.
# Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
. "$ROOT/tests/lib/tools.sh"
need_tool report_stream python3 python3 || exit 0
[ -x "$ST" ] || { echo "FAIL: report_stream: build $ST first"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# report TAG ARGS...: run report ARGS in $tmp/TAG twice (stdout; -o r.md),
# keeping stdout, stderr, the exit codes, r.md and r.svg there.
report() {
    tag=$1; shift
    rm -rf "${tmp:?}/$tag"; mkdir -p "$tmp/$tag"
    (cd "$tmp/$tag" && "$ST" report "$@" >stdout 2>stderr; echo $? >rc)
}
report_o() {
    tag=$1; shift
    (cd "$tmp/$tag" && "$ST" report "$@" -o r.md >/dev/null 2>>stderr; echo $? >>rc)
}
# same PATHS...: the report of the files PATHS (regular files), then of the
# same paths made FIFOs (a writer each): 0 when both are byte for byte equal.
same() {
    report file "$@"; report_o file "$@"
    i=0
    for p in "$@"; do i=$((i + 1)); cp "$p" "$tmp/keep$i"; done
    for pass in 1 2; do
        i=0 pids=""
        for p in "$@"; do
            i=$((i + 1)); rm -f "$p"; mkfifo "$p"; cat "$tmp/keep$i" >"$p" & pids="$pids $!"
        done
        if [ $pass = 1 ]; then report fifo "$@"; else report_o fifo "$@"; fi
        # a writer whose FIFO report did not read (it stopped at a bad file)
        for pid in $pids; do kill "$pid" 2>/dev/null; done
        wait
    done
    i=0
    for p in "$@"; do i=$((i + 1)); rm -f "$p"; mv "$tmp/keep$i" "$p"; done
    [ "$(cat "$tmp/file/rc")" = "$(cat "$tmp/fifo/rc")" ] && diff -r "$tmp/file" "$tmp/fifo" >/dev/null
}

# ---- every fixture, and consecutive pairs ----
mkdir -p "$tmp/fx"
n=0 bad="" prev=""
for f in $(cd "$ROOT" && find tests -name '*.json*' -type f | sort); do
    n=$((n + 1))
    name=$n-$(basename "$f")
    cp "$ROOT/$f" "$tmp/fx/$name"
    same "$tmp/fx/$name" || bad="$bad $f"
    if [ -n "$prev" ]; then
        same "$tmp/fx/$prev" "$tmp/fx/$name" || bad="$bad $prev+$f"
    fi
    prev=$name
done
if [ "$n" -lt 40 ]; then
    echo "FAIL: report_stream: fixtures: only $n found under tests/"
elif [ -n "$bad" ]; then
    echo "FAIL: report_stream: fixtures: the report of the file differs from the whole trace's:$bad"
else
    echo "PASS: report_stream: fixtures: $n reports and $((n - 1)) pairs (Markdown, -o with SVG) of the files = the whole traces'"
fi

# ---- generated records ----
gen() { # FILE N SEED [TAIL_EVENTS]
python3 - "$@" <<'PY'
import random, sys
path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
tail = int(sys.argv[4]) if len(sys.argv) > 4 else 0
random.seed(seed)
with open(path, "w") as f:
    f.write('{"type":"start","stagetop":"0.4.0","utc":"2026-01-01T00:00:00+00:00","interval":0.01}\n')
    for i in range(n):
        if i % 50000 == 0:
            f.write('{"type":"event","kind":"stage","stage":"s%d","t":%.2f}\n' % (i // 50000, i * 0.01))
        fp = 2**30 + random.randrange(2**28) + (7 * 2**30 if i == n * 3 // 5 else 0)
        f.write('{"type":"sample","t":%.2f,"footprint":%d,"swap_used":%d,"level":%d}\n'
                % (i * 0.01, fp, 2**30 + i * 997 * seed + random.randrange(2**20),
                   90 - (i // 7000) % 80 - random.randrange(5)))
    for j in range(tail):
        f.write('{"type":"event","kind":"mark","t":%.2f}\n' % (n * 0.01 + j))
    f.write('{"type":"end"}\n')
PY
}
gen "$tmp/a.jsonl" 400000 1 && gen "$tmp/b.jsonl" 430000 2 && gen "$tmp/late.jsonl" 120000 3 4000 ||
    { echo "FAIL: report_stream: could not generate the records"; exit 1; }
bad=""
same "$tmp/a.jsonl" || bad="$bad A"
same "$tmp/a.jsonl" "$tmp/b.jsonl" || bad="$bad A+B"
cp -r "$tmp/file" "$tmp/ab"
same "$tmp/late.jsonl" || bad="$bad late"
same "$tmp/late.jsonl" "$tmp/a.jsonl" || bad="$bad late+A"
if [ -n "$bad" ]; then
    echo "FAIL: report_stream: 400k-sample records: the report differs from the whole trace's:$bad"
elif ! grep -q '| samples | 400000 | 430000 |' "$tmp/ab/stdout" || ! [ -s "$tmp/ab/r.svg" ]; then
    echo "FAIL: report_stream: 400k-sample records: no comparison of 400000 and 430000 samples with its SVG"
else
    echo "PASS: report_stream: 400k-sample records alone, compared, and read twice (late events): the whole traces' reports"
fi

# ---- bounded memory ----
if nm "$ST" 2>/dev/null | grep -Eq '__asan_init|__tsan_init'; then
    echo "SKIP: report_stream: memory: a sanitizer build (ulimit -v does not apply)"
elif ! (ulimit -v 65536) 2>/dev/null; then
    echo "SKIP: report_stream: memory: this shell cannot limit the address space (ulimit -v)"
else
    mkdir -p "$tmp/mem"
    (cd "$tmp/mem" && ulimit -v 65536 && "$ST" report "$tmp/a.jsonl" "$tmp/b.jsonl" -o r.md >out 2>&1)
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: report_stream: memory: report A B -o in 64 MB of address space: exit $rc: $(head -c 300 "$tmp/mem/out")"
    elif ! cmp -s "$tmp/mem/r.md" "$tmp/ab/r.md" || ! cmp -s "$tmp/mem/r.svg" "$tmp/ab/r.svg"; then
        echo "FAIL: report_stream: memory: report A B in 64 MB differs from the report without the limit"
    else
        echo "PASS: report_stream: memory: two 400k-sample records reported with their SVG in 64 MB of address space"
    fi
fi

# ---- a pipe past the cap ----
python3 "$ST_ROOT/tests/tools/footprint_jsonl.py" "$tmp/cap.jsonl" 1048577
cat "$tmp/cap.jsonl" | "$ST" report - -o "$tmp/cap.md" >"$tmp/cap.out" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then
    echo "FAIL: report_stream: pipe cap: exit $rc, expected 1: $(head -c 300 "$tmp/cap.out")"
elif ! grep -q 'more than 1048576 samples from a pipe' "$tmp/cap.out" ||
     ! grep -q 'write the record to a file and report the file' "$tmp/cap.out"; then
    echo "FAIL: report_stream: pipe cap: the error does not name the cap and the way out: $(cat "$tmp/cap.out")"
elif [ -e "$tmp/cap.md" ] || [ -e "$tmp/cap.svg" ]; then
    echo "FAIL: report_stream: pipe cap: an output file was written"
else
    echo "PASS: report_stream: pipe cap: 1048577 samples on a pipe: exit 1, the cap named, nothing written"
fi
if "$ST" report "$tmp/cap.jsonl" -o "$tmp/capf.md" >"$tmp/capf.out" 2>&1 &&
   grep -q '| samples | 1048577 over' "$tmp/capf.md" && [ -s "$tmp/capf.svg" ]; then
    echo "PASS: report_stream: pipe cap: the same record as a file is reported (1048577 samples, its SVG)"
else
    echo "FAIL: report_stream: pipe cap: the record as a file was not reported: $(head -c 300 "$tmp/capf.out")"
fi
