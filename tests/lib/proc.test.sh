#!/bin/sh
# The process-fact helper (tests/lib/proc.sh) on processes whose facts are
# known from how they were started: a shell with two children, a stopped
# one, a zombie, a process holding 64 MiB of random bytes, one gone.  Runs
# on Linux and on a Mac: it is what the other shell tests trust.
set -u
. "$(dirname "$0")/common.sh"
T=$(mktemp -d)
trap 'cleanup_jobs; exec 3>&-; rm -rf "$T"' EXIT

# A parent with two children whose pids it writes down itself.
sh -c 'sleep 600 & echo $! >"$1.a"; sleep 600 & echo $! >"$1.b"; wait' sh "$T/kids" &
parent=$!
remember_job $parent
wait_for "both children" 30 test -s "$T/kids.b"
a=$(cat "$T/kids.a") b=$(cat "$T/kids.b")
remember_job "$a"; remember_job "$b"
want=$(printf '%s\n%s\n' "$a" "$b" | sort -n | tr '\n' ' ')
got_kids() { got=$(proc_children $parent | tr '\n' ' '); echo "got '$got' want '$want'"; [ "$got" = "$want" ]; }
check "proc_children: the two children the parent started" got_kids
two_not_three() { proc_has_children $parent 2 && ! proc_has_children $parent 3; }
check "proc_has_children: at least 2, not 3" two_not_three
check "proc_parent: the child's parent is the shell" [ "$(proc_parent "$a")" = "$parent" ]
tree=$(proc_tree $parent | sort -n | tr '\n' ' ')
check "proc_tree: the shell and its two children" \
    [ "$tree" = "$(printf '%s\n%s\n%s\n' "$parent" "$a" "$b" | sort -n | tr '\n' ' ')" ]
check "proc_state: a sleeping child is S" [ "$(proc_state "$a")" = S ]
check "proc_name: the child is sleep" [ "$(proc_name "$a")" = sleep ]
check "proc_args: the child's command line" [ "$(proc_args "$a")" = "sleep 600" ]
kill -STOP "$a"
check "proc_state: a stopped child is T" wait_for "state T" 30 sh -c '[ "$(ps -o stat= -p "$1" | cut -c1)" = T ]' sh "$a"
check "proc_state agrees: T" [ "$(proc_state "$a")" = T ]
kill -KILL "$a"
# The shell (blocked in wait) reaps it; a process that never waits keeps a
# zombie: sh forks a child, then becomes a sleep that never reaps; the child
# exits only once the sleep is there (file "go").
sh -c '(until [ -e "$1.go" ]; do sleep 0.05; done) & echo $! >"$1"; exec sleep 600' sh "$T/zpid" &
zparent=$!
remember_job $zparent
wait_for "the zombie's pid" 30 test -s "$T/zpid"
z=$(cat "$T/zpid")
became_sleep() { [ "$(proc_name $zparent)" = sleep ]; }
wait_for "the parent became sleep" 30 became_sleep
touch "$T/zpid.go"
is_zombie() { [ "$(proc_state "$z")" = Z ]; }
check "proc_state: an exited, unreaped child is Z" wait_for "zombie" 30 is_zombie
check "proc_exists: a zombie exists" proc_exists "$z"
kill -KILL $zparent; wait $zparent 2>/dev/null
gone_now() { ! proc_exists "$z"; }
check "proc_exists: false once the zombie's parent is gone (reaped)" wait_for "reaped" 30 gone_now
check "proc_state: empty for a process that is gone" [ -z "$(proc_state "$z")" ]
fp=$(free_pid)
check "free_pid: $fp is no process" sh -c '! ps -p "$1" >/dev/null' sh "$fp"

# 64 MiB of random bytes, resident: rss is at least that.
mkfifo "$T/in"
"$WORKLOADS/holdmem" --mib 64 <"$T/in" >"$T/hold.out" 2>&1 &
hold=$!
remember_job $hold
exec 3>"$T/in"
wait_for "holdmem ready" 60 grep -q '^ready' "$T/hold.out"
rss=$(proc_rss_kib $hold)
check "proc_rss_kib: $rss KiB for a process holding 64 MiB (>= 65536)" [ "${rss:-0}" -ge 65536 ]
exec 3>&-
wait $hold
check "proc_exists: false after the process exited and was reaped" sh -c '! ps -p "$1" >/dev/null' sh "$hold"
