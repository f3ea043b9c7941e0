#!/bin/sh
# Fault: the files around a run, made hostile (issue 14).
#  - --events on a device (/dev/zero) is refused at once (it hung stagetop,
#    deaf to SIGTERM); --events on a FIFO is followed;
#  - --record onto a planted symlink: refused, the target untouched; onto
#    an existing file: refused without --overwrite, replaced with it;
#  - the job log's predictable name planted as symlinks (the screen, in
#    tmux): the log goes to a new file, the targets untouched; the job
#    holds no descriptor of stagetop's terminal beyond 0, 1 and 2;
#  - `--headless --jsonl` into a FIFO that `head -2` reads: the closed stdout ends the run (exit
#    141, the launched job gone, the --record .json trace written);
#  - the JSONL end record carries dropped_samples (samples + dropped = due);
#  - --record-sync: fdatasync calls counted with strace (never / 1s / always);
#  - `summary` of a FIFO without a writer gives up with a message; of a
#    1,000,000-sample JSONL file in memory that follows the samples, not
#    the file (peak RSS under 3/4 of the file's size).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"
. "$ST_ROOT/tests/e2e/tui_common.inc"

# --- --events on a device, on a FIFO -------------------------------------------------
"$STAGETOP" --headless --interval 0.05 --events /dev/zero -- sh -c "echo started >>'$T/zero.started'; sleep 30" 2>"$T/zero.err" &
p=$!
wait_bounded $p 30; rc=$?
check "--events /dev/zero: refused at once (exit 2), no hang" \
    sh -c "[ $rc -eq 2 ] && grep -q '/dev/zero is not a regular file or FIFO' '$T/zero.err'"
check "--events /dev/zero: the job was never started" sh -c "[ ! -e '$T/zero.started' ]"

mkfifo "$T/ev.fifo"
"$STAGETOP" --headless --interval 0.05 --events "$T/ev.fifo" --record "$T/fifo.jsonl" -- \
    sh -c "sleep 0.3; printf '%s\n' '{\"type\":\"event\",\"kind\":\"mark\",\"t\":0.1,\"note\":\"via-fifo\"}' \
           '{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"fifo-stage\",\"t\":0.2}' >'$T/ev.fifo'; sleep 1" \
    2>"$T/fifo.err" &
p=$!
wait_bounded $p 60; rc=$?
check "--events FIFO: exit 0, the mark and the stage written into the FIFO are in the record" \
    sh -c "[ $rc -eq 0 ] && grep -q '\"note\":\"via-fifo\"' '$T/fifo.jsonl' && grep -q '\"stage\":\"fifo-stage\"' '$T/fifo.jsonl'"

# --- --record: symlinks and existing files ---------------------------------------------
printf 'precious\n' >"$T/precious"
ln -s "$T/precious" "$T/link.jsonl"
ln -s "$T/precious" "$T/link.json"
for f in link.jsonl link.json; do
    for ow in "" --overwrite; do
        "$STAGETOP" --headless --interval 0.05 --record "$T/$f" $ow -- \
            sh -c "echo started >>'$T/link.started'" 2>"$T/link.err"
        rc=$?
        check "--record onto a symlink ($f $ow): refused (exit 2), said, the target untouched" \
            sh -c "[ $rc -eq 2 ] && grep -q 'symbolic link' '$T/link.err' && [ \"\$(cat '$T/precious')\" = precious ] && [ -L '$T/$f' ]"
    done
done
check "--record onto a symlink: no job was started" sh -c "[ ! -e '$T/link.started' ]"
for f in old.jsonl old.json; do
    printf 'an older run\n' >"$T/$f"
    "$STAGETOP" --headless --interval 0.05 --record "$T/$f" -- sleep 0.2 2>"$T/old.err"
    rc=$?
    check "--record onto an existing $f: refused (exit 2) naming --overwrite, the file kept" \
        sh -c "[ $rc -eq 2 ] && grep -q -- '--overwrite' '$T/old.err' && [ \"\$(cat '$T/$f')\" = 'an older run' ]"
    "$STAGETOP" --headless --interval 0.05 --record "$T/$f" --overwrite -- sleep 0.2 2>"$T/old.err"
    rc=$?
    check "--record $f --overwrite: exit 0, the file is the new trace" \
        sh -c "[ $rc -eq 0 ] && ! grep -q 'an older run' '$T/$f' && '$STAGETOP' summary '$T/$f' >/dev/null"
done

# --- the job log's predictable name; the job's descriptors (screen, tmux) -------------
D="$T/exp"; mkdir -p "$D"
printf 'precious\n' >"$T/logtarget"
# plant the names of the next 20 seconds
now=$(date +%s)
for i in $(seq 0 20); do
    ln -s "$T/logtarget" "$D/stagetop-job-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S).log"
done
start_pane log 100 30 "'$STAGETOP' --interval 0.1 --export-dir '$D' --record '$T/log.jsonl' -- \
    sh -c 'echo job-output-line; exec sleep 300'"
until_ok 30 sh -c "[ -s '$T/log.jsonl' ]"
job=$(record_pid "$T/log.jsonl")
remember_job "$job"
check "job log: the job's output is in a new regular file, not through a planted link" \
    until_ok 30 sh -c "for f in '$D'/*.log; do if [ ! -L \"\$f\" ] && grep -q job-output-line \"\$f\"; then exit 0; fi; done; exit 1"
check "job log: the planted links' target is untouched" sh -c "[ \"\$(cat '$T/logtarget')\" = precious ]"
check "the job holds descriptors 0 1 2 only (no terminal copies)" \
    sh -c "until_fds=\$(ls /proc/$job/fd | sort -n | tr '\n' ' '); [ \"\$until_fds\" = '0 1 2 ' ] || { echo \"fds: \$until_fds\"; ls -l /proc/$job/fd; exit 1; }"
tm send-keys -t log k
wait_screen log 10 'y/n' >/dev/null
tm send-keys -t log y
until_ok 30 gone "$job"
tm send-keys -t log q
wait_screen log 30 'stagetop-exit=' >/dev/null

# --- a closed stdout ends a --jsonl run --------------------------------------------------
mkfifo "$T/pipe.fifo"
s1414=$(uniq_secs 1414)
"$STAGETOP" --headless --jsonl --interval 0.05 --record "$T/pipe.json" -- sleep "$s1414" \
    >"$T/pipe.fifo" 2>"$T/pipe.err" &
sp=$!
remember_job $sp
head -2 <"$T/pipe.fifo" >"$T/pipe.out"
wait_bounded $sp 60; echo $? >"$T/pipe.rc"
check "--jsonl | head -2: stagetop ends (exit 141) and says why" \
    until_ok 30 sh -c "[ \"\$(cat '$T/pipe.rc' 2>/dev/null)\" = 141 ] && grep -q 'stdout was closed' '$T/pipe.err'"
check "--jsonl | head -2: the launched job is gone" sh -c "! pgrep -f '^sleep $s1414\$'"
check "--jsonl | head -2: the --record .json trace was written" \
    sh -c "'$STAGETOP' summary '$T/pipe.json' >/dev/null && [ \$(wc -l <'$T/pipe.out') -eq 2 ]"

# --- dropped_samples in the JSONL end record ---------------------------------------------
"$STAGETOP" --headless --interval 0.02 --record "$T/end.jsonl" -- sleep 1 2>"$T/end.err"
check "JSONL end record: dropped_samples present; samples + dropped = deadlines due" \
    $PY - "$T/end.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
end = recs[-1]
if end.get("type") != "end" or not isinstance(end.get("dropped_samples"), int):
    sys.exit(f"end record without dropped_samples: {end}")
samples = [r for r in recs if r.get("type") == "sample"]
iv = recs[0]["interval"]
due = round(samples[-1]["t"] / iv) + 1
if len(samples) + end["dropped_samples"] != due:
    sys.exit(f"{len(samples)} samples + {end['dropped_samples']} dropped != {due} due")
print(f"{len(samples)} samples, {end['dropped_samples']} dropped")
PY

# --- --record-sync: fdatasync calls ------------------------------------------------------
if ! need_tool "--record-sync fdatasync count" strace strace; then
    :
elif ! strace -f -o /dev/null true 2>/dev/null; then
    skip "--record-sync fdatasync count" "ptrace is not permitted here (strace -f true fails)"
else
    syncs() { # MODE: fdatasync calls of a 2 s run recording at 20 ms (100 samples)
        rm -f "$T/sync-$1.jsonl"
        _t0=$(date +%s.%N)
        strace -f -e trace=fdatasync -o "$T/strace-$1" "$STAGETOP" --headless --interval 0.02 \
            --record "$T/sync-$1.jsonl" --record-sync "$1" -- sleep 2 2>/dev/null
        elapsed_since "$_t0" >"$T/secs-$1"
        grep -c 'fdatasync(' "$T/strace-$1"
    }
    n_never=$(syncs never); n_1s=$(syncs 1s); n_always=$(syncs always)
    secs=$(awk '{ printf "%d", $1 + 0.999 }' "$T/secs-1s")
    lines=$(grep -c '^{' "$T/sync-always.jsonl") # records (padding lines are not synced)
    evs=$(grep -c '"type":"event"' "$T/sync-1s.jsonl")
    check "--record-sync never: no fdatasync" [ "$n_never" -eq 0 ]
    check "--record-sync always: one fdatasync a line ($n_always for $lines lines)" [ "$n_always" -ge "$lines" ]
    # 1s: the start line, at most one a second of the run ($secs s, rounded up),
    # each event at once, the end record
    check "--record-sync 1s: $n_1s fdatasync calls, between 2 and 2 + $secs s + $evs events" \
        sh -c "[ $n_1s -ge 2 ] && [ $n_1s -le $((2 + secs + evs)) ] && [ $n_1s -lt $((lines / 5)) ]"
fi

# --- summary: a FIFO without a writer, a large JSONL file --------------------------------
mkfifo "$T/nobody.fifo"
"$STAGETOP" summary "$T/nobody.fifo" >/dev/null 2>"$T/fifo2.err" &
p=$!
wait_bounded $p 60; rc=$?
check "summary of a FIFO without a writer: gives up (exit 1) and says so" \
    sh -c "[ $rc -eq 1 ] && grep -q 'no writer' '$T/fifo2.err'"

# --- a stage after a million marks (issue 30 item 6) ------------------------------------
# Readers keep 1,000,000 events: the stage "late" after 1,000,005 marks was
# dropped without a word ("no stages" past it) and its samples counted in
# "setup".  Stages are always kept, and what was left out is said.
$PY - "$T/marks.jsonl" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"type":"start","interval":0.5}\n{"type":"event","kind":"stage","stage":"setup","t":0.0}\n')
    f.write('{"type":"sample","t":0.0,"footprint":1000,"swap_used":0,"level":90}\n')
    f.writelines('{"type":"event","kind":"mark","note":"m","t":1.0}\n' for _ in range(1000005))
    f.write('{"type":"event","kind":"stage","stage":"late","t":2.0}\n')
    f.write('{"type":"sample","t":2.5,"footprint":9000,"swap_used":0,"level":80}\n{"type":"end"}\n')
PYEOF
"$STAGETOP" summary "$T/marks.jsonl" >"$T/marks.sum" 2>"$T/marks.err"; rc=$?
check "a stage after 1,000,005 marks: summary keeps it (its peak is its own) and says 6 left out" \
    sh -c "[ $rc -eq 0 ] && grep -q '\"late\"' '$T/marks.sum' && grep -q '6 events left out' '$T/marks.err'"
"$STAGETOP" report "$T/marks.jsonl" -o "$T/marks.md" 2>/dev/null
check "a stage after 1,000,005 marks: report says the events left out" grep -q '| events left out | 6 ' "$T/marks.md"
rm -f "$T/marks.jsonl"

case "$ST_BUILD" in
*san*) skip "summary memory" "ASan's shadow memory and quarantine are not the program's" ;;
*)
    if need_tool "summary memory" /usr/bin/time time; then
        $PY "$ST_ROOT/tests/tools/big_jsonl.py" "$T/big.jsonl"
        size_kib=$(( $(wc -c <"$T/big.jsonl") / 1024 ))
        /usr/bin/time -f '%M' -o "$T/rss" "$STAGETOP" summary "$T/big.jsonl" >"$T/big.sum" 2>"$T/big.err"
        rc=$?
        rss=$(tail -1 "$T/rss")
        # a stagetop record is summed as it is read (st_trace_summary_file):
        # memory does not grow with the samples (80 MB of them here)
        check "summary of 1,000,000 samples ($size_kib KiB): peak RSS $rss KiB < 32 MiB" \
            sh -c "[ $rc -eq 0 ] && [ $rss -lt 32768 ] && grep -q '\"duration\":499999.500' '$T/big.sum'"
        rm -f "$T/big.jsonl"
    fi ;;
esac
