#!/bin/sh
# The tree footprint counts a shared page once (docs/metrics.md, "Counted
# once"), end to end: real processes, the real binary, its record.  holdmem's
# root fills 96 MiB with random bytes and forks 4 children that keep it
# copy-on-write (then again through a /dev/shm file each child reads);
# `stagetop -p --headless --record` watches; the record's footprint must be
# within 2 % of the sum of Pss_Anon + Pss_Shmem + SwapPss that this test
# reads itself from /proc/PID/smaps_rollup, and far below the status sum;
# each of its samples says how old its proportional corrections are
# (footprint_age), and the end record, the closing summary and `summary
# --text` the largest.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'exec 8>&- 9>&-; cleanup_jobs; rm -rf "$T"' EXIT

# own_sums PID...: "PSS_SUM STATUS_SUM" in bytes (-1 PSS: no Pss_Anon)
own_sums() { python3 "$ST_ROOT/tests/tools/pss_sum.py" "$@"; }

# (the records are read line by line, skipping the blank padding line a
# record writes before a line that would cross a 4 KiB boundary:
# docs/trace-format.md)

# samples_with FILE N: the record holds N samples of 5 processes
samples_with() {
    [ "$(grep -c '"type":"sample".*"procs":5' "$1" 2>/dev/null)" -ge "$2" ]
}

one_case() { # name, holdmem's extra argument
    name=$1; shift
    rm -f "$T/fifo" "$T/out"
    mkfifo "$T/fifo"
    "$WORKLOADS/holdmem" --mib 96 --cow-children 4 "$@" <"$T/fifo" >"$T/out" &
    hm=$!
    remember_job $hm
    exec 8>"$T/fifo" # holdmem's stdin, held open: closing it ends the tree
    until_ok 30 grep -q '^ready' "$T/out" || { check "$name: holdmem is ready" false; return; }
    kids=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/out" | tr '\n' ' ')
    set -- $(own_sums $hm $kids)
    if [ "$1" -lt 0 ]; then skip "$name" "the kernel's smaps_rollup has no Pss_Anon (before 5.8)"; exec 8>&-; return; fi
    "$STAGETOP" -p $hm --headless --interval 0.2 --record "$T/$name.jsonl" 2>"$T/$name.err" 8>&- &
    st=$!
    wait_for "$name: 10 samples of the whole tree" 60 samples_with "$T/$name.jsonl" 10
    set -- $(own_sums $hm $kids)
    pss=$1 status=$2
    # the record's lines so far: its samples before the tree is told to end
    # (those after it may be read while members exit and free their copies)
    upto=$(wc -l <"$T/$name.jsonl")
    exec 8>&- # the tree ends, and stagetop with it
    wait $st
    check "$name: stagetop ends with the tree (exit 0)" [ $? -eq 0 ]
    check "$name: the record names the definition (footprint_metric pss_anon+pss_shmem+swap_pss)" \
        grep -q '"footprint_metric":"pss_anon+pss_shmem+swap_pss"' "$T/$name.jsonl"
    check "$name: the status sum counts the 96 MiB five times (the case is real)" \
        [ "$status" -ge $((5 * 96 * 1048576)) ]
    check "$name: the last footprint of the whole tree before it ends is within 2 % of the sum of PSS ($pss B), far below the status sum ($status B)" \
        python3 -c '
import json, sys
pss, status, upto = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# (a line of spaces is the page padding of a record, docs/trace-format.md)
lines = open(sys.argv[1]).readlines()[:upto]
s = [r for r in map(json.loads, filter(str.strip, lines))
     if r.get("type") == "sample" and r.get("procs") == 5]
fp = s[-1]["footprint"]
print("footprint", fp, "pss", pss, "status", status)
sys.exit(0 if abs(fp - pss) <= 0.02 * pss and fp * 3 < status else 1)' "$T/$name.jsonl" "$pss" "$status" "$upto"
    # which reading each sample carries: the proportional one says how old
    # its oldest correction is (footprint_age, seconds, up to 2 decimals),
    # within the bound for this small tree (docs/metrics.md: the 1 s floor,
    # plus a sample's interval; 3 s leaves room for a busy machine)
    check "$name: every sample of the whole tree carries footprint_age, 0..3 s, up to 2 decimals" \
        python3 -c '
import json, re, sys
lines = [l for l in open(sys.argv[1]) if "\"type\":\"sample\"" in l and "\"procs\":5" in l]
bad = [l for l in lines if not re.search(r"\"footprint_age\":[0-9]+(\.[0-9]{1,2})?[,}]", l)
       or not 0 <= json.loads(l)["footprint_age"] <= 3]
print(len(lines), "samples,", len(bad), "without a good age", bad[:1])
sys.exit(0 if lines and not bad else 1)' "$T/$name.jsonl"
    max_age=$(python3 -c '
import json, sys
a = [r["footprint_age"] for r in (json.loads(l) for l in open(sys.argv[1]) if l.strip()) if "footprint_age" in r]
print("%.2f" % max(a) if a else "none")' "$T/$name.jsonl")
    check "$name: the end record's summary has the largest age ($max_age)" python3 -c '
import json, sys
end = [r for r in (json.loads(l) for l in open(sys.argv[1]) if l.strip()) if r.get("type") == "end"]
sys.exit(0 if end and "%.2f" % end[-1]["summary"]["max_footprint_age"] == sys.argv[2] else 1)' \
        "$T/$name.jsonl" "$max_age"
    check "$name: the closing summary states it (footprint age at most ${max_age}s)" \
        grep -qF "  footprint age   at most ${max_age}s" "$T/$name.err"
    "$STAGETOP" summary --text "$T/$name.jsonl" >"$T/$name.text" 2>&1
    check "$name: summary --text states it too" grep -qF "footprint age   at most ${max_age}s" "$T/$name.text"
    check "$name: and says no note on shared pages (each page counted once)" \
        sh -c '! grep -q "shared pages counted per process" "$1" "$2"' - "$T/$name.err" "$T/$name.text"
}

one_case fork
one_case shm --shm
