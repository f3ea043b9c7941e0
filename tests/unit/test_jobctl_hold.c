/* test_jobctl_hold.c: a job held before its exec (st_spawn_opts.hold) on
 * real processes: nothing of the command runs until st_job_release; after
 * st_job_abandon, or when the spawner dies with the gate shut, it never
 * does; a command that cannot run is refused before the hold, as without
 * it, and an exec that fails only once released (a #! naming no
 * interpreter) is said by st_job_release. */
#include <errno.h>
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

typedef struct fx {
    char dir[64];
    char marker[128];
    char script[160]; /* sh -c: touch the marker, exit 3 */
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/stagetop-hold-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->marker, sizeof f->marker, "%s/ran", f->dir);
    snprintf(f->script, sizeof f->script, "touch '%s'; exit 3", f->marker);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    char path[200];
    const char *names[] = {"ran", "bad.sh", "plain", NULL};
    for (int i = 0; names[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dir, names[i]);
        unlink(path);
    }
    rmdir(f->dir);
    free(f);
    return 0;
}

static void held_opts(st_spawn_opts *o)
{
    st_spawn_opts_init(o);
    o->hold = 1;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void assert_no_child(void)
{
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static int wait_exit(st_job *job)
{
    st_tree dummy;
    st_error err;
    memset(&dummy, 0, sizeof dummy);
    for (int i = 0; i < 3000; i++) { /* 30 s */
        int r = st_job_poll(job, &dummy, 0.0, &err);
        if (r != 0)
            return r;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* Held, in its own group, alive; abandoned: reaped, the marker never made. */
static void test_abandoned_never_runs(void **state)
{
    fx *f = *state;
    st_job job;
    st_error err;
    st_spawn_opts o;
    held_opts(&o);
    char *argv[] = {"sh", "-c", f->script, NULL};
    assert_int_equal(st_job_spawn_with(&job, argv, &o, &err), ST_OK);
    assert_true(job.gate_fd >= 0 && job.exec_fd >= 0);
    assert_int_equal(getpgid((pid_t)job.pid), (pid_t)job.pid);
    assert_int_equal(waitpid((pid_t)job.pid, NULL, WNOHANG), 0); /* alive: waiting */
    st_job_abandon(&job);
    assert_int_equal(job.state, ST_JOB_EXITED);
    assert_int_equal(job.gate_fd, -1);
    assert_no_child();
    assert_false(exists(f->marker));
}

/* Released: it runs, and its exit code is the command's. */
static void test_released_runs(void **state)
{
    fx *f = *state;
    st_job job;
    st_error err;
    st_spawn_opts o;
    held_opts(&o);
    char *argv[] = {"sh", "-c", f->script, NULL};
    assert_int_equal(st_job_spawn_with(&job, argv, &o, &err), ST_OK);
    assert_false(exists(f->marker));
    assert_int_equal(st_job_release(&job, "sh", &err), ST_OK);
    assert_int_equal(job.gate_fd, -1);
    assert_int_equal(job.exec_fd, -1);
    assert_int_equal(st_job_release(&job, "sh", &err), ST_OK); /* once only: nothing more */
    assert_int_equal(wait_exit(&job), 1);
    assert_int_equal(job.exit_code, 3);
    assert_true(exists(f->marker));
    assert_no_child();
}

/* The spawner dies with the gate shut (stagetop killed while its start is
 * written): the held child sees the gate close and exits, unrun (127). */
static void test_spawner_death_shuts_the_gate(void **state)
{
    fx *f = *state;
    if (!st_platform_native.become_subreaper || st_platform_native.become_subreaper() != 1) {
        skip(); /* no subreaper here: the orphan would not be ours to wait for */
        return;
    }
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t spawner = fork();
    assert_true(spawner >= 0);
    if (spawner == 0) {
        st_job job;
        st_error err;
        st_spawn_opts o;
        held_opts(&o);
        char *argv[] = {"sh", "-c", f->script, NULL};
        int32_t pid = st_job_spawn_with(&job, argv, &o, &err) == ST_OK ? job.pid : -1;
        ssize_t w = write(p[1], &pid, sizeof pid);
        _exit(w == (ssize_t)sizeof pid ? 0 : 1); /* the gate's write end closes */
    }
    close(p[1]);
    int32_t held = -1;
    assert_int_equal(read(p[0], &held, sizeof held), (ssize_t)sizeof held);
    close(p[0]);
    assert_true(held > 0);
    int status = 0;
    assert_int_equal(waitpid(spawner, &status, 0), spawner);
    assert_int_equal(waitpid((pid_t)held, &status, 0), (pid_t)held); /* the orphan, ours */
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 127);
    assert_false(exists(f->marker));
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    assert_int_equal(chmod(path, mode), 0);
}

/* What execvp would surely refuse is refused before the hold, worded as
 * without it; a #! naming no interpreter fails only once released. */
static void test_exec_errors(void **state)
{
    fx *f = *state;
    st_job job;
    st_error err;
    st_spawn_opts o;
    char expect[256], plain[200], bad[200];
    held_opts(&o);
    char *missing[] = {"stagetop-no-such-command-x", NULL};
    assert_int_equal(st_job_spawn_with(&job, missing, &o, &err), ST_ESRCH);
    assert_string_equal(err.msg, "cannot run 'stagetop-no-such-command-x': No such file or directory");
    snprintf(plain, sizeof plain, "%s/plain", f->dir);
    write_file(plain, "#!/bin/sh\nexit 0\n", 0644);
    char *notexec[] = {plain, NULL};
    assert_int_equal(st_job_spawn_with(&job, notexec, &o, &err), ST_EPERM);
    snprintf(expect, sizeof expect, "cannot run '%s': Permission denied", plain);
    assert_string_equal(err.msg, expect);
    char *dir[] = {f->dir, NULL};
    assert_int_equal(st_job_spawn_with(&job, dir, &o, &err), ST_EPERM);
    /* the job's PATH is searched: found there but not executable, or not there */
    char path_env[200];
    snprintf(path_env, sizeof path_env, "PATH=/nonexistent-stagetop::%s", f->dir);
    char *env[] = {path_env, NULL};
    o.envp = env;
    char *byname[] = {"plain", NULL};
    assert_int_equal(st_job_spawn_with(&job, byname, &o, &err), ST_EPERM);
    assert_string_equal(err.msg, "cannot run 'plain': Permission denied");
    char *nopath[] = {"PATH=/nonexistent-stagetop", NULL};
    o.envp = nopath;
    char *sh[] = {"sh", "-c", "exit 0", NULL};
    assert_int_equal(st_job_spawn_with(&job, sh, &o, &err), ST_ESRCH);
    o.envp = NULL;
    assert_false(exists(f->marker));
    assert_no_child();
    snprintf(bad, sizeof bad, "%s/bad.sh", f->dir);
    write_file(bad, "#!/nonexistent-stagetop/interpreter\n", 0755);
    char *badv[] = {bad, NULL};
    assert_int_equal(st_job_spawn_with(&job, badv, &o, &err), ST_OK);
    assert_int_equal(st_job_release(&job, bad, &err), ST_ESRCH);
    snprintf(expect, sizeof expect, "cannot run '%s': No such file or directory", bad);
    assert_string_equal(err.msg, expect);
    assert_int_equal(wait_exit(&job), 1);
    assert_int_equal(job.exit_code, 127);
    assert_no_child();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_abandoned_never_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_released_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spawner_death_shuts_the_gate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exec_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
