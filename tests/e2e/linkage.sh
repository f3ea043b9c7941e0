#!/bin/sh
# The product links what it calls and nothing else: cJSON and cmocka are the
# tests' (docs/trace-format.md, "Why not cJSON"); NVML is loaded at run time.
set -u
. "$(dirname "$0")/../lib/common.sh"
if command -v ldd >/dev/null 2>&1 && [ "$(uname -s)" = Linux ]; then
    libs=$(ldd "$STAGETOP")
elif command -v otool >/dev/null 2>&1; then
    libs=$(otool -L "$STAGETOP")
else
    skip linkage "neither ldd (Linux) nor otool (macOS) is here"; exit 0
fi
check "stagetop links ncurses (it draws the screen)" sh -c "echo '$libs' | grep -q ncurses"
check "stagetop does not link cJSON (a test-only dependency)" sh -c "! echo '$libs' | grep -qi cjson"
check "stagetop does not link cmocka" sh -c "! echo '$libs' | grep -qi cmocka"
check "stagetop does not link NVML (dlopen at run time)" sh -c "! echo '$libs' | grep -qi nvidia-ml"
# The link line itself (ld may drop an unused library by itself: the rule
# must not ask for it in the first place).
if command -v make >/dev/null 2>&1; then
    # The build directory names its flavour: build-san is SANITIZE=1's.
    case ${ST_BUILD:-build} in *san*) MKSAN="SANITIZE=1" ;; *) MKSAN="" ;; esac
    make -s -C "$ST_ROOT" -n -B V=1 $MKSAN "${ST_BUILD:-build}/stagetop" 2>/dev/null | grep -- "-o ${ST_BUILD:-build}/stagetop" >"${TMPDIR:-/tmp}/st-link.$$"
    check "the Makefile's link line for stagetop has no -lcjson" \
        sh -c "grep -q -- '-o ' '${TMPDIR:-/tmp}/st-link.$$' && ! grep -q -- '-lcjson' '${TMPDIR:-/tmp}/st-link.$$'"
    # The product starts no thread (docs/design.md, "Who may include what").
    check "the Makefile's link line for stagetop has no -lpthread" \
        sh -c "grep -q -- '-o ' '${TMPDIR:-/tmp}/st-link.$$' && ! grep -q -e '-lpthread' -e '-pthread' '${TMPDIR:-/tmp}/st-link.$$'"
    rm -f "${TMPDIR:-/tmp}/st-link.$$"
    # A unit test links what it tests (mk/unit.mk): a core test neither the
    # tui objects nor curses; a tui test the tui archive, not curses.
    L="${TMPDIR:-/tmp}/st-unit-link.$$"
    for t in test_events test_sparkline; do
        make -s -C "$ST_ROOT" -n -B V=1 $MKSAN "${ST_BUILD:-build}/tests/$t" 2>/dev/null |
            awk '/\\$/ { sub(/\\$/, ""); printf "%s", $0; next } { print }' |
            grep -- "-o ${ST_BUILD:-build}/tests/$t " >"$L.$t"
    done
    check "the core's unit test (test_events) links neither tui/ nor curses nor cJSON" \
        sh -c "grep -q -- '-o ' '$L.test_events' && ! grep -q -e '/tui/' -e 'libstagetop-tui' -e '-lncurses' -e '-lcjson' '$L.test_events'"
    check "a tui unit test (test_sparkline) links the tui archive, not curses" \
        sh -c "grep -q 'libstagetop-tui.a' '$L.test_sparkline' && ! grep -q -e '-lncurses' -e '-lcurses' '$L.test_sparkline'"
    rm -f "$L.test_events" "$L.test_sparkline"
fi
