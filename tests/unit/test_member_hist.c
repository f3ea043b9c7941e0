/* The per-member footprint history (core/run/member_hist.c): bounded to
 * ST_MEMBER_HIST_N values a member, wrapping oldest-out, one entry per
 * member present (a member that leaves is forgotten), memory per member. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../../core/run/member_hist_internal.h" /* the tests look inside */

static st_proc_mem mem(int32_t pid, uint64_t start, uint64_t footprint)
{
    st_proc_mem p = {0};
    p.id.pid = pid;
    p.id.start = start;
    p.footprint = footprint;
    p.valid = ST_PM_FOOTPRINT;
    return p;
}

static void empty_and_unknown(void **state)
{
    (void)state;
    st_member_hist h = {0};
    uint32_t out[4];
    st_proc_id id = {42, 7};
    assert_int_equal(st_member_hist_get(&h, id, out, 4), 0);
    assert_int_equal(st_member_hist_get(NULL, id, out, 4), 0);
    assert_int_equal(st_member_hist_add(&h, NULL, 0), 0);
    assert_int_equal(h.n, 0);
    st_member_hist_free(&h);
}

static void partly_full_oldest_first(void **state)
{
    (void)state;
    st_member_hist h = {0};
    for (uint32_t i = 1; i <= 5; i++) {
        st_proc_mem m[2] = {mem(10, 1, i * 1024ull), mem(11, 1, i * 2048ull)};
        assert_int_equal(st_member_hist_add(&h, m, 2), 0);
    }
    uint32_t out[8];
    st_proc_id a = {10, 1}, b = {11, 1};
    assert_int_equal(st_member_hist_get(&h, a, out, 8), 5);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(out[i], i + 1);
    assert_int_equal(st_member_hist_get(&h, b, out, 3), 3); /* the newest 3 */
    assert_int_equal(out[0], 6);
    assert_int_equal(out[2], 10);
    st_member_hist_free(&h);
}

static void bounded_and_wraps(void **state)
{
    (void)state;
    st_member_hist h = {0};
    size_t total = 3 * ST_MEMBER_HIST_N + 17; /* wraps three times and some */
    for (size_t i = 0; i < total; i++) {
        st_proc_mem m = mem(5, 9, (uint64_t)i * 1024);
        assert_int_equal(st_member_hist_add(&h, &m, 1), 0);
    }
    uint32_t *out = calloc(ST_MEMBER_HIST_N + 10, sizeof *out);
    assert_non_null(out);
    st_proc_id id = {5, 9};
    size_t n = st_member_hist_get(&h, id, out, ST_MEMBER_HIST_N + 10);
    assert_int_equal(n, ST_MEMBER_HIST_N);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(out[i], (uint32_t)(total - ST_MEMBER_HIST_N + i));
    free(out);
    st_member_hist_free(&h);
}

static void leavers_forgotten_reuse_distinct(void **state)
{
    (void)state;
    st_member_hist h = {0};
    st_proc_mem m[3] = {mem(30, 1, 4096), mem(20, 1, 8192), mem(40, 1, 1024)};
    assert_int_equal(st_member_hist_add(&h, m, 3), 0);
    assert_int_equal(h.n, 3);
    /* 20 leaves; a new process takes pid 30 (another start) */
    st_proc_mem m2[2] = {mem(30, 2, 2048), mem(40, 1, 3072)};
    assert_int_equal(st_member_hist_add(&h, m2, 2), 0);
    assert_int_equal(h.n, 2);
    uint32_t out[4];
    st_proc_id gone = {20, 1}, old30 = {30, 1}, new30 = {30, 2}, p40 = {40, 1};
    assert_int_equal(st_member_hist_get(&h, gone, out, 4), 0);
    assert_int_equal(st_member_hist_get(&h, old30, out, 4), 0);
    assert_int_equal(st_member_hist_get(&h, new30, out, 4), 1);
    assert_int_equal(out[0], 2);
    assert_int_equal(st_member_hist_get(&h, p40, out, 4), 2);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 3);
    st_member_hist_free(&h);
}

static void unread_and_huge(void **state)
{
    (void)state;
    st_member_hist h = {0};
    st_proc_mem m = mem(7, 1, 0);
    m.valid = 0; /* not read this sample */
    assert_int_equal(st_member_hist_add(&h, &m, 1), 0);
    m = mem(7, 1, UINT64_C(1) << 50); /* 1 PiB: kept as the largest */
    assert_int_equal(st_member_hist_add(&h, &m, 1), 0);
    uint32_t out[2];
    st_proc_id id = {7, 1};
    assert_int_equal(st_member_hist_get(&h, id, out, 2), 2);
    assert_int_equal(out[0], ST_MEMBER_HIST_NONE);
    assert_int_equal(out[1], ST_MEMBER_HIST_NONE - 1);
    st_member_hist_free(&h);
}

/* docs/performance.md says about 2 KiB a member: the ring's 4-byte values
 * and little else. */
static void memory_per_member(void **state)
{
    (void)state;
    size_t b = st_member_hist_entry_bytes();
    assert_true(b >= ST_MEMBER_HIST_N * sizeof(uint32_t));
    assert_true(b <= ST_MEMBER_HIST_N * sizeof(uint32_t) + 64);
    assert_true(b <= 2112);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_and_unknown),     cmocka_unit_test(partly_full_oldest_first),
        cmocka_unit_test(bounded_and_wraps),     cmocka_unit_test(leavers_forgotten_reuse_distinct),
        cmocka_unit_test(unread_and_huge),       cmocka_unit_test(memory_per_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
