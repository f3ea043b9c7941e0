/* test_report_summary_text: st_report_summary_text ([reports] 6), the
 * terminal summary `stagetop summary --text` prints and a run's closing
 * summary will: exit status, duration, peak footprint, the kernel's peak
 * with its source, swap start -> peak and growth (end - start), min level,
 * the stage table; "no stages"; stage names cleaned and fitted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/report.h"
#include "stagetop/sb.h"
#include "stagetop/stage_table.h"

#define GIB "1073741824"
/* swap 1 GiB at start, 3 GiB peak, 2 GiB at the end: growth +1.00 GiB */
static const char RUN[] =
    "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"interval\":1,\"command\":\"job\"}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"load\",\"t\":0}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":" GIB ",\"swap_used\":" GIB ",\"level\":90}\n"
    "{\"type\":\"sample\",\"t\":10,\"footprint\":2147483648,\"swap_used\":3221225472,\"level\":45.5}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"a-stage-name-far-too-long-for-its-column\\u001b[31m\",\"t\":20}\n"
    "{\"type\":\"sample\",\"t\":20,\"footprint\":536870912,\"swap_used\":2147483648,\"level\":60}\n"
    "{\"type\":\"sample\",\"t\":90,\"footprint\":536870912,\"swap_used\":2147483648,\"level\":70}\n"
    "{\"type\":\"event\",\"kind\":\"exit\",\"t\":90.5,\"value\":3}\n";
static const char NO_STAGES[] =
    "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"interval\":1}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100}\n"
    "{\"type\":\"sample\",\"t\":1.5,\"footprint\":200}\n";

/* load, then three `step` windows: 3 s, 4 s and 1 s; peaks 2, 3 and 1 GiB;
 * swap +0.5, -0.25 and +0.75 GiB; levels 50, 40 and 60 */
static const char REPEAT[] =
    "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"interval\":1,\"command\":\"job\"}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"load\",\"t\":0}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":" GIB ",\"swap_used\":" GIB ",\"level\":90}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"step\",\"t\":2}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":2147483648,\"swap_used\":1610612736,\"level\":50}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"step\",\"t\":5}\n"
    "{\"type\":\"sample\",\"t\":5,\"footprint\":3221225472,\"swap_used\":1342177280,\"level\":40}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"step\",\"t\":9}\n"
    "{\"type\":\"sample\",\"t\":9,\"footprint\":536870912,\"swap_used\":2147483648,\"level\":70}\n"
    "{\"type\":\"sample\",\"t\":10,\"footprint\":" GIB ",\"swap_used\":2147483648,\"level\":60}\n";

static char *summary(const char *text, int width, int kernel)
{
    st_trace t;
    st_error e;
    st_trace_init(&t);
    assert_int_equal(st_trace_load_mem(text, strlen(text), &t, &e), ST_OK);
    if (kernel)
        st_summary_add_kernel_peak_from(&t.summary, 3ull << 30, "wait4");
    st_sb w;
    st_sb_init(&w);
    st_report_summary_text(&t, &w, width);
    st_trace_free(&t);
    char *s = st_sb_take(&w);
    assert_non_null(s);
    return s;
}

static void whole_run(void **state)
{
    (void)state;
    char *s = summary(RUN, 0, 1);
    assert_non_null(strstr(s, "exit status     3\n"));
    assert_non_null(strstr(s, "duration        1m30s, 4 samples\n"));
    assert_non_null(strstr(s, "peak footprint  2.00 GiB\n"));
    assert_non_null(strstr(s, "kernel peak     3.00 GiB (the largest process's peak; source: wait4)\n"));
    assert_non_null(strstr(s, "swap            1.00 GiB start \xE2\x86\x92 3.00 GiB peak, growth +1.00 GiB\n"));
    assert_non_null(strstr(s, "min level       45.50%\n"));
    /* 80 columns: names get 24 (23 and "…") */
    assert_non_null(strstr(s, "\nstage                        n     time     mean      peak swap growth min level\n"
                              "load                         1    20.0s    20.0s  2.00 GiB   +2.00 GiB    45.50%\n"
                              "a-stage-name-far-too-l\xE2\x80\xA6      1    70.0s    70.0s   512 MiB   -1.00 GiB       60%\n"));
    assert_null(strchr(s, '\x1b'));
    free(s);
}

static void narrow_and_unknowns(void **state)
{
    (void)state;
    char *s = summary(RUN, 52, 0);
    assert_non_null(strstr(s, "kernel peak     \xE2\x80\x93 (not recorded)\n"));
    /* 52 columns: names get the least, 8 (7 and "…"); a stage line is 64 columns */
    assert_non_null(strstr(s, "\nstage        n     time     mean      peak swap growth min level\n"
                              "load         1    20.0s"));
    assert_non_null(strstr(s, "\na-stag\xE2\x80\xA6      1    70.0s"));
    free(s);
    s = summary(NO_STAGES, 80, 0);
    assert_non_null(strstr(s, "exit status     \xE2\x80\x93 (no exit recorded)\n"));
    assert_non_null(strstr(s, "duration        1.5s, 2 samples\n"));
    assert_non_null(strstr(s, "swap            \xE2\x80\x93\n"));
    assert_non_null(strstr(s, "min level       \xE2\x80\x93\n"));
    assert_non_null(strstr(s, "no stages (no stage events in the trace)\n"));
    assert_null(strstr(s, "setup"));
    free(s);
}

/* A repeated stage is one row: n, total, mean, highest peak, swap growths
 * added, lowest level (stage_table.h). */
static void repeated_grouped(void **state)
{
    (void)state;
    char *s = summary(REPEAT, 80, 0);
    assert_non_null(strstr(s, "\nstage                        n     time     mean      peak swap growth min level\n"
                              "load                         1     2.0s    2.00s  1.00 GiB        +0 B       90%\n"
                              "step                         3     8.0s    2.67s  3.00 GiB   +1.00 GiB       40%\n"));
    assert_null(strstr(s, "\nstep                         1"));
    free(s);
}

/* The header's repetitions (the current window the third `step`: two
 * closed, 3 s and 4 s) and a table cut at max_lines with its "more" line. */
static void repeats_and_cut(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    st_trace_init(&t);
    assert_int_equal(st_trace_load_mem(REPEAT, strlen(REPEAT), &t, &e), ST_OK);
    size_t nth, done;
    int64_t ms;
    assert_int_equal(st_stage_repeats(&t.summary, &nth, &done, &ms), 1);
    assert_int_equal(nth, 3);
    assert_int_equal(done, 2);
    assert_int_equal(ms, 7000);
    st_sb w;
    st_sb_init(&w);
    st_stage_table_opts o = {.width = 80, .indent = 2, .max_lines = 1, .more_hint = "(hint)"};
    assert_int_equal(st_stage_table(&t.summary, &w, &o, &e), ST_OK);
    char *s = st_sb_take(&w);
    assert_non_null(strstr(s, "\n  ... and 2 more stages (hint)\n"));
    assert_null(strstr(s, "load"));
    free(s);
    st_trace_free(&t);
    st_trace_init(&t);
    assert_int_equal(st_trace_load_mem(NO_STAGES, strlen(NO_STAGES), &t, &e), ST_OK);
    assert_int_equal(st_stage_repeats(&t.summary, &nth, &done, &ms), 0);
    assert_int_equal(nth, 0);
    st_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_run),
        cmocka_unit_test(narrow_and_unknowns),
        cmocka_unit_test(repeated_grouped),
        cmocka_unit_test(repeats_and_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
