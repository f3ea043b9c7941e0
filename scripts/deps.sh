#!/bin/sh
# Install what stagetop needs to build and test (`deps.sh`), or to run the
# benchmarks too (`deps.sh bench`), where that is possible: Debian/Ubuntu as
# root with apt-get; otherwise print the exact command to run.
set -u
pkgs="build-essential pkg-config libncurses-dev libcjson-dev libcmocka-dev tmux python3 librsvg2-bin"
brew="ncurses cjson cmocka pkg-config tmux librsvg coreutils"
missing=""
for pc in ncursesw libcjson cmocka; do
    pkg-config --exists "$pc" 2>/dev/null || missing="$missing $pc"
done
for c in pkg-config tmux python3 cc rsvg-convert; do
    command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
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
if [ "${1:-}" = bench ]; then   # the peers that `make bench` measures against
    pkgs="$pkgs htop btop python3-psutil"
    brew="$brew htop btop"
    for c in htop btop; do command -v "$c" >/dev/null 2>&1 || missing="$missing $c"; done
    # Debian's python3-psutil is for the system python (bench/sampling.sh
    # tries /usr/bin/python3 first), not for a python3 earlier on the PATH.
    { /usr/bin/python3 -c 'import psutil' || python3 -c 'import psutil'; } 2>/dev/null ||
        missing="$missing python3-psutil"
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
