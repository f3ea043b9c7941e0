/* test_diff_time: time is a result too ([reports] 2): per stage the time's
 * change in seconds and percent, each side's swap growth and min level (a
 * name seen twice sums its swap growth and keeps its lowest level), the
 * duration's change in percent, and the --fail-time gate; in the text, the
 * Markdown and --json alike. */
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

/* A: setup 0-1 s, enc 1-2 s, dec 2-3 s, enc again 3-4 s; B: enc 0-3 s,
 * dec 3-4 s.  Swap rises in A's first enc window by 100, in the second by
 * 50; levels as written. */
static const char TRACE_A[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":10,\"swap_used\":1000,\"level\":90}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":1}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":20,\"swap_used\":1100,\"level\":70}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"dec\",\"t\":2}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":30,\"swap_used\":1100,\"level\":80}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":3}\n"
    "{\"type\":\"sample\",\"t\":3,\"footprint\":40,\"swap_used\":1150,\"level\":60}\n"
    "{\"type\":\"sample\",\"t\":4,\"footprint\":40,\"swap_used\":1150,\"level\":65}\n";
static const char TRACE_B[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":0}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":10,\"swap_used\":500,\"level\":50}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":10,\"swap_used\":700,\"level\":40}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"dec\",\"t\":3}\n"
    "{\"type\":\"sample\",\"t\":3,\"footprint\":10,\"swap_used\":600,\"level\":45}\n"
    "{\"type\":\"sample\",\"t\":5,\"footprint\":10,\"swap_used\":600,\"level\":45}\n";

static void per_stage_time_swap_level(void **state)
{
    (void)state;
    rf_pair p;
    rf_compare(&p, TRACE_A, TRACE_B);
    assert_int_equal(p.d.n_stages, 3);
    const st_diff_stage *enc = &p.d.stages[1];
    assert_string_equal(enc->stage, "enc");
    assert_int_equal(enc->a.seconds_ms, 2000); /* 1-2 and 3-4 */
    assert_int_equal(enc->b.seconds_ms, 3000);
    assert_true(enc->has_time && enc->time_s > 0.999 && enc->time_s < 1.001);
    assert_true(enc->has_time_pct && enc->time_pct > 49.99 && enc->time_pct < 50.01);
    assert_true(enc->a.has_swap);
    assert_int_equal(enc->a.swap_growth, 100 + 50);  /* both windows */
    assert_int_equal(enc->a.min_level_c, 6000);      /* the lower of 70 and 60 */
    assert_int_equal(enc->b.swap_growth, 700 - 500);
    assert_int_equal(enc->b.min_level_c, 4000);
    assert_false(p.d.stages[0].b.present);           /* setup: A only */
    assert_false(p.d.stages[0].has_time);
    /* the run: 4 s -> 5 s, +25 % */
    assert_true(p.d.has_duration_pct && p.d.duration_pct > 24.99 && p.d.duration_pct < 25.01);
    assert_true(st_diff_time_exceeds(&p.d, 24.9));
    assert_false(st_diff_time_exceeds(&p.d, 25.1));

    rf_render(&p);
    const char *row = strstr(p.tx, "\nenc ");
    assert_non_null(row);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(strchr(row + 1, '\n') - row - 1), row + 1);
    assert_non_null(strstr(line, "+1.0s (+50.0%)"));
    assert_non_null(strstr(line, "+150 B"));
    assert_non_null(strstr(line, "+200 B"));
    assert_non_null(strstr(line, "60%"));
    assert_non_null(strstr(line, "40%"));
    assert_non_null(strstr(p.tx, "+1.0s (+25.0%)")); /* duration */
    assert_non_null(strstr(p.md, "| enc | 2.0 s | 40 B | 3.0 s | 10 B | -75.0 % | +1.0 s (+50.0 %) | "
                                 "+150 B | +200 B | 60 % | 40 % |\n"));
    assert_non_null(strstr(p.md, "| duration | 4.0s | 5.0s | +1.0 s (+25.0 %) |\n"));
    assert_non_null(strstr(p.js, "{\"stage\":\"enc\",\"a\":{\"seconds\":2.000,\"peak_footprint\":40,"
                                 "\"swap_growth\":150,\"min_level\":60},\"b\":{\"seconds\":3.000,"
                                 "\"peak_footprint\":10,\"swap_growth\":200,\"min_level\":40},"
                                 "\"change\":{\"seconds\":1.000,\"seconds_pct\":50,"
                                 "\"peak_footprint_pct\":-75}}"));
    assert_non_null(strstr(p.js, "\"duration_s\":1.000,\"duration_pct\":25,"));
    rf_free(&p);
}

/* Two traces whose footprints have different definitions (docs/metrics.md,
 * "Counted once"): the text and the Markdown say so; the same definition,
 * or one unknown (stageload), says nothing. */
static void footprint_definitions_that_differ_are_said(void **state)
{
    (void)state;
    rf_pair p;
    char *tx, *md;
    rf_compare(&p, TRACE_A, TRACE_B);
    tx = st_diff_text(&p.d, "a", "b");
    assert_null(strstr(tx, "definition")); /* neither says one */
    free(tx);
    snprintf(p.a.meta.footprint_metric, sizeof p.a.meta.footprint_metric, "anon+shmem+swap");
    snprintf(p.b.meta.footprint_metric, sizeof p.b.meta.footprint_metric, "anon+shmem+swap");
    tx = st_diff_text(&p.d, "a", "b");
    assert_null(strstr(tx, "definition"));
    free(tx);
    snprintf(p.b.meta.footprint_metric, sizeof p.b.meta.footprint_metric,
             "pss_anon+pss_shmem+swap_pss");
    tx = st_diff_text(&p.d, "a", "b");
    md = st_report_diff_md(&p.d, "a", "b", NULL);
    assert_non_null(strstr(tx, "\nnote: the footprints differ in definition: A anon+shmem+swap, "
                               "B pss_anon+pss_shmem+swap_pss (docs/metrics.md)"));
    assert_non_null(strstr(md, "**Note:** the footprints differ in definition"));
    free(tx);
    free(md);
    rf_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(per_stage_time_swap_level),
        cmocka_unit_test(footprint_definitions_that_differ_are_said),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
