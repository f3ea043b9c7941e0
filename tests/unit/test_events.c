/* test_events.c: kind names, the bounded event list, UTF-8-safe copies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/events.h"

static void test_kind_names(void **state)
{
    (void)state;
    static const char *const names[] = { "stage", "load", "reload", "release", "mark",
                                         "pause", "resume", "kill", "exit", "budget", "sleep" };
    for (int k = 0; k < ST_EV_OTHER; k++) {
        assert_string_equal(st_event_kind_name(k), names[k]);
        assert_int_equal(st_event_kind_from_name(names[k]), k);
    }
    assert_null(st_event_kind_name(ST_EV_OTHER));
    assert_null(st_event_kind_name(-1));
    assert_null(st_event_kind_name(99));
    assert_int_equal(st_event_kind_from_name("Stage"), ST_EV_OTHER);
    assert_int_equal(st_event_kind_from_name("stage "), ST_EV_OTHER);
    assert_int_equal(st_event_kind_from_name(""), ST_EV_OTHER);
    assert_int_equal(st_event_kind_from_name(NULL), ST_EV_OTHER);
}

static void test_init(void **state)
{
    (void)state;
    st_event ev;
    memset(&ev, 0xAB, sizeof ev);
    st_event_init(&ev, 1234, ST_EV_PAUSE);
    assert_int_equal(ev.t_ms, 1234);
    assert_int_equal(ev.kind, ST_EV_PAUSE);
    assert_int_equal(ev.has, 0);
    assert_string_equal(ev.stage, "");
    assert_string_equal(ev.note, "");
    assert_int_equal(ev.nbytes, 0);
    st_event_init(&ev, 1, 200); /* out of range -> other */
    assert_int_equal(ev.kind, ST_EV_OTHER);
}

static void test_set_str_ascii(void **state)
{
    (void)state;
    char f[8];
    st_event_set_str(f, sizeof f, "encode");
    assert_string_equal(f, "encode");
    st_event_set_str(f, sizeof f, "1234567");  /* exactly fits */
    assert_string_equal(f, "1234567");
    st_event_set_str(f, sizeof f, "123456789");
    assert_string_equal(f, "1234567");
    st_event_set_str(f, sizeof f, NULL);
    assert_string_equal(f, "");
    st_event_set_str(f, 1, "abc");
    assert_string_equal(f, "");
}

static void test_set_str_utf8(void **state)
{
    (void)state;
    char f[6]; /* room for 5 bytes */
    /* "abcd" + e-acute (2 bytes): cut would split it after 'd' -> "abcd" */
    st_event_set_str(f, sizeof f, "abcd\xC3\xA9");
    assert_string_equal(f, "abcd");
    /* "abc" + e-acute fits exactly (5 bytes) */
    st_event_set_str(f, sizeof f, "abc\xC3\xA9xyz");
    assert_string_equal(f, "abc\xC3\xA9");
    /* a 3-byte euro sign starting at byte 3 of 5: keep "abc" */
    st_event_set_str(f, sizeof f, "abc\xE2\x82\xACz");
    assert_string_equal(f, "abc");
    /* a 4-byte emoji starting at byte 2: keep "ab" */
    st_event_set_str(f, sizeof f, "ab\xF0\x9F\x98\x80");
    assert_string_equal(f, "ab");
    /* 4-byte emoji at byte 1 of 5: fits exactly */
    st_event_set_str(f, sizeof f, "a\xF0\x9F\x98\x80!");
    assert_string_equal(f, "a\xF0\x9F\x98\x80");
    /* junk continuation bytes are cut as bytes, not searched past 3 */
    st_event_set_str(f, sizeof f, "\x80\x80\x80\x80\x80\x80\x80");
    assert_int_equal(strlen(f), 5);
}

static void test_list_bounded(void **state)
{
    (void)state;
    st_event_list l;
    st_error e;
    st_event ev;
    st_event_list_init(&l, 3);
    for (uint32_t i = 0; i < 5; i++) {
        st_event_init(&ev, i * 10, ST_EV_MARK);
        assert_int_equal(st_event_list_add(&l, &ev, &e), ST_OK);
    }
    assert_int_equal(l.len, 3);
    assert_int_equal(l.dropped, 2);
    assert_int_equal(l.v[0].t_ms, 0);
    assert_int_equal(l.v[2].t_ms, 20);
    st_event_list_free(&l);
    assert_null(l.v);
    assert_int_equal(l.len, 0);
}

/* A full list still takes stages and the exit (issue 30 item 6: a stage
 * after a million marks vanished from every reader's summary). */
static void test_list_full_keeps_stages(void **state)
{
    (void)state;
    st_event_list l;
    st_event ev;
    st_event_list_init(&l, 2);
    static const int kinds[] = { ST_EV_MARK, ST_EV_LOAD, ST_EV_MARK, ST_EV_STAGE, ST_EV_LOAD, ST_EV_EXIT };
    for (uint32_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        st_event_init(&ev, i * 10, kinds[i]);
        assert_int_equal(st_event_list_add(&l, &ev, NULL), ST_OK);
    }
    assert_int_equal(l.len, 4);
    assert_int_equal(l.dropped, 2); /* the mark at 20 and the load at 40 */
    assert_int_equal(l.v[2].kind, ST_EV_STAGE);
    assert_int_equal(l.v[2].t_ms, 30);
    assert_int_equal(l.v[3].kind, ST_EV_EXIT);
    st_event_list_free(&l);
}

static void test_list_default_and_growth(void **state)
{
    (void)state;
    st_event_list l;
    st_event ev;
    st_event_list_init(&l, 0);
    assert_int_equal(l.max, 1000000);
    for (uint32_t i = 0; i < 1000; i++) {
        st_event_init(&ev, i, ST_EV_STAGE);
        snprintf(ev.stage, sizeof ev.stage, "s%u", i);
        assert_int_equal(st_event_list_add(&l, &ev, NULL), ST_OK);
    }
    assert_int_equal(l.len, 1000);
    assert_int_equal(l.dropped, 0);
    for (uint32_t i = 0; i < 1000; i++) {
        char want[16];
        snprintf(want, sizeof want, "s%u", i);
        assert_int_equal(l.v[i].t_ms, i);
        assert_string_equal(l.v[i].stage, want);
    }
    st_event_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),     cmocka_unit_test(test_init),
        cmocka_unit_test(test_set_str_ascii),  cmocka_unit_test(test_set_str_utf8),
        cmocka_unit_test(test_list_bounded), cmocka_unit_test(test_list_full_keeps_stages),   cmocka_unit_test(test_list_default_and_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
