/* test_report_model: the summary rows of `diff` and `report` are built once
 * (core/report/model.c) and every output renders the same rows: the text
 * of `diff`, the Markdown of `report A B`, the "change" of `diff --json`,
 * and the one-trace report.  Values and changes are derived here from the
 * traces' own numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/lanes.h"
#include "stagetop/report.h"
#include "stagetop/report_model.h"
#include "report_fixture.h"
#include "tracetext.h"

/* A: 3 s, peak 800, swap 1000 -> 1500 -> 1250, min level 60.00 %, a load.
 * B: 2 s, peak 1200, swap 2000 -> 2600 -> 2500, min level 45.50 %. */
static const char TRACE_A[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"rss\":90,\"swap_used\":1000,\"level\":90}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":1}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":800,\"swap_used\":1500,\"level\":60}\n"
    "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"m\",\"nbytes\":4096,\"seconds\":0.5,\"t\":1.5}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":200,\"swap_used\":1300,\"level\":70}\n"
    "{\"type\":\"sample\",\"t\":3,\"footprint\":300,\"swap_used\":1250,\"level\":75}\n";
static const char TRACE_B[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":500,\"swap_used\":2000,\"level\":50}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":1}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":1200,\"swap_used\":2600,\"level\":45.5}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":990,\"swap_used\":2500,\"level\":47}\n";
static const char NO_SAMPLES[] = "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n";

/* Every lane the table gives a report rank is a row of a trace holding
 * it, with the row's label and JSON name, in rank order. */
static const char TRACE_ALL[] =
    "{\"type\":\"start\",\"interval\":1}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"rss\":90,\"swap_used\":1000,\"level\":90,\"gpu\":7,"
    "\"cpu\":150,\"pageins\":3,\"tree_swap\":40,\"compressed\":50,\"metal\":70,\"tree_compressed\":5,"
    "\"gpu_system\":400}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":300,\"swap_used\":1200,\"level\":80,\"gpu\":9,"
    "\"cpu\":50,\"pageins\":1,\"tree_swap\":20,\"compressed\":60,\"metal\":30,\"tree_compressed\":8,"
    "\"gpu_system\":350}\n";

static void lane_rows_come_from_the_table(void **state)
{
    (void)state;
    st_trace t;
    load_trace(TRACE_ALL, &t);
    st_report_row rows[ST_RM_MAX_ROWS];
    size_t n = st_report_summary(&t.summary, NULL, rows, ST_RM_MAX_ROWS), seen = 0;
    int ids[ST_LANE_COUNT], last = -1;
    size_t n_lanes = st_lanes_order(ST_LO_REPORT, ids);
    assert_true(n_lanes >= 8);
    for (size_t k = 0; k < n_lanes; k++) {
        const st_lane *l = &st_lanes[ids[k]];
        assert_non_null(l->report_key);
        const st_report_row *r = st_report_find(rows, n, l->report_key);
        assert_non_null(r);
        assert_string_equal(r->label, l->report_label);
        assert_true(r->a.has);
        assert_true((int)(r - rows) > last); /* rank order */
        last = (int)(r - rows);
        seen++;
        if (l->rule == ST_LR_GROWTH) {
            r = st_report_find(rows, n, l->report_rise_key);
            assert_non_null(r);
            assert_string_equal(r->label, l->report_rise_label);
            assert_int_equal(r->a.i[0], 200); /* 1000 -> 1200 */
        }
    }
    assert_int_equal(seen, n_lanes);
    assert_int_equal(st_report_find(rows, n, "peak_tree_swap")->a.i[0], 40);
    assert_int_equal(st_report_find(rows, n, "peak_compressed")->a.i[0], 60);
    assert_int_equal(st_report_find(rows, n, "peak_metal")->a.i[0], 70);
    assert_int_equal(st_report_find(rows, n, "peak_tree_compressed")->a.i[0], 8);
    assert_int_equal(st_report_find(rows, n, "peak_gpu_system")->a.i[0], 400);
    assert_int_equal(st_report_find(rows, n, "min_level")->a.i[0], 8000);
    st_trace_free(&t);
}

static void rows_are_typed_and_changes_computed_once(void **state)
{
    (void)state;
    rf_pair p;
    rf_load(&p, TRACE_A, TRACE_B);
    st_report_row rows[ST_RM_MAX_ROWS];
    size_t n = st_report_summary(&p.a.summary, &p.b.summary, rows, ST_RM_MAX_ROWS);
    static const char *const keys[] = {"duration", "peak_footprint", "kernel_peak", "swap",
                                       "swap_peak_rise", "min_level", "peak_gpu"};
    assert_int_equal(n, 7); /* a comparison has no loads/releases rows */
    for (size_t i = 0; i < n; i++)
        assert_string_equal(rows[i].key, keys[i]);
    const st_report_row *r = st_report_find(rows, n, "peak_footprint");
    assert_true(r->has_delta);
    assert_true(r->delta > 49.99 && r->delta < 50.01); /* 800 -> 1200 */
    r = st_report_find(rows, n, "duration");
    assert_true(r->has_delta && r->delta > -1.001 && r->delta < -0.999); /* 3 s -> 2 s */
    r = st_report_find(rows, n, "swap_peak_rise");
    assert_int_equal(r->a.i[0], 500);
    assert_int_equal(r->b.i[0], 600);
    assert_int_equal((int64_t)r->delta, 100);
    r = st_report_find(rows, n, "min_level");
    assert_int_equal(r->a.i[0], 6000);
    assert_int_equal(r->b.i[0], 4550);
    assert_int_equal((int64_t)r->delta, -1450);
    r = st_report_find(rows, n, "kernel_peak");
    assert_false(r->a.has);
    assert_false(r->has_delta);
    /* one trace: its loads and releases too, no changes */
    n = st_report_summary(&p.a.summary, NULL, rows, ST_RM_MAX_ROWS);
    assert_int_equal(n, 9);
    assert_string_equal(rows[7].key, "loads");
    assert_int_equal(rows[7].a.i[0], 1);
    assert_int_equal(rows[7].a.i[1], 4096);
    for (size_t i = 0; i < n; i++)
        assert_false(rows[i].has_delta);
    rf_free(&p);
}

static void one_formatter_two_styles(void **state)
{
    (void)state;
    char buf[64];
    st_report_value v = st_report_seconds(1, 19.94);
    assert_string_equal(st_report_format(&v, ST_RM_SECONDS, ST_RM_TEXT, buf, sizeof buf), "19.9s");
    assert_string_equal(st_report_format(&v, ST_RM_SECONDS, ST_RM_MD, buf, sizeof buf), "19.9 s");
    v = st_report_bytes(1, 5600);
    assert_string_equal(st_report_format(&v, ST_RM_LEVEL, ST_RM_TEXT, buf, sizeof buf), "56%");
    assert_string_equal(st_report_format(&v, ST_RM_LEVEL, ST_RM_MD, buf, sizeof buf), "56 %");
    v = st_report_bytes(1, 4550);
    assert_string_equal(st_report_format(&v, ST_RM_LEVEL, ST_RM_TEXT, buf, sizeof buf), "45.50%");
    v = st_report_bytes(0, 4550);
    assert_string_equal(st_report_format(&v, ST_RM_LEVEL, ST_RM_MD, buf, sizeof buf), "\xE2\x80\x93");
    st_report_row r;
    memset(&r, 0, sizeof r);
    r.unit = ST_RM_LEVEL;
    r.change = ST_RM_CH_POINTS;
    r.has_delta = 1;
    r.delta = 5000;
    assert_string_equal(st_report_format_change(&r, ST_RM_TEXT, buf, sizeof buf), "+50 pts");
    r.delta = -1450;
    assert_string_equal(st_report_format_change(&r, ST_RM_MD, buf, sizeof buf), "-14.50 pts");
    r.unit = ST_RM_DURATION;
    r.change = ST_RM_CH_DELTA;
    r.delta = 5.866;
    assert_string_equal(st_report_format_change(&r, ST_RM_TEXT, buf, sizeof buf), "+5.9s");
    assert_string_equal(st_report_format_change(&r, ST_RM_MD, buf, sizeof buf), "+5.9 s");
    r.unit = ST_RM_BYTES;
    r.change = ST_RM_CH_PCT;
    r.delta = -56.38;
    assert_string_equal(st_report_format_change(&r, ST_RM_TEXT, buf, sizeof buf), "-56.4%");
    assert_string_equal(st_report_format_change(&r, ST_RM_MD, buf, sizeof buf), "-56.4 %");
    r.has_delta = 0;
    assert_string_equal(st_report_format_change(&r, ST_RM_MD, buf, sizeof buf), "\xE2\x80\x93");
}

/* Every row of the model is in the text and in the Markdown, with the
 * values and change the formatter gives for it. */
static void every_output_renders_the_same_rows(void **state)
{
    (void)state;
    rf_pair p;
    rf_compare(&p, TRACE_A, TRACE_B);
    rf_render(&p);
    for (size_t i = 0; i < p.d.n_rows; i++) {
        const st_report_row *r = &p.d.rows[i];
        char x[128], y[128], z[64], want[512];
        snprintf(want, sizeof want, "| %s | %s | %s | %s |\n", r->label,
                 st_report_format(&r->a, r->unit, ST_RM_MD, x, sizeof x),
                 st_report_format(&r->b, r->unit, ST_RM_MD, y, sizeof y),
                 st_report_format_change(r, ST_RM_MD, z, sizeof z));
        if (!strstr(p.md, want))
            fail_msg("Markdown lacks %s", want);
        const char *line = strstr(p.tx, r->label);
        assert_non_null(line);
        const char *nl = strchr(line, '\n');
        snprintf(want, sizeof want, "%.*s", (int)(nl - line), line);
        assert_non_null(strstr(want, st_report_format(&r->a, r->unit, ST_RM_TEXT, x, sizeof x)));
        assert_non_null(strstr(want, st_report_format(&r->b, r->unit, ST_RM_TEXT, y, sizeof y)));
        assert_non_null(strstr(want, st_report_format_change(r, ST_RM_TEXT, z, sizeof z)));
    }
    assert_non_null(strstr(p.js, "\"change\":{\"peak_footprint_pct\":50,\"duration_s\":-1.000,"
                                 "\"duration_pct\":-33.33"));          /* 3 s -> 2 s */
    assert_non_null(strstr(p.js, ",\"swap_peak_rise_bytes\":100}}"));
    rf_free(&p);
}

/* A side without samples has no peak: "–" in the text and the Markdown,
 * and null in --json (0.2 wrote -100 there while the text said "–"). */
static void no_samples_no_change_anywhere(void **state)
{
    (void)state;
    rf_pair p;
    rf_compare(&p, TRACE_A, NO_SAMPLES);
    assert_false(p.d.has_peak_pct);
    char *js = st_diff_json(&p.d), *md = st_report_diff_md(&p.d, "a", "b", NULL);
    assert_non_null(js);
    assert_non_null(md);
    assert_non_null(strstr(js, "\"peak_footprint_pct\":null"));
    assert_non_null(strstr(md, "| peak footprint | 800 B | \xE2\x80\x93 | \xE2\x80\x93 |\n"));
    assert_false(st_diff_peak_exceeds(&p.d, 0.0)); /* no B peak: nothing exceeds */
    free(js);
    free(md);
    rf_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_are_typed_and_changes_computed_once),
        cmocka_unit_test(lane_rows_come_from_the_table),
        cmocka_unit_test(one_formatter_two_styles),
        cmocka_unit_test(every_output_renders_the_same_rows),
        cmocka_unit_test(no_samples_no_change_anywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
