/* Ring buffer and unit parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stagetop/ring.h"
#include "stagetop/units.h"

static st_sample mk(uint32_t t)
{
    st_sample s = {0};
    s.t_ms = t;
    s.footprint = (uint64_t)t * 1000;
    s.valid = ST_F_FOOTPRINT;
    return s;
}

static void ring_empty(void **state)
{
    (void)state;
    st_ring r;
    assert_int_equal(st_ring_init(&r, 8, NULL), ST_OK);
    assert_int_equal(st_ring_len(&r), 0);
    assert_null(st_ring_get(&r, 0));
    assert_null(st_ring_last(&r));
    assert_int_equal(st_ring_overwritten(&r), 0);
    st_ring_free(&r);
}

static void ring_zero_capacity_refused(void **state)
{
    (void)state;
    st_ring r;
    st_error e;
    assert_int_equal(st_ring_init(&r, 0, &e), ST_EINVAL);
    assert_int_equal(e.code, ST_EINVAL);
}

static void ring_partly_full(void **state)
{
    (void)state;
    st_ring r;
    assert_int_equal(st_ring_init(&r, 8, NULL), ST_OK);
    for (uint32_t i = 0; i < 5; i++) {
        st_sample s = mk(i * 10);
        st_ring_push(&r, &s);
    }
    assert_int_equal(st_ring_len(&r), 5);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(st_ring_get(&r, i)->t_ms, i * 10);
    assert_null(st_ring_get(&r, 5));
    assert_int_equal(st_ring_last(&r)->t_ms, 40);
    st_ring_free(&r);
}

static void ring_wraps_many_times(void **state)
{
    (void)state;
    st_ring r;
    assert_int_equal(st_ring_init(&r, 7, NULL), ST_OK);
    const uint32_t n = 7 * 1000 + 3;
    for (uint32_t i = 0; i < n; i++) {
        st_sample s = mk(i);
        st_ring_push(&r, &s);
    }
    assert_int_equal(st_ring_len(&r), 7);
    assert_int_equal(r.total, n);
    assert_int_equal(st_ring_overwritten(&r), n - 7);
    for (uint32_t i = 0; i < 7; i++) {
        assert_int_equal(st_ring_get(&r, i)->t_ms, n - 7 + i);
        assert_int_equal(st_ring_get(&r, i)->footprint, (uint64_t)(n - 7 + i) * 1000);
    }
    st_ring_free(&r);
}

static void ring_capacity_one(void **state)
{
    (void)state;
    st_ring r;
    assert_int_equal(st_ring_init(&r, 1, NULL), ST_OK);
    for (uint32_t i = 0; i < 5; i++) {
        st_sample s = mk(i);
        st_ring_push(&r, &s);
        assert_int_equal(st_ring_len(&r), 1);
        assert_int_equal(st_ring_get(&r, 0)->t_ms, i);
        assert_ptr_equal(st_ring_get(&r, 0), st_ring_last(&r));
    }
    st_ring_free(&r);
}

static void ring_view_spans(void **state)
{
    (void)state;
    st_ring r;
    assert_int_equal(st_ring_init(&r, 5, NULL), ST_OK);
    st_samples_view v = st_ring_view(&r);
    assert_int_equal(v.a_len + v.b_len, 0);
    for (uint32_t i = 0; i < 3; i++) {
        st_sample s = mk(i);
        st_ring_push(&r, &s);
    }
    v = st_ring_view(&r); /* not wrapped: one span */
    assert_int_equal(v.a_len, 3);
    assert_int_equal(v.b_len, 0);
    assert_int_equal(v.a[0].t_ms, 0);
    for (uint32_t i = 3; i < 8; i++) {
        st_sample s = mk(i);
        st_ring_push(&r, &s);
    }
    v = st_ring_view(&r); /* 3..7 held, oldest at index 3 of buf: two spans */
    assert_int_equal(v.a_len + v.b_len, 5);
    assert_int_equal(v.a_len, 2);
    uint32_t want = 3;
    for (size_t i = 0; i < v.a_len; i++)
        assert_int_equal(v.a[i].t_ms, want++);
    for (size_t i = 0; i < v.b_len; i++)
        assert_int_equal(v.b[i].t_ms, want++);
    assert_int_equal(want, 8);
    st_ring_free(&r);
}

static void ring_capacity_for(void **state)
{
    (void)state;
    assert_int_equal(st_ring_capacity_for(7200, 0.5), 14401);
    assert_int_equal(st_ring_capacity_for(1, 10), 1);
    assert_int_equal(st_ring_capacity_for(1e12, 0.01), 16 * 1024 * 1024);
}

static void sizes(void **state)
{
    (void)state;
    uint64_t v;
    st_error e;
    assert_int_equal(st_parse_size("8G", &v, NULL), ST_OK);
    assert_int_equal(v, 8ull << 30);
    assert_int_equal(st_parse_size("512M", &v, NULL), ST_OK);
    assert_int_equal(v, 512ull << 20);
    assert_int_equal(st_parse_size("8GiB", &v, NULL), ST_OK);
    assert_int_equal(v, 8ull << 30);
    assert_int_equal(st_parse_size("1.5g", &v, NULL), ST_OK);
    assert_int_equal(v, 3ull << 29);
    assert_int_equal(st_parse_size("4096", &v, NULL), ST_OK);
    assert_int_equal(v, 4096);
    assert_int_equal(st_parse_size("-1G", &v, &e), ST_EINVAL);
    assert_int_equal(st_parse_size("12Q", &v, &e), ST_EINVAL);
    assert_int_equal(st_parse_size("", &v, &e), ST_EINVAL);
    assert_int_equal(st_parse_size("G", &v, &e), ST_EINVAL);
    assert_int_equal(st_parse_size("99999999999T", &v, &e), ST_EINVAL);
    assert_int_equal(st_parse_size("1e400", &v, &e), ST_EINVAL);
    /* decimal only, nothing around it: what strtod would also take is junk
     * to a user (--swap-budget 0x10 read as 16 bytes) */
    const char *junk[] = {"0x10", "0X10", "0x1p4G", "0x1P4", " 8G", "8G ", "\t8G", "8G\n",
                          "+8G", "inf", "nan", "1..5G", "."};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
        assert_int_equal(st_parse_size(junk[i], &v, &e), ST_EINVAL);
    assert_int_equal(st_parse_size(".5K", &v, NULL), ST_OK);
    assert_int_equal(v, 512);
    assert_int_equal(st_parse_size("8.G", &v, NULL), ST_OK);
    assert_int_equal(v, 8ull << 30);
}

static void durations(void **state)
{
    (void)state;
    double d;
    assert_int_equal(st_parse_duration("2h", &d, NULL), ST_OK);
    assert_true(d == 7200);
    assert_int_equal(st_parse_duration("90", &d, NULL), ST_OK);
    assert_true(d == 90);
    assert_int_equal(st_parse_duration("500ms", &d, NULL), ST_OK);
    assert_true(d == 0.5);
    assert_int_equal(st_parse_duration("1.5m", &d, NULL), ST_OK);
    assert_true(d == 90);
    assert_int_equal(st_parse_duration("3x", &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_duration("0x10", &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_duration(" 90s", &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_duration("0x1p4s", &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_double("0.001", 0.01, 60, &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_double("nan", 0.01, 60, &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_double("0.5s", 0.01, 60, &d, NULL), ST_EINVAL);
    assert_int_equal(st_parse_double("0.5", 0.01, 60, &d, NULL), ST_OK);
}

static void formatting(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(st_format_bytes(12, b, sizeof b), "12 B");
    assert_string_equal(st_format_bytes(1536, b, sizeof b), "1.50 KiB");
    assert_string_equal(st_format_bytes(17534248048ull, b, sizeof b), "16.3 GiB");
    assert_string_equal(st_format_bytes(300ull << 20, b, sizeof b), "300 MiB");
    assert_string_equal(st_format_duration(12.34, b, sizeof b), "12.3s");
    assert_string_equal(st_format_duration(184, b, sizeof b), "3m04s");
    assert_string_equal(st_format_duration(3720, b, sizeof b), "1h02m");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ring_empty),          cmocka_unit_test(ring_zero_capacity_refused),
        cmocka_unit_test(ring_partly_full),    cmocka_unit_test(ring_wraps_many_times),
        cmocka_unit_test(ring_capacity_one),   cmocka_unit_test(ring_capacity_for),
        cmocka_unit_test(ring_view_spans),
        cmocka_unit_test(sizes),               cmocka_unit_test(durations),
        cmocka_unit_test(formatting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
