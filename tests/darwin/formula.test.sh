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
check "test do passes for the release ($v)" ruby tests/darwin/formula_run.rb "$F" "$T/p" "$v"
check "test do passes for brew install --HEAD (version HEAD-1a2b3c4)" \
    ruby tests/darwin/formula_run.rb "$F" "$T/p" HEAD-1a2b3c4
