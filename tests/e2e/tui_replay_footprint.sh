#!/bin/sh
# What a trace's footprint is, said as live says it (docs/metrics.md,
# "Counted once"): `stagetop replay` (tmux, 120x40) and `stagetop summary`
# (JSON and --text) of traces this test writes:
#  - meta.footprint_metric phys_footprint (macOS) or anon+shmem+swap (Linux
#    before 5.8) over a tree of 3 processes: the header says "footprint =
#    METRIC, shared pages counted per process", the summary says it in one
#    line (--text) and as footprint_shared_per_process (JSON);
#  - the same definition over a lone process, and the proportional one
#    (pss_anon+pss_shmem+swap_pss) over 3: neither says it;
#  - the proportional one whose samples carry footprint_age: the header
#    shows the last sample's age ("(Ns old)"), the summary the largest
#    (max_footprint_age; --text "footprint age"); a trace whose last sample
#    carries none shows no age.
# The expected words are built here from each file's own numbers.
set -u
. "$(dirname "$0")/tui_common.inc"

NOTE="shared pages counted per process"
not() { ! "$@"; }

# trace NAME METRIC PROCS [AGE...]: a JSONL record of 4 samples (procs PROCS),
# the i-th carrying footprint_age AGE_i where given ("-": none).
trace() {
    _name=$1 _metric=$2 _procs=$3; shift 3
    python3 - "$T/$_name.jsonl" "$_metric" "$_procs" "$@" <<'PY'
import json, sys
path, metric, procs, ages = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
with open(path, "w") as f:
    f.write(json.dumps({"type": "start", "pid": 4242, "interval": 0.5, "platform": "linux",
                        "command": "job", "footprint_metric": metric}) + "\n")
    for i in range(4):
        s = {"type": "sample", "t": i * 0.5, "footprint": (i + 1) << 20, "swap_used": 0,
             "level": 50, "procs": procs}
        if i < len(ages) and ages[i] != "-":
            s["footprint_age"] = float(ages[i])
        f.write(json.dumps(s) + "\n")
PY
}

# want_header NAME PATTERN: the replay of NAME's header row 2 matches PATTERN
# (grep -E), then q; absent: it must not match (after the screen is drawn).
replay_header() {
    _n=$1
    start_pane "$_n" 120 40 "'$STAGETOP' replay '$T/$_n.jsonl'"
    wait_screen "$_n" 10 "^4 samples " >/dev/null || return 1
    screen "$_n" | grep '^4 samples ' >"$T/$_n.header"
    tm send-keys -t "$_n" q
    wait_screen "$_n" 10 "stagetop-exit=0" >/dev/null
}

trace mac3 phys_footprint 3
trace lx3 anon+shmem+swap 3
trace mac1 phys_footprint 1
trace pss3 pss_anon+pss_shmem+swap_pss 3 0.5 1.25 0.75 2.75
trace pss3end pss_anon+pss_shmem+swap_pss 3 0.5 1.25 4.5 -

for n in mac3 lx3 mac1 pss3 pss3end; do
    check "$n: replay starts and draws its header" replay_header $n
done

metric_of() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["footprint_metric"])' "$T/$1.jsonl"; }

for n in mac3 lx3; do
    m=$(metric_of $n)
    check "$n: the replay's header says footprint = $m, $NOTE" \
        grep -qF "footprint = $m, $NOTE" "$T/$n.header"
    "$STAGETOP" summary --text "$T/$n.jsonl" >"$T/$n.text" 2>"$T/$n.err"
    check "$n: summary --text says it in one line (up to 3 processes)" \
        grep -qxF "definition      $m, $NOTE (up to 3 processes)" "$T/$n.text"
    "$STAGETOP" summary "$T/$n.jsonl" >"$T/$n.json" 2>"$T/$n.err"
    check "$n: summary (JSON) says footprint_shared_per_process" \
        python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("footprint_shared_per_process") is True else 1)' "$T/$n.json"
done

for n in mac1 pss3 pss3end; do
    m=$(metric_of $n)
    check "$n: the replay's header names the definition ($m)" grep -qF "footprint = $m" "$T/$n.header"
    check "$n: the replay's header does not say '$NOTE'" not grep -qF "$NOTE" "$T/$n.header"
    "$STAGETOP" summary --text "$T/$n.jsonl" >"$T/$n.text" 2>"$T/$n.err"
    check "$n: summary --text does not say it" not grep -qF "$NOTE" "$T/$n.text"
    "$STAGETOP" summary "$T/$n.jsonl" >"$T/$n.json" 2>"$T/$n.err"
    check "$n: summary (JSON) has no footprint_shared_per_process" not grep -q footprint_shared_per_process "$T/$n.json"
done

# the age: the last sample's, as the header rounds it (%.0f), and the largest
ages() { # NAME -> "LAST_ROUNDED MAX" from the file ("- MAX" without a last age)
    python3 - "$T/$1.jsonl" <<'PY'
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "sample"]
a = [r["footprint_age"] for r in s if "footprint_age" in r]
last = s[-1].get("footprint_age")
print("-" if last is None else "%.0f" % last, "%.2f" % max(a))
PY
}
set -- $(ages pss3)
check "pss3: the header shows the last sample's age ($1s old)" \
    grep -qF "footprint = pss_anon+pss_shmem+swap_pss ($1s old)" "$T/pss3.header"
check "pss3: summary --text states the largest age ($2s)" \
    grep -qxF "footprint age   at most ${2}s (the oldest correction the footprint carried)" "$T/pss3.text"
check "pss3: summary (JSON) has max_footprint_age $2" \
    python3 -c 'import json,sys; sys.exit(0 if "%.2f" % json.load(open(sys.argv[1]))["max_footprint_age"] == sys.argv[2] else 1)' "$T/pss3.json" "$2"
set -- $(ages pss3end)
check "pss3end: a last sample without an age shows none" not grep -q "s old)" "$T/pss3end.header"
check "pss3end: summary --text still states the largest age ($2s)" grep -qF "at most ${2}s" "$T/pss3end.text"
check "mac3: no age where no sample carries one" not grep -q "s old)" "$T/mac3.header"
check "mac3: summary --text has no footprint age" not grep -q "^footprint age" "$T/mac3.text"
