#!/bin/sh
# The compiler's flags are a dependency (Makefile: $(B)/flags): after a
# plain build, `make WERROR=1` rebuilds, and again is up to date; the same
# for OPT=..., CFLAGS from the environment and SANITIZE=1 (its own folder,
# which leaves the plain one up to date).  Runs in a copy of the tree, so
# the build/ of the checkout is not touched; builds one core object and one
# workload (every object and workload has the same rule).
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# (make and tar: the build and the base system have them, as every test assumes.)

(cd "$ST_ROOT" && tar -cf - --exclude=./build --exclude=./build-san --exclude=./fuzz-out \
    --exclude=./.git --exclude=./stagetop .) | (cd "$T" && tar -xf -)
OBJS="build/core/units.o build/workloads/spike"
# The make that runs this test (`make check WERROR=1`) hands its command-line
# variables down through the environment: the builds here start from none.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES WERROR SANITIZE OPT CFLAGS 2>/dev/null

# mk VAR=VALUE...: make the two targets in the copy; its output in $T/out.
mk() { (cd "$T" && make --no-print-directory "$@" $OBJS) >"$T/out" 2>&1; }
# built: both targets were compiled by the last mk; none: neither was.
built() { grep -q 'CC  build/core/units.o' "$T/out" && grep -q 'CC  build/workloads/spike' "$T/out" ||
              { cat "$T/out"; return 1; }; }
none() { ! grep -q 'CC  ' "$T/out" || { cat "$T/out"; return 1; }; }

mk
check "a plain build compiles both" built
mk
check "the same build again: nothing to do" none
mk WERROR=1
check "then make WERROR=1: both rebuilt (the flags changed)" built
mk WERROR=1
check "make WERROR=1 again: nothing to do" none
(cd "$T" && make --no-print-directory -n fuzz-build) >/dev/null 2>&1
mk WERROR=1
check "a make with other flags that builds none of it (make -n fuzz-build) changes nothing" none
mk WERROR=1 OPT=-O1
check "OPT=-O1: both rebuilt" built
mk WERROR=1 OPT=-O1
check "OPT=-O1 again: nothing to do" none
(cd "$T" && CFLAGS=-DST_FLAGS_TEST=1 make --no-print-directory WERROR=1 OPT=-O1 $OBJS) >"$T/out" 2>&1
check "CFLAGS=-DST_FLAGS_TEST=1 in the environment: both rebuilt" built
check "  ... with that flag" grep -q ST_FLAGS_TEST "$T/build/flags"
mk
check "back to a plain build: both rebuilt" built
(cd "$T" && make --no-print-directory SANITIZE=1 build-san/core/units.o) >"$T/out" 2>&1
check "SANITIZE=1: built in build-san" grep -q 'CC  build-san/core/units.o' "$T/out"
mk
check "plain again after SANITIZE=1: nothing to do (build-san has its own flags)" none
