#!/bin/sh
# The floors of docs/design.md ("Floors"), read from what was built: every
# call between modules in the objects' symbols (nm), and every #include of
# the sources, against tests/lib/layering.rules (the floors as data).  A
# violation names the object (or file), the symbol (or header) and the
# module it belongs to.  tests/lib/layering.test.sh shows it catches them.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$ST_ROOT/tests/lib/layering.sh"
B="$ST_ROOT/${ST_BUILD:-build}"
case ${ST_BUILD:-build} in /*) B=$ST_BUILD ;; esac
need_tool layering nm || exit 0
if [ ! -d "$B/core" ]; then
    echo "FAIL: layering: the objects are built ($B/core is missing: make first)"; exit 1
fi
T=$(mktemp); trap 'rm -f "$T"' EXIT
layering_symtab "$B" "$ST_ROOT" >"$T"
layering_calls "$ST_ROOT/tests/lib/layering.rules" "$T"
layering_no_cycles "$T"
layering_sources "$ST_ROOT/tests/lib/layering.rules" "$ST_ROOT"
