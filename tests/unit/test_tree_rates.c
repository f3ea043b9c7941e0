/* test_tree_rates.c: the tree's cpu and pageins rates from its members'
 * counters (core/run/tree_rates.c), case by case: members at both
 * samples, a new member (from zero), a member reaped by a member (its final
 * counters arrive in the parent's reaped-children part: counted once), a
 * child never seen (counted through its parent), one that stagetop reaped
 * (wait4's rusage: st_tree_note_exit), one reaped by a stranger (up to its
 * last reading).  Expected rates are computed here from the counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "stagetop/tree.h"

#define MS 1000000ull /* ns */

static st_proc_mem mem(int32_t pid, int32_t ppid, uint64_t cpu_ms, uint64_t child_ms, uint64_t flt,
                       uint64_t child_flt)
{
    st_proc_mem m;
    memset(&m, 0, sizeof m);
    m.id.pid = pid;
    m.id.start = (uint64_t)pid * 7;
    m.ppid = ppid;
    m.cpu_ns = cpu_ms * MS;
    m.child_cpu_ns = child_ms * MS;
    m.pageins = flt;
    m.child_pageins = child_flt;
    m.valid = ST_PM_COUNTERS;
    return m;
}

static st_sample step(st_tree_rates *r, st_proc_mem *m, size_t n, double t)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_rates_update(r, m, n, t, &s, NULL), ST_OK);
    return s;
}

static void both_samples_and_new_member(void **state)
{
    st_tree_rates r;
    (void)state;
    memset(&r, 0, sizeof r);
    st_proc_mem a[3] = {mem(10, 1, 1000, 0, 50, 0), mem(11, 10, 2000, 0, 7, 0)};
    st_sample s = step(&r, a, 2, 0.0);
    assert_false(s.valid & (ST_F_CPU | ST_F_PAGEINS)); /* one reading: no rate */
    a[0] = mem(10, 1, 1250, 0, 150, 0); /* +250 ms, +100 faults */
    a[1] = mem(11, 10, 2500, 0, 7, 0);  /* +500 ms */
    a[2] = mem(12, 10, 100, 0, 20, 0);  /* new: from zero */
    s = step(&r, a, 3, 0.5);
    assert_true((s.valid & (ST_F_CPU | ST_F_PAGEINS)) == (ST_F_CPU | ST_F_PAGEINS));
    assert_int_equal(s.cpu_c, 17000);      /* 850 ms in 0.5 s: 170% of a core */
    assert_int_equal(s.pageins_c, 24000);  /* 120 faults in 0.5 s: 240/s */
    assert_true(a[0].valid & ST_PM_RATES);
    assert_int_equal(a[0].cpu_c, 5000);    /* the member's own: 50% */
    assert_int_equal(a[1].cpu_c, 10000);
    assert_int_equal(a[2].pageins_c, 4000);
    assert_true(r.total_cpu_ns == 850 * MS && r.total_majflt == 120);
    st_tree_rates_free(&r);
}

static void reaped_by_a_member_counted_once(void **state)
{
    st_tree_rates r;
    (void)state;
    memset(&r, 0, sizeof r);
    st_proc_mem a[2] = {mem(10, 1, 1000, 0, 0, 0), mem(11, 10, 2000, 0, 30, 0)};
    step(&r, a, 2, 0.0);
    /* 11 exits after 300 ms more and 5 faults; 10 reaps it before the next
     * sample: its children part is 11's final counters */
    a[0] = mem(10, 1, 1100, 2300, 0, 35);
    st_sample s = step(&r, a, 1, 1.0);
    assert_int_equal(s.cpu_c, 4000);    /* 100 + 300 ms in 1 s */
    assert_int_equal(s.pageins_c, 500); /* 5 faults */
    /* a child never seen: forked and reaped between two samples */
    a[0] = mem(10, 1, 1100, 2700, 0, 35);
    s = step(&r, a, 1, 2.0);
    assert_int_equal(s.cpu_c, 4000); /* its 400 ms, through the parent */
    st_tree_rates_free(&r);
}

/* 10 exits after 11 left but before reaping it: the credit waits for the
 * parent's children part, however late it grows. */
static void credit_waits_for_the_reap(void **state)
{
    st_tree_rates r;
    (void)state;
    memset(&r, 0, sizeof r);
    st_proc_mem a[2] = {mem(10, 1, 0, 0, 0, 0), mem(11, 10, 2000, 0, 0, 0)};
    step(&r, a, 2, 0.0);
    a[0] = mem(10, 1, 0, 0, 0, 0); /* 11 gone (read as gone), not reaped yet */
    st_sample s = step(&r, a, 1, 1.0);
    assert_int_equal(s.cpu_c, 0);
    a[0] = mem(10, 1, 0, 2100, 0, 0); /* reaped now: 100 ms more than seen */
    s = step(&r, a, 1, 2.0);
    assert_int_equal(s.cpu_c, 1000);
    st_tree_rates_free(&r);
}

static void reaped_by_stagetop_and_by_a_stranger(void **state)
{
    st_tree_rates r;
    (void)state;
    memset(&r, 0, sizeof r);
    st_proc_mem a[2] = {mem(10, 1, 1000, 500, 10, 1), mem(20, 10, 300, 0, 0, 0)};
    step(&r, a, 2, 0.0);
    /* stagetop reaps 10 (wait4: own and reaped children, 1.7 s and 12 faults
     * in all), and 20, re-parented to init, is reaped there */
    st_tree_note_exit(&r, 10, 1700 * MS, 12);
    st_sample s = step(&r, a, 0, 1.0);
    assert_true(s.valid & ST_F_CPU);
    assert_int_equal(s.cpu_c, 2000);   /* 1700 - (1000 + 500) = 200 ms */
    assert_int_equal(s.pageins_c, 100); /* 12 - 11 */
    st_tree_rates_free(&r);
}

/* A backend without counters (a fake, or a process whose counters could
 * not be read): no rate at all, not a rate of 0. */
static void no_counters_no_rate(void **state)
{
    st_tree_rates r;
    st_proc_mem a[1];
    (void)state;
    memset(&r, 0, sizeof r);
    memset(a, 0, sizeof a);
    a[0].id.pid = 10;
    step(&r, a, 1, 0.0);
    st_sample s = step(&r, a, 1, 1.0);
    assert_false(s.valid & (ST_F_CPU | ST_F_PAGEINS));
    st_tree_rates_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(both_samples_and_new_member),
        cmocka_unit_test(reaped_by_a_member_counted_once),
        cmocka_unit_test(credit_waits_for_the_reap),
        cmocka_unit_test(reaped_by_stagetop_and_by_a_stranger),
        cmocka_unit_test(no_counters_no_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
