#!/bin/sh
# make install and make uninstall, staged with DESTDIR:
#  - PREFIX=/usr: the program (it runs: --version), the man page, and the
#    shell completions where bash-completion, zsh's compinit and fish look
#    (share/bash-completion/completions/stagetop, share/zsh/site-functions/
#    _stagetop, share/fish/vendor_completions.d/stagetop.fish), each the
#    checkout's file, modes 755 and 644;
#  - BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR move them (Homebrew's formula
#    gives its own), PREFIX moves the rest;
#  - make uninstall removes every file it installed.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mk() { env -u MAKEFLAGS -u MFLAGS make "$@"; } # not the outer make check's flags (SANITIZE=1, -j)
if [ ! -x "$ST_ROOT/stagetop" ]; then
    skip "make install" "./stagetop is not built (a plain make builds it; make install installs it)"; exit 0
fi
D=$T/d
mk -s -o stagetop install DESTDIR="$D" PREFIX=/usr >"$T/out" 2>&1; rc=$?
U=$D/usr
check "make install DESTDIR PREFIX=/usr: exit 0, the program runs from there" \
    sh -c "[ $rc -eq 0 ] && '$U/bin/stagetop' --version | grep -q \"^stagetop $(cat VERSION)\" || { cat '$T/out'; exit 1; }"
check "the man page and the three completions, each the checkout's file" \
    sh -c "cmp docs/stagetop.1 '$U/share/man/man1/stagetop.1' &&
           cmp completions/stagetop.bash '$U/share/bash-completion/completions/stagetop' &&
           cmp completions/_stagetop '$U/share/zsh/site-functions/_stagetop' &&
           cmp completions/stagetop.fish '$U/share/fish/vendor_completions.d/stagetop.fish'"
check "modes: the program 755, the others 644" \
    sh -c "[ \"\$(ls -l '$U/bin/stagetop' | cut -c1-10)\" = -rwxr-xr-x ] &&
           for f in \$(find '$U/share' -type f); do
               [ \"\$(ls -l \"\$f\" | cut -c1-10)\" = -rw-r--r-- ] || { ls -l \"\$f\"; exit 1; }
           done"
n=$(find "$D" -type f | wc -l)
check "make install writes 5 files, no others ($n)" [ "$n" -eq 5 ]
mk -s uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
check "make uninstall removes all of them" sh -c "[ -z \"\$(find '$D' -type f)\" ] || { find '$D' -type f; exit 1; }"

mk -s -o stagetop install DESTDIR="$D" PREFIX=/opt/st BASHCOMPDIR=/etc/bash_completion.d \
    ZSHCOMPDIR=/opt/zsh FISHCOMPDIR=/opt/fish >/dev/null 2>&1
check "PREFIX=/opt/st with BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR: each where it was asked" \
    sh -c "[ -x '$D/opt/st/bin/stagetop' ] && [ -f '$D/opt/st/share/man/man1/stagetop.1' ] &&
           [ -f '$D/etc/bash_completion.d/stagetop' ] && [ -f '$D/opt/zsh/_stagetop' ] && [ -f '$D/opt/fish/stagetop.fish' ] &&
           [ \$(find '$D' -type f | wc -l) -eq 5 ] || { find '$D' -type f; exit 1; }"
mk -s uninstall DESTDIR="$D" PREFIX=/opt/st BASHCOMPDIR=/etc/bash_completion.d ZSHCOMPDIR=/opt/zsh \
    FISHCOMPDIR=/opt/fish >/dev/null 2>&1
check "make uninstall with the same variables removes them" sh -c "[ -z \"\$(find '$D' -type f)\" ]"
