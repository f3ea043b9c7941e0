#!/bin/sh
# The Makefile's Darwin branch as a Mac's make runs it, on any machine: a
# fake `uname` says Darwin and a fake `brew` points at a keg holding an
# ncursesw.pc with marker flags.  `make -n` must put those flags on every
# tui/ compile line and the keg's library on the link line: the keg's path
# reaches pkg-config only if the command itself carries it, since GNU make
# before 4.4 (macOS's /usr/bin/make is 3.81; Debian's 4.3 too) does not
# export a makefile's variables to $(shell ...).  Without brew, Apple's
# -lncurses (macOS has no libncursesw).  And the Mac flags give tui/ the
# wide-character curses API the way Apple's ncurses 5.7 header gates it:
# by _XOPEN_SOURCE_EXTENDED alone (docs/macos.md, "Curses on a Mac").
set -u
# The make that runs this test (`make check SANITIZE=1 WERROR=1`) hands its
# command-line variables down through the environment: this one starts from none.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES WERROR SANITIZE OPT CFLAGS 2>/dev/null
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
MAKE=${MAKE:-make}
need_tool pkg-config pkg-config || exit 0

mkdir -p "$T/bin" "$T/brew/opt/ncurses/lib/pkgconfig" "$T/brew/opt/ncurses/include/ncursesw"
cat >"$T/bin/uname" <<'SH'
#!/bin/sh
case "${1:-}" in -m) echo arm64 ;; *) echo Darwin ;; esac
SH
printf '#!/bin/sh\n[ "${1:-}" = --prefix ] && echo %s\n' "$T/brew" >"$T/bin/brew"
chmod +x "$T/bin/uname" "$T/bin/brew"
cat >"$T/brew/opt/ncurses/lib/pkgconfig/ncursesw.pc" <<PC
prefix=$T/brew/opt/ncurses
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: ncursesw
Description: the keg (test)
Version: 6.5
Libs: -L\${libdir} -lncursesw -lkegmark
Cflags: -D_DARWIN_C_SOURCE -I\${includedir}/ncursesw -DST_KEG_MARK=1
PC

# make -n of the whole binary, forced (-B), without PKG_CONFIG_PATH in the
# environment: what a first `make` on a Mac runs.
dry() { (unset PKG_CONFIG_PATH; PATH="$T/bin:$PATH" "$MAKE" -n -B --no-print-directory V=1 "$@" stagetop); }
dry >"$T/with" 2>&1
tui_lines() { grep -E ' -c -o [^ ]*/tui/[a-z_]+\.o tui/' "$1"; }
n_tui=$(ls tui/*.c | wc -l | tr -d ' ')
check "make -n (Darwin, fake brew): a compile line for each of the $n_tui tui/ sources" \
    test "$(tui_lines "$T/with" | wc -l | tr -d ' ')" -eq "$n_tui"
both=$(tui_lines "$T/with" | grep -F -- "-I$T/brew/opt/ncurses/include/ncursesw" | grep -c -F -- '-DST_KEG_MARK=1')
check "every tui/ compile line carries the keg's ncursesw.pc flags ($both of $n_tui)" test "$both" -eq "$n_tui"
check "the link line takes the keg's library" \
    grep -E -- "-o build/stagetop .*-L$T/brew/opt/ncurses/lib .*-lkegmark" "$T/with"
check "the Darwin branch builds the macOS backend" grep -q 'platform_darwin\.c' "$T/with"

# No brew: Apple's curses, never -lncursesw.
rm "$T/bin/brew"
(unset PKG_CONFIG_PATH; PKG_CONFIG_LIBDIR="$T/none" PATH="$T/bin:$PATH" \
    "$MAKE" -n -B --no-print-directory V=1 stagetop) >"$T/without" 2>&1
check "no brew: the link falls back to Apple's -lncurses" \
    sh -c "grep -E -- '-o build/stagetop .* -lncurses( |\$)' '$T/without' && ! grep -q -- '-lncursesw' '$T/without'"

# The wide-character API with the Mac flags, gated as Apple's 5.7 header
# gates it (NCURSES_WIDECHAR is not looked at there: -U it).
flags=$(env PATH="$T/bin:$PATH" "$MAKE" -s --no-print-directory -f Makefile -f - macflags <<'MK'
macflags: ; @echo $(DARWIN_CPPFLAGS)
MK
)
check "tui/view_lanes.c compiles with the Mac flags when only _XOPEN_SOURCE_EXTENDED opens the wide API ($flags)" \
    ${CC:-cc} -std=c11 -Iinclude $flags -UNCURSES_WIDECHAR $(pkg-config --cflags-only-I ncursesw 2>/dev/null) \
        -fsyntax-only tui/view_lanes.c
