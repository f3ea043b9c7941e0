/* test_jobctl.c: job control against real processes.
 *
 * The test binary is its own workload: run as `test_jobctl --workload MODE
 * ...` it builds a process tree whose members report (role, pid) through a
 * pipe once ready, so the test knows every pid without asking stagetop.
 * Process states are read from /proc/PID/stat. */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "stagetop/jobctl.h"
#include "stagetop/platform.h"
#include "stagetop/tree.h"
#include "testutil.h"

/* ---- the workload (runs in the spawned processes) ----------------------- */

enum role { ROLE_ROOT = 1, ROLE_A, ROLE_A1, ROLE_B, ROLE_LATE, ROLE_SIBLING };

typedef struct report { int32_t role, pid; } report;

static volatile sig_atomic_t wl_usr1;
static void wl_on_usr1(int sig) { (void)sig; wl_usr1 = 1; }

static void wl_report(int fd, int role)
{
    report r = { role, (int32_t)getpid() };
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(90);
}

static void wl_idle(void)
{
    for (;;)
        pause();
}

/* root -> A -> A1, root -> B; SIGUSR1 to the root forks a late child.
 * ignore_term: A1 ignores SIGTERM. */
static void wl_tree(int fd, int ignore_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wl_on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    if (fork() == 0) {
        if (fork() == 0) {
            if (ignore_term)
                signal(SIGTERM, SIG_IGN);
            wl_report(fd, ROLE_A1);
            wl_idle();
        }
        wl_report(fd, ROLE_A);
        wl_idle();
    }
    if (fork() == 0) {
        wl_report(fd, ROLE_B);
        wl_idle();
    }
    /* SIGUSR1 stays blocked but in sigsuspend(): one sent right after the
     * report, before a pause(), would be handled and then waited for in vain. */
    sigset_t usr1, wait_mask;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, &wait_mask);
    sigdelset(&wait_mask, SIGUSR1);
    wl_report(fd, ROLE_ROOT);
    for (;;) {
        while (!wl_usr1)
            sigsuspend(&wait_mask);
        wl_usr1 = 0;
        if (fork() == 0) {
            sigprocmask(SIG_SETMASK, &wait_mask, NULL);
            wl_report(fd, ROLE_LATE);
            wl_idle();
        }
    }
}

/* Exit 0 when dispositions are default and the mask is empty. */
static int wl_sigcheck(void)
{
    struct sigaction sa;
    sigset_t mask;
    if (sigaction(SIGINT, NULL, &sa) != 0 || sa.sa_handler != SIG_DFL)
        return 1;
    if (sigaction(SIGTERM, NULL, &sa) != 0 || sa.sa_handler != SIG_DFL)
        return 2;
    if (sigprocmask(SIG_SETMASK, NULL, &mask) != 0 || sigismember(&mask, SIGUSR1))
        return 3;
    if (getpgid(0) != getpid())
        return 4;
    return 0;
}

static int workload_main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[2], "tree") == 0)
        wl_tree(atoi(argv[3]), atoi(argv[4]));
    if (argc >= 3 && strcmp(argv[2], "sigcheck") == 0)
        return wl_sigcheck();
    return 99;
}

/* ---- helpers ------------------------------------------------------------ */

static int gone(int pid) { return ps_gone(proc_state(pid)); }
static int not_stopped(int pid) { return ps_runs(proc_state(pid)); }

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Read one report with a 30 s limit. */
static int read_report(int fd, report *r)
{
    struct pollfd p = { fd, POLLIN, 0 };
    if (poll(&p, 1, 30000) != 1)
        return 0;
    return read(fd, r, sizeof *r) == (ssize_t)sizeof *r;
}

typedef struct fixture {
    const st_platform *plat;
    st_backend *b;
    st_tree tree;
    int has_tree;
    st_job job;
    int rfd;          /* read end of the ready pipe */
    int pid[8];       /* by role */
    int sibling;      /* an unrelated process, not in the tree */
} fixture;

static int fixture_sibling(void)
{
    pid_t p = fork();
    if (p == 0)
        wl_idle();
    return (int)p;
}

/* Spawn the tree workload through st_job_spawn and watch it. */
static void fixture_start(fixture *fx, int ignore_term, double discover_s)
{
    int fds[2];
    st_error err;
    assert_int_equal(pipe(fds), 0);
    char fdbuf[16], ign[4];
    snprintf(fdbuf, sizeof fdbuf, "%d", fds[1]);
    snprintf(ign, sizeof ign, "%d", ignore_term);
    char *argv[] = { "/proc/self/exe", "--workload", "tree", fdbuf, ign, NULL };
    fx->sibling = fixture_sibling();
    assert_true(fx->sibling > 0);
    assert_int_equal(st_job_spawn(&fx->job, argv, &err), ST_OK);
    close(fds[1]);
    fx->rfd = fds[0];
    assert_true(fx->job.launched);
    assert_int_equal(fx->job.state, ST_JOB_RUNNING);
    for (int i = 0; i < 4; i++) {
        report r;
        assert_true(read_report(fx->rfd, &r));
        assert_true(r.role >= ROLE_ROOT && r.role <= ROLE_B);
        fx->pid[r.role] = r.pid;
    }
    assert_int_equal(fx->pid[ROLE_ROOT], fx->job.pid);
    assert_int_equal(getpgid(fx->job.pid), fx->job.pid); /* its own group */
    fx->plat = &st_platform_native;
    assert_int_equal(fx->plat->open(&fx->b, &err), ST_OK);
    assert_int_equal(st_tree_init(&fx->tree, fx->plat, fx->b, fx->job.pid, discover_s, &err), ST_OK);
    fx->has_tree = 1;
    st_sample s;
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_sample(&fx->tree, 0.0, &s, &err), ST_OK);
}

static void fixture_stop(fixture *fx)
{
    if (fx->job.pid > 1 && fx->job.state != ST_JOB_EXITED) {
        kill(-fx->job.pid, SIGKILL);
        kill(-fx->job.pid, SIGCONT);
        waitpid(fx->job.pid, NULL, 0);
    }
    for (int r = ROLE_ROOT; r <= ROLE_LATE; r++)
        if (fx->pid[r] > 1 && !gone(fx->pid[r]))
            kill(fx->pid[r], SIGKILL);
    if (fx->sibling > 0) {
        kill(fx->sibling, SIGKILL);
        waitpid(fx->sibling, NULL, 0);
    }
    if (fx->has_tree)
        st_tree_free(&fx->tree);
    if (fx->b)
        fx->plat->close(fx->b);
    if (fx->rfd > 0)
        close(fx->rfd);
}

/* cmocka setup/teardown: the teardown cleans up also after a failure. */
static int fixture_setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    *state = fx;
    return fx ? 0 : -1;
}

static int fixture_teardown(void **state)
{
    fixture_stop(*state);
    free(*state);
    return 0;
}

/* ---- tests -------------------------------------------------------------- */

/* The target rule through st_job_check_target, the product's one entry
 * to it (-p): 1 when pid may be watched.  pid 1 and stagetop's ancestors
 * may, read-only: st_job_attach marks them watched only (never signalled). */
static int may_watch(int32_t pid)
{
    st_error e;
    return st_job_check_target(pid, NULL, &e) == ST_OK;
}

static void test_may_signal(void **state)
{
    (void)state;
    st_job job;
    assert_false(may_watch(0));
    assert_true(may_watch(1));
    st_job_attach(&job, 1);
    assert_non_null(strstr(job.watch_only, "pid 1 (init)"));
    assert_false(may_watch(-1));
    assert_false(may_watch(-(int32_t)getpid()));
    assert_false(may_watch((int32_t)getpid()));
    assert_true(may_watch((int32_t)getppid()));
    /* every ancestor up the chain, read independently: watched only */
    int p = (int)getppid();
    while (p > 1) {
        assert_true(may_watch(p));
        st_job_attach(&job, p);
        assert_non_null(strstr(job.watch_only, "an ancestor of stagetop"));
        char path[64], buf[1024];
        snprintf(path, sizeof path, "/proc/%d/stat", p);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        assert_int_equal(sscanf(strrchr(buf, ')') + 1, " %*c %d", &p), 1);
    }
    int child = fixture_sibling();
    assert_true(may_watch(child));
    st_job_attach(&job, child);
    assert_string_equal(job.watch_only, ""); /* a plain process: p, k and the guard act */
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
}

/* Pause stops the whole tree, including a child forked after the tree's
 * last discovery; resume continues it; the sibling is untouched. */
static void test_pause_resume(void **state)
{
    fixture *fx = *state;
    st_error err;
    fixture_start(fx, 0, 1000.0); /* no rediscovery unless forced */
    kill(fx->job.pid, SIGUSR1);     /* the root forks a child the tree has not seen */
    report r;
    assert_true(read_report(fx->rfd, &r));
    assert_int_equal(r.role, ROLE_LATE);
    fx->pid[ROLE_LATE] = r.pid;

    assert_int_equal(st_job_pause(&fx->job, &fx->tree, &err), ST_OK);
    assert_int_equal(fx->job.state, ST_JOB_PAUSED);
    assert_true(fx->job.paused_by_us);
    assert_int_equal(fx->job.signalled, 5);
    assert_int_equal(fx->job.refused, 0);
    for (int role = ROLE_ROOT; role <= ROLE_LATE; role++)
        assert_true(wait_proc_state(fx->pid[role], ps_stopped));
    assert_true(not_stopped(fx->sibling));

    assert_int_equal(st_job_resume(&fx->job, &fx->tree, &err), ST_OK);
    assert_int_equal(fx->job.state, ST_JOB_RUNNING);
    assert_false(fx->job.paused_by_us);
    for (int role = ROLE_ROOT; role <= ROLE_LATE; role++)
        assert_true(wait_proc_state(fx->pid[role], ps_runs));
}

/* Kill: SIGTERM ends most of the tree; the member that ignores it lives
 * through the grace period and gets SIGKILL after it; the job ends with the
 * root's code (143 = SIGTERM); the sibling is untouched.  The job is paused
 * first, so SIGCONT must go with SIGTERM. */
static void test_kill_grace(void **state)
{
    fixture *fx = *state;
    st_error err;
    fixture_start(fx, 1, 0.5);
    fx->job.grace_s = 5.0;
    assert_int_equal(st_job_pause(&fx->job, &fx->tree, &err), ST_OK);
    assert_true(wait_proc_state(fx->pid[ROLE_A1], ps_stopped));

    assert_int_equal(st_job_kill(&fx->job, &fx->tree, 100.0, &err), ST_OK);
    assert_int_equal(fx->job.state, ST_JOB_KILLING);
    assert_true(fx->job.kill_deadline == 105.0);
    assert_int_equal(fx->job.signalled, 4);
    assert_false(fx->job.paused_by_us);
    /* before the deadline: the others go, A1 stays, the job is not over */
    int ended = 0;
    for (int i = 0; i < 200 && !ended; i++) {
        ended = st_job_poll(&fx->job, &fx->tree, 101.0, &err);
        assert_true(ended >= 0);
        if (gone(fx->pid[ROLE_ROOT]) && gone(fx->pid[ROLE_A]) && gone(fx->pid[ROLE_B]) &&
            fx->job.exit_code >= 0)
            break;
        sleep_ms(10);
    }
    assert_int_equal(ended, 0);
    assert_true(gone(fx->pid[ROLE_A]) && gone(fx->pid[ROLE_B]));
    assert_int_equal(fx->job.exit_code, 128 + SIGTERM);
    assert_int_equal(fx->job.state, ST_JOB_KILLING);
    assert_true(wait_proc_state(fx->pid[ROLE_A1], ps_runs)); /* SIGCONT reached it */
    assert_int_equal(st_job_poll(&fx->job, &fx->tree, 104.9, &err), 0);
    assert_false(gone(fx->pid[ROLE_A1]));
    assert_true(not_stopped(fx->pid[ROLE_A1]));
    /* after the deadline: SIGKILL, and the job is over */
    assert_int_equal(st_job_poll(&fx->job, &fx->tree, 105.0, &err), 1);
    assert_int_equal(fx->job.state, ST_JOB_EXITED);
    assert_true(wait_proc_state(fx->pid[ROLE_A1], ps_gone));
    assert_int_equal(fx->job.exit_code, 128 + SIGTERM);
    assert_true(not_stopped(fx->sibling));
    assert_int_equal(st_job_poll(&fx->job, &fx->tree, 106.0, &err), 0); /* once */
}

/* A tree that obeys SIGTERM ends before the deadline: poll reports the exit
 * as soon as the whole group is gone. */
static void test_kill_prompt(void **state)
{
    fixture *fx = *state;
    st_error err;
    fixture_start(fx, 0, 0.5);
    assert_int_equal(st_job_kill(&fx->job, &fx->tree, 10.0, &err), ST_OK);
    int ended = 0;
    for (int i = 0; i < 500 && !ended; i++) {
        ended = st_job_poll(&fx->job, &fx->tree, 10.5, &err);
        if (!ended)
            sleep_ms(10);
    }
    assert_int_equal(ended, 1);
    assert_int_equal(fx->job.exit_code, 143);
    /* the group is empty when the job counts as ended: no zombie is left in
     * it either (orphans were adopted and reaped, not left to init) */
    for (int role = ROLE_ROOT; role <= ROLE_B; role++)
        assert_int_equal(proc_state(fx->pid[role]), 0);
    assert_int_equal(kill(-fx->job.pid, 0), -1);
    assert_true(not_stopped(fx->sibling));
}

/* stagetop inside the tree it watches (`stagetop -p $PPID`): its parent
 * is its ancestor, so the job is watched only: pause and kill refuse and
 * signal no one, not even the sibling subtree D (issue 32: watching never
 * signals). */
static void test_never_self_or_ancestor(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t root = fork();
    if (root == 0) { /* root: a sibling subtree D, and the watcher W */
        close(fds[0]);
        pid_t d = fork();
        if (d == 0)
            wl_idle();
        pid_t w = fork();
        if (w == 0) {
            st_backend *b = NULL;
            st_tree t;
            st_job job;
            st_error e;
            st_sample s;
            int code = 10;
            memset(&s, 0, sizeof s);
            if (st_platform_native.open(&b, &e) == ST_OK &&
                st_tree_init(&t, &st_platform_native, b, (int32_t)getppid(), 0.5, &e) == ST_OK &&
                st_tree_sample(&t, 0.0, &s, &e) == ST_OK) {
                st_job_attach(&job, (int32_t)getppid());
                job.read_only = 0; /* as --allow-wide: watch-only still holds */
                int rc = st_job_pause(&job, &t, &e);
                /* refused as a whole: no one signalled, D not stopped */
                code = (rc == ST_EPERM && job.refused == 0 && job.signalled == 0 &&
                        strstr(e.msg, "not pausing: watched read-only") != NULL &&
                        strstr(e.msg, "an ancestor of stagetop") != NULL &&
                        strstr(job.refusal, "ancestor") && !strstr(job.refusal, "another user"))
                           ? 0 : 11;
                if (code == 0) {
                    rc = st_job_kill(&job, &t, 0.0, &e);
                    code = rc == ST_EPERM && job.signalled == 0 && job.state != ST_JOB_KILLING &&
                           strstr(e.msg, "not killing: watched read-only") ? 0 : 12;
                }
                st_tree_free(&t);
            }
            int32_t msg[2] = { (int32_t)d, code };
            if (write(fds[1], msg, sizeof msg) != (ssize_t)sizeof msg)
                _exit(3);
            _exit(0);
        }
        wl_idle();
    }
    close(fds[1]);
    int32_t msg[2] = { 0, -1 };
    struct pollfd p = { fds[0], POLLIN, 0 };
    assert_int_equal(poll(&p, 1, 30000), 1);
    assert_int_equal(read(fds[0], msg, sizeof msg), (ssize_t)sizeof msg);
    close(fds[0]);
    int d = msg[0];
    char root_state = proc_state((int)root);
    char d_state = proc_state(d); /* nothing was sent (signalled == 0): read once */
    kill(d, SIGKILL);
    kill(root, SIGKILL);
    waitpid(root, NULL, 0);
    assert_int_equal(msg[1], 0);
    assert_true(root_state != 'T' && root_state != 0);
    assert_true(d_state != 'T' && d_state != 0);
}

/* Another user's process: a clear EPERM, counted, not a crash. */
static void test_other_user_eperm(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("SKIP: other user's process: needs root (to create one)\n");
        skip();
    }
    pid_t target = fork();
    if (target == 0)
        wl_idle();
    pid_t tester = fork();
    if (tester == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(20);
        st_backend *b = NULL;
        st_tree t;
        st_job job;
        st_error e;
        st_sample s;
        memset(&s, 0, sizeof s);
        if (st_platform_native.open(&b, &e) != ST_OK ||
            st_tree_init(&t, &st_platform_native, b, (int32_t)target, 0.5, &e) != ST_OK)
            _exit(21);
        st_tree_sample(&t, 0.0, &s, &e);
        st_job_attach(&job, (int32_t)target);
        int rc = st_job_pause(&job, &t, &e);
        int ok = rc == ST_EPERM && job.refused == 1 && job.signalled == 0 &&
                 strstr(e.msg, "could not pause 1 of 1") && strstr(e.msg, "not permitted");
        rc = st_job_kill(&job, &t, 0.0, &e);
        ok = ok && rc == ST_EPERM && job.refused == 1;
        _exit(ok ? 0 : 22);
    }
    int status = 0;
    waitpid(tester, &status, 0);
    char st = proc_state((int)target);
    kill(target, SIGKILL);
    waitpid(target, NULL, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(st != 'T' && st != 0);
}

static int wait_exit(st_job *job)
{
    st_tree dummy;
    st_error err;
    memset(&dummy, 0, sizeof dummy);
    for (int i = 0; i < 500; i++) {
        int r = st_job_poll(job, &dummy, 0.0, &err);
        if (r != 0)
            return r;
        sleep_ms(10);
    }
    return 0;
}

static void test_exit_codes(void **state)
{
    (void)state;
    st_job job;
    st_error err;
    char *exit7[] = { "sh", "-c", "exit 7", NULL };
    assert_int_equal(st_job_spawn(&job, exit7, &err), ST_OK);
    assert_int_equal(wait_exit(&job), 1);
    assert_int_equal(job.state, ST_JOB_EXITED);
    assert_int_equal(job.exit_code, 7);
    char *killed[] = { "sh", "-c", "kill -9 $$", NULL };
    assert_int_equal(st_job_spawn(&job, killed, &err), ST_OK);
    assert_int_equal(wait_exit(&job), 1);
    assert_int_equal(job.exit_code, 137);
    char *zero[] = { "true", NULL };
    assert_int_equal(st_job_spawn(&job, zero, &err), ST_OK);
    assert_int_equal(wait_exit(&job), 1);
    assert_int_equal(job.exit_code, 0);
}

/* The child gets default dispositions and an empty mask whatever stagetop
 * had, and its own process group. */
static void test_spawn_clean_signals(void **state)
{
    (void)state;
    st_job job;
    st_error err;
    sigset_t block, old;
    void (*old_int)(int) = signal(SIGINT, SIG_IGN);
    void (*old_term)(int) = signal(SIGTERM, SIG_IGN);
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, &old);
    char *argv[] = { "/proc/self/exe", "--workload", "sigcheck", NULL };
    int rc = st_job_spawn(&job, argv, &err);
    sigprocmask(SIG_SETMASK, &old, NULL);
    signal(SIGINT, old_int);
    signal(SIGTERM, old_term);
    assert_int_equal(rc, ST_OK);
    assert_int_equal(wait_exit(&job), 1);
    assert_int_equal(job.exit_code, 0);
}

static void test_spawn_errors(void **state)
{
    (void)state;
    st_job job;
    st_error err;
    char *missing[] = { "stagetop-no-such-command-x", "arg", NULL };
    assert_int_equal(st_job_spawn(&job, missing, &err), ST_ESRCH);
    assert_string_equal(err.msg,
                        "cannot run 'stagetop-no-such-command-x': No such file or directory");
    assert_int_equal(err.sys_errno, ENOENT);
    char path[] = "/tmp/stagetop-notexec-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
    close(fd);
    assert_int_equal(chmod(path, 0644), 0);
    char *notexec[] = { path, NULL };
    int rc = st_job_spawn(&job, notexec, &err);
    char expect[128];
    snprintf(expect, sizeof expect, "cannot run '%s': Permission denied", path);
    unlink(path);
    assert_int_equal(rc, ST_EPERM);
    assert_string_equal(err.msg, expect);
    char *empty[] = { NULL };
    assert_int_equal(st_job_spawn(&job, empty, &err), ST_EINVAL);
    /* the failed children were reaped: no child of ours is left */
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--workload") == 0)
        return workload_main(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_may_signal),
        cmocka_unit_test(test_spawn_errors),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_spawn_clean_signals),
        cmocka_unit_test_setup_teardown(test_pause_resume, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kill_grace, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kill_prompt, fixture_setup, fixture_teardown),
        cmocka_unit_test(test_never_self_or_ancestor),
        cmocka_unit_test(test_other_user_eperm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
