#!/bin/sh
# The suite's own rules for missing tools (tests/lib/tools.sh,
# tests/run-tests.sh, scripts/deps.sh):
#  - need_tool says SKIP for a missing tool, but FAIL under CI=true;
#  - run-tests.sh counts a "SKIP: ...: X is not installed" line as a failure
#    under CI=true, and keeps other skips (needs root...) as skips;
#  - every tool that a test asks need_tool for is one scripts/deps.sh checks
#    for (and so installs);
#  - deps.sh, run by a user who cannot install, names a missing valgrind and
#    prints the command that installs it.
set -u
. "$(dirname "$0")/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
missing=stagetop-no-such-tool-$$

check "need_tool: a missing tool is a SKIP that names it" \
    sh -c "out=\$(CI= ST_ROOT='$ST_ROOT' sh -c '. \"\$ST_ROOT/tests/lib/tools.sh\"; need_tool demo $missing pkg'); rc=\$?
           [ \$rc -eq 1 ] && echo \"\$out\" | grep -q '^SKIP: demo: $missing is not installed'"
check "need_tool under CI=true: a missing tool is a FAIL" \
    sh -c "out=\$(CI=true ST_ROOT='$ST_ROOT' sh -c '. \"\$ST_ROOT/tests/lib/tools.sh\"; need_tool demo $missing pkg'); rc=\$?
           [ \$rc -eq 1 ] && echo \"\$out\" | grep -q '^FAIL: demo: $missing is not installed'"
check "need_tool: a tool that is there passes silently" \
    sh -c "[ -z \"\$(CI=true ST_ROOT='$ST_ROOT' sh -c '. \"\$ST_ROOT/tests/lib/tools.sh\"; need_tool demo sh')\" ]"

# A test script that passes one check, skips one for a missing tool and one
# for root, run through run-tests.sh alone (no unit tests: no build dir).
printf '%s\n' '#!/bin/sh' 'echo "PASS: one"' "echo 'SKIP: two: $missing is not installed'" \
    'echo "SKIP: three: needs root"' >"$T/fake.test.sh"
runner() { (cd "$ST_ROOT" && env ONLY= CI="$1" ST_TESTS="$T/fake.test.sh" sh tests/run-tests.sh "$T/nobuild"); }
runner "" >"$T/plain.out" 2>&1; plain=$?
runner true >"$T/ci.out" 2>&1; ci=$?
check "run-tests: without CI, a missing tool is a skip (exit 0, 1 passed, 0 failed, 2 skipped)" \
    sh -c "[ $plain -eq 0 ] && tail -1 '$T/plain.out' | grep -qx '1 passed, 0 failed, 2 skipped'"
check "run-tests under CI=true: the missing tool fails the run, the root skip stays a skip" \
    sh -c "[ $ci -ne 0 ] && tail -1 '$T/ci.out' | grep -qx '1 passed, 1 failed, 1 skipped'"

# The tools the tests ask for, read from their need_tool calls, against the
# commands deps.sh checks on this OS (elsewhere than Linux, the tests of
# tests/linux-only.txt do not run and are not read).
asked=$(for f in "$ST_ROOT"/tests/*/*.sh "$ST_ROOT"/tests/e2e/*.inc; do
        case $f in */tests/lib/*) continue ;; esac
        [ "$(uname -s)" = Linux ] || ! grep -q "^tests/${f#*/tests/} " "$ST_ROOT/tests/linux-only.txt" || continue
        grep -v '^ *#' "$f"
    done | sed -E -n 's/.*(need_tool|tool_missing)  *("[^"]*"|[^ "]*)  *([A-Za-z0-9_.-]*).*/\3/p' | sort -u)
# (sed -E: a BRE's \| is GNU's; Apple's sed has none)
checked=$(sh "$ST_ROOT/scripts/deps.sh" tools | sort -u)
not_in_deps=""
for t in $asked; do echo "$checked" | grep -qx "$t" || not_in_deps="$not_in_deps $t"; done
check "every tool a test needs ($(echo $asked | wc -w): $(echo $asked)) is checked by scripts/deps.sh" \
    sh -c "[ -n '$asked' ] && [ -z '$not_in_deps' ] || { echo 'not in deps.sh:$not_in_deps'; exit 1; }"

# deps.sh as a user who cannot install, with valgrind off the PATH.
if [ "$(uname -s)" != Linux ]; then
    skip "deps.sh names a missing valgrind" "valgrind is a Linux-only dependency"
elif [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
    skip "deps.sh names a missing valgrind" "needs root and user nobody (deps.sh installs when root)"
elif need_tool "deps.sh names a missing valgrind" setpriv util-linux; then
    mkdir "$T/bin"
    for c in sh uname id cat pkg-config tmux python3 cc rsvg-convert promtool cmark xmllint setpriv \
             unshare fallocate mkswap swapon swapoff pgrep apt-get brew; do
        p=$(command -v "$c" 2>/dev/null) && ln -s "$p" "$T/bin/$c"
    done
    # nobody runs a copy: the checkout may be private (a clone in root's
    # home, mode 0700), and nobody could not read the script there
    cp "$ST_ROOT/scripts/deps.sh" "$T/deps.sh"
    chmod 755 "$T" "$T/bin"
    chmod 644 "$T/deps.sh"
    (cd "$T" && setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups env PATH="$T/bin" \
        sh "$T/deps.sh") >"$T/deps.out" 2>&1
    rc=$?
    check "deps.sh without valgrind, as a user: exit 1, names valgrind, prints the install command" \
        sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing:.* valgrind' '$T/deps.out' &&
               grep -q 'install .*valgrind' '$T/deps.out' || { cat '$T/deps.out'; exit 1; }"
fi
