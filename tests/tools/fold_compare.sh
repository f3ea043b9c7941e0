#!/bin/sh
# fold_compare.sh OLD NEW [DIR]: runs two stagetop binaries on the same
# inputs and compares what each writes (stdout, stderr, exit status) byte
# for byte: `diff` (plain, --json, --fail-peak, --fail-time) of every pair
# of fixtures under tests/ (and of stdin), `summary --text` and `summary` of
# each, and the same of generated records (bench/gen_record.py) in DIR:
# 1M samples (two runs, one cut mid-line, one with a mark late (back to its second) after
# three folds, which is read again whole, one whose samples go backwards, an
# error).  FIXTURES=0: the generated records only.  What the fold of diff and summary --text
# (cli_load_summary) had to keep: the whole load's output.  Prints the
# number of runs compared; exits 1 on the first difference.
set -u
OLD=$1 NEW=$2 DIR=${3:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/st-fold-cmp.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
n=0
one() { # one ARGS...: run both, compare
    "$OLD" "$@" >"$tmp/o.out" 2>"$tmp/o.err" </dev/null; orc=$?
    "$NEW" "$@" >"$tmp/n.out" 2>"$tmp/n.err" </dev/null; nrc=$?
    if [ "$orc" != "$nrc" ] || ! cmp -s "$tmp/o.out" "$tmp/n.out" || ! cmp -s "$tmp/o.err" "$tmp/n.err"; then
        echo "DIFFERENT: stagetop $* (exit $orc vs $nrc)"
        diff "$tmp/o.out" "$tmp/n.out" | head -20; diff "$tmp/o.err" "$tmp/n.err" | head -20
        exit 1
    fi
    n=$((n + 1))
}
stdin_one() { # stdin_one FILE ARGS...: the same with FILE on stdin
    f=$1; shift
    "$OLD" "$@" >"$tmp/o.out" 2>"$tmp/o.err" <"$f"; orc=$?
    "$NEW" "$@" >"$tmp/n.out" 2>"$tmp/n.err" <"$f"; nrc=$?
    if [ "$orc" != "$nrc" ] || ! cmp -s "$tmp/o.out" "$tmp/n.out" || ! cmp -s "$tmp/o.err" "$tmp/n.err"; then
        echo "DIFFERENT: stagetop $* <$f (exit $orc vs $nrc)"; exit 1
    fi
    n=$((n + 1))
}
singles() { # every single-trace mode of one file
    one summary --text "$1"; one summary "$1"
    one diff "$1" "$1"; one diff --json "$1" "$1"
    stdin_one "$1" summary --text -; stdin_one "$1" diff - "$1"
}
pairs() { # every diff mode of A B
    one diff "$1" "$2"; one diff --json "$1" "$2"
    one diff --fail-peak 0 "$1" "$2"; one diff --fail-time 0 --json "$1" "$2"
    one diff --fail-peak -100 --fail-time 5 "$1" "$2"
}
cd "$ROOT" || exit 1
find tests -name '*.json*' -type f | LC_ALL=C sort >"$tmp/list"
[ "${FIXTURES:-1}" = 0 ] || while read -r a; do
    singles "$a"
    while read -r b; do pairs "$a" "$b"; done <"$tmp/list"
done <"$tmp/list"
echo "fixtures: $n runs the same"
one diff; one diff --json x; one summary --text; one diff /nonexistent "$(head -1 "$tmp/list")"
if [ -n "$DIR" ]; then
    G="python3 $ROOT/bench/gen_record.py"
    [ -f "$DIR/a.jsonl" ] || $G "$DIR/a.jsonl" 1000000 40 1
    [ -f "$DIR/b.jsonl" ] || $G "$DIR/b.jsonl" 1000000 40 2
    [ -f "$DIR/torn.jsonl" ] || head -c 123456789 "$DIR/b.jsonl" >"$DIR/torn.jsonl"
    # a mark late (t cut to the second) after three folds of 65536: read again whole
    [ -f "$DIR/late.jsonl" ] || awk '{ print } NR == 200001 { print "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"late\",\"t\":" $0 }' \
        "$DIR/a.jsonl" | sed 's/^\({"type":"event","kind":"mark","note":"late","t":\){"type":"sample","t":\([0-9]*\)\.[0-9]*,.*/\1\2.000}/' \
        >"$DIR/late.jsonl"
    # two samples swapped: time goes backwards, an error
    [ -f "$DIR/unsorted.jsonl" ] || awk 'NR == 200001 { held = $0; next } { print } NR == 200002 { print held }' \
        "$DIR/a.jsonl" >"$DIR/unsorted.jsonl"
    for f in a b torn late unsorted; do
        one summary --text "$DIR/$f.jsonl"
        stdin_one "$DIR/$f.jsonl" summary --text -
    done
    for p in "a b" "b a" "a torn" "late b" "a late" "unsorted b"; do
        set -- $p
        pairs "$DIR/$1.jsonl" "$DIR/$2.jsonl"
    done
    stdin_one "$DIR/a.jsonl" diff --json - "$DIR/b.jsonl"
    one diff "$DIR/a.jsonl" "$(head -1 "$tmp/list")"
fi
echo "all: $n runs the same"
