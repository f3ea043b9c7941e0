/* darwin_check.h: the scripted machine of the darwin backend's tests
 * (test_darwin.c, test_darwin_sys.c) over fake_darwin.c, and what they
 * check it with (include it after <cmocka.h>; every helper is static and
 * may go unused). */
#ifndef STAGETOP_TESTS_DARWIN_CHECK_H
#define STAGETOP_TESTS_DARWIN_CHECK_H

#include <stdint.h>
#include <string.h>

#include "fake_darwin.h"
#include "stagetop/platform.h"
#include "stagetop/sample.h"

#if defined(__GNUC__)
#define DC_UNUSED __attribute__((unused))
#else
#define DC_UNUSED
#endif

#define T0 1700000000000000ull /* a start time, microseconds */
#define SEC 1000000ull
#include "../sizes.h"

DC_UNUSED static const st_platform *const P = &st_platform_native;

/* The scripted machine: launchd, a shell, the watched job 100 with
 * children 101, 102 and grandchildren 103 (of 101), 104 (of 102); an
 * unrelated tree 200 -> 201; and 300, whose ppid names 100 but which
 * started before 100 did (its parent was an older holder of pid 100). */
DC_UNUSED static const int32_t MEMBERS[] = {100, 101, 102, 103, 104};
#define N_MEMBERS (sizeof MEMBERS / sizeof MEMBERS[0])

DC_UNUSED static fake_proc *add(int32_t pid, int32_t ppid, uint64_t start, const char *name, uint64_t fp)
{
    fake_proc *p = fake_darwin_add(pid, ppid, start, name);
    assert_non_null(p);
    p->footprint = fp;
    p->resident = fp + fp / 3;
    p->peak = fp * 2 + (uint64_t)pid;
    return p;
}

DC_UNUSED static void script_machine(void)
{
    fake_darwin_reset();
    add(0, 0, T0 - 1000 * SEC, "kernel_task", 0);
    add(1, 0, T0 - 999 * SEC, "launchd", 20 * MIB);
    add(50, 1, T0, "zsh", 5 * MIB);
    add(100, 50, T0 + 10 * SEC, "python3", 900 * MIB);
    add(101, 100, T0 + 11 * SEC, "worker", 300 * MIB + 4096);
    add(102, 100, T0 + 12 * SEC, "worker", 250 * MIB + 12288);
    add(103, 101, T0 + 13 * SEC, "helper", 70 * MIB);
    add(104, 102, T0 + 14 * SEC + 1, "helper", 33 * MIB);
    add(200, 1, T0 + 2 * SEC, "Safari", 1500 * MIB);
    add(201, 200, T0 + 3 * SEC, "WebContent", 800 * MIB);
    add(300, 100, T0 + 5 * SEC, "stale", 123 * MIB);
}

DC_UNUSED static st_proc_id id_of(int32_t pid)
{
    const fake_proc *p = fake_darwin_find(pid);
    st_proc_id id = {pid, p ? p->start_us : 0};
    return id;
}

DC_UNUSED static int setup(void **state)
{
    st_backend *b = NULL;
    st_error err;
    script_machine();
    assert_int_equal(P->open(&b, &err), ST_OK);
    *state = b;
    return 0;
}

DC_UNUSED static int teardown(void **state)
{
    P->close(*state);
    fake_darwin_free();
    return 0;
}

DC_UNUSED static int in_vec(const st_proc_vec *v, int32_t pid)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->v[i].id.pid == pid)
            return 1;
    return 0;
}

/* Every entry's parent comes before it (the root excepted). */
DC_UNUSED static void assert_parents_first(const st_proc_vec *v)
{
    for (size_t i = 1; i < v->len; i++) {
        int found = 0;
        for (size_t j = 0; j < i; j++)
            found |= v->v[j].id.pid == v->v[i].ppid;
        assert_true(found);
    }
}

typedef struct sums {
    uint64_t footprint, rss, peak;
    size_t read, eperm, gone;
    int peak_valid;
} sums;

/* What the tree module does: discover, then read each member. */
DC_UNUSED static int tree_sum(st_backend *b, st_proc_id root, sums *s, st_proc_vec *v)
{
    st_error err;
    int rc = P->descendants(b, root, v, &err);
    memset(s, 0, sizeof *s);
    if (rc != ST_OK)
        return rc;
    s->peak_valid = 1;
    for (size_t i = 0; i < v->len; i++) {
        st_proc_mem m;
        rc = P->read_proc(b, v->v[i].id, &m, &err);
        if (rc == ST_EPERM) {
            s->eperm++;
            continue;
        }
        if (rc == ST_ESRCH) {
            s->gone++;
            continue;
        }
        assert_int_equal(rc, ST_OK);
        assert_int_equal(m.id.pid, v->v[i].id.pid);
        assert_true(m.valid & ST_PM_FOOTPRINT);
        assert_true(m.valid & ST_PM_RSS);
        assert_false(m.valid & ST_PM_SWAP);
        s->footprint += m.footprint;
        s->rss += m.rss;
        if (m.valid & ST_PM_PEAK)
            s->peak = m.peak > s->peak ? m.peak : s->peak;
        else
            s->peak_valid = 0;
        s->read++;
    }
    return ST_OK;
}

/* The expected sums, straight from the script. */
DC_UNUSED static void expect_sums(const int32_t *pids, size_t n, sums *e)
{
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < n; i++) {
        const fake_proc *p = fake_darwin_find(pids[i]);
        assert_non_null(p);
        e->footprint += p->footprint;
        e->rss += p->resident;
        e->peak = p->peak > e->peak ? p->peak : e->peak;
    }
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

#endif
