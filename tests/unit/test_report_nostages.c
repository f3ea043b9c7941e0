/* test_report_nostages: a run with no stage events has no stages ([reports]
 * 4): stageload's implicit "setup" window over the whole run is not shown
 * as a stage in report, report A B, diff and diff --json; the events are
 * listed in time order with what they say (a mark's text, a load's bytes,
 * the guard's reading, limit and action, the processes signalled, the exit
 * status). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/report.h"
#include "report_fixture.h"
#include "tracetext.h"

static const char NO_STAGES[] =
    "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"platform\":\"linux\",\"pid\":42,\"command\":\"job\","
    "\"start_utc\":\"2026-12-01T10:00:00Z\",\"interval\":1}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"swap_used\":1000,\"level\":90}\n"
    "{\"type\":\"event\",\"kind\":\"mark\",\"t\":0.5,\"note\":\"warm up done\"}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":200,\"swap_used\":1500,\"level\":80}\n"
    "{\"type\":\"event\",\"kind\":\"load\",\"t\":1.2,\"name\":\"unet\",\"nbytes\":1048576,\"seconds\":0.25}\n"
    "{\"type\":\"event\",\"kind\":\"budget\",\"t\":1.5,\"name\":\"swap\",\"value\":600,\"limit\":500,"
    "\"note\":\"pause\"}\n"
    "{\"type\":\"event\",\"kind\":\"pause\",\"t\":1.5,\"value\":3}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":300,\"swap_used\":1600,\"level\":70}\n"
    "{\"type\":\"event\",\"kind\":\"exit\",\"t\":2.5,\"value\":137}\n";
static const char STAGED[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":0}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":500,\"swap_used\":2000,\"level\":50}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":600,\"swap_used\":2000,\"level\":50}\n";

static void one_trace(void **state)
{
    (void)state;
    st_trace t;
    load_trace(NO_STAGES, &t);
    char *md = st_report_md(&t, "t.jsonl", NULL, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "#### Stages\n\nNo stages: this trace has no stage events"));
    assert_null(strstr(md, "| setup |"));
    assert_non_null(strstr(md, "#### Events\n\n"
                               "- 0.500 s: mark (warm up done)\n"
                               "- 1.200 s: load unet, 1.00 MiB in 0.25 s\n"
                               "- 1.500 s: guard: swap grew 600 B since the guard was armed, over the "
                               "budget of 500 B: pause\n"
                               "- 1.500 s: pause, 3 processes signalled\n"
                               "- 2.500 s: exit, status 137\n"));
    free(md);
    st_trace_free(&t);
}

static void compared(void **state)
{
    (void)state;
    rf_pair p;
    rf_compare(&p, NO_STAGES, STAGED);
    assert_int_equal(p.d.n_stages, 1); /* B's enc only: no "setup" from A */
    assert_string_equal(p.d.stages[0].stage, "enc");
    assert_false(p.d.stages[0].a.present);
    char *js = st_diff_json(&p.d);
    assert_non_null(js);
    assert_non_null(strstr(js, "\"stages\":[\n{\"stage\":\"enc\",\"a\":null,"));
    free(js);
    rf_diff(&p, &p.a, &p.a);
    assert_int_equal(p.d.n_stages, 0);
    char *tx = st_diff_text(&p.d, "a", "a"), *md = st_report_diff_md(&p.d, "a", "a", NULL);
    assert_non_null(tx);
    assert_non_null(md);
    assert_non_null(strstr(tx, "(no stages: neither trace has stage events)\n"));
    assert_non_null(strstr(md, "#### Stages\n\nNo stages: neither trace has stage events.\n"));
    free(tx);
    free(md);
    rf_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_trace),
        cmocka_unit_test(compared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
