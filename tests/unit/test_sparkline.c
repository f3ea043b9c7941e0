/* test_sparkline.c: sparklines, graphs, bucketing, axis and event row.
 * Expected glyph strings are written by hand from the rules in tui/spark.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "../../tui/spark.h"

static char out[4096];

static void test_spark_levels(void **state)
{
    (void)state;
    const double v[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    tui_spark(v, 9, 0, 8, 0, out, sizeof out);
    assert_string_equal(out, "▁▁▂▃▄▅▆▇█");
    /* a value between two levels goes up: 0.1 of 8 -> first, 4.5 -> fifth */
    const double w[] = {0.1, 4.5, 7.99};
    tui_spark(w, 3, 0, 8, 0, out, sizeof out);
    assert_string_equal(out, "▁▅█");
}

static void test_spark_gaps(void **state)
{
    (void)state;
    const double v[] = {NAN, 4, NAN, NAN, 0};
    size_t n = tui_spark(v, 5, 0, 8, 0, out, sizeof out);
    assert_string_equal(out, " ▄  ▁");
    assert_int_equal(n, 1 + 3 + 1 + 1 + 3);
}

static void test_spark_scaling(void **state)
{
    (void)state;
    const double v[] = {50, 100};
    tui_spark(v, 2, 0, 100, 0, out, sizeof out);
    assert_string_equal(out, "▄█");
    tui_spark(v, 2, 0, 200, 0, out, sizeof out);
    assert_string_equal(out, "▂▄");
    /* outside [lo, hi] is clamped */
    const double x[] = {-5, 300};
    tui_spark(x, 2, 0, 200, 0, out, sizeof out);
    assert_string_equal(out, "▁█");
    /* lo shifts the base: 60 of [50, 70] is half */
    const double y[] = {60, 70};
    tui_spark(y, 2, 50, 70, 0, out, sizeof out);
    assert_string_equal(out, "▄█");
    /* a flat scale (hi <= lo): values above lo are full, the rest lowest */
    const double z[] = {0, 5};
    tui_spark(z, 2, 0, 0, 0, out, sizeof out);
    assert_string_equal(out, "▁█");
}

static void test_spark_ascii(void **state)
{
    (void)state;
    const double v[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, NAN};
    tui_spark(v, 11, 0, 9, 1, out, sizeof out);
    assert_string_equal(out, "..:-=+*#%@ ");
}

static void test_spark_buffer_limit(void **state)
{
    (void)state;
    const double v[] = {8, 8, 8};
    char small[7];
    size_t n = tui_spark(v, 3, 0, 8, 0, small, sizeof small);
    assert_int_equal(n, 6); /* two whole glyphs and the NUL */
    assert_string_equal(small, "██");
}

static void test_graph_rows(void **state)
{
    (void)state;
    /* two rows = 16 eighths; the value v of [0, 16] is v eighths high */
    const double v[] = {NAN, 0, 4, 8, 12, 16};
    tui_graph_row(v, 6, 0, 16, 2, 0, 0, out, sizeof out);
    assert_string_equal(out, "    ▄█");
    tui_graph_row(v, 6, 0, 16, 2, 1, 0, out, sizeof out);
    assert_string_equal(out, " ▁▄███");
    tui_graph_row(v, 6, 0, 16, 2, 0, 1, out, sizeof out);
    assert_string_equal(out, "    -#");
    tui_graph_row(v, 6, 0, 16, 2, 1, 1, out, sizeof out);
    assert_string_equal(out, " .-###");
    /* three rows, 24 eighths: 20 -> 8 + 8 + 4 */
    const double w[] = {20, 24, 9};
    tui_graph_row(w, 3, 0, 24, 3, 0, 0, out, sizeof out);
    assert_string_equal(out, "▄█ ");
    tui_graph_row(w, 3, 0, 24, 3, 1, 0, out, sizeof out);
    assert_string_equal(out, "██▁");
    tui_graph_row(w, 3, 0, 24, 3, 2, 0, out, sizeof out);
    assert_string_equal(out, "███");
}

/* samples every 500 ms with some missing, footprint = 100 * k */
static st_sample mk(uint32_t t_ms, uint64_t fp, uint16_t level_c)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    s.t_ms = t_ms;
    s.footprint = fp;
    s.level_c = level_c;
    s.valid = ST_F_FOOTPRINT | ST_F_LEVEL;
    return s;
}

static void test_bucket(void **state)
{
    (void)state;
    /* k:        0    1    4    5     6    7 ; k 2 and 3 were dropped; samples
     * come up to an interval late (never early) */
    st_sample s[] = {mk(0, 100, 9000), mk(503, 700, 8000), mk(2001, 300, 7000),
                     mk(2740, 400, 7500), mk(3000, 50, 6000), mk(3510, 60, 6500)};
    st_samples_view v = {s, 6, NULL, 0};
    double col[5];
    tui_bucket(v, ST_F_FOOTPRINT, TUI_AGG_MAX, 500, 2, 0, 5, col);
    assert_true(col[0] == 700);  /* max of k 0, 1 */
    assert_true(isnan(col[1]));  /* k 2, 3: nothing */
    assert_true(col[2] == 400);
    assert_true(col[3] == 60);
    assert_true(isnan(col[4]));  /* the future */
    tui_bucket(v, ST_F_LEVEL, TUI_AGG_MIN, 500, 2, 0, 5, col);
    assert_true(col[0] == 80.0 && isnan(col[1]) && col[2] == 70.0 && col[3] == 60.0);
    /* one sample per column, starting at column 4, across a split ring */
    st_samples_view split = {s, 3, s + 3, 3};
    double one[4];
    tui_bucket(split, ST_F_FOOTPRINT, TUI_AGG_MAX, 500, 1, 4, 4, one);
    assert_true(one[0] == 300 && one[1] == 400 && one[2] == 50 && one[3] == 60);
    /* a field the samples lack gives gaps only */
    tui_bucket(v, ST_F_GPU, TUI_AGG_MAX, 500, 1, 0, 4, one);
    assert_true(isnan(one[0]) && isnan(one[1]) && isnan(one[2]) && isnan(one[3]));
    /* an empty view */
    st_samples_view none = {NULL, 0, NULL, 0};
    tui_bucket(none, ST_F_FOOTPRINT, TUI_AGG_MAX, 500, 1, 0, 2, one);
    assert_true(isnan(one[0]) && isnan(one[1]));
}

static void test_bucket_spike_not_hidden(void **state)
{
    (void)state;
    /* 1000 samples at 10 ms, one spike; 100 per column keeps it */
    static st_sample s[1000];
    for (int i = 0; i < 1000; i++)
        s[i] = mk((uint32_t)(i * 10), 1000, 5000);
    s[537].footprint = 999999;
    st_samples_view v = {s, 1000, NULL, 0};
    double col[10];
    tui_bucket(v, ST_F_FOOTPRINT, TUI_AGG_MAX, 10, 100, 0, 10, col);
    for (int j = 0; j < 10; j++)
        assert_true(col[j] == (j == 5 ? 999999 : 1000));
}

static void test_values_and_k(void **state)
{
    (void)state;
    st_sample s = mk(0, 5, 1234);
    assert_true(tui_sample_value(&s, ST_F_LEVEL) == 12.34);
    assert_true(tui_sample_value(&s, ST_F_FOOTPRINT) == 5.0);
    assert_true(isnan(tui_sample_value(&s, ST_F_SWAP)));
    assert_int_equal(tui_sample_k(0, 500), 0);
    assert_int_equal(tui_sample_k(499, 500), 0);
    assert_int_equal(tui_sample_k(500, 500), 1);
    assert_int_equal(tui_sample_k(1499, 500), 2);
    assert_int_equal(tui_sample_k(7, 0), 7); /* a zero interval counts as 1 ms */
}

static void test_axis(void **state)
{
    (void)state;
    char lab[32];
    tui_axis_label(0.5, lab, sizeof lab);
    assert_string_equal(lab, "-0.5s");
    tui_axis_label(45, lab, sizeof lab);
    assert_string_equal(lab, "-45s");
    tui_axis_label(120, lab, sizeof lab);
    assert_string_equal(lab, "-2m");
    tui_axis_label(90, lab, sizeof lab);
    assert_string_equal(lab, "-1m30s");
    tui_axis_label(10800, lab, sizeof lab);
    assert_string_equal(lab, "-3h");
    tui_axis_label(5400, lab, sizeof lab);
    assert_string_equal(lab, "-1h30m");

    assert_true(tui_axis_step(0.01) == 0.1);
    assert_true(tui_axis_step(0.5) == 5);
    assert_true(tui_axis_step(1) == 10);
    assert_true(tui_axis_step(1.2) == 15);
    assert_true(tui_axis_step(100) == 1800);

    tui_axis(25, 1.0, 0, out, sizeof out);
    assert_string_equal(out, "-20s┴─────-10s┴──────────");
    tui_axis(25, 1.0, 1, out, sizeof out);
    assert_string_equal(out, "-20s+------10s+----------");
    tui_axis(30, 0.5, 0, out, sizeof out);
    assert_string_equal(out, "─────-10s┴──────-5s┴──────────");
    /* a label that does not fit on the left is left out, its tick stays */
    tui_axis(12, 1.0, 0, out, sizeof out);
    assert_string_equal(out, "─┴──────────");
}

/* The clock axis (key T): ticks at whole multiples of the step of local
 * time, each labelled with its time; the step widened to fit its label. */
static void test_axis_clock(void **state)
{
    (void)state;
    char lab[32];
    double t = 14 * 3600 + 5 * 60 + 30; /* 14:05:30 */
    tui_axis_clock(t, 1, lab, sizeof lab);
    assert_string_equal(lab, "14:05:30");
    tui_axis_clock(t + 0.5, 0.5, lab, sizeof lab);
    assert_string_equal(lab, "14:05:30.5");
    tui_axis_clock(t, 60, lab, sizeof lab);
    assert_string_equal(lab, "14:05");
    tui_axis_clock(t + 86400 * 3, 60, lab, sizeof lab); /* days since the epoch drop out */
    assert_string_equal(lab, "14:05");
    /* 0.1 s columns: a tick a second (10 columns: "14:05:30" and a space fit) */
    tui_axis_time(40, 0.1, 1, t, 1, out, sizeof out);
    assert_string_equal(out, "-14:05:27+-14:05:28+-14:05:29+-14:05:30+");
    /* the right edge half a second past a tick: the ticks shift by 5 columns */
    tui_axis_time(40, 0.1, 1, t + 0.5, 1, out, sizeof out);
    assert_string_equal(out, "----+-14:05:28+-14:05:29+-14:05:30+-----"); /* 14:05:27 does not fit */
    /* 0.05 s columns: 1 s is 20 columns; 0.5 s (10) would not hold "14:05:30.5" */
    tui_axis_time(40, 0.05, 1, t, 1, out, sizeof out);
    assert_string_equal(out, "-----------14:05:29+-----------14:05:30+");
    /* the start record's UTC time (replay's T): epoch seconds */
    double e = 0;
    assert_int_equal(tui_utc_seconds("2026-12-04T02:41:30Z", &e), 1);
    assert_true(e == 1796352090.0);
    assert_int_equal(tui_utc_seconds("2026-12-04T04:41:30+02:00", &e), 1); /* stageload's form */
    assert_true(e == 1796352090.0);
    assert_int_equal(tui_utc_seconds("2024-02-29T12:00:00.5+00:00", &e), 1); /* a leap day */
    assert_true(e == 1709208000.5);
    assert_int_equal(tui_utc_seconds("1969-12-31T23:59:59Z", &e), 1);
    assert_true(e == -1.0);
    assert_int_equal(tui_utc_seconds("", &e), 0);
    assert_int_equal(tui_utc_seconds("2026-13-04T02:41:30Z", &e), 0);
    assert_int_equal(tui_utc_seconds("2026-12-04T02:41:30 junk", &e), 0);
    assert_int_equal(tui_utc_seconds(NULL, &e), 0);
    /* clock 0: the seconds-ago axis */
    tui_axis_time(25, 1.0, 0, 0, 1, out, sizeof out);
    assert_string_equal(out, "-20s+------10s+----------");
}

static st_event ev(uint32_t t_ms, int kind, const char *stage)
{
    st_event e;
    memset(&e, 0, sizeof e);
    e.t_ms = t_ms;
    e.kind = (uint8_t)kind;
    if (stage) {
        strncpy(e.stage, stage, sizeof e.stage - 1);
        e.has = ST_EVF_STAGE;
    }
    return e;
}

static void test_events_row(void **state)
{
    (void)state;
    st_event e[] = {ev(9000, ST_EV_PAUSE, NULL), ev(12000, ST_EV_STAGE, "encode"),
                    ev(15000, ST_EV_MARK, NULL), ev(20000, ST_EV_STAGE, "denoise"),
                    ev(30000, ST_EV_KILL, NULL)};
    /* columns 10..29 at 1 s each: pause (col 9) and kill (col 30) are out */
    tui_events_row(e, 5, 1000, 1, 10, 20, 0, out, sizeof out);
    assert_string_equal(out, "  Se M    Sdenoise  ");
    /* the last millisecond of column 29 is still in view */
    st_event edge[] = {ev(29999, ST_EV_KILL, NULL)};
    tui_events_row(edge, 1, 1000, 1, 10, 20, 0, out, sizeof out);
    assert_string_equal(out, "                   K");
    /* in one column: never one hidden under another, their count instead
     * (issue: a stage under a mark of the same sample was lost) */
    st_event same[] = {ev(1000, ST_EV_MARK, NULL), ev(1000, ST_EV_STAGE, "a"),
                       ev(3000, ST_EV_LOAD, NULL), ev(3000, ST_EV_STAGE, "b"),
                       ev(3000, ST_EV_RELEASE, NULL),
                       ev(5000, ST_EV_PAUSE, NULL), ev(5000, ST_EV_RESUME, NULL),
                       ev(7000, ST_EV_STAGE, "c"), ev(7000, ST_EV_KILL, NULL)};
    tui_events_row(same, 9, 1000, 1, 0, 9, 0, out, sizeof out);
    assert_string_equal(out, " 2 3 2 2c"); /* names: no room but at the end (one blank before a marker) */
    st_event two[] = {ev(2000, ST_EV_STAGE, "x"), ev(2000, ST_EV_STAGE, "yz")};
    tui_events_row(two, 2, 1000, 1, 0, 6, 0, out, sizeof out);
    assert_string_equal(out, "  2yz "); /* two stages: counted, the later's name */
    /* a mark shows its note; a stage and a mark 4 ms apart: both counted */
    st_event marks[] = {ev(1000, ST_EV_MARK, NULL), ev(9000, ST_EV_STAGE, "load"),
                        ev(9004, ST_EV_MARK, NULL)};
    memcpy(marks[0].note, "ckpt", 5);
    tui_events_row(marks, 3, 1000, 1, 0, 16, 0, out, sizeof out);
    assert_string_equal(out, " Mckpt   2load  ");
    /* a hostile stage name is shown with visible control characters */
    st_event bad[] = {ev(0, ST_EV_STAGE, "\033[2J")};
    tui_events_row(bad, 1, 1000, 1, 0, 10, 0, out, sizeof out);
    assert_string_equal(out, "S^[[2J    ");
    /* a wide character that does not fit is left out */
    st_event wide[] = {ev(0, ST_EV_STAGE, "日本")};
    tui_events_row(wide, 1, 1000, 1, 0, 4, 0, out, sizeof out);
    assert_string_equal(out, "S日 ");
    /* several samples per column: 5 s columns, an event at 7 s is column 1 */
    st_event agg[] = {ev(7000, ST_EV_BUDGET, NULL), ev(14000, ST_EV_EXIT, NULL)};
    tui_events_row(agg, 2, 1000, 5, 0, 4, 1, out, sizeof out);
    assert_string_equal(out, " BX ");
    assert_int_equal(tui_event_letter(ST_EV_RELOAD), 'L');
    assert_int_equal(tui_event_letter(ST_EV_OTHER), '?');
}

/* The swap lane's scale: swap in use before the run (the base) is not
 * drawn as a full lane; growth over it is. */
static void test_scale_over_base(void **state)
{
    (void)state;
    double lo, hi;
    int has;
    double flat[4] = {380e3, 380e3, NAN, 380e3}; /* pre-existing swap, no growth */
    tui_scale_over_base(flat, 4, 380e3, &lo, &hi, &has);
    assert_false(has);
    unsigned char lv[4];
    tui_spark_levels(flat, 4, lo, hi, 0, lv);
    assert_int_equal(lv[0], 1); /* the lowest glyph, as an empty lane */
    assert_int_equal(lv[3], 1);
    /* base 0 would have filled it: the plain 0 .. largest scale */
    tui_scale_over_base(flat, 4, 0, &lo, &hi, &has);
    assert_true(has);
    tui_spark_levels(flat, 4, lo, hi, 0, lv);
    assert_int_equal(lv[0], 8);
    double grew[3] = {380e3, 1380e3, 880e3}; /* 1 MB of growth: half way at 500 kB */
    tui_scale_over_base(grew, 3, 380e3, &lo, &hi, &has);
    assert_true(has);
    assert_true(lo == 380e3 && hi == 1380e3);
    tui_spark_levels(grew, 3, lo, hi, 0, lv);
    assert_int_equal(lv[1], 8);
    assert_int_equal(lv[2], 4);
    double none[2] = {NAN, NAN};
    tui_scale_over_base(none, 2, 0, &lo, &hi, &has);
    assert_false(has);
    assert_true(lo == 0 && hi == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spark_levels),   cmocka_unit_test(test_spark_gaps),
        cmocka_unit_test(test_spark_scaling),  cmocka_unit_test(test_spark_ascii),
        cmocka_unit_test(test_spark_buffer_limit), cmocka_unit_test(test_graph_rows),
        cmocka_unit_test(test_bucket),         cmocka_unit_test(test_bucket_spike_not_hidden),
        cmocka_unit_test(test_values_and_k),   cmocka_unit_test(test_axis),
        cmocka_unit_test(test_axis_clock),
        cmocka_unit_test(test_events_row),
        cmocka_unit_test(test_scale_over_base),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
