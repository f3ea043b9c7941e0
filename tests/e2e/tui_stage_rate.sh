#!/bin/sh
# The header's rate of a repeated stage (issue 29 item 8): while the job's
# current stage is a name that repeats (denoising steps), the header says
# which repetition it is and the mean time of those that ended
# ("stage step ×4 0.31s/rep", stage_table.h's st_stage_repeats); a stage
# that occurs once has neither.  A real job marks `load`, then `step` four
# times, each window two samples long (a condition, no sleep) and holding
# random bytes; the mean is checked against the record's stage events
# (python).
set -u
. "$(dirname "$0")/tui_common.inc"

cat >"$T/job.py" <<'EOF'
import os, subprocess, sys, time
st, rec, t = sys.argv[1], sys.argv[2], sys.argv[3]
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.environ["ST_ROOT"], "tests", "lib"))
from record_wait import wait_samples
def wait_file(p):
    while not os.path.exists(p):
        time.sleep(0.02)
held = []
subprocess.run([st, "stage", "load"], check=True)
held.append(bytearray(os.urandom(4 << 20)))
wait_file(t + "/go")
for i in range(4):
    subprocess.run([st, "stage", "step"], check=True)
    held.append(bytearray(os.urandom((1 + i) << 20)))
    wait_samples(rec, 3 + i)        # windows of unequal length: the mean is not any one of them
wait_file(t + "/end")
EOF
start_pane live 120 30 "'$STAGETOP' --interval 0.1 --no-gpu --record '$T/r.jsonl' -- python3 '$T/job.py' '$STAGETOP' '$T/r.jsonl' '$T'"
check "a stage that occurs once: its name, no repetitions" wait_screen live 15 'stage load  '
check "... and no rate" sh -c "! tmux -L $TM_SOCK capture-pane -p -t live | grep -q '/rep'"
: >"$T/go"
check "the fourth step shows as step ×4 with a mean per repetition" \
    wait_screen live 30 'stage step ×4 [0-9.]*s/rep'
until_ok 30 sh -c "[ \$(grep -c '\"stage\":\"step\"' '$T/r.jsonl') -ge 4 ]"
screen live >"$T/screen.txt"
check "the mean is that of the three closed steps in the record (python)" \
    python3 - "$T/r.jsonl" "$T/screen.txt" <<'PY'
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
steps = [round(r["t"] * 1000) for r in recs if r.get("type") == "event" and r.get("kind") == "stage" and r.get("stage") == "step"]
assert len(steps) == 4, steps
mean = (steps[3] - steps[0]) / 1000.0 / 3     # each closed step ends where the next begins
want = f"{mean:.2f}s" if mean < 9.995 else f"{mean:.1f}s"
got = re.search(r"stage step ×4 (\S+)/rep", open(sys.argv[2]).read())
print("record:", steps, "want", want, "screen:", got and got.group(1))
sys.exit(0 if got and got.group(1) == want else 1)
PY
: >"$T/end"
check "the job ends and the screen says so" wait_screen live 20 'EXITED\|exited'
