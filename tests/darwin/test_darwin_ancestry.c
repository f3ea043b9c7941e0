/* test_darwin_ancestry.c: jobctl's ancestor rule on macOS.  The REAL
 * core/platform/platform_darwin.c answers identify_parent from the scripted kernel
 * of fake_darwin.c (kinfo_proc's e_ppid), and core/run/ancestry.c walks it up
 * from stagetop's parent: every ancestor is found, not only getppid(), as
 * it was while jobctl read /proc itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "fake_darwin.h"
#include "stagetop/ancestry.h"
#include "stagetop/platform.h"

#define T0 1700000000000000ull
#define SEC 1000000ull

static const st_platform *const P = &st_platform_native;

/* launchd(1) <- login(150) <- zsh(300) <- tmux(400) <- stagetop(500) <- job(510);
 * an unrelated 600 under launchd. */
static void script(void)
{
    fake_darwin_reset();
    fake_darwin_add(1, 0, T0, "launchd");
    fake_darwin_add(150, 1, T0 + 1 * SEC, "login");
    fake_darwin_add(300, 150, T0 + 2 * SEC, "zsh");
    fake_darwin_add(400, 300, T0 + 3 * SEC, "tmux");
    fake_darwin_add(500, 400, T0 + 4 * SEC, "stagetop");
    fake_darwin_add(510, 500, T0 + 5 * SEC, "python3");
    fake_darwin_add(600, 1, T0 + 6 * SEC, "Finder");
}

/* The chain from self up, read from the script itself (not the backend). */
static int expected_chain(int32_t self, int32_t *out, int max)
{
    int n = 0;
    out[n++] = self;
    for (const fake_proc *p = fake_darwin_find(self); p && p->ppid > 0 && n < max;
         p = fake_darwin_find(p->ppid))
        out[n++] = p->ppid;
    return n;
}

static void assert_chain(const st_ancestry *a, int32_t self)
{
    int32_t want[ST_ANCESTRY_MAX];
    int n = expected_chain(self, want, ST_ANCESTRY_MAX);
    assert_int_equal(a->n, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(a->pid[i], want[i]);
}

static void identify_parent_reads_e_ppid(void **state)
{
    (void)state;
    script();
    st_backend *b = NULL;
    st_error e;
    st_proc_ref ref;
    st_proc_id id;
    assert_int_equal(P->open(&b, &e), ST_OK);
    assert_non_null(P->identify_parent);
    for (int32_t pid = 150; pid <= 600; pid += 10) {
        const fake_proc *p = fake_darwin_find(pid);
        if (!p) {
            assert_int_equal(P->identify_parent(b, pid, &ref, &e), ST_ESRCH);
            continue;
        }
        assert_int_equal(P->identify_parent(b, pid, &ref, &e), ST_OK);
        assert_int_equal(ref.id.pid, pid);
        assert_int_equal(ref.ppid, p->ppid);
        assert_int_equal(P->identify(b, pid, &id, &e), ST_OK);
        assert_true(id.pid == ref.id.pid && id.start == ref.id.start);
    }
    assert_int_equal(P->identify_parent(b, 1, &ref, &e), ST_OK);
    assert_int_equal(ref.ppid, 0); /* launchd has no parent */
    P->close(b);
    fake_darwin_free();
}

static void every_ancestor_is_refused(void **state)
{
    (void)state;
    script();
    st_backend *b = NULL;
    st_error e;
    st_ancestry a;
    assert_int_equal(P->open(&b, &e), ST_OK);
    st_ancestry_build(&a, P, b, 500, 400);
    assert_chain(&a, 500);
    assert_true(a.n >= 5); /* beyond getppid(): zsh, login, launchd */
    assert_string_equal(st_ancestry_why(&a, 500), "stagetop itself");
    assert_string_equal(st_ancestry_why(&a, 400), "an ancestor of stagetop");
    assert_string_equal(st_ancestry_why(&a, 300), "an ancestor of stagetop");
    assert_string_equal(st_ancestry_why(&a, 150), "an ancestor of stagetop");
    assert_string_equal(st_ancestry_why(&a, 1), "pid 1 (init)");
    assert_null(st_ancestry_why(&a, 510)); /* the job: may be signalled */
    assert_null(st_ancestry_why(&a, 600)); /* unrelated */
    P->close(b);
    /* without a backend: one is opened for the walk, same answer */
    st_ancestry_build(&a, P, NULL, 500, 400);
    assert_chain(&a, 500);
    assert_string_equal(st_ancestry_why(&a, 300), "an ancestor of stagetop");
    fake_darwin_free();
}

/* The walk reads the kernel now: zsh exits, tmux is reparented to launchd,
 * and login is no longer an ancestor. */
static void reparenting_is_followed(void **state)
{
    (void)state;
    script();
    st_ancestry a;
    assert_int_equal(fake_darwin_remove(300), 0);
    st_ancestry_build(&a, P, NULL, 500, 400);
    assert_chain(&a, 500);
    assert_int_equal(a.n, 3); /* stagetop, tmux, launchd */
    assert_null(st_ancestry_why(&a, 150));
    assert_null(st_ancestry_why(&a, 300));
    assert_string_equal(st_ancestry_why(&a, 400), "an ancestor of stagetop");
    fake_darwin_free();
}

/* Without identify_parent only getppid() is known (the rule as it was on
 * macOS): the controls that the walk above is what finds the others. */
static void without_identify_parent_the_chain_stops(void **state)
{
    (void)state;
    script();
    st_platform bare = *P;
    st_ancestry a;
    bare.identify_parent = NULL;
    st_ancestry_build(&a, &bare, NULL, 500, 400);
    assert_int_equal(a.n, 2);
    assert_null(st_ancestry_why(&a, 300));
    fake_darwin_free();
}

/* A parent that cannot be read ends the chain; a parent loop (pids reused
 * while walking) ends it too, within ST_ANCESTRY_MAX. */
static void unreadable_parent_and_loops_end_the_walk(void **state)
{
    (void)state;
    script();
    st_ancestry a;
    st_ancestry_build(&a, P, NULL, 900, 4242); /* 4242 is not in the table */
    assert_int_equal(a.n, 2);
    assert_string_equal(st_ancestry_why(&a, 4242), "an ancestor of stagetop");
    fake_darwin_add(700, 800, T0, "a");
    fake_darwin_add(800, 700, T0, "b");
    fake_darwin_add(900, 700, T0, "self");
    st_ancestry_build(&a, P, NULL, 900, 700);
    assert_true(a.n <= 3);
    assert_string_equal(st_ancestry_why(&a, 700), "an ancestor of stagetop");
    assert_string_equal(st_ancestry_why(&a, 800), "an ancestor of stagetop");
    fake_darwin_free();
}

/* The target check's names come from the backend (p_comm of kern.proc.pid),
 * and a pid is always a process on macOS: no thread_group. */
static void names_and_no_threads(void **state)
{
    (void)state;
    script();
    st_backend *b = NULL;
    char name[64];
    assert_int_equal(P->open(&b, NULL), ST_OK);
    assert_non_null(P->proc_name);
    assert_int_equal(P->proc_name(b, 400, name, sizeof name, NULL), ST_OK);
    assert_string_equal(name, "tmux");
    assert_int_equal(P->proc_name(b, 999, name, sizeof name, NULL), ST_ESRCH);
    assert_string_equal(name, "");
    assert_null(P->thread_group);
    /* the start time is the identity's p_starttime in seconds */
    st_proc_id id;
    double t = 0;
    assert_int_equal(P->identify(b, 400, &id, NULL), ST_OK);
    assert_non_null(P->start_time);
    assert_int_equal(P->start_time(b, id, &t, NULL), ST_OK);
    assert_true(t == (double)(T0 + 3 * SEC) / 1e6);
    assert_true(P->maxrss_in_bytes);
    assert_null(P->become_subreaper); /* orphans go to launchd: no subreaper */
    assert_int_equal(P->doctor_refs, ST_DOCTOR_REFS_MACOS);
    P->close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identify_parent_reads_e_ppid),
        cmocka_unit_test(every_ancestor_is_refused),
        cmocka_unit_test(reparenting_is_followed),
        cmocka_unit_test(without_identify_parent_the_chain_stops),
        cmocka_unit_test(unreadable_parent_and_loops_end_the_walk),
        cmocka_unit_test(names_and_no_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
