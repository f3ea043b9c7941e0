/* test_darwin_lanes.c: the cpu, pageins, tree_swap and compressed lanes over
 * the REAL macOS backend and tree code and the scripted XNU of
 * fake_darwin.c: CPU times in Mach time units converted with both time
 * bases (Apple Silicon 125/3, Intel 1/1), page-ins, the reaped children's
 * part, the compressor's pages, and no per-process swap.  Expected values
 * are computed here from the script, in nanoseconds and pages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "darwin_check.h"
#include "stagetop/tree.h"

/* Open the backend with the time base numer/denom. */
static st_backend *open_with(uint32_t numer, uint32_t denom)
{
    st_backend *b = NULL;
    fake_darwin_knobs *k;
    script_machine();
    k = fake_darwin_knobs_get();
    k->tb_numer = numer;
    k->tb_denom = denom;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    return b;
}

/* One second of CPU is 24,000,000 ticks of Apple Silicon's 24 MHz
 * timebase (125/3 ns each) and 10^9 units on Intel (1 ns each). */
static void cpu_units_both_time_bases(void **state)
{
    static const struct { uint32_t n, d; uint64_t per_s; } tb[] = {{125, 3, 24000000u}, {1, 1, 1000000000u}};
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        st_backend *b = open_with(tb[i].n, tb[i].d);
        fake_proc *p = fake_darwin_find(101);
        st_proc_mem m;
        p->user_abs = 3 * tb[i].per_s;            /* 3 s user */
        p->system_abs = tb[i].per_s / 2;          /* 0.5 s system */
        p->child_user_abs = tb[i].per_s / 4;      /* 0.25 s of reaped children */
        p->child_system_abs = 0;
        p->pageins = 4321;
        p->child_pageins = 12;
        assert_int_equal(P->read_proc(b, id_of(101), &m, NULL), ST_OK);
        assert_true(m.valid & ST_PM_COUNTERS);
        assert_true(m.cpu_ns == 3500000000ull);
        assert_true(m.child_cpu_ns == 250000000ull);
        assert_true(m.pageins == 4321 && m.child_pageins == 12);
        assert_false(m.valid & ST_PM_SWAP); /* no per-process swap on macOS */
        /* A long-lived process: 100 days of ticks convert without overflow. */
        p->user_abs = 100ull * 86400 * tb[i].per_s;
        p->system_abs = 0;
        assert_int_equal(P->read_proc(b, id_of(101), &m, NULL), ST_OK);
        assert_true(m.cpu_ns == 100ull * 86400 * 1000000000ull);
        P->close(b);
        fake_darwin_free();
    }
}

/* The tree's rates: 101 uses 0.5 s of CPU and 200 page-ins in 1 s, its
 * child 103 0.25 s: 75% and 200/s whatever the time base; no tree_swap. */
static void tree_rates_both_time_bases(void **state)
{
    static const struct { uint32_t n, d; uint64_t per_s; } tb[] = {{125, 3, 24000000u}, {1, 1, 1000000000u}};
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        st_backend *b = open_with(tb[i].n, tb[i].d);
        st_tree t;
        st_sample s;
        memset(&s, 0, sizeof s);
        fake_darwin_find(101)->user_abs = 7 * tb[i].per_s;
        assert_int_equal(st_tree_init(&t, P, b, 100, 0, NULL), ST_OK);
        assert_int_equal(st_tree_sample(&t, 10.0, &s, NULL), ST_OK);
        assert_false(st_sample_has(&s, ST_F_CPU)); /* one reading: no rate yet */
        assert_false(st_sample_has(&s, ST_F_TREE_SWAP));
        fake_darwin_find(101)->user_abs += tb[i].per_s / 2;
        fake_darwin_find(101)->pageins += 200;
        fake_darwin_find(103)->system_abs += tb[i].per_s / 4;
        assert_int_equal(st_tree_sample(&t, 11.0, &s, NULL), ST_OK);
        assert_true(st_sample_has(&s, ST_F_CPU | ST_F_PAGEINS));
        assert_int_equal(s.cpu_c, 7500);
        assert_int_equal(s.pageins_c, 20000);
        assert_false(st_sample_has(&s, ST_F_TREE_SWAP));
        st_tree_free(&t);
        P->close(b);
        fake_darwin_free();
    }
}

/* compressor_page_count x host_page_size; absent when the host refuses. */
static void compressed_from_host_statistics(void **state)
{
    st_backend *b;
    st_sys_mem s;
    fake_darwin_knobs *k;
    (void)state;
    b = open_with(125, 3);
    k = fake_darwin_knobs_get();
    k->compressor_pages = 123457;
    assert_int_equal(P->read_system(b, &s, NULL), ST_OK);
    assert_true(s.valid & ST_SYS_COMPRESSED);
    assert_true(s.compressed == 123457ull * 16384);
    k->vm_stats_ok = 0;
    assert_int_equal(P->read_system(b, &s, NULL), ST_OK);
    assert_false(s.valid & ST_SYS_COMPRESSED);
    P->close(b);
    fake_darwin_free();
    /* An Intel Mac's 4 KiB pages. */
    script_machine();
    k = fake_darwin_knobs_get();
    k->page_size = 4096;
    k->compressor_pages = 1000;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    assert_int_equal(P->read_system(b, &s, NULL), ST_OK);
    assert_true(s.compressed == 1000ull * 4096);
    P->close(b);
    fake_darwin_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_units_both_time_bases),
        cmocka_unit_test(tree_rates_both_time_bases),
        cmocka_unit_test(compressed_from_host_statistics),
    };
    return cmocka_run_group_tests_name("darwin backend (shim): cpu, pageins, compressed", tests, NULL, NULL);
}
