# Run by widetree.test.sh inside `unshare --pid --fork --mount-proc`: this
# shell is pid 1 of a fresh pid namespace, the "machine" of the test.
set -u
. "$ST_ROOT/tests/lib/common.sh"
. "$ST_ROOT/tests/faults/lib.sh"

sleep 700 </dev/null >/dev/null 2>&1 &
by=$!
by_ok() { _s=$(proc_state $by); [ "$_s" = S ] || [ "$_s" = R ] || { echo "bystander: state '$_s'"; false; }; }

# --- R: refused roots --------------------------------------------------------
timeout -s KILL 30 "$STAGETOP" --headless -p 1 --interval 0.1 --kill-free 100 --on-budget kill 2>"$T/p1.err"
rc=$?
check "R: -p 1 with a guard is refused (watched only: it could never act): exit 2 naming pid 1" sh -c "[ $rc -eq 2 ] && grep -q 'pid 1' '$T/p1.err'"
check "R: ... not as another user's process" sh -c "! grep -qi 'another user' '$T/p1.err'"
check "R: the bystander was neither stopped nor killed" by_ok
# (bounded: a stagetop that accepted it would wait for its own shell for ever)
sh -c "timeout -s KILL 30 '$STAGETOP' --headless -p \$\$ --kill-free 100 --on-budget pause 2>'$T/anc.err'; echo \$? >'$T/anc.rc'"
check "R: -p of stagetop's own shell with a guard is refused: exit 2, 'ancestor'" \
    sh -c "[ \"\$(cat '$T/anc.rc')\" = 2 ] && grep -q 'ancestor' '$T/anc.err'"
python3 -c 'import threading, time
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
time.sleep(60)' &
py=$!
until_tid() { [ "$(ls /proc/$py/task 2>/dev/null | wc -l)" -ge 2 ]; }
wait_for "a second thread" 15 until_tid
tid=$(ls /proc/$py/task | grep -v "^$py\$" | head -1)
timeout -s KILL 30 "$STAGETOP" --headless -p "$tid" --kill-free 100 --on-budget pause 2>"$T/tid.err"
rc=$?
check "R: -p of a thread id ($tid) is refused: exit 2 naming process $py" \
    sh -c "[ $rc -eq 2 ] && grep -q 'thread of process $py' '$T/tid.err'"
kill $py; wait $py 2>/dev/null

# --- W: a wide tree, headless -----------------------------------------------------
sh -c 'for i in $(seq 24); do sleep 701 </dev/null >/dev/null 2>&1 & done; wait' &
wide=$!
kids() { pgrep -P $wide; }
enough() { [ "$(kids | wc -l)" -ge 24 ]; }
wait_for "24 children" 20 enough
none_stopped() { for _p in $wide $(kids); do [ "$(proc_state "$_p")" != T ] || { echo "pid $_p stopped"; return 1; }; done; }
all_alive() { [ "$(kids | wc -l)" -ge 24 ] && [ -n "$(proc_state $wide)" ]; }
for act in pause kill; do
    "$STAGETOP" --headless -p $wide --interval 0.1 --kill-free 100 --on-budget $act \
        --record "$T/w$act.jsonl" 2>"$T/w$act.err" &
    st=$!
    wait_for "the budget event" 20 grep -q '"kind":"budget"' "$T/w$act.jsonl"
    check "W: $act: read-only is said" grep -q "read-only" "$T/w$act.err"
    # (the budget event is recorded before the loop prints the warning: wait for it)
    check "W: $act: the guard says it could not act" wait_for "the warning" 20 grep -q "could not $act" "$T/w$act.err"
    check "W: $act: no member of the tree stopped" none_stopped
    check "W: $act: every member alive" all_alive
    check "W: $act: the bystander untouched" by_ok
    kill -TERM $st
    wait_bounded $st 20
    check "W: $act: SIGTERM: exit 143" [ $? -eq 143 ]
done
"$STAGETOP" --headless -p $wide --interval 0.1 --kill-free 100 --on-budget pause --allow-wide \
    2>"$T/wa.err" &
st=$!
all_stopped() { for _p in $wide $(kids); do [ "$(proc_state "$_p")" = T ] || return 1; done; }
check "W: --allow-wide: the guard does pause the tree" wait_for "tree stopped" 20 all_stopped
check "W: --allow-wide: the bystander untouched" by_ok
kill -TERM $st
wait_bounded $st 20
check "W: --allow-wide: SIGTERM resumes the tree" wait_for "resumed" 10 none_stopped
kill -KILL $wide $(kids) $by 2>/dev/null
