#!/bin/sh
# packaging/stagetop.rb, the Homebrew formula: `ruby -c` accepts it; its
# tarball's tag is the file VERSION; and its `test do`, run with a stand-in
# for Homebrew's Formula class (tests/darwin/formula_run.rb) on an install of
# this build, passes both for a release and for `brew install --HEAD`,
# whose version is HEAD-<sha> (Homebrew's Version#head?), not what
# `stagetop --version` prints.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
need_tool formula ruby ruby || exit 0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
F=packaging/stagetop.rb
v=$(cat VERSION)

check "ruby -c $F" ruby -c "$F"
check "the formula's url is the tag v$v (the file VERSION)" \
    grep -q "^  url \".*/refs/tags/v$v\\.tar\\.gz\"" "$F"
mkdir -p "$T/p/bin" "$T/p/share/stagetop"
cp "$STAGETOP" "$T/p/bin/stagetop"
cp VERSION "$T/p/share/stagetop/VERSION"   # what the formula's install keeps
# the completions, where the formula's install asks make install to put them
mkdir -p "$T/p/etc/bash_completion.d" "$T/p/share/zsh/site-functions" "$T/p/share/fish/vendor_completions.d"
cp completions/stagetop.bash "$T/p/etc/bash_completion.d/stagetop"
cp completions/_stagetop "$T/p/share/zsh/site-functions/_stagetop"
cp completions/stagetop.fish "$T/p/share/fish/vendor_completions.d/stagetop.fish"
check "the formula's install gives make install Homebrew's completion folders" \
    sh -c "grep -q 'BASHCOMPDIR=#{bash_completion}' '$F' && grep -q 'ZSHCOMPDIR=#{zsh_completion}' '$F' &&
           grep -q 'FISHCOMPDIR=#{fish_completion}' '$F'"
check "test do passes for the release ($v)" ruby tests/darwin/formula_run.rb "$F" "$T/p" "$v"
check "test do passes for brew install --HEAD (version HEAD-1a2b3c4)" \
    ruby tests/darwin/formula_run.rb "$F" "$T/p" HEAD-1a2b3c4

# What it declares, as Homebrew's reviewers read it (Homebrew/brew
# Library/Homebrew/formula_auditor.rb: aliases such as pkg-config are
# refused in homebrew/core; a keg-only :provided_by_macos dependency of a
# new formula must be uses_from_macos; a license is required).
ruby tests/darwin/formula_run.rb "$F" --describe >"$T/decl" 2>&1
check "the stand-in lists the formula's declarations" sh -c "grep -q '^dep ' '$T/decl' || { cat '$T/decl'; exit 1; }"
check "pkgconf at build time, by its own name, not the pkg-config alias" \
    sh -c "grep -qx 'dep depends_on pkgconf build' '$T/decl' && ! grep -q '^dep [a-z_]* pkg-config' '$T/decl'"
# The curses it builds against, said once: Apple's on macOS (uses_from_macos,
# and CURSES=apple so the Makefile leaves an installed keg alone), or the keg
# (depends_on, CURSES=keg).
check "ncurses: uses_from_macos with CURSES=apple, or depends_on with CURSES=keg" \
    sh -c "{ grep -qx 'dep uses_from_macos ncurses' '$T/decl' && grep -q '\"CURSES=apple\" if OS.mac?' '$F'; } ||
           { grep -qx 'dep depends_on ncurses' '$T/decl' && grep -q '\"CURSES=keg\"' '$F'; }"
check "the Makefile takes both CURSES values" \
    sh -c "grep -q 'ifeq (\$(CURSES),apple)' Makefile && grep -q 'filter-out keg,\$(CURSES)' Makefile"
sed -n '/^  test do$/,/^  end$/p' "$F" >"$T/testblock"
unused=""
for d in $(sed -n 's/^dep [a-z_]* \([^ ]*\) \(.*,\)*test\(,.*\)*$/\1/p' "$T/decl"); do
    grep -qi -- "$d" "$T/testblock" || unused="$unused $d"
done
check "every :test dependency is used by test do (unused:${unused:- none})" \
    sh -c "[ -s '$T/testblock' ] && [ -z '$unused' ]"
# The license is the project's: the SPDX id its LICENSE names, or, while
# it has none, no license invented here.
lic=$(sed -n 's/^field license //p' "$T/decl")
if [ -f LICENSE ]; then
    check "license \"$lic\" is the one LICENSE names" \
        sh -c "[ -n '$lic' ] && grep -qF -- '$lic' LICENSE"
else
    check "no LICENSE file: no license invented, and the formula says why" \
        sh -c "[ -z '$lic' ] && grep -q 'the project has no LICENSE file' '$F'"
fi
