# Checks for the tools a test needs (sourced by tests/lib/common.sh, or
# alone by a test that does not use common.sh).  scripts/deps.sh installs
# every tool the suite uses; a test checks for its tools only through these,
# so that under CI a missing one fails instead of skipping.

# need_tool NAME TOOL [PACKAGE]: 0 when TOOL is on the PATH.  Otherwise says
# "SKIP: NAME: TOOL is not installed" and returns 1 -- or, under CI
# (CI=true), where a green run must mean every test ran, "FAIL: ..." (every
# tool the suite uses is installed by scripts/deps.sh).  Use:
#     need_tool valgrind valgrind || exit 0
need_tool() {
    command -v "$2" >/dev/null 2>&1 && return 0
    tool_missing "$1" "$2" "${3:-}"
}

# need_py NAME MODULE [PACKAGE]: 0 when a python3 can import MODULE, and
# NEED_PY is that python3: the system one first (/usr/bin/python3, where
# Debian's python3-* packages go), then the one on the PATH.  Otherwise as
# need_tool.
need_py() {
    for NEED_PY in /usr/bin/python3 python3; do
        "$NEED_PY" -c "import $2" >/dev/null 2>&1 && return 0
    done
    NEED_PY=""
    tool_missing "$1" "python3 module $2" "${3:-}"
}

# tool_missing NAME WHAT [PACKAGE]: the SKIP (FAIL under CI=true) line for a
# missing tool; returns 1.  tests/run-tests.sh also counts any "SKIP: ...
# is not installed" line as a failure under CI=true.
tool_missing() {
    _tm="$2 is not installed${3:+ (package $3)}; scripts/deps.sh installs it"
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $1: $_tm (CI=true: a missing tool is a failure, not a skip)"
    else
        echo "SKIP: $1: $_tm"
    fi
    return 1
}
