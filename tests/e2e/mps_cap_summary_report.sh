#!/bin/sh
# The MPS cap's verdict (docs/metrics.md "The MPS cap") in `stagetop summary
# --text` and `stagetop report` of the Mac traces of tests/fixtures/mps
# (issue 27's numbers: 37.44 GiB recommended on a 48 GiB Mac), read here on
# whatever platform this is: each ratio's line as PyTorch's rules give it
# (worked by hand in the fixtures' README), none for a job without Metal
# and none for a Linux trace.  Prints PASS/FAIL/SKIP lines.
set -u
ROOT=${ST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${ST_BUILD:-build}
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
ST=${STAGETOP:-$B/stagetop}
[ -x "$ST" ] || { echo "SKIP: mps_cap: $ST is not built"; exit 0; }
FX=$ROOT/tests/fixtures/mps
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# summary --text's "mps" line, its wrapped lines joined with one space.
mps_text() {
    "$ST" summary --text "$1" 2>"$tmp/err" | awk '
        /^mps / { on = 1; sub(/^mps +/, ""); s = $0; next }
        on && /^                [^ ]/ { sub(/^ +/, ""); s = s " " $0; next }
        { on = 0 }
        END { print s }'
}
# report's "| MPS | ... |" row, its text.
mps_report() {
    "$ST" report "$1" 2>"$tmp/err" | sed -n 's/^| MPS | \(.*\) |$/\1/p'
}

check() { # file, expected line
    f=$FX/$1
    got=$(mps_text "$f")
    if [ "$got" = "$2" ]; then echo "PASS: summary --text $1: $2"
    else echo "FAIL: summary --text $1: got '$got', expected '$2' ($(cat "$tmp/err"))"; fi
    got=$(mps_report "$f" | sed -e 's/\\//g' -e 's/&gt;/>/g') # report escapes Markdown's specials
    if [ "$got" = "$2" ]; then echo "PASS: report $1 says it"
    else echo "FAIL: report $1: got '$got', expected '$2' ($(cat "$tmp/err"))"; fi
}

SWAP="MPS cap 63.65 GiB per process (1.7 x 37.44 GiB) above the RAM (48.00 GiB): expect swap before PyTorch's out-of-memory error"
check mac-high-1.7.jsonl "$SWAP"
check mac-high-0.8.jsonl "PyTorch will refuse it: low 1.4 > high 0.8; set both"
check mac-both-0.8.jsonl "MPS cap 29.95 GiB per process (0.8 x 37.44 GiB) under the RAM (48.00 GiB): PyTorch's out-of-memory error comes before swap"
check mac-zero.jsonl "no MPS limit (high 0.0): PyTorch never refuses an MPS allocation; a job that does not fit swaps"

# Ratios unset: the job used Metal only if its metal lane (the graphics
# footprint) was read; a build that does not know that lane has no sign of
# Metal in this trace, and says nothing.
if "$ST" summary "$FX/mac-unset.jsonl" | grep -q '"[a-z_]*metal[a-z_]*"'; then
    check mac-unset.jsonl "$SWAP"
else
    got=$(mps_text "$FX/mac-unset.jsonl")$(mps_report "$FX/mac-unset.jsonl")
    if [ -z "$got" ]; then echo "PASS: ratios unset and no metal lane known: no MPS line"
    else echo "FAIL: ratios unset, no metal lane known: '$got'"; fi
fi

# A Linux trace: no line anywhere.
lin=$tmp/linux.jsonl
sed -e 's/"platform":"darwin"/"platform":"linux"/' -e 's/,"mps_[a-z_]*":[^,}]*//g' \
    "$FX/mac-high-0.8.jsonl" >"$lin"
if [ -z "$(mps_text "$lin")$(mps_report "$lin")" ]; then echo "PASS: a trace without MPS keys: no MPS line"
else echo "FAIL: a trace without MPS keys has an MPS line"; fi
