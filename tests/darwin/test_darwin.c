/* test_darwin.c: the REAL core/platform/platform_darwin.c, driven through
 * st_platform_native, over the scripted kernel of fake_darwin.c (the macOS
 * API cannot exist on Linux; this is the one place a mock is used).
 * Expected values come from the script (the table the test writes), never
 * from the backend's own output.  Here: identity, the tree and its sums,
 * pid reuse, signals and the kernel's refusals; the system's numbers,
 * command lines and the process list: test_darwin_sys.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "darwin_check.h"

static void test_table(void **state)
{
    (void)state;
    assert_string_equal(P->name, "darwin");
    assert_string_equal(P->footprint_metric, "phys_footprint");
    assert_string_equal(P->peak_metric, "lifetime_max_phys_footprint");
    assert_non_null(P->open);
    assert_non_null(P->close);
    assert_non_null(P->identify);
    assert_non_null(P->descendants);
    assert_non_null(P->read_proc);
    assert_non_null(P->read_system);
    assert_non_null(P->command);
    assert_non_null(P->list_all);
    assert_non_null(P->send_signal);
}

static void test_identify(void **state)
{
    st_backend *b = *state;
    st_proc_id id;
    st_error err;

    assert_int_equal(P->identify(b, 104, &id, &err), ST_OK);
    assert_int_equal(id.pid, 104);
    assert_true(id.start == T0 + 14 * SEC + 1);
    assert_int_equal(P->identify(b, 4242, &id, &err), ST_ESRCH);
    assert_int_equal(err.code, ST_ESRCH);
    assert_non_null(strstr(err.msg, "4242"));
    assert_int_equal(P->identify(b, -5, &id, &err), ST_ESRCH);
    /* A zombie is live until reaped. */
    fake_darwin_find(103)->zombie = 1;
    assert_int_equal(P->identify(b, 103, &id, &err), ST_OK);
    assert_true(id.start == T0 + 13 * SEC);
}

static void test_tree_sums(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    sums got, want;

    assert_int_equal(tree_sum(b, id_of(100), &got, &v), ST_OK);
    assert_int_equal(v.len, N_MEMBERS);
    for (size_t i = 0; i < N_MEMBERS; i++)
        assert_true(in_vec(&v, MEMBERS[i]));
    assert_int_equal(v.v[0].id.pid, 100);
    assert_int_equal(v.v[0].ppid, 50);
    assert_parents_first(&v);
    for (size_t i = 0; i < v.len; i++) /* identities are the script's */
        assert_true(v.v[i].id.start == fake_darwin_find(v.v[i].id.pid)->start_us);
    expect_sums(MEMBERS, N_MEMBERS, &want);
    assert_true(got.footprint == want.footprint);
    assert_true(got.rss == want.rss);
    assert_true(got.peak_valid);
    assert_true(got.peak == want.peak);
    assert_int_equal(got.read, N_MEMBERS);
    /* 300 claims 100 as parent but started earlier: not a member. */
    assert_false(in_vec(&v, 300));
    assert_false(in_vec(&v, 201));

    /* A subtree on its own. */
    assert_int_equal(tree_sum(b, id_of(101), &got, &v), ST_OK);
    assert_int_equal(v.len, 2);
    assert_true(got.footprint == (300 * MIB + 4096) + 70 * MIB);
    st_proc_vec_free(&v);
}

static void test_child_appears_and_exits(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    sums got, want;
    st_proc_mem m;
    st_error err;
    const int32_t with_new[] = {100, 101, 102, 103, 104, 105};
    const int32_t after_exit[] = {100, 102, 104, 105};

    add(105, 104, T0 + 20 * SEC, "late", 41 * MIB);
    assert_int_equal(tree_sum(b, id_of(100), &got, &v), ST_OK);
    assert_int_equal(v.len, 6);
    assert_true(in_vec(&v, 105));
    assert_parents_first(&v);
    expect_sums(with_new, 6, &want);
    assert_true(got.footprint == want.footprint);

    /* 101 exits and is reaped; its child 103 goes to launchd and leaves
     * the tree. */
    st_proc_id gone = id_of(101);
    assert_int_equal(fake_darwin_remove(101), 0);
    assert_int_equal(P->read_proc(b, gone, &m, &err), ST_ESRCH);
    assert_int_equal(err.code, ST_ESRCH);
    assert_int_equal(tree_sum(b, id_of(100), &got, &v), ST_OK);
    assert_int_equal(v.len, 4);
    assert_false(in_vec(&v, 101));
    assert_false(in_vec(&v, 103));
    expect_sums(after_exit, 4, &want);
    assert_true(got.footprint == want.footprint);

    /* A zombie child stays a member with footprint 0 (XNU frees it), its
     * lifetime peak still readable. */
    fake_darwin_find(105)->zombie = 1;
    assert_int_equal(P->read_proc(b, id_of(105), &m, &err), ST_OK);
    assert_true(m.footprint == 0);
    assert_true((m.valid & ST_PM_PEAK) && m.peak == fake_darwin_find(105)->peak);

    /* The root exits: descendants says so. */
    st_proc_id root = id_of(100);
    fake_darwin_remove(100);
    assert_int_equal(P->descendants(b, root, &v, &err), ST_ESRCH);
    assert_int_equal(v.len, 0);
    st_proc_vec_free(&v);
}

/* XNU's zombie (kern_exit.c proc_exit, kern_resource.c proc_get_rusage):
 * proc_pid_rusage answers from the record saved at exit (footprint zeroed,
 * resident size and lifetime peak kept), KERN_PROC_ALL lists it as SZOMB,
 * and its children went to launchd at exit.  The backend reads it as not
 * live: no footprint, no rss, the peak kept. */
static void test_zombie_as_xnu_keeps_it(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    st_proc_mem m;
    st_error err;
    const fake_proc *z;

    assert_int_equal(fake_darwin_exit(101), 0);
    z = fake_darwin_find(101);
    assert_true(z->zombie && z->resident > 0);
    assert_int_equal(fake_darwin_find(103)->ppid, 1);
    assert_int_equal(P->read_proc(b, id_of(101), &m, &err), ST_OK);
    assert_false(m.valid & ST_PM_FOOTPRINT);
    assert_false(m.valid & ST_PM_RSS);
    assert_true(m.footprint == 0 && m.rss == 0);
    assert_true((m.valid & ST_PM_PEAK) && m.peak == z->peak);
    assert_int_equal(P->list_all(b, &v, &err), ST_OK);
    assert_true(in_vec(&v, 101));
    assert_int_equal(P->descendants(b, id_of(100), &v, &err), ST_OK);
    assert_true(in_vec(&v, 101));
    assert_false(in_vec(&v, 103)); /* with launchd now */
    st_proc_vec_free(&v);
}

/* p_starttime is wall-clock time (kern_fork.c microtime_with_abstime): a
 * clock stepped back between two forks gives a child an earlier start than
 * its parent.  It is still a child (its monotonic start,
 * ri_proc_start_abstime, is later); 300, really older, is still not. */
static void test_clock_stepped_back(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    st_error err;
    const fake_proc *parent = fake_darwin_find(104);
    fake_proc *c = add(105, 104, parent->start_us - 3600 * SEC, "after-step", 9 * MIB);

    c->start_abs = parent->start_us * 1000u + 5 * SEC * 1000u;
    assert_int_equal(P->descendants(b, id_of(100), &v, &err), ST_OK);
    assert_true(in_vec(&v, 105));
    assert_false(in_vec(&v, 300));
    assert_parents_first(&v);
    /* A really older process whose ppid names 104: not adopted. */
    c->start_abs = parent->start_us * 1000u - 1;
    assert_int_equal(P->descendants(b, id_of(100), &v, &err), ST_OK);
    assert_false(in_vec(&v, 105));
    st_proc_vec_free(&v);
}

static void test_pid_reuse(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_proc_vec v = {0};
    st_proc_mem m;
    st_error err;
    st_proc_id old = id_of(102), root = id_of(100);

    /* 102 exits, its pid goes to an unrelated newer process. */
    fake_darwin_remove(102);
    add(102, 200, T0 + 30 * SEC, "reused", 999 * MIB);
    assert_int_equal(P->read_proc(b, old, &m, &err), ST_ESRCH);
    assert_non_null(strstr(err.msg, "102"));
    assert_int_equal(P->send_signal(b, old, SIGSTOP, &err), ST_ESRCH);
    assert_int_equal(P->command(b, old, (char[64]){0}, 64, &err), ST_ESRCH);
    assert_int_equal(k->n_kills, 0);
    assert_int_equal(P->descendants(b, root, &v, &err), ST_OK);
    assert_false(in_vec(&v, 102));

    /* A reused pid whose snapshot ppid is the root's own pid but which
     * started before the root: not adopted (already covered by 300). */
    assert_false(in_vec(&v, 300));

    /* The root's pid reused: the old root is gone, and nothing of the new
     * one is read or signalled. */
    fake_darwin_remove(100);
    add(100, 1, T0 + 40 * SEC, "other", 1 * MIB);
    assert_int_equal(P->descendants(b, root, &v, &err), ST_ESRCH);
    assert_int_equal(P->read_proc(b, root, &m, &err), ST_ESRCH);
    assert_int_equal(P->send_signal(b, root, SIGKILL, &err), ST_ESRCH);
    assert_int_equal(k->n_kills, 0);
    assert_int_equal(fake_darwin_find(100)->zombie, 0);
    st_proc_vec_free(&v);
}

/* The pid is reused between discovery and the read (inside the read, as
 * far as the backend can tell): the imposter's numbers are not taken. */
static void test_reuse_during_read(void **state)
{
    st_backend *b = *state;
    st_proc_mem m;
    st_error err;
    st_proc_id id = id_of(103);

    fake_darwin_knobs_get()->reuse_on_read = 103;
    memset(&m, 0, sizeof m);
    assert_int_equal(P->read_proc(b, id, &m, &err), ST_ESRCH);
    assert_true(m.footprint != 7777777);
    assert_true(fake_darwin_find(103)->start_us != id.start); /* it really happened */
}

static void test_signal(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_error err;

    assert_int_equal(P->send_signal(b, id_of(104), SIGSTOP, &err), ST_OK);
    assert_int_equal(k->n_kills, 1);
    assert_int_equal(k->kills[0].pid, 104);
    assert_int_equal(k->kills[0].sig, SIGSTOP);
    fake_darwin_find(102)->other_user = 1;
    assert_int_equal(P->send_signal(b, id_of(102), SIGSTOP, &err), ST_EPERM);
    assert_int_equal(err.sys_errno, EPERM);
    assert_non_null(strstr(err.msg, "102"));
    assert_int_equal(P->send_signal(b, (st_proc_id){0, 0}, SIGKILL, &err), ST_EINVAL);
    assert_int_equal(P->send_signal(b, (st_proc_id){-1, 0}, SIGKILL, &err), ST_EINVAL);
    assert_int_equal(k->n_kills, 2); /* 104, then 102 (refused) */
}

static void test_v4_refused_falls_back_to_v2(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_proc_vec v = {0};
    sums got, want;

    k->v4_refused = 1;
    assert_int_equal(tree_sum(b, id_of(100), &got, &v), ST_OK);
    expect_sums(MEMBERS, N_MEMBERS, &want);
    assert_int_equal(got.read, N_MEMBERS);
    assert_true(got.footprint == want.footprint);
    assert_true(got.rss == want.rss);
    assert_false(got.peak_valid); /* V2 has no lifetime peak */
    /* V4 asked once, then remembered: every read after is V2 only. */
    assert_int_equal(k->rusage_v4, 1);
    assert_int_equal(k->rusage_v2, N_MEMBERS);
    st_proc_vec_free(&v);
}

/* EINVAL from V4 and from V2 too: not a flavor problem, so V4 is kept. */
static void test_einval_not_flavor(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_proc_mem m;
    st_error err;

    k->rusage_einval = 1;
    assert_int_equal(P->read_proc(b, id_of(101), &m, &err), ST_EIO);
    assert_int_equal(err.sys_errno, EINVAL);
    assert_int_equal(k->rusage_v4, 1);
    assert_int_equal(k->rusage_v2, 1);
    k->rusage_einval = 0;
    assert_int_equal(P->read_proc(b, id_of(101), &m, &err), ST_OK);
    assert_true(m.valid & ST_PM_PEAK);
    assert_true(m.peak == fake_darwin_find(101)->peak);
    assert_int_equal(k->rusage_v4, 2);
    assert_int_equal(k->rusage_v2, 1);
}

static void test_eperm_one_child(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    st_proc_mem m;
    st_error err;
    sums got, want;
    const int32_t readable[] = {100, 101, 103, 104};

    fake_darwin_find(102)->other_user = 1;
    assert_int_equal(P->read_proc(b, id_of(102), &m, &err), ST_EPERM);
    assert_int_equal(err.code, ST_EPERM);
    assert_int_equal(err.sys_errno, EPERM);
    assert_non_null(strstr(err.msg, "102"));
    assert_non_null(strstr(err.msg, "worker"));
    assert_int_equal(tree_sum(b, id_of(100), &got, &v), ST_OK);
    assert_int_equal(v.len, N_MEMBERS); /* still a member, just unreadable */
    assert_int_equal(got.eperm, 1);
    assert_int_equal(got.read, 4);
    expect_sums(readable, 4, &want);
    assert_true(got.footprint == want.footprint);
    st_proc_vec_free(&v);
}

static void test_enomem_retried(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_proc_vec v = {0};
    st_error err;
    size_t before = fake_darwin_count();

    k->enomem_fetches = 1;
    assert_int_equal(P->descendants(b, id_of(100), &v, &err), ST_OK);
    assert_int_equal(v.len, N_MEMBERS);
    assert_int_equal(k->fetches, 2);
    assert_int_equal(k->probes, 2);

    /* The table really grows between probe and fetch, by more than the
     * kernel's slop and the backend's headroom. */
    k->grow_after_probe = 500;
    k->fetches = k->probes = 0;
    assert_int_equal(P->list_all(b, &v, &err), ST_OK);
    assert_int_equal(v.len, before + 500 - 1); /* all but kernel_task */
    assert_true(k->fetches >= 2);

    /* It never settles: a clear error, no crash, nothing half-filled. */
    k->enomem_fetches = 1000;
    assert_int_equal(P->descendants(b, id_of(100), &v, &err), ST_EIO);
    assert_int_equal(v.len, 0);
    assert_int_equal(err.sys_errno, ENOMEM);
    assert_non_null(strstr(err.msg, "kern.proc.all"));
    st_proc_vec_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_table),
        T(test_identify),
        T(test_tree_sums),
        T(test_child_appears_and_exits),
        T(test_zombie_as_xnu_keeps_it),
        T(test_clock_stepped_back),
        T(test_pid_reuse),
        T(test_reuse_during_read),
        T(test_signal),
        T(test_v4_refused_falls_back_to_v2),
        T(test_einval_not_flavor),
        T(test_eperm_one_child),
        T(test_enomem_retried),
    };
    return cmocka_run_group_tests_name("darwin backend (shim)", tests, NULL, NULL);
}
