#!/bin/sh
# The layering check (tests/lib/layering.sh) catches what it is for: small
# trees built here break one rule each, against the real rules file, and the
# check must name the object (or file) and the symbol (or header).  A clean
# tree passes.
set -u
. "$(dirname "$0")/common.sh"
. "$ST_ROOT/tests/lib/layering.sh"
RULES="$ST_ROOT/tests/lib/layering.rules"
need_tool layering.test nm || exit 0
need_tool layering.test cc || exit 0
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT
# The real rules plus one exception of each kind, so that the exception
# checks do not depend on which exceptions the project has today.
cp "$RULES" "$D/rules"
printf '%s\n' 'except tui/pick st_proc_vec_free an exception of the self-test' \
    'except tui/nothing st_nothing_* an exception no object needs' \
    'backend-except tui/pick.c an exception of the self-test' >>"$D/rules"
RULES=$D/rules

# has OUTPUT_FILE TEXT: the output has a line with TEXT (fixed string)
has() { grep -qF -- "$2" "$1" || { echo "no line with: $2"; sed 's/^/  | /' "$1" | head -40; return 1; }; }
hasnt() { ! grep -qF -- "$2" "$1" || { echo "a line with: $2"; grep -F -- "$2" "$1"; return 1; }; }

# src ROOT PATH TEXT: a source file of a small tree
src() { mkdir -p "$(dirname "$1/$2")" && printf '%s\n' "$3" >"$1/$2"; }
# obj ROOT PATH.c: compile it into ROOT/build/PATH.o
obj() { mkdir -p "$(dirname "$1/build/$2")" && cc -c -o "$1/build/${2%.c}.o" "$1/$2"; }

# ---- calls, from real objects ----
R=$D/calls
src "$R" core/run/monitor.c 'int st_monitor_step(int x); int st_monitor_step(int x) { return x + 1; }'
src "$R" core/error.c 'int st_error_set(int x); int st_error_set(int x) { return x; }'
src "$R" core/trace/trace_x.c 'int st_monitor_step(int x); int st_error_set(int x);
int st_trace_x(int x); int st_trace_x(int x) { return st_error_set(x); }'
src "$R" tui/live.c 'int st_monitor_step(int x); int tui_live(int x); int tui_live(int x) { return st_monitor_step(x); }'
for f in core/run/monitor.c core/error.c core/trace/trace_x.c tui/live.c; do obj "$R" "$f"; done
layering_symtab "$R/build" "$R" >"$D/clean.tab"
layering_calls "$RULES" "$D/clean.tab" >"$D/clean.out"
check "the symbol table is read from the objects (nm)" has "$D/clean.tab" "U core/trace/trace_x st_error_set"
check "a clean tree passes: trace calls base, the screen calls the monitor" \
    sh -c "grep -qF 'PASS: layering: trace calls only' '$D/clean.out' &&
           grep -qF 'PASS: layering: tui calls only' '$D/clean.out'"

# trace calls the run module: caught, naming the object and the symbol
src "$R" core/trace/trace_x.c 'int st_monitor_step(int x); int st_error_set(int x);
int st_trace_x(int x); int st_trace_x(int x) { return st_monitor_step(st_error_set(x)); }'
obj "$R" core/trace/trace_x.c
layering_symtab "$R/build" "$R" >"$D/bad.tab"
layering_calls "$RULES" "$D/bad.tab" >"$D/bad.out"
check "a trace object calling the run module fails, naming object and symbol" \
    sh -c "grep -qF 'FAIL: layering: trace calls only' '$D/bad.out' &&
           grep -qF 'core/trace/trace_x.o calls st_monitor_step (core/run/monitor.o, module run)' '$D/bad.out'"

# an object left behind by a moved source is not the build's
rm "$R/core/trace/trace_x.c"
layering_symtab "$R/build" "$R" >"$D/stale.tab"
check "an object whose source is gone is left out" hasnt "$D/stale.tab" "core/trace/trace_x"

# ---- calls, from synthetic tables (the rules' sets and exceptions) ----
cat >"$D/syn.tab" <<'EOF'
D core/run/monitor st_monitor_step
D core/run/jobctl st_job_pause
D core/run/run_view st_run_view_warning
D core/platform/proc_vec st_proc_vec_free
D core/units st_format_bytes
D core/model/summary st_summary_add_sample
U tui/live st_monitor_step
U tui/live st_run_view_warning
U tui/live st_job_pause
U core/units st_summary_add_sample
U core/platform/proc_vec st_monitor_step
U core/notify st_job_pause
U tui/pick st_proc_vec_free
U core/newthing/x st_format_bytes
D core/doctor/doctor_ref st_doctor_reference
D core/doctor/doctor_parse st_doctor_parse_size
U core/run/prerun_tree st_doctor_reference
U core/run/prerun_tree st_doctor_parse_size
EOF
layering_calls "$RULES" "$D/syn.tab" >"$D/syn.out"
check "the screen calling the run module outside the monitor and the view fails" \
    sh -c "grep -qF 'tui/live.o calls st_job_pause (core/run/jobctl.o, module run)' '$D/syn.out' &&
           ! grep -qF 'tui/live.o calls st_monitor_step' '$D/syn.out' &&
           ! grep -qF 'tui/live.o calls st_run_view_warning' '$D/syn.out'"
check "a base utility calling the model fails" \
    has "$D/syn.out" "core/units.o calls st_summary_add_sample (core/model/summary.o, module model)"
check "a backend calling the run module fails" \
    has "$D/syn.out" "core/platform/proc_vec.o calls st_monitor_step (core/run/monitor.o, module run)"
check "notify calling the run module outside the view fails" \
    has "$D/syn.out" "core/notify.o calls st_job_pause (core/run/jobctl.o, module run)"
check "a listed exception is allowed and said" \
    sh -c "grep -qF 'tui/pick.o calls st_proc_vec_free' '$D/syn.out' && grep -qF 'temporary exception' '$D/syn.out'"
check "an exception no longer needed fails (the rules stay true)" \
    has "$D/syn.out" "FAIL: layering: exception still needed: tui/nothing st_nothing_*"
# two objects of one module calling each other: an import circle
printf '%s\n' "D core/plot/plot_draw st_plot_line" "D core/plot/plot_events st_plot_marker" \
    "U core/plot/plot_events st_plot_line" "U core/plot/plot_draw st_plot_marker" \
    "D core/units st_format_bytes" "U core/plot/plot_draw st_format_bytes" >"$D/cyc.tab"
layering_no_cycles "$D/cyc.tab" >"$D/cyc.out"
check "two objects calling each other fail, naming both" \
    has "$D/cyc.out" "core/plot/plot_draw.o calls st_plot_marker, core/plot/plot_events.o calls st_plot_line"
head -2 "$D/cyc.tab" >"$D/one.tab"; printf '%s\n' "U core/plot/plot_events st_plot_line" >>"$D/one.tab"
layering_no_cycles "$D/one.tab" >"$D/one.out"
check "a call one way passes" has "$D/one.out" "PASS: layering: no two objects call each other"
check "an object with no floor fails" has "$D/syn.out" "core/newthing/x.o"
check "run calling doctor outside its references fails, the references pass" \
    sh -c "grep -qF 'core/run/prerun_tree.o calls st_doctor_parse_size (core/doctor/doctor_parse.o, module doctor)' '$D/syn.out' &&
           ! grep -qF 'core/run/prerun_tree.o calls st_doctor_reference' '$D/syn.out'"
: >"$D/empty.tab"
layering_calls "$RULES" "$D/empty.tab" >"$D/empty.out"
check "no calls read is a failure, not a pass" \
    has "$D/empty.out" "FAIL: layering: calls between modules were read from the objects (none found)"

# ---- includes and calls through the backend table ----
S=$D/src
mkdir -p "$S/include/stagetop"
cp "$ST_ROOT/include/stagetop/platform.h" "$S/include/stagetop/platform.h"
for h in monitor.h trace.h summary.h error.h; do src "$S" "include/stagetop/$h" '/* stub */'; done
src "$S" core/trace/trace_ok.c '#include "stagetop/trace.h"
#include "stagetop/summary.h"
#include "trace_internal.h"'
src "$S" core/trace/trace_internal.h '#include "stagetop/error.h"'
src "$S" tui/spark.c '#include "spark.h"'
src "$S" tui/spark.h '#include <stdio.h>'
src "$S" core/platform/platform_x.c '#if defined(__linux__)
#endif'
src "$S" core/trace/trace_feat.c '#if defined(MAP_POPULATE) && defined(F_FULLFSYNC)
#endif'
src "$S" core/clock.c 'double st_now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return 0; }'
src "$S" core/platform/platform_y.c 'static time_t t(void) { return time(NULL); }'
src "$S" core/run/deadline.c 'double d(const struct s *x) { return x->time(0) + runtime(NULL); } /* run time (s) */'
layering_sources "$RULES" "$S" >"$D/inc-clean.out"
# (the rules' exceptions name files this tree does not have: they fail here)
check "clean sources pass the include rules" \
    sh -c "! grep '^FAIL' '$D/inc-clean.out' | grep -v 'exception still needed' | grep -q . &&
           grep -qF 'PASS: layering: includes of trace' '$D/inc-clean.out'"
check "a backend's platform #if and a feature macro's #if pass" \
    grep -qF 'PASS: layering: a platform #if only in' "$D/inc-clean.out"
check "clock reads in clock.c and a backend pass, and neither a member time(0) nor runtime( is one" \
    grep -qF 'PASS: layering: a clock read only in' "$D/inc-clean.out"

src "$S" core/trace/trace_bad.c '#include "stagetop/monitor.h"
#include <ncurses.h>
#include "gone_internal.h"'
src "$S" core/report/diff.c '#include "../trace/trace_internal.h"'
src "$S" tui/spark.h '#include "view.h"'
src "$S" tui/view.h '#include <curses.h>'
src "$S" tui/main.c '#include "stagetop/json.h"'
src "$S" tui/cmd_x.c '#include "stagetop/newthing.h"'
src "$S" core/plot/plot_x.c 'static int f(const st_platform *plat) { return plat->open(0, 0); }'
src "$S" core/report/angle.c '#include <stagetop/monitor.h>'
src "$S" tui/guard_text.c '#include "guard_text.h"'
src "$S" tui/guard_text.h '#include <stagetop/monitor.h>
#include <ncursesw/curses.h>'
src "$S" core/run/jobctl.c '#include <unistd.h>
#  ifdef __APPLE__
#endif
#if defined(__linux__) || defined(__MACH__)
#endif'
src "$S" core/run/follow.c 'static double mono(void) { struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); return 0; }'
src "$S" tui/outputs.c 'void f(void) { struct timeval tv; gettimeofday(&tv, NULL); }
time_t g(void) { return time(NULL); }'
layering_sources "$RULES" "$S" >"$D/inc-bad.out"
check "trace including a run header fails" \
    has "$D/inc-bad.out" "core/trace/trace_bad.c includes stagetop/monitor.h (module run)"
check "core including curses fails" has "$D/inc-bad.out" "core/trace/trace_bad.c includes ncurses.h"
check "a relative include of another folder's internal header fails" \
    has "$D/inc-bad.out" "core/report/diff.c includes \"../trace/trace_internal.h\""
check "an internal header that is not a file of the folder fails" \
    has "$D/inc-bad.out" "core/trace/trace_bad.c includes \"gone_internal.h\""
check "a pure screen helper reaching curses through its own headers fails" \
    has "$D/inc-bad.out" "tui/spark.c (through tui/view.h) includes curses.h"
check "the screen including the JSON codec fails" has "$D/inc-bad.out" "tui/main.c includes stagetop/json.h"
check "a public header no module owns fails" \
    has "$D/inc-bad.out" "tui/cmd_x.c includes stagetop/newthing.h (a public header with no module"
check "plot calling the backend through st_platform fails" \
    has "$D/inc-bad.out" "core/plot/plot_x.c:1 calls a function of st_platform"
check "an angle-bracket include of a public header is held to the floor" \
    has "$D/inc-bad.out" "core/report/angle.c includes stagetop/monitor.h (module run)"
check "guard_text.c reaching curses through its own header fails" \
    has "$D/inc-bad.out" "tui/guard_text.c (through tui/guard_text.h) includes ncursesw/curses.h"
check "a platform #if outside the backends fails, naming file and line" \
    sh -c "grep -qF 'core/run/jobctl.c:2 tests a platform' '$D/inc-bad.out' &&
           grep -qF 'core/run/jobctl.c:4 tests a platform' '$D/inc-bad.out' &&
           ! grep -qF 'core/trace/trace_feat.c' '$D/inc-bad.out' && ! grep -qF 'platform_x.c' '$D/inc-bad.out'"
check "a clock read outside clock.c and the backends fails, naming file and line" \
    sh -c "grep -qF 'core/run/follow.c:2 reads a clock' '$D/inc-bad.out' &&
           grep -qF 'tui/outputs.c:1 reads a clock' '$D/inc-bad.out' &&
           grep -qF 'tui/outputs.c:2 reads a clock' '$D/inc-bad.out' &&
           ! grep -qF 'core/clock.c:' '$D/inc-bad.out' && ! grep -qF 'platform_y.c:' '$D/inc-bad.out' &&
           ! grep -qF 'deadline.c:' '$D/inc-bad.out'"
check "backend exceptions no longer needed fail" \
    has "$D/inc-bad.out" "FAIL: layering: backend exception still needed: tui/pick.c"
