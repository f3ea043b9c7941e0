/* test_darwin_tree.c: the watched tree (core/run/tree.c) over the REAL
 * core/platform/platform_darwin.c and the scripted XNU of fake_darwin.c,
 * where a process that exits behaves as XNU's proc_exit makes it
 * (fake_darwin_exit): its children go to launchd at exit, not at reaping,
 * and until it is reaped it answers proc_pid_rusage from the record saved
 * at exit (footprint zeroed, resident size kept) and KERN_PROC_ALL lists it
 * as SZOMB.  `stagetop -- sh -c 'work & sleep 1'` on a Mac. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "darwin_check.h"
#include "stagetop/tree.h"

/* sh (100) under zsh (50) runs work (101, with a helper 103) and sleep
 * (102); an unrelated tree is there too. */
static int setup_job(void **state)
{
    st_backend *b = NULL;
    st_error err;
    fake_darwin_reset();
    add(1, 0, T0 - 999 * SEC, "launchd", 20 * MIB);
    add(50, 1, T0, "zsh", 5 * MIB);
    add(100, 50, T0 + 10 * SEC, "sh", 3 * MIB);
    add(101, 100, T0 + 11 * SEC, "work", 400 * MIB + 4096);
    add(102, 100, T0 + 12 * SEC, "sleep", 1 * MIB);
    add(103, 101, T0 + 13 * SEC, "helper", 60 * MIB);
    add(200, 1, T0 + 2 * SEC, "Safari", 1500 * MIB);
    assert_int_equal(P->open(&b, &err), ST_OK);
    *state = b;
    return 0;
}

/* Is id a member of t (pid and start time)? */
static int is_member(const st_tree *t, st_proc_id id)
{
    for (size_t i = 0; i < t->n_members; i++)
        if (t->members[i].id.pid == id.pid && t->members[i].id.start == id.start)
            return 1;
    return 0;
}

static uint64_t fp_of(const int32_t *pids, size_t n, int rss)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += rss ? fake_darwin_find(pids[i])->resident : fake_darwin_find(pids[i])->footprint;
    return s;
}

/* The root exits first and is not reaped yet: its children, already with
 * launchd, stay watched; the zombie adds nothing (not even the resident
 * size saved at its exit); after the reap they are still watched. */
static void root_exits_before_its_children(void **state)
{
    st_backend *b = *state;
    st_tree t;
    st_sample s;
    st_error err;
    const int32_t all[] = {100, 101, 102, 103}, left[] = {101, 103};

    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_init(&t, P, b, 100, 0, &err), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, &err), ST_OK);
    assert_int_equal(s.procs, 4);
    assert_true(s.footprint == fp_of(all, 4, 0));

    assert_int_equal(fake_darwin_remove(102), 0); /* sleep 1 ends, sh reaps it */
    assert_int_equal(fake_darwin_exit(100), 0);   /* then sh exits */
    assert_int_equal(fake_darwin_find(101)->ppid, 1); /* at exit (kern_exit.c) */
    assert_true(fake_darwin_find(100)->resident > 0);  /* what XNU saved */
    assert_int_equal(st_tree_sample(&t, 1.0, &s, &err), ST_OK);
    assert_true(is_member(&t, id_of(101)));
    assert_true(is_member(&t, id_of(103)));
    assert_true((s.valid & ST_F_FOOTPRINT) && s.footprint == fp_of(left, 2, 0));
    assert_true((s.valid & ST_F_RSS) && s.rss == fp_of(left, 2, 1));

    assert_int_equal(fake_darwin_remove(100), 0); /* stagetop reaps sh */
    assert_int_equal(st_tree_sample(&t, 2.0, &s, &err), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_true(is_member(&t, id_of(101)));
    assert_true(s.footprint == fp_of(left, 2, 0));
    assert_int_equal(st_tree_sample(&t, 3.0, &s, &err), ST_OK);
    assert_int_equal(s.procs, 2);
    st_tree_free(&t);
}

/* A member in the middle exits (its parent, the live root, reaps it or not):
 * XNU hands its child to launchd at once.  The child is still the job's:
 * it stays a member by pid and start time whatever its parent becomes (the
 * membership rule of core/run/tree.c, issue 19). */
static void middle_member_exits(void **state)
{
    st_backend *b = *state;
    st_tree t;
    st_sample s;
    st_error err;
    const int32_t left[] = {100, 102, 103};

    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_init(&t, P, b, 100, 0, &err), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, &err), ST_OK);
    assert_int_equal(s.procs, 4);
    assert_int_equal(fake_darwin_exit(101), 0);
    assert_int_equal(fake_darwin_find(103)->ppid, 1);
    assert_int_equal(st_tree_sample(&t, 1.0, &s, &err), ST_OK);
    assert_true(is_member(&t, id_of(103)));
    assert_int_equal(fake_darwin_remove(101), 0);
    assert_int_equal(st_tree_sample(&t, 2.0, &s, &err), ST_OK);
    assert_true(is_member(&t, id_of(103)));
    assert_true(s.footprint == fp_of(left, 3, 0));
    st_tree_free(&t);
}

/* 300 orphans, each with a child: after the root exits, each is the top of
 * a subtree that discovery walks on its own (tree.c discover_orphans).
 * One KERN_PROC_ALL snapshot serves the whole discovery (docs/macos.md,
 * "Tree discovery"), not one per subtree: 300 x 16 KiB of copyout. */
static void one_snapshot_per_discovery(void **state)
{
    st_backend *b = *state;
    st_tree t;
    st_sample s;
    st_error err;
    fake_darwin_knobs *k = fake_darwin_knobs_get();

    for (int32_t i = 0; i < 300; i++) {
        add(1000 + i, 100, T0 + 20 * SEC + (uint64_t)i, "worker", 2 * MIB);
        add(2000 + i, 1000 + i, T0 + 30 * SEC + (uint64_t)i, "helper", 1 * MIB);
    }
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_init(&t, P, b, 100, 0, &err), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, &err), ST_OK);
    assert_int_equal(s.procs, 4 + 600);
    assert_int_equal(fake_darwin_remove(102), 0);
    assert_int_equal(fake_darwin_exit(100), 0); /* its 302 children go to launchd */
    unsigned before = k->fetches;
    assert_int_equal(st_tree_sample(&t, 1.0, &s, &err), ST_OK);
    assert_int_equal(k->fetches - before, 1); /* the root's walk and 302 orphans' */
    assert_int_equal(s.procs, 2 + 600);
    assert_true(is_member(&t, id_of(1299)) && is_member(&t, id_of(2299)) && is_member(&t, id_of(103)));
    assert_int_equal(fake_darwin_remove(100), 0); /* reaped: only the orphans are walked */
    before = k->fetches;
    assert_int_equal(st_tree_sample(&t, 2.0, &s, &err), ST_OK);
    assert_int_equal(k->fetches - before, 1);
    assert_int_equal(s.procs, 2 + 600);
    /* a process that appears between two discoveries is seen by the next */
    add(3000, 1299, T0 + 40 * SEC, "late", 1 * MIB);
    assert_int_equal(st_tree_sample(&t, 3.0, &s, &err), ST_OK);
    assert_true(is_member(&t, id_of(3000)));
    st_tree_free(&t);
}

/* No subreaper on a Mac: `stagetop -- sh -c 'sh -c "work &"; sleep 9'`, the
 * middle shell exits before any discovery saw work, whose parent is then
 * launchd.  The root (300) leads the group stagetop made (setpgid in
 * jobctl.c), which work inherited (kern_fork.c:1012), so the group finds
 * it; a process of the group older than the root, and one that left it
 * (setsid), are not adopted.  Without st_tree_adopt_group (-p) it is lost. */
static void orphan_found_by_group(void **state)
{
    st_backend *b = *state;
    st_tree t, p;
    st_sample s;
    st_error err;

    add(300, 50, T0 + 100 * SEC, "sh", 2 * MIB)->pgid = 300;
    add(310, 300, T0 + 101 * SEC, "sleep", 1 * MIB);
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_init(&t, P, b, 300, 0, &err), ST_OK);
    assert_int_equal(st_tree_init(&p, P, b, 300, 0, &err), ST_OK);
    assert_int_equal(st_tree_adopt_group(&t, 300), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, &err), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_int_equal(st_tree_sample(&p, 0.0, &s, &err), ST_OK);

    add(301, 300, T0 + 102 * SEC, "sh", 1 * MIB);          /* the middle shell */
    add(302, 301, T0 + 103 * SEC, "work", 200 * MIB);      /* its worker, in group 300 */
    add(303, 302, T0 + 104 * SEC, "helper", 30 * MIB);     /* and the worker's child */
    add(304, 301, T0 + 103 * SEC, "daemon", 50 * MIB)->pgid = 304; /* setsid: its own group */
    add(305, 1, T0 + 50 * SEC, "older", 70 * MIB)->pgid = 300; /* the group's, but older than the root */
    assert_int_equal(fake_darwin_exit(301), 0);            /* 302 and 304 go to launchd */
    assert_int_equal(fake_darwin_remove(301), 0);          /* reaped */
    assert_int_equal(fake_darwin_find(302)->ppid, 1);

    assert_int_equal(st_tree_sample(&t, 1.0, &s, &err), ST_OK);
    assert_true(is_member(&t, id_of(302)) && is_member(&t, id_of(303)));
    assert_false(is_member(&t, id_of(304)));
    assert_false(is_member(&t, id_of(305)));
    assert_int_equal(s.procs, 4); /* 300, 310, 302, 303 */
    assert_true(s.footprint == (2 + 1 + 200 + 30) * MIB);
    assert_int_equal(st_tree_sample(&p, 1.0, &s, &err), ST_OK); /* -p: no group */
    assert_false(is_member(&p, id_of(302)));
    assert_int_equal(s.procs, 2);
    /* the root exits: the adopted worker stays a member, as any member does */
    assert_int_equal(fake_darwin_remove(310), 0);
    assert_int_equal(fake_darwin_exit(300), 0);
    assert_int_equal(fake_darwin_remove(300), 0);
    assert_int_equal(st_tree_sample(&t, 2.0, &s, &err), ST_OK);
    assert_true(is_member(&t, id_of(302)) && is_member(&t, id_of(303)));
    assert_int_equal(s.procs, 2);
    st_tree_free(&t);
    st_tree_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(root_exits_before_its_children, setup_job, teardown),
        cmocka_unit_test_setup_teardown(middle_member_exits, setup_job, teardown),
        cmocka_unit_test_setup_teardown(one_snapshot_per_discovery, setup_job, teardown),
        cmocka_unit_test_setup_teardown(orphan_found_by_group, setup_job, teardown),
    };
    return cmocka_run_group_tests_name("darwin tree (XNU exit and re-parenting)", tests, NULL, NULL);
}
