/* Markdown escaping and cleaning (core/report/md.c), the per-stage table
 * (core/model/stages.c), stage matching and the peak gate (core/report/diff.c), and the
 * report's tables and fence (core/report/report.c) on traces read from text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/md.h"
#include "stagetop/report.h"
#include "stagetop/stages.h"
#include "report_fixture.h"
#include "tracetext.h"

static char *esc(const char *s, size_t n, size_t max, int md)
{
    st_sb w;
    st_sb_init(&w);
    if (md)
        st_md_escape_to(&w, s, n, max);
    else
        st_text_clean_to(&w, s, n, max);
    char *out = st_sb_take(&w);
    assert_non_null(out);
    return out;
}

#define CHECK_ESC(in, md, want)                                                                    \
    do {                                                                                           \
        char *got_ = esc((in), sizeof(in) - 1, 0, (md));                                           \
        assert_string_equal(got_, (want));                                                         \
        free(got_);                                                                                \
    } while (0)

static void test_md_specials(void **state)
{
    (void)state;
    CHECK_ESC("a|b", 1, "a\\|b");
    CHECK_ESC("``x``", 1, "\\`\\`x\\`\\`");
    CHECK_ESC("back\\slash", 1, "back\\\\slash");
    CHECK_ESC("*em* _u_ [l](u)", 1, "\\*em\\* \\_u\\_ \\[l\\](u)");
    CHECK_ESC("<b>&amp;</b>", 1, "&lt;b&gt;&amp;amp;&lt;/b&gt;");
    CHECK_ESC("plain text-1.0 (ok)", 1, "plain text-1.0 (ok)");
    CHECK_ESC("~~s~~ $x$", 1, "&#126;&#126;s&#126;&#126; &#36;x&#36;");
    CHECK_ESC("a|b `c`", 0, "a|b `c`"); /* cleaning alone escapes nothing */
}

/* Pasted into an issue, a report pings, references and links nobody: a
 * word joiner (U+2060) follows @ before a name, # before a number, and the
 * ':' of "://", and goes before the '.' of "www." (GitHub's mentions and
 * references, GFM's autolinks).  Plain text keeps them as they are. */
#define J "\xe2\x81\xa0"
static void test_md_pings_and_links(void **state)
{
    (void)state;
    CHECK_ESC("cc @octocat", 1, "cc @" J "octocat");
    CHECK_ESC("fixes #123 and org/repo#7", 1, "fixes #" J "123 and org/repo#" J "7");
    CHECK_ESC("see https://x.example/a", 1, "see https:" J "//x.example/a");
    CHECK_ESC("WWW.example.com", 1, "WWW" J ".example.com");
    CHECK_ESC("mail a@b.example", 1, "mail a@" J "b.example");
    CHECK_ESC("# @ x:y 1@ #x", 1, "# @ x:y 1@ #x"); /* nothing to ping or link */
    CHECK_ESC("cc @octocat #1 http://x", 0, "cc @octocat #1 http://x");
}
#undef J

static void test_md_controls(void **state)
{
    (void)state;
    CHECK_ESC("a\x1b[31mb", 1, "a\\[31mb");          /* ESC dropped */
    CHECK_ESC("a\x07\x7f" "b", 0, "ab");             /* BEL, DEL */
    CHECK_ESC("a\xc2\x9b" "31mb", 0, "a31mb");       /* C1 CSI */
    CHECK_ESC("x\xe2\x80\xaey\xe2\x81\xa6z", 0, "xyz"); /* RLO, LRI */
    CHECK_ESC("l1\nl2\tt\r", 0, "l1 l2 t ");         /* newline and tab: spaces */
    CHECK_ESC("\xe2\x80\xa8|", 1, "\\|");            /* line separator */
    CHECK_ESC("bad\xff\xc0z", 0, "bad\xef\xbf\xbd\xef\xbf\xbdz"); /* invalid: U+FFFD */
    CHECK_ESC("caf\xc3\xa9 \xe5\xad\x97", 1, "caf\xc3\xa9 \xe5\xad\x97"); /* UTF-8 kept */
}

static void test_md_limits(void **state)
{
    (void)state;
    char *s = esc("abcdef", 6, 4, 1);
    assert_string_equal(s, "abc\xe2\x80\xa6");
    free(s);
    s = esc("abcd", 4, 4, 1);
    assert_string_equal(s, "abcd");
    free(s);
    s = esc("a|b\0hidden", 10, 0, 1); /* stops at a NUL */
    assert_string_equal(s, "a\\|b");
    free(s);
    s = esc("ab", 1, 0, 0); /* n bounds the input */
    assert_string_equal(s, "a");
    free(s);
}

static void test_md_fence(void **state)
{
    (void)state;
    char f[16];
    assert_int_equal(st_md_fence("no ticks", f, sizeof f), 3);
    assert_string_equal(f, "```");
    assert_int_equal(st_md_fence("a ``` b", f, sizeof f), 4);
    assert_int_equal(st_md_fence("`a` ``````` b ``", f, sizeof f), 8);
    assert_string_equal(f, "````````");
    assert_int_equal(st_md_fence(NULL, f, sizeof f), 3);
}

/* A trace: samples every second, stages and loads, as stageload writes. */
static const char TRACE_A[] =
    "{\"type\":\"start\",\"interval\":1,\"pipeline\":\"P\",\"mode\":\"m|x\",\"steps\":4,"
    "\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"swap_used\":1000,\"level\":90}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":300,\"swap_used\":1100,\"level\":80}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":2}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":200,\"swap_used\":1500,\"level\":70}\n"
    "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"m1\",\"nbytes\":50,\"seconds\":0.5,\"t\":2.5}\n"
    "{\"type\":\"sample\",\"t\":3,\"footprint\":600,\"swap_used\":1400,\"level\":75}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"a|b\",\"t\":4}\n"
    "{\"type\":\"sample\",\"t\":4,\"footprint\":400,\"swap_used\":1300,\"level\":60}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":5}\n"
    "{\"type\":\"sample\",\"t\":5,\"footprint\":900,\"swap_used\":1200,\"level\":65}\n"
    "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"m2\",\"nbytes\":7,\"seconds\":0.5,\"t\":6}\n"
    "{\"type\":\"sample\",\"t\":6,\"footprint\":800,\"swap_used\":1250,\"level\":66}\n";

static const char TRACE_B[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"only-b\",\"t\":0}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":500,\"swap_used\":2000,\"level\":50}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":1}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":1000,\"swap_used\":2600,\"level\":40}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":990,\"swap_used\":2500,\"level\":45}\n";

static void test_stage_rows(void **state)
{
    (void)state;
    st_trace t;
    st_stage_row *r;
    size_t n;
    load_trace(TRACE_A, &t);
    assert_int_equal(st_stage_rows(&t.summary, &r, &n, NULL), ST_OK);
    assert_int_equal(n, 4); /* setup, enc, a|b, enc */
    assert_string_equal(r[0].stage, "setup");
    assert_string_equal(r[2].stage, "a|b");
    /* setup: t 0,1: peak 300, swap 1000 -> 1100, level min 80 */
    assert_int_equal(r[0].peak_footprint, 300);
    assert_int_equal(r[0].swap_growth, 100);
    assert_int_equal(r[0].min_level_c, 8000);
    /* enc: t 2,3: swap from 1100 (before) to 1400; one load of 50 */
    assert_int_equal(r[1].peak_footprint, 600);
    assert_int_equal(r[1].swap_growth, 300);
    assert_int_equal(r[1].min_level_c, 7000);
    assert_int_equal(r[1].loads_count, 1);
    assert_int_equal(r[1].loads_bytes, 50);
    assert_int_equal(r[1].seconds_ms, 2000);
    /* a|b: t 4 only */
    assert_int_equal(r[2].swap_growth, -100);
    assert_int_equal(r[2].loads_count, 0);
    /* the last enc: t 5 and the end sample at 6; the load at t = end */
    assert_int_equal(r[3].peak_footprint, 900);
    assert_int_equal(r[3].swap_growth, -50);
    assert_int_equal(r[3].loads_count, 1);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += r[i].swap_growth;
    assert_int_equal(sum, 1250 - 1000); /* the rows add up to end - start */
    free(r);
    st_trace_free(&t);
}

static void test_diff_match_and_gate(void **state)
{
    (void)state;
    rf_pair p;
    rf_compare(&p, TRACE_A, TRACE_B);
    assert_int_equal(p.d.n_stages, 4); /* setup, enc, a|b, then only-b */
    assert_string_equal(p.d.stages[1].stage, "enc");
    assert_int_equal(p.d.stages[1].a.seconds_ms, 2000 + 1000); /* both enc windows */
    assert_int_equal(p.d.stages[1].a.peak_footprint, 900);
    assert_int_equal(p.d.stages[1].b.peak_footprint, 1000);
    assert_false(p.d.stages[0].b.present);
    assert_string_equal(p.d.stages[3].stage, "only-b");
    assert_false(p.d.stages[3].a.present);
    assert_true(p.d.has_peak_pct);
    assert_true(p.d.peak_pct > 11.11 && p.d.peak_pct < 11.12); /* 900 -> 1000 */
    assert_true(st_diff_peak_exceeds(&p.d, 11.1));
    assert_false(st_diff_peak_exceeds(&p.d, 11.2));
    assert_int_equal(p.d.swap_peak_rise, 600 - 500);
    char *js = st_diff_json(&p.d), *tx = st_diff_text(&p.d, "A.jsonl", "B\x1b.jsonl");
    assert_non_null(js);
    assert_non_null(tx);
    assert_non_null(strstr(js, "{\"stage\":\"only-b\",\"a\":null,\"b\":{\"seconds\":1.000,"));
    assert_null(strchr(tx, '\x1b'));
    assert_non_null(strstr(tx, "+11.1%"));
    free(js);
    free(tx);
    rf_free(&p);
}

static void test_report_md(void **state)
{
    (void)state;
    st_trace t;
    load_trace(TRACE_A, &t);
    char *md = st_report_md(&t, "run|1.jsonl", "stages  |a``b```c\x1b\n", NULL);
    assert_non_null(md);
    assert_null(strchr(md, '\x1b'));
    assert_non_null(strstr(md, "| trace | run\\|1.jsonl |"));
    assert_non_null(strstr(md, "| what ran | P \xc2\xb7 mode m\\|x \xc2\xb7 steps 4 |"));
    assert_non_null(strstr(md, "\n| a\\|b | 4.0 s | 1.0 s |"));
    /* the chart is an indented code block: no fence for backticks to close */
    assert_non_null(strstr(md, "#### Chart\n\n    stages  |a``b```c\n\n"));
    assert_null(strstr(md, "```\n"));
    /* every table row has as many cells as its header */
    char *p = strstr(md, "| stage |");
    assert_non_null(p);
    for (int row = 0; row < 6; row++) {
        char *nl = strchr(p, '\n');
        int bars = 0;
        for (char *q = p; q < nl; q++)
            bars += *q == '|' && (q == p || q[-1] != '\\');
        assert_int_equal(bars, 8);
        p = nl + 1;
    }
    free(md);
    st_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md_specials),     cmocka_unit_test(test_md_pings_and_links),     cmocka_unit_test(test_md_controls),
        cmocka_unit_test(test_md_limits),       cmocka_unit_test(test_md_fence),
        cmocka_unit_test(test_stage_rows),      cmocka_unit_test(test_diff_match_and_gate),
        cmocka_unit_test(test_report_md),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
