/* test_guard.c: the budget policy, fed with sample sequences (no processes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stagetop/guard.h"
#include "sizes.h"


static st_sample swap_at(uint32_t t_ms, uint64_t swap)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    s.t_ms = t_ms;
    s.swap_used = swap;
    s.valid = ST_F_SWAP;
    return s;
}

static st_sample level_at(uint32_t t_ms, uint16_t level_c)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    s.t_ms = t_ms;
    s.level_c = level_c;
    s.valid = ST_F_LEVEL;
    return s;
}

static void init_swap(st_guard *g, uint64_t budget, int action)
{
    st_guard_opts o;
    memset(&o, 0, sizeof o);
    o.swap_budget = budget;
    o.has_swap_budget = 1;
    o.action = action;
    st_guard_init(g, &o);
}

static void init_level(st_guard *g, uint16_t kill_free_c)
{
    st_guard_opts o;
    memset(&o, 0, sizeof o);
    o.kill_free_c = kill_free_c;
    o.has_kill_free = 1;
    o.action = ST_GUARD_PAUSE;
    st_guard_init(g, &o);
}

/* Feed swaps[i] at i * step_ms; return the index of the sample that trips
 * (or -1) and its verdict. */
static int feed_swap(st_guard *g, const uint64_t *swaps, int n, uint32_t step_ms,
                     st_guard_verdict *v)
{
    int at = -1;
    for (int i = 0; i < n; i++) {
        st_sample s = swap_at((uint32_t)i * step_ms, swaps[i]);
        st_guard_verdict tmp;
        if (st_guard_check(g, &s, &tmp)) {
            assert_int_equal(at, -1); /* trips once */
            at = i;
            *v = tmp;
        }
    }
    return at;
}

static void test_active(void **state)
{
    (void)state;
    st_guard_opts o;
    memset(&o, 0, sizeof o);
    assert_false(st_guard_active(&o));
    assert_false(st_guard_active(NULL));
    o.has_kill_free = 1;
    assert_true(st_guard_active(&o));
    o.has_kill_free = 0;
    o.has_swap_budget = 1;
    assert_true(st_guard_active(&o));
}

/* Growth equal to the budget is allowed; one byte more trips, at that sample. */
static void test_swap_exact_budget(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 128 * MIB, ST_GUARD_KILL);
    const uint64_t base = 3 * GIB;
    const uint64_t seq[] = { base, base + 64 * MIB, base + 128 * MIB, base + 128 * MIB + 1 };
    assert_int_equal(feed_swap(&g, seq, 4, 500, &v), 3);
    assert_int_equal(v.reason, ST_GUARD_SWAP);
    assert_int_equal(v.action, ST_GUARD_KILL);
    assert_int_equal(v.value, (int64_t)(128 * MIB + 1));
    assert_int_equal(v.limit, (int64_t)(128 * MIB));
}

/* A jump far past the budget between two samples trips at the first sample
 * above, reporting the growth seen there (no interpolation). */
static void test_swap_crossed_between_samples(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 1 * GIB, ST_GUARD_PAUSE);
    const uint64_t seq[] = { 0, 100 * MIB, 200 * MIB, 5 * GIB, 6 * GIB };
    assert_int_equal(feed_swap(&g, seq, 5, 500, &v), 3);
    assert_int_equal(v.value, (int64_t)(5 * GIB));
    assert_int_equal(v.action, ST_GUARD_PAUSE);
}

/* The base is the swap at the job's start, not zero: a machine already deep
 * in swap does not trip at once. */
static void test_swap_base_is_start_value(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 8 * GIB, ST_GUARD_KILL);
    /* stageload fixture 2026-10-05 staged-1 starts with 12.3 GB of swap,
     * which then falls by 8 MiB: the base stays the first value, so 8 GiB
     * above the lower value is still within the budget */
    const uint64_t seq[] = { 12320636928ull, 12312248320ull, 12312248320ull + 8 * GIB,
                             12320636928ull + 8 * GIB, 12320636928ull + 8 * GIB + 1 };
    assert_int_equal(feed_swap(&g, seq, 5, 500, &v), 4);
    assert_int_equal(v.value, (int64_t)(8 * GIB + 1));
}

/* An explicit base wins over the first sample. */
static void test_swap_explicit_base(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 100 * MIB, ST_GUARD_KILL);
    st_guard_set_base(&g, 1 * GIB);
    const uint64_t seq[] = { 1 * GIB + 101 * MIB };
    assert_int_equal(feed_swap(&g, seq, 1, 500, &v), 0);
    assert_int_equal(v.value, (int64_t)(101 * MIB));
}

/* Swap shrinking below the base: growth is negative, nothing trips, and the
 * base stays the start value (a later rise is measured from the start, not
 * from the low point). */
static void test_swap_shrinking_keeps_base(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 512 * MIB, ST_GUARD_KILL);
    const uint64_t start = 4 * GIB;
    /* falls by 2 GiB, then rises 2.4 GiB from the low point: still under
     * start + budget, so no trip; then one step past start + budget */
    const uint64_t seq[] = { start, start - 1 * GIB, start - 2 * GIB, start - 2 * GIB,
                             start + 400 * MIB, start + 512 * MIB, start + 513 * MIB };
    assert_int_equal(feed_swap(&g, seq, 7, 500, &v), 6);
    assert_int_equal(v.value, (int64_t)(513 * MIB));
    assert_int_equal(g.swap_base, start);
}

/* Once tripped, it stays quiet until rearmed; rearm keeps the base, so a
 * swap still over budget trips again; set_base grants a fresh budget. */
static void test_swap_trips_once_until_rearm(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 100 * MIB, ST_GUARD_PAUSE);
    st_sample s = swap_at(0, 0);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(500, 200 * MIB);
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    for (uint32_t t = 1000; t < 5000; t += 500) {
        s = swap_at(t, 200 * MIB + t * MIB);
        assert_int_equal(st_guard_check(&g, &s, &v), 0);
    }
    st_guard_rearm(&g);
    s = swap_at(5000, 300 * MIB);
    memset(&v, 0, sizeof v);
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.value, (int64_t)(300 * MIB));
    /* the user accepts the current swap: a fresh budget from here */
    st_guard_rearm(&g);
    st_guard_set_base(&g, 300 * MIB);
    s = swap_at(5500, 400 * MIB);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(6000, 400 * MIB + 1);
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.value, (int64_t)(100 * MIB + 1));
}

/* Samples without swap are ignored by the swap limit (and do not set the
 * base). */
static void test_swap_missing_field(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_swap(&g, 10 * MIB, ST_GUARD_KILL);
    st_sample s = swap_at(0, 5 * GIB);
    s.valid = ST_F_FOOTPRINT; /* swap not available */
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    assert_false(g.has_base);
    s = swap_at(500, 1 * GIB);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    assert_int_equal(g.swap_base, 1 * GIB);
}

/* Level: two samples under the threshold in a row trip; equal is not under. */
static void test_level_two_in_a_row(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_level(&g, 1000); /* 10.00 % */
    uint16_t seq[] = { 5000, 1000, 999, 500 };
    int at = -1;
    for (int i = 0; i < 4; i++) {
        st_sample s = level_at((uint32_t)i * 500, seq[i]);
        if (st_guard_check(&g, &s, &v))
            at = i;
    }
    assert_int_equal(at, 3);
    assert_int_equal(v.reason, ST_GUARD_LEVEL);
    assert_int_equal(v.value, 500);
    assert_int_equal(v.limit, 1000);
}

/* Flapping around the threshold never trips: a sample above resets the count. */
static void test_level_flapping(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_level(&g, 1000);
    for (int i = 0; i < 200; i++) {
        st_sample s = level_at((uint32_t)i * 100, (i % 2) ? 1001 : 999);
        assert_int_equal(st_guard_check(&g, &s, &v), 0);
    }
    /* a sample without a level between two low ones neither counts nor resets */
    st_sample s = level_at(30000, 900);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(30100, 0);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = level_at(30200, 900);
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
}

/* After a level trip, rearm restarts the count: two more low samples. */
static void test_level_rearm(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    init_level(&g, 2000);
    int trips = 0;
    for (int i = 0; i < 6; i++) {
        st_sample s = level_at((uint32_t)i * 500, 100);
        trips += st_guard_check(&g, &s, &v);
    }
    assert_int_equal(trips, 1);
    st_guard_rearm(&g);
    st_sample s = level_at(4000, 100);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = level_at(4500, 100);
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
}

/* No limit set: nothing ever trips, whatever the numbers. */
static void test_inactive_never_trips(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    st_guard_init(&g, NULL);
    for (int i = 0; i < 10; i++) {
        st_sample s = swap_at((uint32_t)i * 500, (uint64_t)i * 10 * GIB);
        s.valid |= ST_F_LEVEL;
        s.level_c = 0;
        assert_int_equal(st_guard_check(&g, &s, &v), 0);
    }
}

/* Swap and level both crossed at one sample: one verdict (swap). */
static void test_both_limits_one_verdict(void **state)
{
    (void)state;
    st_guard g;
    st_guard_verdict v;
    st_guard_opts o;
    memset(&o, 0, sizeof o);
    o.has_swap_budget = 1;
    o.swap_budget = 1 * MIB;
    o.has_kill_free = 1;
    o.kill_free_c = 5000;
    o.action = ST_GUARD_KILL;
    st_guard_init(&g, &o);
    st_sample s = swap_at(0, 0);
    s.valid |= ST_F_LEVEL;
    s.level_c = 100;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s.t_ms = 500;
    s.swap_used = 2 * MIB;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.reason, ST_GUARD_SWAP);
    s.t_ms = 1000;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
}

/* The job's share of a swap crossing ([lanes]): Linux, the growth of the
 * tree's own swap since the base; macOS (no tree_swap), the bytes the tree
 * paged in since the base; neither lane: nothing claimed. */
static void test_share_tree_swap(void **state)
{
    st_guard g;
    st_guard_verdict v;
    (void)state;
    init_swap(&g, 2 * GIB, ST_GUARD_PAUSE);
    st_sample s = swap_at(0, 1 * GIB);
    s.tree_swap = 100 * MIB;
    s.valid |= ST_F_TREE_SWAP;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(1000, 2 * GIB);
    s.tree_swap = 600 * MIB;
    s.valid |= ST_F_TREE_SWAP;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(2000, 3 * GIB + 100 * MIB); /* 2.1 GiB over the base: crossed */
    s.tree_swap = 2 * GIB;                  /* 1.9 GiB of it the job's */
    s.valid |= ST_F_TREE_SWAP;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.reason, ST_GUARD_SWAP);
    assert_int_equal(v.share_kind, ST_SHARE_TREE_SWAP);
    assert_true(v.share == (int64_t)(2 * GIB - 100 * MIB));
    /* resumed: a fresh budget, and the share counts from there */
    st_guard_rearm(&g);
    st_guard_set_base(&g, 3 * GIB + 100 * MIB);
    s = swap_at(3000, 5 * GIB + 200 * MIB);
    s.tree_swap = 2 * GIB + 10 * MIB; /* another process took the swap this time */
    s.valid |= ST_F_TREE_SWAP;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.share_kind, ST_SHARE_TREE_SWAP);
    assert_true(v.share == (int64_t)(10 * MIB));
}

static void test_share_pageins(void **state)
{
    st_guard g;
    st_guard_verdict v;
    (void)state;
    init_swap(&g, 1 * GIB, ST_GUARD_KILL);
    g.page_size = 16384; /* Apple Silicon */
    st_sample s = swap_at(0, 0);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(500, 512 * MIB);
    s.pageins_c = 400000; /* 4000 page-ins/s over 0.5 s: 2000 pages */
    s.valid |= ST_F_PAGEINS;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(1500, 2 * GIB);
    s.pageins_c = 100000; /* 1000/s over 1 s: 1000 pages more */
    s.valid |= ST_F_PAGEINS;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.share_kind, ST_SHARE_PAGEINS);
    assert_true(v.share == 3000 * 16384);
    /* without either lane: nothing is claimed */
    init_swap(&g, 1 * GIB, ST_GUARD_KILL);
    s = swap_at(0, 0);
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(1000, 2 * GIB);
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.share_kind, ST_SHARE_NONE);
}

/* macOS: the growth of the tree's compressed memory over the budget's
 * window is the share, ahead of the page-ins (a page coming back from the
 * compressor is no page-in); after a resume it counts from there; a
 * tree_swap (Linux) still comes first. */
static void test_share_tree_compressed(void **state)
{
    st_guard g;
    st_guard_verdict v;
    (void)state;
    init_swap(&g, 1 * GIB, ST_GUARD_PAUSE);
    g.page_size = 16384;
    st_sample s = swap_at(0, 2 * GIB);
    s.tree_compressed = 300 * MIB;
    s.valid |= ST_F_TREE_COMPRESSED;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(1000, 2 * GIB + 512 * MIB);
    s.tree_compressed = 1 * GIB;
    s.pageins_c = 1000; /* 10 page-ins/s: a few, from files */
    s.valid |= ST_F_TREE_COMPRESSED | ST_F_PAGEINS;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(2000, 3 * GIB + 100 * MIB); /* 1.1 GiB over the base: crossed */
    s.tree_compressed = 3 * GIB + 200 * MIB;
    s.pageins_c = 1000;
    s.valid |= ST_F_TREE_COMPRESSED | ST_F_PAGEINS;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.share_kind, ST_SHARE_TREE_COMPRESSED);
    assert_true(v.share == (int64_t)(3 * GIB + 200 * MIB - 300 * MIB));
    /* resumed: the share counts from the resume's reading */
    st_guard_rearm(&g);
    st_guard_set_base(&g, 3 * GIB + 100 * MIB);
    s = swap_at(3000, 4 * GIB + 300 * MIB);
    s.tree_compressed = 3 * GIB; /* the job's shrank: another process was swapped */
    s.valid |= ST_F_TREE_COMPRESSED;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.share_kind, ST_SHARE_TREE_COMPRESSED);
    assert_true(v.share == -(int64_t)(200 * MIB));
    /* both lanes (not a Mac today, but the order is the rule): tree_swap */
    init_swap(&g, 1 * GIB, ST_GUARD_PAUSE);
    s = swap_at(0, 0);
    s.tree_swap = 0;
    s.tree_compressed = 0;
    s.valid |= ST_F_TREE_SWAP | ST_F_TREE_COMPRESSED;
    assert_int_equal(st_guard_check(&g, &s, &v), 0);
    s = swap_at(1000, 2 * GIB);
    s.tree_swap = 1 * GIB;
    s.tree_compressed = 5 * GIB;
    s.valid |= ST_F_TREE_SWAP | ST_F_TREE_COMPRESSED;
    assert_int_equal(st_guard_check(&g, &s, &v), 1);
    assert_int_equal(v.share_kind, ST_SHARE_TREE_SWAP);
    assert_true(v.share == (int64_t)GIB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_share_tree_swap),
        cmocka_unit_test(test_share_tree_compressed),
        cmocka_unit_test(test_share_pageins),
        cmocka_unit_test(test_active),
        cmocka_unit_test(test_swap_exact_budget),
        cmocka_unit_test(test_swap_crossed_between_samples),
        cmocka_unit_test(test_swap_base_is_start_value),
        cmocka_unit_test(test_swap_explicit_base),
        cmocka_unit_test(test_swap_shrinking_keeps_base),
        cmocka_unit_test(test_swap_trips_once_until_rearm),
        cmocka_unit_test(test_swap_missing_field),
        cmocka_unit_test(test_level_two_in_a_row),
        cmocka_unit_test(test_level_flapping),
        cmocka_unit_test(test_level_rearm),
        cmocka_unit_test(test_inactive_never_trips),
        cmocka_unit_test(test_both_limits_one_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
