#!/bin/sh
# Usage errors said plainly, before anything starts (stagetop(1) OPTIONS):
# -p / -i without a value, --history 0, --export-dir that is missing.
set -u
. "$(dirname "$0")/../lib/common.sh"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

usage() { # NAME EXPECTED-MESSAGE ARGS...: exit 2 and the message
    _n=$1 _m=$2; shift 2
    "$STAGETOP" "$@" >"$T/out" 2>"$T/err"
    _rc=$?
    check "$_n: exit 2 (got $_rc)" [ $_rc -eq 2 ]
    check "$_n: says '$_m'" grep -q -- "$_m" "$T/err"
}
usage "-p without a value" "option '-p' needs a value" -p
usage "-i without a value" "option '-i' needs a value" -i
usage "--record without a value" "option '--record' needs a value" --record
usage "--history 0" "--history: '0': must be more than 0" --history 0 -p $$
usage "--export-dir missing" "--export-dir: $T/nodir does not exist" --headless --export-dir "$T/nodir" -- touch "$T/started"
check "--export-dir missing: nothing was started" test ! -e "$T/started"
