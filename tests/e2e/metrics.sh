#!/bin/sh
# --metrics FILE end to end: a live headless run of a real tree with a
# hostile command line, the file checked by promtool and by an independent
# parser against the run's own record, read in a loop while it is rewritten.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; cleanup_jobs; rm -rf "$T"' EXIT
CHECK="$ST_ROOT/tests/e2e/check_metrics.py"

# --- a bad place for the file: refused before anything starts ----------------
"$STAGETOP" --headless --metrics /nonexistent-dir/x.prom -- sh -c "touch '$T/ran'" 2>"$T/err"
rc=$?
check "--metrics in a missing directory: exit 1 naming it, the job never started" \
    sh -c "[ $rc -eq 1 ] && grep -q 'nonexistent-dir' '$T/err' && [ ! -e '$T/ran' ]"

# --- a live run with a hostile command line -------------------------------------
# The job is holdmem (64 MiB of random bytes in 3 processes) started through a
# symlink whose name has quotes, a backslash and UTF-8, by an `sh -c` script
# with a newline that first names a stage; it ends when fd 3 (its stdin, a
# fifo) is closed.
evil="$T/hold \"q\" \\ back ü 日本"
ln -s "$WORKLOADS/holdmem" "$evil"
mkfifo "$T/in"
mkdir "$T/snap"
script='"$ST" stage "s\"q"
exec "$0" --mib 32 --children 2 --child-mib 16 <"$1"'
LBL='job_name=gen "x" \ ü,team=ml'
ST="$STAGETOP" "$STAGETOP" --headless --interval 0.02 --metrics "$T/job.prom" --record "$T/run.jsonl" \
    --metrics-label 'job_name=gen "x" \ ü' --metrics-label team=ml --swap-budget 64G \
    -- sh -c "$script" "$evil" "$T/in" >"$T/out" 2>"$T/err" &
st=$!
exec 3<>"$T/in"   # read-write: never blocks, even when the job did not start
wait_for "the job started" 20 sh -c "[ -s '$T/run.jsonl' ]"
job=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['pid'])" "$T/run.jsonl")
remember_job "$job"
python3 "$CHECK" loop "$T/job.prom" "$T/stop" "$T/loop.out" --save "$T/snap" --labels "$LBL" 3>&- \
    2>"$T/loop.err" &
reader=$!
check "while the job holds 64 MiB in 3 processes the file says so (footprint >= 64 MiB, procs 3, running, stage, labels)" \
    wait_for "the file shows the ready tree" 60 \
    python3 "$CHECK" read "$T/job.prom" --state running --min-footprint $((64 << 20)) --procs 3 \
        --stage 's"q' --labels "$LBL"
cp "$T/job.prom" "$T/live.prom"
check "a file of the live run matches the record's sample of the same number (tree, system, no 0.2 pressure name)" \
    python3 "$CHECK" match-live "$T/live.prom" "$T/run.jsonl"
check "the live file: the guard's budget (64 GiB) and state (armed)" \
    python3 "$CHECK" read "$T/live.prom" --labels "$LBL" --guard armed --budget $((64 << 30))
# Let the reader race at least 50 rewrites of the file, then end the job; the
# reader reads on after the run.
t0=$(grep -c "\"type\":\"sample\"" "$T/run.jsonl")
wait_for "50 more samples" 60 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/run.jsonl') -ge $((t0 + 50)) ]"
exec 3>&-   # the job ends
wait $st
rc=$?
check "the run ended with the job (exit 0)" [ $rc -eq 0 ]
touch "$T/stop"
wait $reader
rrc=$?
check "a scraper reading during and after the run: every reading valid, counters and time never back, running then exited ($(cat "$T/loop.out" 2>/dev/null))" \
    sh -c "[ $rrc -eq 0 ] && awk '{exit !(\$2 >= 50 && \$4 >= 10 && \$6 ~ /^running>.*exited\$|^running>exited\$/)}' '$T/loop.out' || { cat '$T/loop.err'; exit 1; }"

if need_tool "metrics: promtool check metrics" promtool; then
    check "promtool check metrics passes on every distinct reading of the run ($(ls "$T/snap" | wc -l) files)" \
        sh -c "n=0; for f in '$T/snap'/*.prom; do promtool check metrics <\"\$f\" || { echo \"\$f\"; exit 1; }; n=\$((n+1)); done; [ \$n -ge 10 ]"
    check "promtool check metrics passes on the final file" \
        sh -c "promtool check metrics <'$T/job.prom'"
fi
check "the final file: exited, the run's peaks, kernel peak and source, swap growth, samples counted, run_info's pid and command; no live reading" \
    python3 "$CHECK" match "$T/job.prom" "$T/run.jsonl"
check "run_info's command label holds the hostile name, escaped (quote, backslash, newline, UTF-8)" \
    grep -q '^stagetop_run_info{.*command="sh -c \\"$ST\\" stage \\"s\\\\\\"q\\"\\nexec \\"$0\\" .* /.*hold \\"q\\" \\\\ back ü 日本' "$T/job.prom"
check "no temporary file is left beside it" sh -c "[ -z \"\$(ls -A '$T' | grep '^\\.')\" ]"

# --- the same job run twice keeps its series: only run_info changes ---------------
series() { python3 - "$1" <<'PY2'
import sys
for line in open(sys.argv[1]):
    if not line.startswith("#"):  # an info series: its name (its labels are what it says)
        key = line.rsplit(" ", 1)[0]
        print(key.split("{")[0] if key.split("{")[0].endswith("_info") else key)
PY2
}
for n in 1 2; do
    "$STAGETOP" --headless --interval 0.05 --metrics "$T/twice$n.prom" --metrics-label job_name=nightly \
        -- sh -c 'sleep 0.3' >/dev/null 2>&1
    series "$T/twice$n.prom" >"$T/series$n"
done
check "two runs of one job (--metrics-label job_name=nightly) write the same series; run_info's pid differs" \
    sh -c "[ -s '$T/series1' ] && cmp '$T/series1' '$T/series2' && grep -q '^stagetop_job_state{job_name=\"nightly\",state=\"exited\"}' '$T/series1' &&
           [ \"\$(grep '^stagetop_run_info' '$T/twice1.prom')\" != \"\$(grep '^stagetop_run_info' '$T/twice2.prom')\" ]"

# --- the tree's CPU as a counter: members that exited stay counted ------------
# Three children of the job's shell burn CPU one after another and exit; a
# scraper reads the file all along: every counter (the CPU one included)
# never goes back, so rate() sees no reset.  At the end the counter holds
# at least what the shell's `times` says its reaped children used.
cpujob='for n in 1 2 3; do (i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done); done; times >"$1"'
python3 "$CHECK" loop "$T/cpu.prom" "$T/cpustop" "$T/cpuloop.out" 2>"$T/cpuloop.err" &
reader=$!
"$STAGETOP" --headless --interval 0.05 --metrics "$T/cpu.prom" -- sh -c "$cpujob" sh "$T/times" \
    >/dev/null 2>"$T/cpu.err"
rc=$?
touch "$T/cpustop"
wait $reader
rrc=$?
check "stagetop_tree_cpu_seconds_total: read all along, never goes back while members exit ($(cat "$T/cpuloop.out" 2>/dev/null))" \
    sh -c "[ $rc -eq 0 ] && [ $rrc -eq 0 ] || { cat '$T/cpu.err' '$T/cpuloop.err'; exit 1; }"
check "stagetop_tree_cpu_seconds_total at the end: the exited children's CPU (the shell's times) is in it" \
    python3 "$CHECK" cpu "$T/cpu.prom" "$T/times"
if need_tool "metrics: promtool on the CPU counter" promtool; then
    check "promtool check metrics passes on the file with the CPU counter" \
        sh -c "promtool check metrics <'$T/cpu.prom'"
fi

# --- --metrics-label is checked before anything starts ---------------------------------
for bad in 'bad-name=x' '__name__=x' '9lives=x' 'pid=1' 'job=x' 'empty=' 'novalue' 'é=1'; do
    "$STAGETOP" --headless --metrics "$T/bad.prom" --metrics-label "$bad" -- sh -c "touch '$T/ran'" 2>"$T/err"
    rc=$?
    check "--metrics-label '$bad' is refused (exit 2, saying why), the job never started" \
        sh -c "[ $rc -eq 2 ] && grep -q -- '--metrics-label: ' '$T/err' && ! grep -q 'unknown option' '$T/err' &&
               [ ! -e '$T/ran' ] && [ ! -e '$T/bad.prom' ]"
done
"$STAGETOP" --headless --metrics "$T/bad.prom" --metrics-label a=1 --metrics-label a=2 -- true 2>"$T/err"
rc=$?
check "--metrics-label given twice with one name is refused (exit 2)" \
    sh -c "[ $rc -eq 2 ] && grep -q twice '$T/err'"
"$STAGETOP" --headless --metrics-label a=1 -- true 2>"$T/err"
rc=$?
check "--metrics-label without --metrics is refused (exit 2)" \
    sh -c "[ $rc -eq 2 ] && grep -q 'needs --metrics' '$T/err'"

# --- a long command line is cut (120 characters, UTF-8 kept whole) ---------------
long=$(python3 -c 'print("é" * 200)')
"$STAGETOP" --headless --interval 0.05 --metrics "$T/long.prom" --record "$T/long.jsonl" \
    -- sh -c 'exit 0' "$long" 2>"$T/err"
check "a 200-character argument: run_info's command label is cut at 120 characters plus ..." \
    python3 "$CHECK" match "$T/long.prom" "$T/long.jsonl"
if command -v promtool >/dev/null 2>&1; then
    check "promtool accepts the cut label" sh -c "promtool check metrics <'$T/long.prom'"
fi

# --- the documentation's examples are valid ------------------------------------------
if need_tool "metrics: the documentation's rules" promtool; then
    python3 - "$ST_ROOT/docs/metrics-export.md" "$T" <<'PY'
import re, sys
doc, out = open(sys.argv[1]).read(), sys.argv[2]
rules = re.search(r"# stagetop.rules.yml\n(.*?)```", doc, re.S).group(1)
conf = re.search(r"# prometheus.yml\n(.*?)```", doc, re.S).group(1)
open(out + "/rules.yml", "w").write(rules)
open(out + "/prometheus.yml", "w").write(conf + "rule_files: [rules.yml]\n")
PY
    check "docs/metrics-export.md: the scrape config and the alert rules pass promtool check config" \
        promtool check config "$T/prometheus.yml"
    check "docs/metrics-export.md: the recording and alert rules pass promtool check rules" \
        promtool check rules "$T/rules.yml"
    cp "$ST_ROOT/tests/e2e/metrics_rules_test.yml" "$T/"
    check "promtool test rules: swap growth per job over 5 min is recorded (2.5 GiB) and JobSwapGrowing fires for that job only" \
        sh -c "cd '$T' && promtool test rules metrics_rules_test.yml"
fi
"$STAGETOP" --help >"$T/help"
check "--help and the man page describe --metrics, --metrics-label and --notify" \
    sh -c "grep -q -- '--metrics FILE' '$T/help' && grep -q -- '--notify' '$T/help' && \
           grep -q -- '--metrics-label NAME=VALUE' '$T/help' && \
           grep -q 'metrics' '$ST_ROOT/docs/stagetop.1' && grep -q 'notify' '$ST_ROOT/docs/stagetop.1' && \
           grep -q 'metrics\\\\-label' '$ST_ROOT/docs/stagetop.1'"
