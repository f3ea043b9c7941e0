/* test_trace_damage.c: damaged and extreme traces (issue 21 items 8, 9, 15).
 *  - a stagetop record whose samples go back in time is refused, naming
 *    the line (stageload's traces may be out of order: still sorted);
 *  - a last line cut short (a copy of a running record, a full disk) is
 *    left out, the lines before it kept, and said (torn_line); a bad line
 *    elsewhere stays an error naming the line;
 *  - the loads' byte sum is held at 2^53 instead of wrapping, and says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/summary.h"
#include "stagetop/trace.h"

static char path[64];

static int load_text(const char *text, st_trace *t, st_error *e)
{
    snprintf(path, sizeof path, "/tmp/st-damage-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    int rc = st_trace_load_file(path, t, e);
    unlink(path);
    return rc;
}

#define START "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"interval\":0.5}\n"

static void time_backwards_is_refused(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    int rc = load_text(START "{\"type\":\"sample\",\"t\":0.0,\"footprint\":1}\n"
                             "{\"type\":\"event\",\"kind\":\"stage\",\"t\":10.0,\"stage\":\"a\"}\n"
                             "{\"type\":\"sample\",\"t\":10.0,\"footprint\":1}\n"
                             "{\"type\":\"sample\",\"t\":5.0,\"footprint\":1}\n", &t, &e);
    assert_int_not_equal(rc, ST_OK);
    assert_non_null(strstr(e.msg, "line 5"));
    assert_non_null(strstr(e.msg, "backwards"));
    /* stageload's (no "stagetop" key): out of order is sorted, as before */
    rc = load_text("{\"type\":\"start\",\"interval\":1}\n"
                   "{\"type\":\"sample\",\"t\":3.0,\"footprint\":30}\n"
                   "{\"type\":\"sample\",\"t\":1.0,\"footprint\":10}\n", &t, &e);
    assert_int_equal(rc, ST_OK);
    assert_int_equal(t.n_samples, 2);
    assert_int_equal(t.samples[0].t_ms, 1000);
    st_trace_free(&t);
}

/* A stage event before the previous stage (a stage would show "-5.0 s"):
 * refused, naming the line; the whole-buffer reader says the same. */
static void stage_backwards_is_refused(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    static const char text[] = START "{\"type\":\"sample\",\"t\":0.0,\"footprint\":1}\n"
                                     "{\"type\":\"event\",\"kind\":\"stage\",\"t\":10.0,\"stage\":\"a\"}\n"
                                     "{\"type\":\"event\",\"kind\":\"stage\",\"t\":5.0,\"stage\":\"b\"}\n"
                                     "{\"type\":\"sample\",\"t\":12.0,\"footprint\":1}\n";
    int rc = load_text(text, &t, &e);
    assert_int_not_equal(rc, ST_OK);
    assert_non_null(strstr(e.msg, "line 4"));
    assert_non_null(strstr(e.msg, "backwards"));
    rc = st_trace_load_mem(text, sizeof text - 1, &t, &e);
    assert_int_not_equal(rc, ST_OK);
    assert_non_null(strstr(e.msg, "line 4"));
}

static void torn_last_line_keeps_the_rest(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    int rc = load_text(START "{\"type\":\"sample\",\"t\":0.0,\"footprint\":1}\n"
                             "{\"type\":\"sample\",\"t\":0.5,\"footprint\":2}\n"
                             "{\"type\":\"sample\",\"t\":1.0,\"foot", &t, &e);
    assert_int_equal(rc, ST_OK);
    assert_int_equal(t.n_samples, 2);
    assert_int_equal(t.torn_line, 4);
    assert_true(t.torn_msg[0] != '\0');
    assert_int_equal(t.summary.peak_footprint, 2);
    st_trace_free(&t);
    /* the fixture that was a "bad" trace (its last line cut) */
    assert_int_equal(st_trace_load_file("tests/fixtures/traces/torn-last-line.jsonl", &t, &e), ST_OK);
    assert_int_equal(t.n_samples, 1);
    assert_int_equal(t.torn_line, 3);
    assert_non_null(strstr(t.torn_msg, "unterminated string"));
    st_trace_free(&t);
    /* a bad line that is not the last: an error naming it */
    rc = load_text(START "{\"type\":\"sample\",\"t\":0.0,\"foot\n"
                         "{\"type\":\"sample\",\"t\":0.5,\"footprint\":2}\n", &t, &e);
    assert_int_not_equal(rc, ST_OK);
    assert_non_null(strstr(e.msg, "line 2"));
    /* a whole last line that is bad (it has its newline): an error too */
    rc = load_text(START "{\"type\":\"sample\",\"t\":0.0,\"footprint\":1}\n"
                         "{\"type\":\"sample\",\"t\":0.5,\"foot\n", &t, &e);
    assert_int_not_equal(rc, ST_OK);
    assert_non_null(strstr(e.msg, "line 3"));
}

static void loads_bytes_saturate(void **state)
{
    (void)state;
    st_summary s;
    st_summary_init(&s);
    st_event ev;
    for (int i = 0; i < 3000; i++) {
        st_event_init(&ev, (uint32_t)i, ST_EV_LOAD);
        ev.nbytes = 1ULL << 53;
        ev.has |= ST_EVF_NBYTES;
        assert_int_equal(st_summary_add_event(&s, &ev, NULL), ST_OK);
    }
    assert_int_equal(s.loads_count, 3000);
    assert_true(s.loads_bytes == ST_SUMMARY_BYTES_MAX);
    assert_true(s.bytes_saturated);
    st_summary_finish(&s);
    char *json = st_summary_to_json(&s, NULL);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"bytes_saturated\":true"));
    assert_non_null(strstr(json, "\"bytes\":9007199254740992"));
    free(json);
    st_summary_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(time_backwards_is_refused),
        cmocka_unit_test(stage_backwards_is_refused),
        cmocka_unit_test(torn_last_line_keeps_the_rest),
        cmocka_unit_test(loads_bytes_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
