#!/bin/sh
# The macOS build, checked on a non-Mac against Apple's own headers and
# libSystem (mk/macos-build.mk, zig 0.11 from scripts/deps.sh):
#  - every source a Mac build compiles (core/ with platform_darwin.c, tui/)
#    compiles for aarch64-macos and x86_64-macos with -Werror, and
#    tests/darwin/core_driver.c links with every object of the core into a
#    Mach-O executable against libSystem (its magic bytes and CPU type are
#    read back); so do the workloads, tests/tools and the soak that a Mac's
#    `make check` builds, and the portable unit tests compile;
#  - the whole ./stagetop links too, but for its curses calls: each symbol
#    left unresolved must be one that curses.h declares (zig has no
#    libncurses for macOS; docs/macos.md);
#  - controls: a Linux-only header and a Linux-only call fail that build;
#  - the driver itself, built natively, watches a job holding 64 MiB of
#    random bytes (this part runs on a Mac too, against the real API); on a
#    Mac its summary's peak_gpu_system is checked against ioreg's
#    IOAccelerator "In use system memory" (present exactly when ioreg has
#    the key).
# The objects live in build/macos, shared by the plain and SANITIZE passes
# of `make check`: the second pass finds them up to date.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$ST_ROOT" || exit 1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
MB=build/macos

# mach_o FILE CPUTYPE_BYTES: a 64-bit Mach-O executable (MH_MAGIC_64,
# cputype, MH_EXECUTE) that loads /usr/lib/libSystem.B.dylib.
mach_o() {
    h=$(od -An -tx1 -N16 "$1" | tr -d ' \n')
    echo "header: $h"
    case $h in cffaedfe"$2"????????02000000) ;; *) return 1 ;; esac
    grep -q /usr/lib/libSystem.B.dylib "$1"
}

# zig_link ARCH OUT OBJ...: zig cc -target ARCH-macos -o OUT OBJ...
zig_link() {
    _a=$1 _o=$2; shift 2
    ZIG_GLOBAL_CACHE_DIR=${ZIG_GLOBAL_CACHE_DIR:-$ZIGCACHE} "$ZIG" cc -target "$_a"-macos -o "$_o" "$@"
}

# stagetop_links ARCH: link ./stagetop's objects for macOS; only curses
# symbols (each declared in curses.h) may be left unresolved.
stagetop_links() {
    zig_link "$1" "$T/stagetop-$1" $(for o in $ST_OBJS; do echo "$MB/$1/$o"; done) >"$T/link-$1.log" 2>&1
    sed -n "s/^error(link): undefined reference to symbol '_\(.*\)'\$/\1/p" "$T/link-$1.log" |
        sort -u >"$T/undef-$1"
    n=$(wc -l <"$T/undef-$1")
    bad=""
    for s in $(cat "$T/undef-$1"); do
        grep -qw -- "$s" "$MB/curses-include/curses.h" || bad="$bad $s"
    done
    other=$(grep -v -e "undefined reference" -e "first referenced" -e "UndefinedSymbolReference" \
        "$T/link-$1.log")
    echo "unresolved: $n curses symbols; not in curses.h:${bad:- none}"
    [ -n "$other" ] && echo "other link errors: $other"
    [ "$n" -gt 0 ] && [ -z "$bad" ] && [ -z "$other" ]
}

if [ "$(uname -s)" = Darwin ]; then
    : # a Mac builds everything with Apple's SDK in `make` itself
elif zig_env=$(env -u MAKEFLAGS -u MFLAGS make --no-print-directory -s macos-zig) &&
     ZIG=$(echo "$zig_env" | sed -n 1p) && [ -n "$ZIG" ] && [ -x "$ZIG" ]; then
    ZIGCACHE=$(echo "$zig_env" | sed -n 2p)
    ST_OBJS=$(echo "$zig_env" | sed -n 3p)
    for a in aarch64 x86_64; do
        check "macos-build: $a-macos: core/, tui/, workloads, tools and unit tests compile with -Werror against Apple's headers, core_driver links against libSystem" \
            env -u MAKEFLAGS -u MFLAGS make --no-print-directory -j2 "macos-build-$a"
    done
    check "macos-build: the aarch64 core_driver is a Mach-O arm64 executable on libSystem" \
        mach_o "$MB/aarch64/core_driver" 0c000001
    check "macos-build: the x86_64 core_driver is a Mach-O x86_64 executable on libSystem" \
        mach_o "$MB/x86_64/core_driver" 07000001
    all_mach_o() { # arch cputype: the workloads, tools and soak too
        for _b in "$MB/$1"/bin/*; do mach_o "$_b" "$2" || { echo "not Mach-O: $_b"; return 1; }; done
        ls "$MB/$1"/bin | tr '\n' ' '
    }
    check "macos-build: aarch64: the workloads, tests/tools and the soak link into Mach-O executables" \
        all_mach_o aarch64 0c000001
    check "macos-build: x86_64: the workloads, tests/tools and the soak link into Mach-O executables" \
        all_mach_o x86_64 07000001
    for a in aarch64 x86_64; do
        check "macos-build: $a: ./stagetop links against libSystem but for curses (each unresolved symbol is in curses.h)" \
            stagetop_links "$a"
    done
    # The run's clock on a Mac is mach_absolute_time's (core/clock.c picks
    # CLOCK_UPTIME_RAW when Apple's time.h defines it): the one compiled in.
    run_clock() { grep -c "CLOCK_UPTIME_RAW" "$MB/$1/core/clock.o" >/dev/null && ! grep -q "CLOCK_MONOTONIC\"" "$MB/$1/core/clock.o"; }
    for a in aarch64 x86_64; do
        check "macos-build: $a: st_now() reads CLOCK_UPTIME_RAW (stops in sleep, as Python's time.monotonic)" \
            run_clock "$a"
    done
    # Controls: the same build refuses what a Mac lacks.
    printf '#include <sys/prctl.h>\nint main(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1); }\n' >"$T/hdr.c"
    check "macos-build: control: a Linux-only header (sys/prctl.h) does not compile for macOS" \
        sh -c '! ZIG_GLOBAL_CACHE_DIR=$2 "$1" cc -target aarch64-macos -c -o "$3.o" "$3"' sh "$ZIG" "$ZIGCACHE" "$T/hdr.c"
    printf 'int pidfd_open(int, unsigned);\nint main(void) { return pidfd_open(1, 0); }\n' >"$T/call.c"
    check "macos-build: control: a Linux-only call (pidfd_open) does not link for macOS" \
        sh -c 'if ZIG_GLOBAL_CACHE_DIR=$2 "$1" cc -target aarch64-macos -o "$3.bin" "$3" >"$3.log" 2>&1; then exit 1; fi
               cat "$3.log"; grep -q "undefined reference to symbol .*pidfd_open" "$3.log"' \
        sh "$ZIG" "$ZIGCACHE" "$T/call.c"
else
    skip "macos-build" "zig is not installed (run scripts/deps.sh)"
fi

# The driver, natively: a job that fills 64 MiB of random bytes and exits 0.
drv="$ST_ROOT/$ST_BUILD/tests/core_driver"
mib=64
peak_at_least() { # file bytes
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("peak_footprint", s["peak_footprint"]); sys.exit(0 if s["peak_footprint"] >= int(sys.argv[2]) else 1)' "$1" "$2"
}
driver_run() {
    "$drv" "$T/run.jsonl" sh -c 'exec "$0" "$@" >/dev/null' "$WORKLOADS/fillmem" \
        --target-mib $mib --step-mib 16 --every-ms 50 --hold-s 1 >"$T/summary.json" && peak_at_least "$T/summary.json" $((mib * 1048576))
}
check "core_driver: watches a job holding $mib MiB of random bytes, summary peak >= $mib MiB" driver_run
if [ "$(uname -s)" = Darwin ]; then
    # gpu_system against ioreg, an independent reader of the same registry
    # (docs/macos.md, first-run item 21): the lane is there exactly when
    # ioreg shows the key, and its peak is within a factor of 2 of the sum
    # ioreg reads just after (the GPU's memory moves with the desktop).
    gpu_vs_ioreg() {
        ref=$(ioreg -r -c IOAccelerator | tr ',{}' '\n\n\n' |
            sed -n 's/^"In use system memory"=\([0-9][0-9]*\)$/\1/p' | awk '{s+=$1} END {if (NR) print s}')
        python3 - "$T/summary.json" "${ref:-}" <<'PY'
import json, sys
got = json.load(open(sys.argv[1])).get("peak_gpu_system")
ref = sys.argv[2]
print("ioreg In use system memory:", ref or "no key", "peak_gpu_system:", got)
if not ref:
    sys.exit(0 if got is None else 1)
sys.exit(0 if got is not None and int(ref) / 2 <= got <= int(ref) * 2 + (64 << 20) else 1)
PY
    }
    check "core_driver: gpu_system agrees with ioreg -r -c IOAccelerator (present exactly when its key is)" gpu_vs_ioreg
fi
driver_code() { "$drv" "$T/code.jsonl" sh -c 'exit 3' >/dev/null; [ $? -eq 3 ]; }
check "core_driver: passes the job's exit code through (3)" driver_code
