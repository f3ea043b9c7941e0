/* test_event_line.c: plain event lines ($STAGETOP_EVENTS), the follower
 * reading them at their arrival time, and the per-stage numbers of the
 * stage table (swap growth, min level, loads). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/event_line.h"
#include "stagetop/follow.h"
#include "stagetop/summary.h"
#include "tmpdir.h"
#include "testutil.h"

static int parse(const char *line, st_event *ev)
{
    st_error e;
    return st_event_line_parse(line, strlen(line), ev, &e);
}

static void test_is_plain(void **state)
{
    (void)state;
    assert_true(st_event_line_is_plain("stage x", 7));
    assert_true(st_event_line_is_plain("  mark", 6));
    assert_false(st_event_line_is_plain("{\"type\":1}", 10));
    assert_false(st_event_line_is_plain("  \t{", 4));
    assert_false(st_event_line_is_plain("   ", 3));
    assert_false(st_event_line_is_plain("", 0));
}

static void test_parse_kinds(void **state)
{
    (void)state;
    st_event ev;
    assert_int_equal(parse("stage text encoder\r", &ev), ST_OK);
    assert_int_equal(ev.kind, ST_EV_STAGE);
    assert_string_equal(ev.stage, "text encoder");
    assert_true(ev.has & ST_EVF_STAGE);
    assert_int_equal(parse("\tmark  after   step 3 ", &ev), ST_OK);
    assert_int_equal(ev.kind, ST_EV_MARK);
    assert_string_equal(ev.note, "after   step 3");
    assert_int_equal(parse("mark", &ev), ST_OK);
    assert_int_equal(ev.kind, ST_EV_MARK);
    assert_false(ev.has & ST_EVF_NOTE);
    assert_int_equal(parse("load unet 2G", &ev), ST_OK);
    assert_int_equal(ev.kind, ST_EV_LOAD);
    assert_string_equal(ev.name, "unet");
    assert_true(ev.has & ST_EVF_NBYTES);
    assert_int_equal(ev.nbytes, 2ull << 30);
    assert_int_equal(parse("release text encoder 1536", &ev), ST_OK);
    assert_int_equal(ev.kind, ST_EV_RELEASE);
    assert_string_equal(ev.name, "text encoder");
    assert_int_equal(ev.nbytes, 1536);
    assert_int_equal(parse("load vae", &ev), ST_OK);
    assert_string_equal(ev.name, "vae");
    assert_false(ev.has & ST_EVF_NBYTES);
    assert_int_equal(parse("load model v2", &ev), ST_OK); /* "v2" is no size */
    assert_string_equal(ev.name, "model v2");
    assert_false(ev.has & ST_EVF_NBYTES);
}

static void test_parse_errors(void **state)
{
    (void)state;
    st_event ev;
    st_error e;
    assert_int_equal(parse("stage", &ev), ST_EINVAL);
    assert_int_equal(parse("stage   ", &ev), ST_EINVAL);
    assert_int_equal(parse("load", &ev), ST_EINVAL);
    assert_int_equal(parse("load 5G", &ev), ST_OK); /* one word: the name */
    assert_string_equal(ev.name, "5G");
    assert_false(ev.has & ST_EVF_NBYTES);
    assert_int_equal(st_event_line_parse("launch x", 8, &ev, &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "launch"));
    assert_int_equal(st_event_line_parse("stage a\0b", 9, &ev, &e), ST_EINVAL);
    char big[5000];
    memset(big, 'x', sizeof big);
    memcpy(big, "mark ", 5);
    assert_int_equal(st_event_line_parse(big, sizeof big, &ev, &e), ST_EINVAL);
    /* control characters in a name are not kept raw */
    assert_int_equal(parse("stage a\x1b[31mred", &ev), ST_OK);
    assert_null(strchr(ev.stage, 0x1b));
}

static void test_format(void **state)
{
    (void)state;
    char buf[64];
    st_event ev;
    st_error e_fmt;
    size_t n = st_event_line_format("mark", "two\nlines\x1b", -1, buf, sizeof buf);
    assert_int_equal(n, strlen(buf));
    assert_string_equal(buf, "mark two lines \n");
    assert_int_equal(parse(buf, &ev), ST_OK);
    assert_string_equal(ev.note, "two lines");
    assert_int_equal(st_event_line_format("stage", "a|b", -1, buf, sizeof buf), 10);
    assert_string_equal(buf, "stage a|b\n");
    assert_int_equal(st_event_line_format("load", "x", -1, buf, sizeof buf), 0);
    assert_int_equal(st_event_line_format("mark", "0123456789", -1, buf, 12), 0);
    /* stamped: the time the line was made, taken off before the words */
    double at = -2;
    assert_int_equal(st_event_line_format("stage", "de code", 1234.5, buf, sizeof buf),
                     strlen("@1234.500000 stage de code\n"));
    assert_string_equal(buf, "@1234.500000 stage de code\n");
    assert_int_equal(st_event_line_parse_at(buf, strlen(buf), &ev, &at, &e_fmt), ST_OK);
    assert_int_equal(ev.kind, ST_EV_STAGE);
    assert_string_equal(ev.stage, "de code");
    assert_true(at > 1234.4999 && at < 1234.5001);
    assert_int_equal(st_event_line_parse_at("stage x", 7, &ev, &at, &e_fmt), ST_OK);
    assert_true(at < 0);
    assert_int_equal(st_event_line_parse_at("@nan stage x", 12, &ev, &at, &e_fmt), ST_EINVAL);
    assert_int_equal(st_event_line_parse_at("@12x stage x", 12, &ev, &at, &e_fmt), ST_EINVAL);
    assert_int_equal(st_event_line_parse_at("@-1 stage x", 11, &ev, &at, &e_fmt), ST_EINVAL);
    assert_int_equal(st_event_line_parse_at("@5", 2, &ev, &at, &e_fmt), ST_EINVAL);
}

static int n_got;
static st_event got[8];
static void collect(void *ctx, const st_event *ev)
{
    (void)ctx;
    if (n_got < 8)
        got[n_got++] = *ev;
}

/* A plain line happens when it arrives: now_s of the poll that reads it. */
static void test_follow_plain_lines(void **state)
{
    char path[300];
    snprintf(path, sizeof path, "%s/ev", (const char *)*state);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    st_follow fo;
    st_error e;
    assert_int_equal(st_follow_open(&fo, path, &e), ST_OK);
    fputs("stage encode\nmark hi\n", f);
    fflush(f);
    n_got = 0;
    assert_int_equal(st_follow_poll(&fo, 2.5, collect, NULL, &e), 2);
    assert_int_equal(got[0].kind, ST_EV_STAGE);
    assert_int_equal(got[0].t_ms, 2500);
    assert_int_equal(got[1].kind, ST_EV_MARK);
    fputs("nonsense here\nload unet 1K\nstage de", f);
    fflush(f);
    assert_int_equal(st_follow_poll(&fo, 4.0, collect, NULL, &e), 1);
    assert_int_equal(got[2].kind, ST_EV_LOAD);
    assert_int_equal(got[2].t_ms, 4000);
    assert_int_equal(fo.bad_lines, 1);
    assert_non_null(strstr(fo.last_error, "line 3"));
    fputs("code\n", f); /* the partial line completes at the next poll */
    fflush(f);
    assert_int_equal(st_follow_poll(&fo, 5.25, collect, NULL, &e), 1);
    assert_string_equal(got[3].stage, "decode");
    assert_int_equal(got[3].t_ms, 5250);
    /* Stamped lines (`stagetop stage|mark`) happened at their stamp on the
     * clock whose reading at the start is clock0, however late they are read
     * (never after now, never before the start). */
    fo.clock0 = 1000.0;
    fo.has_clock0 = 1;
    fputs("@1005.1234 stage late\n@1009.0 mark future\n@900 mark before\n", f);
    fflush(f);
    assert_int_equal(st_follow_poll(&fo, 6.0, collect, NULL, &e), 3);
    assert_string_equal(got[4].stage, "late");
    assert_int_equal(got[4].t_ms, 5123);
    assert_int_equal(got[5].t_ms, 6000);
    assert_int_equal(got[6].t_ms, 0);
    st_follow_close(&fo);
    fclose(f);
}

static void test_stage_numbers(void **state)
{
    (void)state;
    st_summary s;
    st_event ev;
    int has;
    st_summary_init(&s);
    /* setup: swap 100 -> 150, level 90 -> 80 */
    st_sample a = smp(0, 10, 100, 9000), b = smp(1000, 20, 150, 8000);
    st_summary_add_sample(&s, &a, NULL);
    st_summary_add_sample(&s, &b, NULL);
    st_event_init(&ev, 1500, ST_EV_STAGE);
    strcpy(ev.stage, "denoise");
    ev.has = ST_EVF_STAGE;
    st_summary_add_event(&s, &ev, NULL);
    st_event_init(&ev, 1600, ST_EV_LOAD);
    ev.nbytes = 4096;
    ev.has = ST_EVF_NBYTES;
    st_summary_add_event(&s, &ev, NULL);
    st_summary_add_event(&s, &ev, NULL);
    /* denoise: swap from 150 (the reading before it) to 120, level 70 */
    st_sample c = smp(2000, 30, 400, 7000), d = smp(3000, 25, 120, 7500);
    st_summary_add_sample(&s, &c, NULL);
    st_summary_add_sample(&s, &d, NULL);
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 2);
    assert_int_equal(st_stage_swap_growth(&s.stages[0], &has), 50);
    assert_true(has);
    assert_int_equal(s.stages[0].min_level_c, 8000);
    assert_int_equal(s.stages[0].loads_count, 0);
    assert_int_equal(st_stage_swap_growth(&s.stages[1], &has), -30);
    assert_int_equal(s.stages[1].min_level_c, 7000);
    assert_int_equal(s.stages[1].loads_count, 2);
    assert_int_equal(s.stages[1].loads_bytes, 8192);
    st_summary_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_plain),     cmocka_unit_test(test_parse_kinds),
        cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_format),
        cmocka_unit_test_setup_teardown(test_follow_plain_lines, setup_dir, teardown_dir), cmocka_unit_test(test_stage_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
