#!/bin/sh
# The version comes from one place, the file VERSION (Makefile: ST_VERSION),
# and everything that states it agrees: `stagetop --version` (plus, for a
# git build that is not the release, "(git COMMIT)"), the man page's .TH
# line, every "stagetop X.Y.Z" in the README, the man page and CHANGELOG.md,
# CHANGELOG.md's newest release heading, and the version stamped into a
# trace (the plain X.Y.Z: docs/trace-format.md).
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'cleanup_jobs; rm -rf "$T"' EXIT
cd "$ST_ROOT" || exit 1

V=$(cat VERSION)
check "VERSION is MAJOR.MINOR.PATCH ($V)" sh -c "echo '$V' | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+'"
Vre=$(printf '%s' "$V" | sed 's/\./\\./g')

out=$("$STAGETOP" --version 2>&1)
check "stagetop --version says $V ('$out')" \
    sh -c "printf '%s\n' '$out' | grep -Eqx 'stagetop $Vre( \(git [0-9a-f]+(-dirty)?\))?'"

th=$(sed -n 's/^\.TH [^"]*"[^"]*" "\([^"]*\)".*/\1/p' docs/stagetop.1)
check "the man page's .TH line says stagetop $V ('$th')" [ "$th" = "stagetop $V" ]

grep -Eno 'stagetop [0-9]+\.[0-9]+\.[0-9]+' README.md docs/stagetop.1 CHANGELOG.md >"$T/stated"
check "every 'stagetop X.Y.Z' in README.md, docs/stagetop.1, CHANGELOG.md is $V ($(wc -l <"$T/stated") found)" \
    sh -c "[ -s '$T/stated' ] && ! grep -v ':stagetop $Vre\$' '$T/stated'"

# (a heading "## X.Y.Z (unreleased)" is the next release's, not yet VERSION)
newest=$(sed -n '/(unreleased)/!s/^## \([0-9][0-9.]*\).*/\1/p' CHANGELOG.md | head -1)
check "CHANGELOG.md's newest release is $V ('$newest')" [ "$newest" = "$V" ]
for r in $(sed -n '/(unreleased)/!s/^## \([0-9][0-9.]*\).*/\1/p' CHANGELOG.md); do echo "$r"; done >"$T/releases"
check "CHANGELOG.md lists 0.1.0, 0.2.0 and $V, newest first" \
    sh -c "[ \"\$(sort -t. -k1,1nr -k2,2nr -k3,3nr '$T/releases')\" = \"\$(cat '$T/releases')\" ] && grep -qx 0.1.0 '$T/releases' && grep -qx 0.2.0 '$T/releases'"

"$STAGETOP" --headless --interval 0.05 --record "$T/r.jsonl" -- sh -c 'sleep 0.2' >/dev/null 2>"$T/err"
check "a recorded trace's start record says \"stagetop\":\"$V\" (no git note)" \
    sh -c "head -1 '$T/r.jsonl' | grep -q '\"stagetop\":\"$Vre\"' || { cat '$T/err'; head -1 '$T/r.jsonl'; exit 1; }"

# VERSION reaches the code once: core/version.c's st_version(); no other
# product source names ST_VERSION (no fallback number that could disagree).
grep -rn 'ST_VERSION\b' core tui include --include='*.c' --include='*.h' |
    grep -v '^core/version\.c:' | grep -v '^include/stagetop/version\.h:' >"$T/uses"
check "ST_VERSION appears only in core/version.c ($(wc -l <"$T/uses") other uses)" \
    sh -c "! grep . '$T/uses'"
