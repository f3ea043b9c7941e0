# Run by widetree.test.sh as a tmux pane's command, inside
# `unshare --pid --fork --mount-proc` (this shell is pid 1 there): a wide
# tree (a shell with 24 `sleep $UNIQ`), watched by stagetop on the pane.
set -u
sh -c "for i in \$(seq 24); do sleep $UNIQ </dev/null >/dev/null 2>&1 & done; wait" &
wide=$!
while [ "$(pgrep -c -P $wide)" -lt 24 ]; do sleep 0.05; done
"$STAGETOP" -p $wide --interval 0.2
echo "stagetop-exit=$?"
# As pid 1 of its namespace this shell ignores the closing pane's SIGHUP:
# stay until the test is done, then the namespace ends with everything in it.
while [ ! -e "$T/end" ] && [ -d "$T" ]; do sleep 0.2; done
