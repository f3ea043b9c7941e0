#!/bin/sh
# docs/design.md's module map names every source: each .c of core/ and tui/
# and each internal header of core/ appears in the "Module map" section by
# its file name (`name.c`, or a path ending in /name.c, in backquotes).  A
# new file the map does not name fails here ("Where a change goes": a new
# source file).  The check is also run once on a copy with a file the map
# does not name, which must fail.
set -u
. "$(dirname "$0")/../lib/common.sh"

# map_missing ROOT: prints each source of ROOT the map of ROOT/docs/design.md
# does not name; fails when the map section is not found.
map_missing() {
    _map=$(awk '/^## Module map/ { f = 1; next } /^## / { f = 0 } f' "$1/docs/design.md")
    [ -n "$_map" ] || { echo "(no \"## Module map\" section in $1/docs/design.md)"; return 1; }
    (cd "$1" && find core tui -type f \( -name '*.c' -o -path 'core/*.h' \) | LC_ALL=C sort) |
        while read -r f; do
            b=${f##*/}
            printf '%s\n' "$_map" | grep -qF -e "\`$b\`" -e "/$b\`" || echo "$f"
        done
}

M=$(mktemp); D=$(mktemp -d); trap 'rm -rf "$M" "$D"' EXIT
map_missing "$ST_ROOT" >"$M"
rc=$?
check "docs/design.md's module map names every .c of core/ and tui/ and core's internal headers" \
    sh -c "[ $rc -eq 0 ] && ! grep . '$M'"

# The check fails on a file the map does not name (a copy of the tree's
# sources and design.md, with one more file).
mkdir -p "$D/docs" && cp "$ST_ROOT/docs/design.md" "$D/docs/" && cp -R "$ST_ROOT/core" "$ST_ROOT/tui" "$D/"
: >"$D/core/run/unnamed_dummy.c"
: >"$D/tui/unnamed_too.c"
: >"$D/core/model/unnamed_internal.h"
map_missing "$D" >"$M"
check "a source the map does not name is caught (core/run/unnamed_dummy.c)" grep -qx core/run/unnamed_dummy.c "$M"
check "a tui source the map does not name is caught" grep -qx tui/unnamed_too.c "$M"
check "an internal header of core the map does not name is caught" grep -qx core/model/unnamed_internal.h "$M"
check "only the unnamed files are reported" sh -c "[ \$(wc -l <'$M') -eq 3 ]"
