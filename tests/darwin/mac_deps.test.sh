#!/bin/sh
# scripts/deps.sh as a Mac runs it, on any machine: a fake `uname` says
# Darwin.  With every tool of the Mac's list present (stubs on the PATH,
# nothing else) it exits 0; without promtool it exits 1, names promtool and
# prints the brew command with its formula.  The macOS workflow installs
# what `deps.sh packages` prints, and docs/macos.md's `brew install` line is
# exactly the Mac's list.  `deps.sh build` (make run's) needs the compiler
# alone, and names what make check would add without stopping.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
SH=$(command -v sh)

mkdir "$T/bin"
cat >"$T/bin/uname" <<'S'
#!/bin/sh
case "${1:-}" in -m) echo arm64 ;; *) echo Darwin ;; esac
S
chmod +x "$T/bin/uname"
tools=$(PATH="$T/bin:$PATH" "$SH" scripts/deps.sh tools)
check "deps.sh under Darwin lists the Mac's tools, Linux-only ones left out ($(echo $tools))" \
    sh -c "echo '$tools' | grep -qx promtool && echo '$tools' | grep -qx cmark-gfm &&
           ! echo '$tools' | grep -qx -e valgrind -e setpriv -e strace -e free"
for c in $tools; do printf '#!/bin/sh\nexit 0\n' >"$T/bin/$c"; chmod +x "$T/bin/$c"; done
# pkg-config finds every module (ncursesw, libcjson, cmocka).
printf '#!/bin/sh\nexit 0\n' >"$T/bin/pkg-config"; chmod +x "$T/bin/pkg-config"

PATH="$T/bin" "$SH" scripts/deps.sh >"$T/all.out" 2>&1; rc=$?
check "every Mac tool present: deps.sh exits 0 (rc $rc: $(tr '\n' ' ' <"$T/all.out"))" test "$rc" -eq 0

rm "$T/bin/promtool"
PATH="$T/bin" "$SH" scripts/deps.sh >"$T/one.out" 2>&1; rc=$?
check "without promtool: exit 1, names it, prints brew install prometheus" \
    sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: promtool\$' '$T/one.out' &&
           grep -q '^deps: run: brew install prometheus\$' '$T/one.out' || { cat '$T/one.out'; exit 1; }"
check "deps.sh packages prints the formula of what is missing" \
    sh -c "[ \"\$(PATH='$T/bin' '$SH' scripts/deps.sh packages)\" = prometheus ]"

# Nothing there but uname and sh: the whole Mac list, as docs/macos.md says.
rm -f "$T/bin"/*
cat >"$T/bin/uname" <<'S'
#!/bin/sh
case "${1:-}" in -m) echo arm64 ;; *) echo Darwin ;; esac
S
chmod +x "$T/bin/uname"
all=$(PATH="$T/bin" "$SH" scripts/deps.sh packages)
doc=$(sed -n 's/^brew install \([a-z0-9 @-]*[a-z0-9]\) *#.*/\1/p; s/^brew install \([a-z0-9 @-]*[a-z0-9]\) *$/\1/p' docs/macos.md | head -1)
check "docs/macos.md installs exactly the Mac's list ($all)" \
    sh -c "[ -n '$all' ] && [ \"\$(echo '$all' | tr ' ' '\n' | sort)\" = \"\$(echo '$doc' | tr ' ' '\n' | sort)\" ] || { echo 'doc: $doc'; exit 1; }"
check "the macOS workflow installs what deps.sh packages prints, and not pkg-config by name" \
    sh -c "grep -q 'brew install \$(sh scripts/deps.sh packages)' .github/workflows/macos.yml &&
           ! grep -E 'brew install .*pkg-config' .github/workflows/macos.yml"

# The build alone (make run, make, make install) on a Mac needs a compiler
# only (the Makefile links Apple's curses without Homebrew's): none of the
# test tools above is there, and it goes on, saying what make check adds.
PATH="$T/bin" "$SH" scripts/deps.sh build >"$T/b0.out" 2>&1; rc=$?
check "deps.sh build on a Mac without cc: exit 1, names cc (xcode-select --install)" \
    sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: cc\$' '$T/b0.out' && grep -q xcode-select '$T/b0.out' || { cat '$T/b0.out'; exit 1; }"
printf '#!/bin/sh\nexit 0\n' >"$T/bin/cc"; chmod +x "$T/bin/cc"
PATH="$T/bin" "$SH" scripts/deps.sh build >"$T/b1.out" 2>&1; rc=$?
check "deps.sh build on a Mac with cc and no test tool: exit 0, names what make check also needs, and brew's command" \
    sh -c "[ $rc -eq 0 ] && grep -q '^deps: the build has what it needs; make check also needs: .*tmux.*prometheus' '$T/b1.out' &&
           grep -q '^deps: to install them: brew install .*tmux.*prometheus' '$T/b1.out' || { cat '$T/b1.out'; exit 1; }"

# Homebrew's ncurses is asked for even where `pkg-config --exists ncursesw`
# holds without it: Homebrew's pkgconf has an ncursesw.pc for macOS's own
# curses in its default path (Library/Homebrew/os/mac/pkgconfig/<macOS>).
# Here the real pkg-config's default path plays that part (this machine's
# ncursesw.pc); a fake brew prefix holds cjson's and cmocka's .pc files,
# then the keg's.
need_tool pkg-config pkg-config || exit 0
pkg-config --exists ncursesw ||
    { echo "FAIL: this machine's pkg-config has no ncursesw.pc to stand in for Homebrew's"; exit 1; }
rm -f "$T/bin"/*
for c in $tools; do printf '#!/bin/sh\nexit 0\n' >"$T/bin/$c"; chmod +x "$T/bin/$c"; done
cat >"$T/bin/uname" <<'S'
#!/bin/sh
case "${1:-}" in -m) echo arm64 ;; *) echo Darwin ;; esac
S
printf '#!/bin/sh\n[ "${1:-}" = --prefix ] && echo %s\n' "$T/brew" >"$T/bin/brew"
chmod +x "$T/bin/uname" "$T/bin/brew"
ln -sf "$(command -v pkg-config)" "$T/bin/pkg-config"
mkdir -p "$T/brew/lib/pkgconfig"
for m in libcjson cmocka; do
    printf 'Name: %s\nDescription: test\nVersion: 1\nLibs: -l%s\n' "$m" "$m" >"$T/brew/lib/pkgconfig/$m.pc"
done
(unset PKG_CONFIG_PATH; PATH="$T/bin" "$SH" scripts/deps.sh) >"$T/nokeg.out" 2>&1; rc=$?
check "no ncurses keg, though pkg-config's own path has an ncursesw.pc: exit 1, brew install ncurses" \
    sh -c "[ $rc -eq 1 ] && grep -q '^deps: missing: ncursesw\$' '$T/nokeg.out' &&
           grep -q '^deps: run: brew install ncurses\$' '$T/nokeg.out' || { cat '$T/nokeg.out'; exit 1; }"
mkdir -p "$T/brew/opt/ncurses/lib/pkgconfig"
printf 'Name: ncursesw\nDescription: the keg (test)\nVersion: 6.5\nLibs: -lncursesw\n' \
    >"$T/brew/opt/ncurses/lib/pkgconfig/ncursesw.pc"
(unset PKG_CONFIG_PATH; PATH="$T/bin" "$SH" scripts/deps.sh) >"$T/keg.out" 2>&1; rc=$?
check "the keg installed: deps.sh exits 0 (rc $rc: $(tr '\n' ' ' <"$T/keg.out"))" test "$rc" -eq 0
