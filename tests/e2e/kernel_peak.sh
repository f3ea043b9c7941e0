#!/bin/sh
# Peaks that do not leave with the process (docs/metrics.md): a launched job
# whose child maps and fills 1 GiB of random bytes, holds it 50 ms and exits
# between two samples.  No sample sees it; the summary's kernel_peak must
# still hold it, with its source named (wait4, or cgroup where stagetop can
# run the job in a cgroup v2 of its own), in the JSONL end record, the JSON
# export and `stagetop summary`.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh counts them).
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
SPIKE_MIB=1024

# run_spike NAME [spike options...]: a headless run (JSONL on stdout, JSON
# export at the end).  The spike starts once the first sample (t = 0) is
# out, so it falls between that sample and the next, 4 s later.  On a
# loaded machine filling 1 GiB can take longer than that: when a sample saw
# the spike, the run is repeated at 8 s, then 16 s (check_run fails if the
# last one saw it too).
run_spike() {
    n=$1; shift
    for interval in 4 8 16; do
        rm -f "$T/$n".*
        "$STAGETOP" --headless --jsonl --interval $interval --no-gpu --record "$T/$n.json" -- \
            "$WORKLOADS/spike" --mib $SPIKE_MIB --hold-ms 50 --go "$T/$n.go" --exit "$T/$n.exit" \
            --report "$T/$n.child" "$@" >"$T/$n.jsonl" 2>"$T/$n.err" &
        st=$!
        remember_job $st
        wait_for "$n: the first sample" 60 grep -q '"type":"sample"' "$T/$n.jsonl"
        touch "$T/$n.go"
        wait_for "$n: the child's report" 120 test -s "$T/$n.child"
        touch "$T/$n.exit"
        wait $st
        echo $? >"$T/$n.rc"
        "$STAGETOP" summary "$T/$n.jsonl" >"$T/$n.summary" 2>>"$T/$n.err"
        "$STAGETOP" summary "$T/$n.json" >"$T/$n.jsummary" 2>>"$T/$n.err"
        python3 - "$T/$n.jsonl" $SPIKE_MIB <<'PY' && return 0
import json, sys
seen = max([0] + [max(r.get("footprint", 0), r.get("rss", 0)) for r in map(json.loads, filter(str.strip, open(sys.argv[1])))
                  if r.get("type") == "sample"])
sys.exit(0 if seen < (int(sys.argv[2]) << 20) // 2 else 1)
PY
        echo "    ($n: a sample at a $interval s interval saw the spike: again, slower)"
    done
}

# check_run NAME SOURCE: the spike is in every summary, named SOURCE.
check_run() {
    n=$1 src=$2
    check "$n: stagetop and the job exit 0" sh -c "[ \"\$(cat '$T/$n.rc')\" = 0 ] || { cat '$T/$n.err'; exit 1; }"
    check "$n: no sample saw the spike, every summary holds it, source $src" python3 - \
        "$T/$n.jsonl" "$T/$n.json" "$T/$n.summary" "$T/$n.jsummary" "$T/$n.child" "$src" $SPIKE_MIB <<'PY'
import json, sys
jsonl, doc, summ, jsumm, child, src, mib = sys.argv[1:]
spike = int(mib) << 20
child_maxrss = int(open(child).read())            # the child's own getrusage
print("child ru_maxrss", child_maxrss)
assert child_maxrss >= spike, "the child did not touch its spike"
recs = [json.loads(l) for l in open(jsonl) if l.strip()]
samples = [r for r in recs if r.get("type") == "sample"]
ends = [r for r in recs if r.get("type") == "end"]
assert len(samples) >= 2 and len(ends) == 1, (len(samples), len(ends))
seen = max(max(s.get("footprint", 0), s.get("rss", 0)) for s in samples)
print("largest sampled footprint/rss", seen)
assert seen < spike // 2, "a sample saw the spike: this run cannot show its recovery"
d = json.load(open(doc))
assert max(max(s.get("footprint", 0), s.get("rss", 0)) for s in d["samples"]) < spike // 2
for where, s in (("JSONL end", ends[0]["summary"]), ("JSON export", d["summary"]),
                 ("stagetop summary of the JSONL", json.load(open(summ))),
                 ("stagetop summary of the export", json.load(open(jsumm)))):
    kp, ks = s.get("kernel_peak"), s.get("kernel_peak_source")
    print(where, "kernel_peak", kp, "source", ks)
    assert ks == src, (where, ks)
    assert kp is not None and kp >= spike, (where, kp)
    if src == "wait4":   # the same kernel counter, read by the child itself
        assert kp >= child_maxrss, (where, kp, child_maxrss)
PY
}

# --- wait4: the root waits for its child ------------------------------------
STAGETOP_CGROUP=0 run_spike wait4
check_run wait4 wait4

# --- wait4: the root leaves its exited child unreaped; stagetop, its
# subreaper, reaps it once the root has exited --------------------------------
STAGETOP_CGROUP=0 run_spike orphan --no-wait
check_run orphan wait4

# --- cgroup v2 memory.peak ---------------------------------------------------
# stagetop's own cgroup v2 directory (or its parent) with the memory
# controller enabled for children, found here independently of core/run/peak.c.
cg_dir() {
    mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i+1) == "cgroup2") print $5; break } }' \
        /proc/self/mountinfo | head -1)
    [ -n "$mnt" ] || { echo "cgroup v2 not mounted"; return 1; }
    grep -qw memory "$mnt/cgroup.controllers" 2>/dev/null ||
        { echo "cgroup v2 (at $mnt) has no memory controller: cgroup v1 holds it"; return 1; }
    kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
    set -- $kv
    [ "$1" -gt 5 ] || { [ "$1" -eq 5 ] && [ "$2" -ge 19 ]; } ||
        { echo "Linux $(uname -r) has no memory.peak (5.19 or later)"; return 1; }
    rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
    for d in "$mnt${rel%/}" "$(dirname "$mnt${rel%/}")"; do
        grep -qw memory "$d/cgroup.subtree_control" 2>/dev/null && [ -w "$d" ] && \
            [ -e "$d/cgroup.procs" ] && { echo "$d"; return 0; }
    done
    echo "no writable cgroup v2 with the memory controller enabled for children"
    return 1
}
if why=$(cg_dir); then
    before=$(ls -d "$why"/stagetop-* 2>/dev/null | wc -l)
    run_spike cgroup
    check_run cgroup cgroup
    check "cgroup: the job's cgroup is removed at the end" \
        sh -c "[ \$(ls -d '$why'/stagetop-* 2>/dev/null | wc -l) -eq $before ]"
else
    skip "cgroup memory.peak" "$why"
fi
