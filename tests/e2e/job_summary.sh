#!/bin/sh
# The end of a run (stagetop(1) SUMMARY, OPTIONS --report/--plot/--quiet):
#   C  headless: a closing summary on stderr (exit status, duration, peak and
#      kernel peak with its source, swap, min level, the stage table, paths);
#      --quiet leaves it out;
#   R  --report OUT.md and --plot OUT.svg are written when the run ends, the
#      same as `stagetop report` / `stagetop plot` of the record.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT

JOB="\"$STAGETOP\" stage alpha; head -c 20000000 /dev/urandom >/dev/null; \"$STAGETOP\" stage beta; sleep 0.3; exit 3"
"$STAGETOP" --headless --no-gpu -i .1 --record "$T/c.jsonl" --report "$T/c.md" --plot "$T/p.svg" \
    -- sh -c "$JOB" >"$T/c.out" 2>"$T/c.err"
rc=$?
check "C: the job's own code (3, got $rc)" [ $rc -eq 3 ]
check "C: the summary gives the exit status" grep -q "^  job  *exit status 3$" "$T/c.err"
check "C: ... the duration and samples" grep -q "^  duration  *[0-9.]*s ([0-9]* samples)" "$T/c.err"
check "C: ... the peak with the largest process's peak (or the cgroup's, said so) and its source" \
    grep -Eq "^  peak footprint .*(largest process's peak .*(wait4|sampled)|the tree's kernel peak, page cache in, swap out: .*cgroup)" "$T/c.err"
check "C: ... swap" grep -q "^  swap  " "$T/c.err"
check "C: ... the minimum level" grep -q "^  min level  *[0-9.]*%" "$T/c.err"
check "C: ... the stage table, both stages" sh -c "grep -Eq '^  stage +n +time +mean +peak +swap growth +min level$' '$T/c.err' && grep -Eq '^  alpha +1 ' '$T/c.err' && grep -Eq '^  beta +1 ' '$T/c.err'"
check "C: ... the paths of the record, report and plot" \
    sh -c "grep -q '^  record  *$T/c.jsonl' '$T/c.err' && grep -q '^  report  *$T/c.md' '$T/c.err' && grep -q '^  plot  *$T/p.svg' '$T/c.err'"
check "C: the duration is the record's" $PY - "$T/c.jsonl" "$T/c.err" <<'EOF'
import json, re, sys
end = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"type":"end"')][0]
m = re.search(r"^  duration +([0-9.]+)s", open(sys.argv[2]).read(), re.M)
print(end["summary"]["duration"], m and m.group(1))
sys.exit(0 if m and abs(float(m.group(1)) - end["summary"]["duration"]) < 0.051 else 1)
EOF
"$STAGETOP" report "$T/c.jsonl" -o "$T/ref.md"
# (each report links its own chart beside it: c.svg, ref.svg)
check "R: --report equals stagetop report of the record" \
    sh -c "sed 's/ref\\.svg/c.svg/g' '$T/ref.md' | cmp - '$T/c.md'"
check "R: --report's chart equals the report's chart of the record" cmp "$T/c.svg" "$T/ref.svg"
"$STAGETOP" plot "$T/c.jsonl" -o "$T/ref-plot.svg"
check "R: --plot equals stagetop plot of the record" cmp "$T/p.svg" "$T/ref-plot.svg"

"$STAGETOP" --headless --quiet --no-gpu -i .1 -- true >"$T/q.out" 2>"$T/q.err"
check "C: --quiet: no summary" sh -c "! grep -q 'run summary' '$T/q.err'"
"$STAGETOP" --headless --no-gpu -i .1 -- true >"$T/q2.out" 2>"$T/q2.err"
check "C: without --quiet: a summary" grep -q 'run summary' "$T/q2.err"
