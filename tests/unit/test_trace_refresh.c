/* test_trace_refresh.c: st_trace_refresh, the summary of a trace followed
 * record by record (what `stagetop replay -` shows), against the summary of
 * the same records loaded whole (st_trace_load_mem: sorted, then summed
 * once).  The records are random (seeded), in time order or not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/trace.h"

#define N_REC 400

/* A JSONL trace: random samples, stage/load/mark events; unordered: some
 * records go out of time order.  Lines are separated by '\n'. */
static char *make_trace(unsigned seed, int unordered, size_t *len)
{
    size_t cap = N_REC * 160 + 256, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    srand(seed);
    n += (size_t)snprintf(buf + n, cap - n, "{\"type\":\"start\",\"interval\":0.5}\n");
    for (int i = 0; i < N_REC; i++) {
        unsigned t = (unsigned)i * 500u;
        if (unordered && rand() % 7 == 0)
            t = (unsigned)(rand() % (i + 1)) * 500u; /* back in time */
        int kind = rand() % 10;
        if (kind == 0)
            n += (size_t)snprintf(buf + n, cap - n,
                                  "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"s%d\",\"t\":%u.%03u}\n",
                                  rand() % 5, t / 1000, t % 1000);
        else if (kind == 1)
            n += (size_t)snprintf(buf + n, cap - n,
                                  "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"m%d\",\"nbytes\":%d,"
                                  "\"seconds\":0.25,\"t\":%u.%03u}\n",
                                  rand() % 3, rand() % 100000 + 1, t / 1000, t % 1000);
        else
            n += (size_t)snprintf(buf + n, cap - n,
                                  "{\"type\":\"sample\",\"t\":%u.%03u,\"footprint\":%d,\"swap_used\":%d,"
                                  "\"level\":%d}\n",
                                  t / 1000, t % 1000, rand() % 1000000 + 1, rand() % 5000, rand() % 101);
    }
    *len = n;
    return buf;
}

/* Feed the lines one by one, refreshing after each (every: after every
 * line; else only at the end); returns how many refreshes re-sorted. */
static int follow(const char *buf, size_t len, st_trace *t, int every)
{
    st_error e;
    size_t lineno = 0;
    int resorted = 0;
    st_trace_init(t);
    for (const char *p = buf, *end = buf + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        assert_int_equal(st_trace_feed_line(t, p, (size_t)(le - p), ++lineno, &e), ST_OK);
        if (every)
            resorted += st_trace_refresh(t);
        p = nl ? nl + 1 : end;
    }
    resorted += st_trace_refresh(t);
    return resorted;
}

static void assert_same_summary(const st_trace *a, const st_trace *b)
{
    char *ja = st_summary_to_json(&a->summary, NULL), *jb = st_summary_to_json(&b->summary, NULL);
    assert_non_null(ja);
    assert_non_null(jb);
    assert_string_equal(ja, jb);
    assert_true(a->summary.n_stages > 0);
    assert_int_equal(a->summary.n_samples, b->summary.n_samples);
    free(ja);
    free(jb);
}

static void check(unsigned seed, int unordered, int every)
{
    size_t len;
    char *buf = make_trace(seed, unordered, &len);
    st_trace whole, followed;
    st_error e;
    assert_int_equal(st_trace_load_mem(buf, len, &whole, &e), ST_OK);
    int resorted = follow(buf, len, &followed, every);
    if (!unordered)
        assert_int_equal(resorted, 0); /* in order: only ever added to */
    else
        assert_true(resorted > 0);
    assert_int_equal(followed.summed_samples, followed.n_samples);
    assert_int_equal(followed.summed_events, followed.events.len);
    assert_same_summary(&followed, &whole);
    assert_int_equal(st_trace_refresh(&followed), 0); /* nothing new: nothing done */
    st_trace_free(&whole);
    st_trace_free(&followed);
    free(buf);
}

static void test_in_order_grows(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 5; seed++)
        check(seed, 0, 1);
}

static void test_out_of_order_recomputes(void **state)
{
    (void)state;
    for (unsigned seed = 11; seed <= 15; seed++)
        check(seed, 1, 1);
}

/* An event at the same t as a sample already summed goes before it in the
 * whole trace's order: the refresh must not just add it after. */
static void test_event_at_summed_sample_time(void **state)
{
    (void)state;
    const char *lines[] = {
        "{\"type\":\"start\",\"interval\":1}",
        "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"a\",\"t\":0}",
        "{\"type\":\"sample\",\"t\":1.0,\"footprint\":100,\"swap_used\":0,\"level\":50}",
        "{\"type\":\"sample\",\"t\":2.0,\"footprint\":900,\"swap_used\":0,\"level\":50}",
        "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"b\",\"t\":2.0}",
        "{\"type\":\"sample\",\"t\":3.0,\"footprint\":200,\"swap_used\":0,\"level\":50}",
    };
    char buf[1024] = "";
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        strcat(buf, lines[i]);
        strcat(buf, "\n");
    }
    st_trace whole, followed;
    st_error e;
    assert_int_equal(st_trace_load_mem(buf, strlen(buf), &whole, &e), ST_OK);
    int resorted = follow(buf, strlen(buf), &followed, 1);
    assert_int_equal(resorted, 1);
    assert_same_summary(&followed, &whole);
    /* stage b starts at 2.0 and holds the sample taken then (900) */
    st_stage_row row;
    assert_int_equal(followed.summary.n_stages, 2);
    st_summary_stage(&followed.summary, 1, &row);
    assert_int_equal(row.peak_footprint, 900);
    st_trace_free(&whole);
    st_trace_free(&followed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order_grows),
        cmocka_unit_test(test_out_of_order_recomputes),
        cmocka_unit_test(test_event_at_summed_sample_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
