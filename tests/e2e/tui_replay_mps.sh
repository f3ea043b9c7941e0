#!/bin/sh
# The MPS cap's word in the replay screen's header (docs/replay.md), in a
# real terminal (tmux, 160x40), for the Mac traces of tests/fixtures/mps
# (issue 27's numbers): "mps refused" for a high ratio of 0.8 alone,
# "mps capped" for 0.8 + 0.8, "mps>ram" for 1.7, "mps no limit" for 0.0;
# no word for a trace without MPS keys.  q ends each.
set -u
. "$(dirname "$0")/tui_common.inc"
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
FX=$ROOT/tests/fixtures/mps

one() { # name, fixture, word
    start_pane "$1" 160 40 "'$STAGETOP' replay '$FX/$2'"
    if wait_screen "$1" 10 "samples .*  $3\$\|samples .*  $3 "; then
        echo "PASS: replay $2: the header says '$3'"
    else
        echo "FAIL: replay $2: no '$3' in the header"
    fi
    tm send-keys -t "$1" q
    wait_screen "$1" 10 "stagetop-exit=0" >/dev/null || echo "FAIL: replay $2: q did not end it"
}
one refused mac-high-0.8.jsonl "mps refused"
one capped mac-both-0.8.jsonl "mps capped"
one swap mac-high-1.7.jsonl "mps>ram"
one nolimit mac-zero.jsonl "mps no limit"

sed -e 's/,"mps_[a-z_]*":[^,}]*//g' "$FX/mac-high-0.8.jsonl" >"$T/plain.jsonl"
start_pane plain 160 40 "'$STAGETOP' replay '$T/plain.jsonl'"
if wait_screen plain 10 "4 samples" && ! screen plain | grep -q "mps"; then
    echo "PASS: replay of a trace without MPS keys: no mps word"
else
    echo "FAIL: replay of a trace without MPS keys: $(screen plain | grep mps)"
fi
tm send-keys -t plain q
