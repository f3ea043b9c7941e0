#!/bin/sh
# The trace fuzzer is built by every `make check`, so its source list
# (FUZZ_SRC, mk/trace-tools-fuzz.mk) cannot rot unseen (it once did not link
# for a whole round):
#  - the standalone build (plain compiler, tests/fuzz/standalone.c), made by
#    `make tests`, runs every trace fixture through the target's checks;
#  - the libFuzzer build (`make fuzz-build`, clang with -fsanitize=fuzzer)
#    is built into a temporary folder and started on the seeds without
#    fuzzing (-runs=0).  Not run for its 600 s here: docs/fuzzing.md.
set -u
. "$(dirname "$0")/../lib/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
B=${ST_BUILD:-build}
SA="$ST_ROOT/$B/tests/fuzz_import_standalone"

check "the standalone fuzz target was built by make tests ($B/tests/fuzz_import_standalone)" test -x "$SA"
seeds=$(ls "$ST_ROOT"/tests/fixtures/traces/* "$ST_ROOT"/tests/fixtures/stageload/*.jsonl 2>/dev/null)
check "the fixtures are there ($(echo "$seeds" | wc -l) files)" test -n "$seeds"
# shellcheck disable=SC2086
check "every trace fixture passes the fuzz target's checks" "$SA" $seeds

if [ "$(uname -s)" = Darwin ]; then
    skip "libFuzzer build" "Apple's clang ships no libFuzzer (the standalone build above runs instead)"
    exit 0
fi
FUZZ_CC=$(command -v clang-14 || command -v clang)
if [ -z "$FUZZ_CC" ]; then
    need_tool "libFuzzer build" clang clang
    exit 0
fi
(cd "$ST_ROOT" && make --no-print-directory FUZZ_CC="$FUZZ_CC" FUZZ_DIR="$T/fuzz-out" fuzz-build) \
    >"$T/build.out" 2>&1
check "make fuzz-build links the libFuzzer target with $FUZZ_CC" \
    sh -c "test -x '$T/fuzz-out/fuzz_import' || { tail -30 '$T/build.out'; exit 1; }"
mkdir -p "$T/seeds"
# shellcheck disable=SC2086
cp $seeds "$T/seeds/"
check "the libFuzzer target starts and reads every seed (-runs=0)" \
    "$T/fuzz-out/fuzz_import" -runs=0 -max_len=65536 "$T/seeds"
