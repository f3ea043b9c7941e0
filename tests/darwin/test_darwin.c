/* test_darwin.c: the REAL core/platform_darwin.c, driven through
 * st_platform_native, over the scripted kernel of fake_darwin.c (the macOS
 * API cannot exist on Linux; this is the one place a mock is used).
 * Expected values come from the script (the table the test writes), never
 * from the backend's own output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "fake_darwin.h"
#include "stagetop/platform.h"
#include "stagetop/sample.h"

#define T0 1700000000000000ull /* a start time, microseconds */
#define SEC 1000000ull
#define MiB (1ull << 20)

static const st_platform *const P = &st_platform_native;

/* The scripted machine: launchd, a shell, the watched job 100 with
 * children 101, 102 and grandchildren 103 (of 101), 104 (of 102); an
 * unrelated tree 200 -> 201; and 300, whose ppid names 100 but which
 * started before 100 did (its parent was an older holder of pid 100). */
static const int32_t MEMBERS[] = {100, 101, 102, 103, 104};
#define N_MEMBERS (sizeof MEMBERS / sizeof MEMBERS[0])

static fake_proc *add(int32_t pid, int32_t ppid, uint64_t start, const char *name, uint64_t fp)
{
    fake_proc *p = fake_darwin_add(pid, ppid, start, name);
    assert_non_null(p);
    p->footprint = fp;
    p->resident = fp + fp / 3;
    p->peak = fp * 2 + (uint64_t)pid;
    return p;
}

static void script_machine(void)
{
    fake_darwin_reset();
    add(0, 0, T0 - 1000 * SEC, "kernel_task", 0);
    add(1, 0, T0 - 999 * SEC, "launchd", 20 * MiB);
    add(50, 1, T0, "zsh", 5 * MiB);
    add(100, 50, T0 + 10 * SEC, "python3", 900 * MiB);
    add(101, 100, T0 + 11 * SEC, "worker", 300 * MiB + 4096);
    add(102, 100, T0 + 12 * SEC, "worker", 250 * MiB + 12288);
    add(103, 101, T0 + 13 * SEC, "helper", 70 * MiB);
    add(104, 102, T0 + 14 * SEC + 1, "helper", 33 * MiB);
    add(200, 1, T0 + 2 * SEC, "Safari", 1500 * MiB);
    add(201, 200, T0 + 3 * SEC, "WebContent", 800 * MiB);
    add(300, 100, T0 + 5 * SEC, "stale", 123 * MiB);
}

static st_proc_id id_of(int32_t pid)
{
    const fake_proc *p = fake_darwin_find(pid);
    st_proc_id id = {pid, p ? p->start_us : 0};
    return id;
}

static int setup(void **state)
{
    st_backend *b = NULL;
    st_error err;
    script_machine();
    assert_int_equal(P->open(&b, &err), ST_OK);
    *state = b;
    return 0;
}

static int teardown(void **state)
{
    P->close(*state);
    fake_darwin_free();
    return 0;
}

static int in_vec(const st_proc_vec *v, int32_t pid)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->v[i].id.pid == pid)
            return 1;
    return 0;
}

/* Every entry's parent comes before it (the root excepted). */
static void assert_parents_first(const st_proc_vec *v)
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
static int tree_sum(st_backend *b, st_proc_id root, sums *s, st_proc_vec *v)
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
static void expect_sums(const int32_t *pids, size_t n, sums *e)
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
    assert_true(got.footprint == (300 * MiB + 4096) + 70 * MiB);
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

    add(105, 104, T0 + 20 * SEC, "late", 41 * MiB);
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
    add(102, 200, T0 + 30 * SEC, "reused", 999 * MiB);
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
    add(100, 1, T0 + 40 * SEC, "other", 1 * MiB);
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

static void test_system(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_sys_mem s;
    st_error err;
    static const int levels[] = {1, 2, 4};

    k->swap_total = 6ull << 30;
    k->swap_used = (3ull << 30) + 12345;
    k->swap_avail = k->swap_total - k->swap_used;
    k->level = 37;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_true(s.mem_total == 48ull << 30); /* read at open */
    assert_true(s.swap_total == 6ull << 30);
    assert_true(s.swap_used == (3ull << 30) + 12345);
    assert_int_equal(s.level_c, 3700);
    assert_int_equal(s.pressure_c, 100);
    assert_int_equal(s.valid, ST_F_SWAP | ST_F_LEVEL | ST_F_PRESSURE | ST_SYS_MEMTOTAL |
                                  ST_SYS_SWAPTOTAL);
    for (size_t i = 0; i < 3; i++) {
        k->pressure = levels[i];
        assert_int_equal(P->read_system(b, &s, &err), ST_OK);
        assert_int_equal(s.pressure_c, levels[i] * 100);
    }
    k->level = 0;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_true(s.valid & ST_F_LEVEL);
    assert_int_equal(s.level_c, 0);
    k->level = 100;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_int_equal(s.level_c, 10000);

    /* Nonsense values and missing names are left invalid. */
    k->level = 250;
    k->pressure = 3;
    k->swap_ok = 0;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_int_equal(s.valid, ST_SYS_MEMTOTAL);
    k->level = -1;
    k->pressure_ok = 0;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_false(s.valid & (ST_F_LEVEL | ST_F_PRESSURE | ST_F_SWAP));
}

static void test_system_unreadable(void **state)
{
    st_backend *b = NULL;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_sys_mem s;
    st_error err;

    (void)state;
    k->swap_ok = k->level_ok = k->pressure_ok = k->memsize_ok = 0;
    assert_int_equal(P->open(&b, &err), ST_OK);
    assert_int_equal(P->read_system(b, &s, &err), ST_EIO);
    assert_int_equal(s.valid, 0);
    assert_non_null(strstr(err.msg, "vm.swapusage"));
    /* hw.memsize comes back later: picked up on the next read. */
    k->memsize_ok = 1;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_true(s.mem_total == 48ull << 30);
    P->close(b);
}

static void test_command(void **state)
{
    st_backend *b = *state;
    char buf[64];
    st_error err;
    static const char *const argv[] = {"python3", "generate.py", "--steps", "30"};
    fake_proc *p = fake_darwin_find(100);

    fake_darwin_set_argv(p, "/opt/homebrew/bin/python3.12", 4, argv);
    assert_int_equal(P->command(b, id_of(100), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "python3 generate.py --steps 30");
    /* Truncated to len - 1. */
    assert_int_equal(P->command(b, id_of(100), buf, 12, &err), ST_OK);
    assert_string_equal(buf, "python3 gen");
    assert_int_equal(P->command(b, id_of(100), buf, 0, &err), ST_EINVAL);

    /* Another user's process: KERN_PROCARGS2 refused, the path is used. */
    fake_darwin_find(102)->other_user = 1;
    assert_int_equal(P->command(b, id_of(102), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    /* ... and without a path, p_comm. */
    fake_darwin_find(102)->path[0] = '\0';
    assert_int_equal(P->command(b, id_of(102), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "worker");
    /* A zombie has no arguments either. */
    fake_darwin_find(104)->zombie = 1;
    fake_darwin_find(104)->path[0] = '\0';
    assert_int_equal(P->command(b, id_of(104), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "helper");
    assert_int_equal(P->command(b, (st_proc_id){4242, 1}, buf, sizeof buf, &err), ST_ESRCH);
    assert_string_equal(buf, "");
}

/* Malformed KERN_PROCARGS2 buffers: bounded parsing, then the fallback. */
static void test_command_malformed(void **state)
{
    st_backend *b = *state;
    char buf[64];
    st_error err;
    fake_proc *p = fake_darwin_find(101);
    static const char no_nul[] = "\x02\x00\x00\x00/bin/sh";                   /* path runs off */
    static const char huge_argc[] = "\x7f\xff\xff\x7f/bin/sh\0\0sh\0-c";      /* argc lies */
    static const char negative[] = "\xff\xff\xff\xff/bin/sh\0sh";
    static const char short_buf[] = "\x01\x00";
    static const char ctrl[] = "\x02\x00\x00\x00/x\0x\0\x1b[2Jboom";

    p->raw_args = no_nul;
    p->raw_len = sizeof no_nul - 1;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    p->raw_args = huge_argc;
    p->raw_len = sizeof huge_argc - 1; /* ends inside "-c", with no NUL */
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "sh -c");
    p->raw_args = negative;
    p->raw_len = sizeof negative;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    p->raw_args = short_buf;
    p->raw_len = 2;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    /* Control bytes are passed through raw; the caller makes them visible. */
    p->raw_args = ctrl;
    p->raw_len = sizeof ctrl;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "x \x1b[2Jboom");
}

static void test_list_all(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    st_error err;

    assert_int_equal(P->list_all(b, &v, &err), ST_OK);
    assert_int_equal(v.len, fake_darwin_count() - 1); /* no kernel_task */
    assert_false(in_vec(&v, 0));
    for (size_t i = 0; i < v.len; i++) {
        const fake_proc *p = fake_darwin_find(v.v[i].id.pid);
        assert_non_null(p);
        assert_true(v.v[i].id.start == p->start_us);
        assert_int_equal(v.v[i].ppid, p->ppid);
    }
    st_proc_vec_free(&v);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_table),
        T(test_identify),
        T(test_tree_sums),
        T(test_child_appears_and_exits),
        T(test_pid_reuse),
        T(test_reuse_during_read),
        T(test_signal),
        T(test_v4_refused_falls_back_to_v2),
        T(test_einval_not_flavor),
        T(test_eperm_one_child),
        T(test_enomem_retried),
        T(test_system),
        T(test_system_unreadable),
        T(test_command),
        T(test_command_malformed),
        T(test_list_all),
    };
    return cmocka_run_group_tests_name("darwin backend (shim)", tests, NULL, NULL);
}
