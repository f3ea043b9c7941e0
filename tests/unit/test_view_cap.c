/* test_view_cap.c: the MPS cap's place on the screen and in the details box
 * (tui/view_cap.c, docs/screen.md "The MPS cap"), from a Mac trace's start
 * record (issue 27's numbers: recommended 37.44 GiB = 40200896512 bytes on
 * 48 GiB, ratios 0.8 + 0.8: cap 0.8 x 40200896512 = 32160717209 bytes,
 * 29.95 GiB).  The expected rows and shares are worked out in the comments
 * from those numbers, not read from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tui/viewdraw.h"
#include "stagetop/trace.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
static const char start_both[] =
    "{\"type\":\"start\",\"stagetop\":\"0.4.0\",\"platform\":\"darwin\",\"pid\":4242,"
    "\"command\":\"python3 train.py\",\"interval\":0.5,\"mem_total\":51539607552,"
    "\"footprint_metric\":\"phys_footprint\",\"mps_recommended_max\":40200896512,"
    "\"mps_high_watermark_ratio\":\"0.8\",\"mps_low_watermark_ratio\":\"0.8\"}\n";
static const char start_plain[] =
    "{\"type\":\"start\",\"stagetop\":\"0.4.0\",\"platform\":\"darwin\",\"pid\":4242,"
    "\"command\":\"python3 train.py\",\"interval\":0.5,\"mem_total\":51539607552,"
    "\"footprint_metric\":\"phys_footprint\"}\n";
static const char samples[] =
    "{\"type\":\"sample\",\"t\":0.0,\"footprint\":2147483648,\"level\":60,\"procs\":1,\"metal\":1073741824}\n"
    "{\"type\":\"sample\",\"t\":0.5,\"footprint\":21474836480,\"level\":60,\"procs\":1,\"metal\":12884901888}\n";

static void load(const char *start, st_trace *t, st_run_view *rv)
{
    char buf[2048];
    st_error err;
    snprintf(buf, sizeof buf, "%s%s", start, samples);
    st_trace_init(t);
    assert_int_equal(st_trace_load_mem(buf, strlen(buf), t, &err), ST_OK);
    memset(rv, 0, sizeof *rv);
    rv->meta = &t->meta;
    rv->summary = &t->summary;
}

static void test_place(void **state)
{
    (void)state;
    st_trace t;
    st_run_view rv;
    char text[64], sh[64];
    int row = -1;
    load(start_both, &t, &rv);
    uint64_t cap = 0;
    assert_int_equal(tui_cap_bytes(&rv, &cap), 1);
    assert_true(cap >= 32160717209ull && cap <= 32160717210ull);
    /* 0 .. 40 GiB over 6 rows: 29.95 / 40 x 48 eighths = 35.9 -> 36th eighth,
     * in the 5th row from the bottom ((36 - 1) / 8 = 4): row 1 from the top */
    assert_int_equal(tui_cap_place(&rv, ST_LANE_FOOTPRINT, 0, 40 * GIB, 6, &row, text, sizeof text, sh,
                                   sizeof sh), TUI_CAP_LINE);
    assert_int_equal(row, 1);
    assert_string_equal(text, "MPS cap 30.0 GiB");
    /* 0 .. 30 GiB over 4 rows: 29.95 / 30 x 32 = 31.9 -> 32nd eighth: the top row */
    assert_int_equal(tui_cap_place(&rv, ST_LANE_METAL, 0, 30 * GIB, 4, &row, text, sizeof text, sh,
                                   sizeof sh), TUI_CAP_LINE);
    assert_int_equal(row, 0);
    /* 0 .. 20 GiB: above the range */
    assert_int_equal(tui_cap_place(&rv, ST_LANE_FOOTPRINT, 0, 20 * GIB, 6, &row, text, sizeof text, sh,
                                   sizeof sh), TUI_CAP_OFF_SCALE);
    assert_string_equal(text, "cap 30.0 GiB, off scale");
    /* other lanes: none */
    assert_int_equal(tui_cap_place(&rv, ST_LANE_SWAP, 0, 40 * GIB, 6, &row, text, sizeof text, sh,
                                   sizeof sh), TUI_CAP_NONE);
    st_trace_free(&t);
    load(start_plain, &t, &rv); /* Metal used, no recommended working set: no cap */
    assert_int_equal(tui_cap_place(&rv, ST_LANE_FOOTPRINT, 0, 40 * GIB, 6, &row, text, sizeof text, sh,
                                   sizeof sh), TUI_CAP_NONE);
    st_trace_free(&t);
}

static void test_member(void **state)
{
    (void)state;
    st_trace t;
    st_run_view rv;
    char buf[200];
    st_proc_mem p;
    memset(&p, 0, sizeof p);
    load(start_both, &t, &rv);
    p.valid = ST_PM_FOOTPRINT;
    p.metal = 12884901888ull;
    assert_int_equal(tui_cap_member(&rv, &p, buf, sizeof buf), 0); /* no Metal reading */
    p.valid |= ST_PM_METAL;
    /* 12 GiB of 29.95 GiB: 40.1 % */
    assert_int_equal(tui_cap_member(&rv, &p, buf, sizeof buf), 1);
    assert_string_equal(buf, "Metal 12.0 GiB   MPS cap 30.0 GiB (this process: 40 % of it)");
    p.metal = 0; /* a member that uses no Metal: nothing */
    assert_int_equal(tui_cap_member(&rv, &p, buf, sizeof buf), 0);
    st_trace_free(&t);
    load(start_plain, &t, &rv);
    p.metal = 12884901888ull;
    assert_int_equal(tui_cap_member(&rv, &p, buf, sizeof buf), 1);
    assert_string_equal(buf, "Metal 12.0 GiB");
    st_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place),
        cmocka_unit_test(test_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
