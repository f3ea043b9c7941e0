# Run by pidreuse.test.sh as a tmux pane's command, inside
# `unshare --pid --fork --mount-proc` (this shell is pid 1 there).  A helper
# owns the victim; on $T/go it kills it and gives its pid to a stranger
# (sleep $UNIQ), then writes the stranger's pid to $T/stranger.  stagetop
# watches the victim on the pane's terminal.
set -u
(
    sleep 600 </dev/null >/dev/null 2>&1 &
    v=$!
    echo $v >"$T/victim.tmp" && mv "$T/victim.tmp" "$T/victim"
    while [ ! -e "$T/go" ]; do sleep 0.05; done
    kill -KILL $v; wait $v 2>/dev/null
    for try in 1 2 3 4 5; do
        echo $((v - 1)) >/proc/sys/kernel/ns_last_pid
        sleep "$UNIQ" </dev/null >/dev/null 2>&1 &
        s=$!
        [ $s = $v ] && break
        kill -KILL $s; wait $s 2>/dev/null
    done
    echo $s >"$T/stranger.tmp" && mv "$T/stranger.tmp" "$T/stranger"
    while [ ! -e "$T/end" ]; do sleep 0.1; done
    kill -KILL $s 2>/dev/null
) &
while [ ! -s "$T/victim" ]; do sleep 0.05; done
"$STAGETOP" -p "$(cat "$T/victim")" --interval 0.2
echo "stagetop-exit=$?"
# Stay (the pane with it) until the test is done; then this namespace ends,
# and everything in it.  (As pid 1 of its namespace this shell ignores the
# SIGHUP of a closing pane: it must leave by itself.)
while [ ! -e "$T/end" ] && [ -d "$T" ]; do sleep 0.2; done
