#!/bin/sh
# The Makefile's Darwin branch as a Mac's make runs it, on any machine: a
# fake `uname` says Darwin and a fake `brew` points at a keg holding an
# ncursesw.pc with marker flags.  `make -n` must put those flags on every
# tui/ compile line and the keg's library on the link line: the keg's path
# reaches pkg-config only if the command itself carries it, since GNU make
# before 4.4 (macOS's /usr/bin/make is 3.81; Debian's 4.3 too) does not
# export a makefile's variables to $(shell ...).  The keg is found by its
# directory, not by `pkg-config --exists ncursesw` (Homebrew's pkgconf has
# an ncursesw.pc for Apple's curses in its own default path): with no brew
# on the PATH too (Homebrew's default prefixes); with none, Apple's
# -lncurses (macOS has no libncursesw) whatever ncursesw.pc pkg-config's
# default path holds; CURSES=apple takes Apple's beside an installed keg,
# CURSES=keg refuses to build without one.  And the Mac flags give tui/ the
# wide-character curses API the way Apple's ncurses 5.7 header gates it:
# by _XOPEN_SOURCE_EXTENDED alone (docs/macos.md, "Curses on a Mac").
set -u
# The make that runs this test (`make check SANITIZE=1 WERROR=1`) hands its
# command-line variables down through the environment: this one starts from none.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES WERROR SANITIZE OPT CFLAGS CURSES NCURSES_KEG NCURSES_KEG_DIRS 2>/dev/null
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

# The keg chosen over Apple's, every way a Mac's make may meet it.
keg_flags() { # FILE: every tui/ compile line and the link take the keg's .pc
    [ "$(tui_lines "$1" | grep -F -- "-I$T/brew/opt/ncurses/include/ncursesw" | grep -c -F -- '-DST_KEG_MARK=1')" -eq "$n_tui" ] &&
        grep -qE -- "-o build/stagetop .*-L$T/brew/opt/ncurses/lib .*-lkegmark" "$1"
}
apple_flags() { # FILE: Apple's -lncurses, and nothing from a .pc file
    grep -qE -- '-o build/stagetop .* -lncurses( |$)' "$1" && ! grep -q -e '-lncursesw' -e '-lkegmark' \
        -e ST_KEG_MARK -e ST_SHIM_MARK -e "$T/brew/opt/ncurses" "$1" && [ "$(tui_lines "$1" | wc -l)" -eq "$n_tui" ]
}
# Homebrew's pkgconf's own ncursesw.pc for macOS's curses (Homebrew/brew
# Library/Homebrew/os/mac/pkgconfig/15/ncursesw.pc), a marker added: in
# pkg-config's default path (PKG_CONFIG_LIBDIR), never PKG_CONFIG_PATH.
mkdir -p "$T/shim"
cat >"$T/shim/ncursesw.pc" <<'PC'
exec_prefix=/usr
libdir=${exec_prefix}/lib
Name: ncursesw
Description: ncurses 6.0 library
Version: 6.0.20150808
Libs: -L${libdir} -lncurses -lshimmark
Cflags: -D_DARWIN_C_SOURCE -DST_SHIM_MARK=1
PC
shim() { PKG_CONFIG_LIBDIR="$T/shim" "$@"; }
shim dry >"$T/both" 2>&1
check "keg and Homebrew's shim .pc both there: the keg's flags" keg_flags "$T/both"
shim dry CURSES=apple >"$T/apple" 2>&1
check "CURSES=apple with the keg installed: Apple's -lncurses, no keg, no shim flags" apple_flags "$T/apple"
shim dry CURSES=bogus >"$T/bogus" 2>&1; rc=$?
check "CURSES=bogus: make refuses (rc $rc), naming keg and apple" \
    sh -c "[ $rc -ne 0 ] && grep -q 'CURSES=bogus: keg or apple' '$T/bogus'"

# No brew on the PATH (a shell that never ran `brew shellenv`): the keg is
# still found in Homebrew's default prefixes (NCURSES_KEG_DIRS here, since
# this machine has no /opt/homebrew), and those are the Makefile's defaults.
rm "$T/bin/brew"
(unset PKG_CONFIG_PATH; PKG_CONFIG_LIBDIR="$T/shim" PATH="$T/bin:$PATH" "$MAKE" -n -B --no-print-directory V=1 \
    NCURSES_KEG_DIRS="$T/none/opt/ncurses $T/brew/opt/ncurses" stagetop) >"$T/nobrew" 2>&1
check "no brew on the PATH: the keg of a default prefix, by its directory" keg_flags "$T/nobrew"
dirs=$(env PATH="$T/bin:/usr/bin:/bin" "$MAKE" -s --no-print-directory -f Makefile -f - kegdirs <<'MK'
kegdirs: ; @echo $(NCURSES_KEG_DIRS)
MK
)
check "the default prefixes probed without brew: /opt/homebrew, /usr/local ($dirs)" \
    sh -c "[ '$dirs' = '/opt/homebrew/opt/ncurses /usr/local/opt/ncurses' ]"

# No keg anywhere: Apple's curses, never -lncursesw, whatever the shim says.
rm -rf "$T/brew/opt"
(unset PKG_CONFIG_PATH; PKG_CONFIG_LIBDIR="$T/shim" PATH="$T/bin:$PATH" \
    "$MAKE" -n -B --no-print-directory V=1 NCURSES_KEG_DIRS="$T/brew/opt/ncurses" stagetop) >"$T/without" 2>&1
check "no keg: Apple's -lncurses, not the shim .pc's flags" apple_flags "$T/without"
(unset PKG_CONFIG_PATH; PATH="$T/bin:$PATH" "$MAKE" -n -B --no-print-directory V=1 \
    NCURSES_KEG_DIRS="$T/brew/opt/ncurses" CURSES=keg stagetop) >"$T/needkeg" 2>&1; rc=$?
check "no keg and CURSES=keg: make refuses (rc $rc) and says brew install ncurses" \
    sh -c "[ $rc -ne 0 ] && grep -q 'CURSES=keg: no Homebrew ncurses keg.*brew install ncurses' '$T/needkeg'"

# The wide-character API with the Mac flags, gated as Apple's 5.7 header
# gates it (NCURSES_WIDECHAR is not looked at there: -U it).
flags=$(env PATH="$T/bin:$PATH" "$MAKE" -s --no-print-directory -f Makefile -f - macflags <<'MK'
macflags: ; @echo $(DARWIN_CPPFLAGS)
MK
)
check "tui/view_lanes.c compiles with the Mac flags when only _XOPEN_SOURCE_EXTENDED opens the wide API ($flags)" \
    ${CC:-cc} -std=c11 -Iinclude $flags -UNCURSES_WIDECHAR $(pkg-config --cflags-only-I ncursesw 2>/dev/null) \
        -fsyntax-only tui/view_lanes.c
check "tui/view_cap.c (the MPS cap's line: setcchar, mvadd_wchnstr) compiles the same way" \
    ${CC:-cc} -std=c11 -Iinclude $flags -UNCURSES_WIDECHAR $(pkg-config --cflags-only-I ncursesw 2>/dev/null) \
        -fsyntax-only tui/view_cap.c
