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
# with a newline; it ends when fd 3 (its stdin, a fifo) is closed.
evil="$T/hold \"q\" \\ back ü 日本"
ln -s "$WORKLOADS/holdmem" "$evil"
mkfifo "$T/in"
script='x=1
exec "$0" --mib 32 --children 2 --child-mib 16 <"$1"'
"$STAGETOP" --headless --interval 0.02 --metrics "$T/job.prom" --record "$T/run.jsonl" \
    -- sh -c "$script" "$evil" "$T/in" >"$T/out" 2>"$T/err" &
st=$!
exec 3>"$T/in"
wait_for "the job started" 20 sh -c "[ -s '$T/run.jsonl' ]"
job=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['pid'])" "$T/run.jsonl")
remember_job "$job"
python3 "$CHECK" loop "$T/job.prom" "$T/stop" "$T/loop.out" 2>"$T/loop.err" &
reader=$!
check "while the job holds 64 MiB in 3 processes the file says so (footprint >= 64 MiB, procs 3, running)" \
    wait_for "the file shows the ready tree" 60 \
    python3 "$CHECK" read "$T/job.prom" --state running --min-footprint $((64 << 20)) --procs 3
cp "$T/job.prom" "$T/live.prom"
# Let the reader race at least 50 rewrites of the file.
t0=$(grep -c "\"type\":\"sample\"" "$T/run.jsonl")
wait_for "50 more samples" 60 sh -c "[ \$(grep -c '\"type\":\"sample\"' '$T/run.jsonl') -ge $((t0 + 50)) ]"
touch "$T/stop"
wait $reader
rrc=$?
check "a reader looping during the run never saw a partial or broken file ($(cat "$T/loop.out" 2>/dev/null))" \
    sh -c "[ $rrc -eq 0 ] && awk '{exit !(\$2 >= 50 && \$4 >= 10)}' '$T/loop.out' || { cat '$T/loop.err'; exit 1; }"
exec 3>&-   # the job ends
wait $st
rc=$?
check "the run ended with the job (exit 0)" [ $rc -eq 0 ]

if command -v promtool >/dev/null 2>&1; then
    check "promtool check metrics passes on the file of the live run" \
        sh -c "promtool check metrics <'$T/live.prom'"
    check "promtool check metrics passes on the final file" \
        sh -c "promtool check metrics <'$T/job.prom'"
else
    echo "SKIP: metrics: promtool is not installed"
fi
check "the final file matches the record's last sample, kernel peak, pid and command label" \
    python3 "$CHECK" match "$T/job.prom" "$T/run.jsonl"
check "the command label holds the hostile name, escaped (quote, backslash, newline, UTF-8)" \
    grep -q 'command="sh -c x=1\\nexec \\"$0\\" .* /.*hold \\"q\\" \\\\ back ü 日本 ' "$T/job.prom"
check "no temporary file is left beside it" sh -c "[ -z \"\$(ls -A '$T' | grep '^\\.')\" ]"

# --- a long command line is cut (120 characters, UTF-8 kept whole) ---------------
long=$(python3 -c 'print("é" * 200)')
"$STAGETOP" --headless --interval 0.05 --metrics "$T/long.prom" --record "$T/long.jsonl" \
    -- sh -c 'exit 0' "$long" 2>"$T/err"
check "a 200-character argument: the label is cut at 120 characters plus ..." \
    python3 "$CHECK" match "$T/long.prom" "$T/long.jsonl"
if command -v promtool >/dev/null 2>&1; then
    check "promtool accepts the cut label" sh -c "promtool check metrics <'$T/long.prom'"
fi

# --- the documentation's examples are valid ------------------------------------------
if command -v promtool >/dev/null 2>&1; then
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
fi
"$STAGETOP" --help >"$T/help"
check "--help and the man page describe --metrics and --notify" \
    sh -c "grep -q -- '--metrics FILE' '$T/help' && grep -q -- '--notify' '$T/help' && \
           grep -q 'metrics' '$ST_ROOT/docs/stagetop.1' && grep -q 'notify' '$ST_ROOT/docs/stagetop.1'"
