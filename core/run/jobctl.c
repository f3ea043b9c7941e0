/* jobctl.c: starting the watched job, and following it to its end (reaping
 * a launched job, survivors after the root, a kill's grace period).  The
 * signal rules (pause, resume, kill, who may be signalled) are in
 * core/run/jobsig.c.
 *
 * Where the platform has one (st_platform's become_subreaper: Linux),
 * st_job_spawn makes stagetop a child subreaper, so the job's orphans are
 * our children: st_job_poll reaps them (waitpid on the group),
 * and a killed job's group empties as soon as its processes exit, not when
 * init gets round to them. */
#include "stagetop/jobctl.h"
#include "job_internal.h"
#include "stagetop/limits.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- public ------------------------------------------------------------- */

static void job_reset(st_job *job, int32_t pid, int launched)
{
    memset(job, 0, sizeof *job);
    job->pid = pid;
    job->launched = launched;
    job->state = ST_JOB_RUNNING;
    job->grace_s = ST_GRACE_DEFAULT_S;
    job->kill_deadline = 0.0;
    job->exit_code = -1;
    job->tty_fd = -1;
}

void st_job_attach(st_job *job, int32_t pid)
{
    job_reset(job, pid, 0);
    st_job__watch_only(job);
}

extern char **environ;

void st_spawn_opts_init(st_spawn_opts *o)
{
    memset(o, 0, sizeof *o);
    o->fd_in = o->fd_out = o->fd_err = o->tty_fd = -1;
}

/* In the child: src becomes dst (no close-on-exec). */
static int child_move(int src, int dst)
{
    if (src < 0)
        return 0;
    if (src == dst)
        return fcntl(dst, F_SETFD, 0);
    return dup2(src, dst) < 0 ? -1 : 0;
}

/* In the child: own group (and the terminal's foreground when asked), the
 * standard files and environment given, default dispositions, empty mask,
 * exec.  Only async-signal-safe calls; on failure the errno goes up the
 * pipe. */
static void child_exec(char *const argv[], const st_spawn_opts *o, int wfd, const st_job_peak *pk)
{
    struct sigaction sa;
    sigset_t none, all;
    int e = 0;
    sigfillset(&all);
    (void)sigprocmask(SIG_SETMASK, &all, NULL); /* tcsetpgrp from the background: no SIGTTOU */
    (void)setpgid(0, 0);
    if (o->tty_fd >= 0)
        (void)tcsetpgrp(o->tty_fd, getpid());
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
#ifdef NSIG
    for (int sig = 1; sig < NSIG; sig++)
#else
    for (int sig = 1; sig < 65; sig++)
#endif
        if (sig != SIGKILL && sig != SIGSTOP)
            (void)sigaction(sig, &sa, NULL); /* EINVAL for reserved ones: fine */
    if (child_move(o->fd_in, STDIN_FILENO) != 0 || child_move(o->fd_out, STDOUT_FILENO) != 0 ||
        child_move(o->fd_err, STDERR_FILENO) != 0)
        e = errno;
    st_peak_child_enter(pk); /* its own cgroup, where it has one */
    if (!e) {
        if (o->envp)
            environ = (char **)o->envp;
        sigemptyset(&none);
        (void)sigprocmask(SIG_SETMASK, &none, NULL);
        execvp(argv[0], argv);
        e = errno;
    }
    ssize_t w;
    do {
        w = write(wfd, &e, sizeof e);
    } while (w < 0 && errno == EINTR);
    _exit(127);
}

/* tcsetpgrp without being stopped by SIGTTOU (stagetop may be in the
 * background of that terminal by then). */
static void give_terminal(int fd, pid_t pgrp)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTTOU);
    (void)sigprocmask(SIG_BLOCK, &block, &old);
    (void)tcsetpgrp(fd, pgrp);
    (void)sigprocmask(SIG_SETMASK, &old, NULL);
}

/* While the job is stopped the terminal is stagetop's, as a shell takes
 * it back from a stopped job: ^C and ^\ reach stagetop, not a queue in
 * the stopped job (which a later SIGCONT would deliver); on resume the job
 * gets it back. */
void st_job_take_terminal(st_job *job)
{
    if (job->tty_fd >= 0 && tcgetpgrp(job->tty_fd) == (pid_t)job->pid)
        give_terminal(job->tty_fd, getpgrp());
}

void st_job_give_terminal(st_job *job)
{
    if (job->tty_fd >= 0 && job->state != ST_JOB_EXITED && tcgetpgrp(job->tty_fd) == getpgrp())
        give_terminal(job->tty_fd, (pid_t)job->pid);
}

void st_job_release_terminal(st_job *job)
{
    if (job->tty_fd < 0)
        return;
    if (tcgetpgrp(job->tty_fd) == (pid_t)job->pid)
        give_terminal(job->tty_fd, getpgrp());
    job->tty_fd = -1;
}

int st_job_spawn(st_job *job, char *const argv[], st_error *err)
{
    return st_job_spawn_with(job, argv, NULL, err);
}

int st_job_spawn_with(st_job *job, char *const argv[], const st_spawn_opts *opts, st_error *err)
{
    st_spawn_opts inherit;
    int subreaper = 0;
    if (!opts) {
        st_spawn_opts_init(&inherit);
        opts = &inherit;
    }
    if (!argv || !argv[0] || !argv[0][0])
        return st_error_set(err, ST_EINVAL, EINVAL, "no command to run");
    /* Orphans of the job become ours, not init's: st_job_poll reaps them
     * and the tree counts them (st_tree_adopt_orphans_of). */
    if (st_platform_native.become_subreaper)
        subreaper = st_platform_native.become_subreaper() == 1;
    int fds[2];
    if (pipe(fds) != 0)
        return st_error_set(err, ST_EIO, errno, "cannot run '%s': pipe: %s", argv[0],
                            strerror(errno));
    st_job_peak pk;
    st_peak_prepare(&pk);
    for (int i = 0; i < 2; i++)
        (void)fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        st_peak_discard(&pk);
        return st_error_set(err, e == ENOMEM || e == EAGAIN ? ST_ENOMEM : ST_EIO, e,
                            "cannot run '%s': fork: %s", argv[0], strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child_exec(argv, opts, fds[1], &pk);
    }
    close(fds[1]);
    (void)setpgid(pid, pid); /* also here: no race with our first killpg */
    if (opts->tty_fd >= 0)
        give_terminal(opts->tty_fd, pid); /* also here, as a shell does */
    int child_errno = 0;
    ssize_t n;
    do {
        n = read(fds[0], &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
    close(fds[0]);
    if (n == (ssize_t)sizeof child_errno) { /* exec failed: reap, report */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        if (opts->tty_fd >= 0)
            give_terminal(opts->tty_fd, getpgrp());
        st_peak_discard(&pk);
        int code = ST_EIO;
        if (child_errno == ENOENT || child_errno == ENOTDIR)
            code = ST_ESRCH;
        else if (child_errno == EACCES || child_errno == EPERM)
            code = ST_EPERM;
        return st_error_set(err, code, child_errno, "cannot run '%s': %s", argv[0],
                            strerror(child_errno));
    }
    job_reset(job, (int32_t)pid, 1);
    job->subreaper = subreaper;
    job->tty_fd = opts->tty_fd;
    st_peak_spawned(&pk, pid);
    job->peak = pk;
    st_error_clear(err);
    return ST_OK;
}

static int decode_status(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 0;
}

/* Reap, without blocking, every child of ours: with the subreaper (Linux)
 * every child stagetop has is the job's (the root, and its orphans, in
 * whatever group or session), which would otherwise linger as zombies
 * until stagetop exits; without it, those of the job's process group.
 * Sets exit_code when the root is among them. */
static void reap_group(st_job *job)
{
    int status = 0;
    pid_t w;
    for (;;) {
        w = st_peak_reap(&job->peak, job->subreaper ? -1 : -job->pid, &status); /* + kernel peak */
        if (w > 0) {
            if (w == job->pid && job->exit_code < 0)
                job->exit_code = decode_status(status);
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        return; /* 0: none ready; ECHILD: no child of ours left in the group */
    }
}

enum { REAP_RUNNING, REAP_DONE, REAP_UNKNOWN };

/* Reap the root if it has ended (also when it left its group, by setsid). */
static int reap_root(st_job *job, st_error *err)
{
    int status = 0;
    pid_t w;
    reap_group(job);
    if (job->exit_code >= 0)
        return REAP_DONE;
    do {
        w = st_peak_reap(&job->peak, job->pid, &status);
    } while (w < 0 && errno == EINTR);
    if (w == job->pid) {
        job->exit_code = decode_status(status);
        return REAP_DONE;
    }
    if (w == 0)
        return REAP_RUNNING;
    if (errno == ECHILD)
        return REAP_UNKNOWN; /* reaped elsewhere */
    return st_error_set(err, ST_EIO, errno, "waitpid %d: %s", (int)job->pid, strerror(errno));
}

/* The root stopped (or continued) by someone else: the terminal's
 * SIGTTIN/SIGTTOU/SIGTSTP, a kill -STOP.  Stagetop's own pause is
 * ST_JOB_PAUSED already and stays so. */
static void watch_stops(st_job *job)
{
    siginfo_t si;
    for (int i = 0; i < 8; i++) {
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)job->pid, &si, WSTOPPED | WCONTINUED | WNOHANG) != 0 ||
            si.si_pid == 0)
            return;
        if (si.si_code == CLD_STOPPED && job->state == ST_JOB_RUNNING) {
            job->state = ST_JOB_STOPPED;
            job->stop_sig = si.si_status;
            st_job_take_terminal(job); /* ^Z: the terminal back, as a shell does */
        } else if (si.si_code == CLD_CONTINUED && job->state == ST_JOB_STOPPED) {
            job->state = ST_JOB_RUNNING;
            job->stop_sig = 0;
            st_job_give_terminal(job);
        }
    }
}

/* Members other than the root: the job goes on while there are some. */
static size_t survivors(const st_tree *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_members; i++)
        n += !(t->members[i].id.pid == t->root.pid && t->members[i].id.start == t->root.start);
    return n;
}

/* Members other than the root that are still there now (read again: one
 * that left the process group or session, a setsid'd worker, counts). */
static size_t live_survivors(const st_tree *t)
{
    size_t n = 0;
    st_proc_mem m;
    for (size_t i = 0; i < t->n_members; i++)
        if (!(t->members[i].id.pid == t->root.pid && t->members[i].id.start == t->root.start) &&
            t->plat->read_proc(t->b, t->members[i].id, &m, NULL) == ST_OK)
            n++;
    return n;
}

int st_job_poll(st_job *job, st_tree *tree, double now, st_error *err)
{
    st_error_clear(err);
    if (job->state == ST_JOB_EXITED)
        return 0;
    if (!job->launched) {
        if (job->state == ST_JOB_KILLING && now >= job->kill_deadline) {
            int r = st_job__kill_hard(job, tree, now, err);
            if (r != ST_OK && r != ST_EPERM)
                return r;
        }
        if (tree->root_alive)
            return 0;
        if (tree->n_members > 0 && !(job->state == ST_JOB_KILLING && now >= job->kill_deadline))
            return 0; /* the root is gone, its survivors are still the job */
        job->state = ST_JOB_EXITED;
        return 1;
    }
    if (job->exit_code < 0) /* root not reaped yet */
        reap_group(job);
    if (job->exit_code >= 0)
        st_job_release_terminal(job); /* the root is gone: the terminal is stagetop's again */
    if (job->exit_code < 0) { /* root not reaped yet */
        int r = reap_root(job, err);
        if (r == REAP_RUNNING)
            watch_stops(job);
        if (r < 0)
            return r;
        if (r == REAP_UNKNOWN) {
            job->state = ST_JOB_EXITED; /* code unknown */
            return 1;
        }
        if (r == REAP_DONE && job->state != ST_JOB_KILLING) {
            if (survivors(tree) > 0)
                return 0; /* the root's code is known; the job goes on */
            job->state = ST_JOB_EXITED;
            return 1;
        }
    } else {
        reap_group(job); /* orphans (survivors, or a job being killed) */
        if (job->state != ST_JOB_KILLING) {
            if (survivors(tree) > 0)
                return 0;
            job->state = ST_JOB_EXITED; /* the last survivor has gone */
            return 1;
        }
    }
    if (job->state != ST_JOB_KILLING)
        return 0;
    int root_reaped = job->exit_code >= 0;
    if (now >= job->kill_deadline) {
        int r = st_job__kill_hard(job, tree, now, err);
        if (r != ST_OK && r != ST_EPERM)
            return r;
        if (!root_reaped)
            return 0; /* the root dies now; the next poll reaps it */
        job->state = ST_JOB_EXITED;
        return 1;
    }
    if (root_reaped && kill(-job->pid, 0) != 0 && live_survivors(tree) == 0) { /* all gone */
        job->state = ST_JOB_EXITED;
        return 1;
    }
    return 0;
}
