/* test_jobsig.c: the signal rules against real processes (core/run/jobsig.c):
 * which pids may be a job's root (-p), wide trees and read-only jobs,
 * "signalled 0 of N" as a failure, and resume/kill that still signal the
 * last-known members when the membership refresh fails.
 *
 * Process states come from /proc/PID/stat; pids from fork() here, never
 * from stagetop. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "stagetop/jobctl.h"
#include "../../core/run/monitor_internal.h" /* the tests look inside */
#include "stagetop/platform.h"
#include "stagetop/tree.h"
#include "testutil.h"

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}


/* A root with two children, all idle; pids[0] is the root.  The pipe says
 * when both children exist. */
typedef struct fam {
    int pids[3];
    const st_platform *plat;
    st_backend *b;
    st_tree tree;
    int has_tree;
} fam;

static void idle(void)
{
    for (;;)
        pause();
}

static void fam_start(fam *f)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t root = fork();
    assert_true(root >= 0);
    if (root == 0) {
        close(fds[0]);
        for (int i = 0; i < 2; i++) {
            pid_t c = fork();
            if (c == 0)
                idle();
            int32_t v = (int32_t)c;
            if (write(fds[1], &v, sizeof v) != (ssize_t)sizeof v)
                _exit(3);
        }
        idle();
    }
    close(fds[1]);
    f->pids[0] = (int)root;
    for (int i = 1; i < 3; i++) {
        int32_t v = 0;
        assert_int_equal(read(fds[0], &v, sizeof v), (ssize_t)sizeof v);
        f->pids[i] = v;
    }
    close(fds[0]);
    st_error e;
    f->plat = &st_platform_native;
    assert_int_equal(f->plat->open(&f->b, &e), ST_OK);
    assert_int_equal(st_tree_init(&f->tree, f->plat, f->b, (int32_t)root, 0.0, &e), ST_OK);
    f->has_tree = 1;
    st_sample s;
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_sample(&f->tree, 0.0, &s, &e), ST_OK);
    assert_int_equal(f->tree.n_members, 3);
}

static int fam_setup(void **state)
{
    *state = calloc(1, sizeof(fam));
    return *state ? 0 : -1;
}

static int fam_teardown(void **state)
{
    fam *f = *state;
    for (int i = 2; i >= 0; i--)
        if (f->pids[i] > 1) {
            kill(f->pids[i], SIGKILL);
            kill(f->pids[i], SIGCONT);
        }
    if (f->pids[0] > 1)
        waitpid(f->pids[0], NULL, 0);
    if (f->has_tree)
        st_tree_free(&f->tree);
    if (f->b)
        f->plat->close(f->b);
    free(f);
    return 0;
}

/* ---- a platform whose discovery fails on demand -------------------------- */

static int broken_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    (void)b;
    (void)root;
    (void)out;
    return st_error_set(err, ST_EIO, EIO, "injected: discovery failed");
}

static st_platform broken;

static const st_platform *broken_platform(void)
{
    broken = st_platform_native;
    broken.descendants = broken_descendants;
    return &broken;
}

/* ---- tests --------------------------------------------------------------- */

static void *thread_tid(void *arg)
{
    *(volatile int32_t *)arg = (int32_t)syscall(SYS_gettid);
    for (int i = 0; i < 500 && *(volatile int32_t *)arg != 0; i++)
        sleep_ms(10);
    return NULL;
}

/* -p refuses pid <= 0, stagetop itself and a thread id (naming its
 * process); pid 1, an ancestor and a plain child are accepted (the first
 * two watched only: st_job_attach). */
static void test_check_target(void **state)
{
    (void)state;
    st_error e;
    int32_t tgid = 0;
    assert_int_equal(st_job_check_target(1, NULL, &e), ST_OK);
    assert_int_equal(st_job_check_target(0, NULL, &e), ST_EINVAL);
    assert_int_equal(st_job_check_target((int32_t)getpid(), NULL, &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "stagetop itself"));
    assert_null(strstr(e.msg, "another user"));
    assert_int_equal(st_job_check_target((int32_t)getppid(), NULL, &e), ST_OK);
    /* a thread of this process: its tid is not a process */
    volatile int32_t tid = 0;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, thread_tid, (void *)&tid), 0);
    for (int i = 0; i < 500 && tid == 0; i++)
        sleep_ms(10);
    int32_t t = tid;
    assert_true(t > 0 && t != (int32_t)getpid());
    int rc = st_job_check_target(t, &tgid, &e);
    tid = 0;
    pthread_join(th, NULL);
    assert_int_equal(rc, ST_EINVAL);
    assert_int_equal(tgid, (int32_t)getpid());
    assert_non_null(strstr(e.msg, "thread"));
    pid_t c = fork();
    if (c == 0)
        idle();
    assert_int_equal(st_job_check_target((int32_t)c, &tgid, &e), ST_OK);
    assert_int_equal(tgid, (int32_t)c);
    kill(c, SIGKILL);
    waitpid(c, NULL, 0);
}

/* A tree that holds this process is wide; a small child tree is not. */
static void test_scope(void **state)
{
    fam *f = *state;
    st_job_scope sc;
    st_proc_id me;
    st_error e;
    fam_start(f);
    assert_int_equal(st_job_scope_of(f->plat, f->b, f->tree.root, &sc, &e), ST_OK);
    assert_int_equal(sc.tree_n, 3);
    assert_false(sc.has_self);
    assert_true(sc.all_n >= 4);
    assert_false(sc.wide); /* 3 processes: under ST_JOB_WIDE_MIN */
    assert_int_equal(f->plat->identify(f->b, (int32_t)getppid(), &me, &e), ST_OK);
    assert_int_equal(st_job_scope_of(f->plat, f->b, me, &sc, &e), ST_OK);
    assert_true(sc.has_self);
    assert_true(sc.wide);
    assert_true(sc.tree_n >= 5); /* parent, this process, the family */
}

/* A read-only job: pause, resume and kill signal nothing, and say so. */
static void test_read_only(void **state)
{
    fam *f = *state;
    st_job job;
    st_error e;
    fam_start(f);
    st_job_attach(&job, f->pids[0]);
    job.read_only = 1;
    assert_int_equal(st_job_pause(&job, &f->tree, &e), ST_EPERM);
    assert_int_equal(job.signalled, 0);
    assert_non_null(strstr(e.msg, "read-only"));
    assert_int_equal(job.state, ST_JOB_RUNNING);
    assert_int_equal(st_job_kill(&job, &f->tree, 0.0, &e), ST_EPERM);
    assert_int_equal(job.state, ST_JOB_RUNNING);
    sleep_ms(100);
    for (int i = 0; i < 3; i++)
        assert_true(ps_runs(proc_state(f->pids[i])));
}

/* Every member gone before the signal: "signalled 0 of N" is a failure
 * (ST_ESRCH), not a pause that happened. */
static void test_zero_signalled_fails(void **state)
{
    fam *f = *state;
    st_job job;
    st_error e;
    fam_start(f);
    st_job_attach(&job, f->pids[0]);
    for (int i = 2; i >= 0; i--)
        kill(f->pids[i], SIGKILL);
    waitpid(f->pids[0], NULL, 0);
    for (int i = 1; i < 3; i++) /* a zombie still takes a signal: wait for its reaper */
        assert_true(wait_proc_state(f->pids[i], ps_reaped));
    int rc = st_job_pause(&job, &f->tree, &e);
    assert_int_equal(job.signalled, 0);
    assert_int_equal(rc, ST_ESRCH);
    assert_non_null(strstr(e.msg, "0 of"));
    assert_int_equal(job.state, ST_JOB_RUNNING);
    assert_false(job.paused_by_us);
}

/* Resume when the refresh fails: the members known before are continued
 * anyway (and the failure is returned). */
static void test_resume_when_refresh_fails(void **state)
{
    fam *f = *state;
    st_job job;
    st_error e;
    fam_start(f);
    st_job_attach(&job, f->pids[0]);
    assert_int_equal(st_job_pause(&job, &f->tree, &e), ST_OK);
    for (int i = 0; i < 3; i++)
        assert_true(wait_proc_state(f->pids[i], ps_stopped));
    f->tree.plat = broken_platform();
    int rc = st_job_resume(&job, &f->tree, &e);
    f->tree.plat = f->plat;
    assert_int_equal(rc, ST_EIO);
    assert_non_null(strstr(e.msg, "injected"));
    assert_int_equal(job.signalled, 3);
    for (int i = 0; i < 3; i++)
        assert_true(wait_proc_state(f->pids[i], ps_runs));
    assert_false(job.paused_by_us);
}

/* Kill when the refresh fails: SIGTERM still goes to the known members. */
static void test_kill_when_refresh_fails(void **state)
{
    fam *f = *state;
    st_job job;
    st_error e;
    fam_start(f);
    st_job_attach(&job, f->pids[0]);
    f->tree.plat = broken_platform();
    int rc = st_job_kill(&job, &f->tree, 0.0, &e);
    f->tree.plat = f->plat;
    assert_int_equal(rc, ST_EIO);
    assert_int_equal(job.signalled, 3);
    assert_int_equal(job.state, ST_JOB_KILLING);
    waitpid(f->pids[0], NULL, 0);
    for (int i = 0; i < 3; i++)
        assert_true(wait_proc_state(f->pids[i], ps_gone));
}

/* Survivors: the root dies (reaped here), its children live on.  Through
 * the monitor (the path of the screen, headless and the guard): the job
 * stays RUNNING while they live, pause and resume reach them, and it exits
 * with the last of them. */
static void test_survivors_stay_the_job(void **state)
{
    fam *f = *state;
    st_monitor m;
    st_monitor_opts o;
    st_error e;
    fam_start(f);
    st_monitor_opts_default(&o);
    o.interval = 0.1;
    o.no_gpu = 1;
    assert_int_equal(st_monitor_open(&m, &st_platform_native, &o, f->pids[0], NULL, 0.0, &e), ST_OK);
    double t = 0.0;
    assert_int_equal(st_monitor_step(&m, t, &e), ST_OK);
    assert_int_equal(m.tree.n_members, 3);
    kill(f->pids[0], SIGKILL);
    waitpid(f->pids[0], NULL, 0);
    f->pids[0] = 0;
    /* until the tree has seen the root go (at most a few samples) */
    for (int i = 0; i < 50 && m.tree.root_alive; i++) {
        t += 0.1;
        assert_int_equal(st_monitor_step(&m, t, &e), ST_OK);
    }
    t += 0.1;
    assert_int_equal(st_monitor_step(&m, t, &e), ST_OK);
    assert_false(m.tree.root_alive);
    assert_int_equal(m.tree.n_members, 2);
    assert_int_equal(m.job.state, ST_JOB_RUNNING);
    assert_int_equal(st_monitor_pause(&m, t, &e), ST_OK);
    assert_int_equal(m.job.signalled, 2);
    for (int i = 1; i < 3; i++)
        assert_true(wait_proc_state(f->pids[i], ps_stopped));
    assert_int_equal(st_monitor_resume(&m, t, &e), ST_OK);
    for (int i = 1; i < 3; i++)
        assert_true(wait_proc_state(f->pids[i], ps_runs));
    for (int i = 1; i < 3; i++)
        kill(f->pids[i], SIGKILL);
    for (int i = 1; i < 3; i++)
        assert_true(wait_proc_state(f->pids[i], ps_reaped));
    for (int i = 0; i < 50 && m.job.state != ST_JOB_EXITED; i++) {
        t += 0.1;
        assert_int_equal(st_monitor_step(&m, t, &e), ST_OK);
    }
    assert_int_equal(m.job.state, ST_JOB_EXITED);
    assert_int_equal(st_monitor_close(&m, 0, &e), ST_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_target),
        cmocka_unit_test_setup_teardown(test_scope, fam_setup, fam_teardown),
        cmocka_unit_test_setup_teardown(test_read_only, fam_setup, fam_teardown),
        cmocka_unit_test_setup_teardown(test_zero_signalled_fails, fam_setup, fam_teardown),
        cmocka_unit_test_setup_teardown(test_resume_when_refresh_fails, fam_setup, fam_teardown),
        cmocka_unit_test_setup_teardown(test_kill_when_refresh_fails, fam_setup, fam_teardown),
        cmocka_unit_test_setup_teardown(test_survivors_stay_the_job, fam_setup, fam_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
