#!/bin/sh
# The suite's own rules for missing tools (tests/lib/tools.sh,
# tests/run-tests.sh, scripts/deps.sh):
#  - need_tool says SKIP for a missing tool, but FAIL under CI=true;
#  - run-tests.sh counts a "SKIP: ...: X is not installed" line as a failure
#    under CI=true, and keeps other skips (needs root...) as skips;
#  - every tool that a test asks need_tool for is one scripts/deps.sh checks
#    for (and so installs);
#  - deps.sh, run by a user who cannot install, names a missing valgrind and
#    prints the command that installs it;
#  - `deps.sh build` (make run's) needs only the build (compiler, pkg-config,
#    ncursesw): without a test tool it goes on and installs none, without a
#    build need it names (as root installs) that package alone.
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
    done | sed -E -n 's/.*(need_tool|tool_missing)  *("[^"]*"|[^ "]*)  *([A-Za-z0-9_./-]*).*/\3/p' | sort -u)
# (sed -E: a BRE's \| is GNU's; Apple's sed has none)
checked=$(sh "$ST_ROOT/scripts/deps.sh" tools | sort -u)
not_in_deps=""
for t in $asked; do echo "$checked" | grep -qx "$t" || not_in_deps="$not_in_deps $t"; done
check "every tool a test needs ($(echo $asked | wc -w): $(echo $asked)) is checked by scripts/deps.sh" \
    sh -c "[ -n '$asked' ] && [ -z '$not_in_deps' ] || { echo 'not in deps.sh:$not_in_deps'; exit 1; }"

# deps.sh as a user who cannot install, with valgrind off the PATH.
if [ "$(uname -s)" != Linux ]; then
    skip "deps.sh names a missing valgrind" "Linux's list (deps.sh checks no such tool here)"
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
    # The build alone (make run, make, make install): valgrind is a test
    # tool, so the same user goes on, told what make check would add.
    asuser() { (cd "$T" && setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups env PATH="$T/bin" \
        sh "$T/deps.sh" "$@"); }
    asuser build >"$T/build.out" 2>&1
    rc=$?
    check "deps.sh build without valgrind, as a user: exit 0, says make check also needs valgrind" \
        sh -c "[ $rc -eq 0 ] && grep -q '^deps: the build has what it needs; make check also needs: .*valgrind' '$T/build.out' &&
               ! grep -q '^deps: missing' '$T/build.out' || { cat '$T/build.out'; exit 1; }"
    rm -f "$T/bin/cc"
    asuser build >"$T/nocc.out" 2>&1
    rc=$?
    check "deps.sh build without a compiler, as a user: exit 1, names cc and build-essential" \
        sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: cc\$' '$T/nocc.out' &&
               grep -q '^deps: run: sudo apt-get install build-essential\$' '$T/nocc.out' || { cat '$T/nocc.out'; exit 1; }"
fi

# deps.sh's build-only mode (`make run`, `make deps-build`) on Debian, on any
# machine: a PATH of stubs (uname says Linux; id says the uid in $FAKE_UID;
# pkg-config knows the modules in $FAKE_PC; apt-get and npm write what they
# were asked to do), every tool of the list there but tmux and valgrind.
D="$T/deb"; mkdir -p "$D/bin"
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$D/bin/$1"; chmod +x "$D/bin/$1"; }
stub uname 'case "${1:-}" in -m) echo x86_64 ;; *) echo Linux ;; esac'
debtools=$(PATH="$D/bin:$PATH" sh "$ST_ROOT/scripts/deps.sh" tools)
for c in $debtools; do case $c in /*|tmux|valgrind) ;; *) stub "$c" 'exit 0' ;; esac; done
stub id '[ "${1:-}" = -u ] && echo "${FAKE_UID:-1000}"'
stub pkg-config '[ "${1:-}" = --exists ] && case " $FAKE_PC " in *" $2 "*) exit 0 ;; esac; exit 1'
stub apt-get "echo \"apt-get \$*\" >>'$D/calls'"
stub npm "echo \"npm \$*\" >>'$D/calls'"
allpc="ncursesw libcjson cmocka"
deb() { # UID PC-MODULES ARGS...: deps.sh under the stubs; $D/out, $D/calls, $rc
    _u=$1 _pc=$2; shift 2
    rm -f "$D/calls"; : >"$D/calls"
    env -i PATH="$D/bin" HOME="$D" FAKE_UID="$_u" FAKE_PC="$_pc" "$(command -v sh)" \
        "$ST_ROOT/scripts/deps.sh" "$@" >"$D/out" 2>&1
    rc=$?
}
deb 1000 "$allpc" build
check "deps.sh build, a user without tmux and valgrind: exit 0, names them and the command for make check" \
    sh -c "[ $rc -eq 0 ] && grep -q '^deps: the build has what it needs; make check also needs: .*tmux.*valgrind' '$D/out' &&
           grep -q '^deps: to install them: sudo apt-get install .*tmux.*valgrind' '$D/out' &&
           ! grep -q '^deps: missing' '$D/out' && [ ! -s '$D/calls' ] || { echo exit $rc; cat '$D/out'; echo calls:; cat '$D/calls'; exit 1; }"
deb 1000 "$allpc"
check "deps.sh (make check's), the same user: exit 1, missing tmux and valgrind, sudo apt-get install them" \
    sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: tmux valgrind\$' '$D/out' &&
           grep -q '^deps: run: sudo apt-get install .*tmux.*valgrind' '$D/out' || { echo exit $rc; cat '$D/out'; echo calls:; cat '$D/calls'; exit 1; }"
mv "$D/bin/cc" "$D/cc"
deb 1000 "$allpc" build
check "deps.sh build without a compiler, as a user: exit 1, sudo apt-get install build-essential (no test tool)" \
    sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: cc\$' '$D/out' &&
           grep -q '^deps: run: sudo apt-get install build-essential\$' '$D/out' || { echo exit $rc; cat '$D/out'; echo calls:; cat '$D/calls'; exit 1; }"
deb 0 "$allpc" build
check "deps.sh build without a compiler, as root: apt-get installs build-essential alone, no npm" \
    sh -c "[ $rc -eq 0 ] && grep -qx 'apt-get install -y -qq build-essential' '$D/calls' &&
           ! grep -q -e tmux -e valgrind -e npm '$D/calls' || { echo exit $rc; cat '$D/out'; echo calls:; cat '$D/calls'; exit 1; }"
mv "$D/cc" "$D/bin/cc"
deb 1000 "libcjson cmocka" build
check "deps.sh build without ncursesw, as a user: exit 1, sudo apt-get install libncurses-dev" \
    sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: ncursesw\$' '$D/out' &&
           grep -q '^deps: run: sudo apt-get install libncurses-dev\$' '$D/out' || { echo exit $rc; cat '$D/out'; echo calls:; cat '$D/calls'; exit 1; }"
deb 0 "$allpc" build
check "deps.sh build as root, the build's needs there: installs nothing (no test tool, no zig), exit 0" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$D/calls' ] && grep -q 'make check also needs: .*tmux' '$D/out' || { echo exit $rc; cat '$D/out'; echo calls:; cat '$D/calls'; exit 1; }"

# make run asks deps.sh for the build's needs only; make check for all.
check "make run runs deps.sh build (not the test tools' check); make check runs deps.sh" \
    sh -c "[ \"\$(env -u MAKEFLAGS -u MFLAGS make -C '$ST_ROOT' -n --no-print-directory run 2>/dev/null | grep scripts/deps.sh)\" = 'sh scripts/deps.sh build' ] &&
           [ \"\$(env -u MAKEFLAGS -u MFLAGS make -C '$ST_ROOT' -n --no-print-directory check 2>/dev/null | grep scripts/deps.sh)\" = 'sh scripts/deps.sh' ]"
