#!/bin/sh
# Fault: bytes a job chose reach the terminal in headless mode (issue 21 item
# 7).  The job writes a bad event line whose first word is an OSC 52
# clipboard write (ESC ] 52 ; c ; BASE64 BEL) and one with a title change
# and a C1 CSI; stagetop's warning quotes the line.  No ESC, BEL or C1 byte
# may reach stderr: they are shown as ^[ and ^G (tui/sanitize.c, through
# cli_say).  Also a trace whose version token is such a sequence, read by
# `summary`.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '\033]52;c;SGVsbG8=\007 x\n\033]0;pwned\007\302\233 y\n' > "$T/bad-lines"
"$STAGETOP" --headless --interval 0.1 -- sh -c "cat '$T/bad-lines' >> \"\$STAGETOP_EVENTS\"; sleep 0.6" \
    2> "$T/err"
# clean FILE: no ESC, BEL or C1 CSI (U+009B) byte in it
clean() { python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(any(b in d for b in (b"\x1b", b"\x07", b"\xc2\x9b")))' "$1"; }
check "headless: the bad line is warned about" grep -q 'is not an event' "$T/err"
check "headless: no ESC, BEL or C1 byte on stderr" clean "$T/err"
check "headless: the escapes are shown as ^[ ^G \\u009b" grep -qF '^[]0;pwned^G\u009b' "$T/err"
printf '{"type":"start","version":"\033]0;x\007"}\n{"type":"start","trace_version":1}\n' > "$T/t.jsonl"
"$STAGETOP" summary "$T/t.jsonl" > /dev/null 2> "$T/sum.err"
check "summary's error: no ESC or BEL byte on stderr" clean "$T/sum.err"
