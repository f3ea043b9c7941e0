#!/bin/sh
# `make bench`: runs every bench/*.sh (except this one, before_after.sh, which
# builds a second tree, and holdmem.sh, a helper) with the build dir as $1.
# Each prints its own table; figures are ratios against peers measured in the
# same run (docs/performance.md says what each one measures).
set -u
B=${1:-build}
export ST_BUILD="$B" STAGETOP="$PWD/$B/stagetop" WORKLOADS="$PWD/$B/workloads" ST_ROOT="$PWD"
[ -x "$STAGETOP" ] || STAGETOP="$PWD/stagetop"
status=0
for b in bench/*.sh; do
    case "$b" in bench/run-bench.sh|bench/before_after.sh|bench/holdmem.sh) continue ;; esac
    case "$b" in *${ONLY:-}*) ;; *) continue ;; esac
    echo "== $b"
    sh "$b" "$B" || { echo "bench: $b failed"; status=1; }
done
exit $status
