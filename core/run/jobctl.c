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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- public ------------------------------------------------------------- */

static int decode_status(int status);
static void reap_group(st_job *job);

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
    job->gate_fd = job->exec_fd = -1;
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

/* In the child: is path a file exec may run?  0, or the errno execve
 * would surely give (ENOENT, ENOTDIR, EACCES); anything less certain is
 * 0, and left to exec itself. */
static int child_runnable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? errno : 0;
    if (!S_ISREG(st.st_mode))
        return EACCES; /* a directory, a device: execve says EACCES */
    if (access(path, X_OK) != 0)
        return errno == EACCES ? EACCES : 0;
    return 0;
}

/* In the held child, before it waits: would execvp surely fail on file?
 * Its PATH search (an empty entry is the current directory; no PATH:
 * /usr/bin:/bin), with its answer: EACCES if some candidate was found but
 * may not run, else ENOENT.  0 when it may run (or a path too long to
 * tell).  Async-signal-safe calls only. */
static int child_findable(const char *file)
{
    if (strchr(file, '/'))
        return child_runnable(file);
    const char *path = getenv("PATH"); /* reads environ, the job's by now */
    if (!path)
        path = "/usr/bin:/bin";
    size_t flen = strlen(file);
    int eacces = 0;
    char buf[4096];
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t dlen = end ? (size_t)(end - p) : strlen(p);
        if (dlen + flen + 2 > sizeof buf)
            return 0;
        memcpy(buf, p, dlen);
        if (dlen)
            buf[dlen++] = '/';
        memcpy(buf + dlen, file, flen + 1);
        int r = child_runnable(buf);
        if (r == 0)
            return 0;
        eacces |= r == EACCES;
        if (!end)
            break;
        p = end + 1;
    }
    return eacces ? EACCES : ENOENT;
}

static void child_say(int wfd, int e)
{
    ssize_t w;
    do {
        w = write(wfd, &e, sizeof e);
    } while (w < 0 && errno == EINTR);
}

/* In the child: own group (and the terminal's foreground when asked), the
 * standard files and environment given, default dispositions, its cgroup;
 * held (gate >= 0): "ready" (0) up the pipe, then wait for the gate's byte
 * (EOF: abandoned, or stagetop died: exit, nothing run); empty mask, exec.
 * Only async-signal-safe calls; on failure the errno goes up the pipe. */
static void child_exec(char *const argv[], const st_spawn_opts *o, int wfd, int gate,
                       const st_job_peak *pk)
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
    if (!e && o->envp)
        environ = (char **)o->envp;
    if (!e && gate >= 0 && (e = child_findable(argv[0])) == 0) {
        char go = 0;
        ssize_t n;
        child_say(wfd, 0); /* held */
        do {
            n = read(gate, &go, 1);
        } while (n < 0 && errno == EINTR);
        if (n != 1)
            _exit(127); /* the gate closed: the command never runs */
    }
    if (!e) {
        sigemptyset(&none);
        (void)sigprocmask(SIG_SETMASK, &none, NULL);
        execvp(argv[0], argv);
        e = errno;
    }
    child_say(wfd, e ? e : EIO);
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

/* The child's errno as an error ("cannot run 'X': reason"). */
static int exec_error(st_error *err, const char *name, int child_errno)
{
    int code = ST_EIO;
    if (child_errno == ENOENT || child_errno == ENOTDIR)
        code = ST_ESRCH;
    else if (child_errno == EACCES || child_errno == EPERM)
        code = ST_EPERM;
    return st_error_set(err, code, child_errno, "cannot run '%s': %s", name, strerror(child_errno));
}

static void close_pair(int fds[2])
{
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    fds[0] = fds[1] = -1;
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
    int fds[2] = {-1, -1}, gate[2] = {-1, -1};
    if (pipe(fds) != 0 || (opts->hold && pipe(gate) != 0)) {
        int e = errno;
        close_pair(fds);
        return st_error_set(err, ST_EIO, e, "cannot run '%s': pipe: %s", argv[0], strerror(e));
    }
    st_job_peak pk;
    st_peak_prepare(&pk);
    for (int i = 0; i < 2; i++) {
        (void)fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        if (gate[i] >= 0)
            (void)fcntl(gate[i], F_SETFD, FD_CLOEXEC);
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close_pair(fds);
        close_pair(gate);
        st_peak_discard(&pk);
        return st_error_set(err, e == ENOMEM || e == EAGAIN ? ST_ENOMEM : ST_EIO, e,
                            "cannot run '%s': fork: %s", argv[0], strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        if (gate[1] >= 0)
            close(gate[1]); /* else the child would hold its own gate open */
        child_exec(argv, opts, fds[1], gate[0], &pk);
    }
    close(fds[1]);
    fds[1] = -1;
    if (gate[0] >= 0)
        close(gate[0]);
    gate[0] = -1;
    (void)setpgid(pid, pid); /* also here: no race with our first killpg */
    if (opts->tty_fd >= 0)
        give_terminal(opts->tty_fd, pid); /* also here, as a shell does */
    int child_errno = 0;
    ssize_t n;
    do {
        n = read(fds[0], &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
    /* without hold: EOF, it ran; held: 0, it waits at the gate */
    int ran = opts->hold ? n == (ssize_t)sizeof child_errno && child_errno == 0 : n == 0;
    if (!ran) { /* exec failed (or the held child died): reap, report */
        close_pair(fds);
        close_pair(gate);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        if (opts->tty_fd >= 0)
            give_terminal(opts->tty_fd, getpgrp());
        st_peak_discard(&pk);
        if (n != (ssize_t)sizeof child_errno || child_errno == 0)
            return st_error_set(err, ST_EIO, 0, "cannot run '%s': it ended before its exec",
                                argv[0]);
        return exec_error(err, argv[0], child_errno);
    }
    job_reset(job, (int32_t)pid, 1);
    job->subreaper = subreaper;
    job->tty_fd = opts->tty_fd;
    if (opts->hold) {
        job->exec_fd = fds[0];
        job->gate_fd = gate[1];
    } else {
        close(fds[0]);
    }
    st_peak_spawned(&pk, pid); /* the child is in its cgroup by now (held: said so) */
    job->peak = pk;
    st_error_clear(err);
    return ST_OK;
}

/* write(2) of one byte without SIGPIPE (the held child may be gone: a
 * library must not kill its caller for it); a SIGPIPE this raised is taken
 * back, one already pending is left. */
static ssize_t write_no_sigpipe(int fd, char c)
{
    sigset_t pipe_set, old, pending;
    int sig, was_pending, e;
    ssize_t w;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    (void)sigprocmask(SIG_BLOCK, &pipe_set, &old);
    was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
    do {
        w = write(fd, &c, 1);
    } while (w < 0 && errno == EINTR);
    e = errno;
    if (w < 0 && e == EPIPE && !was_pending && sigpending(&pending) == 0 &&
        sigismember(&pending, SIGPIPE))
        (void)sigwait(&pipe_set, &sig);
    (void)sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return w;
}

int st_job_release(st_job *job, const char *name, st_error *err)
{
    int child_errno = 0;
    ssize_t n;
    st_error_clear(err);
    if (!job->launched || job->gate_fd < 0)
        return ST_OK;
    (void)write_no_sigpipe(job->gate_fd, 1);
    close(job->gate_fd);
    job->gate_fd = -1;
    do { /* EOF once it has exec'd (close-on-exec); its errno if that failed */
        n = read(job->exec_fd, &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
    close(job->exec_fd);
    job->exec_fd = -1;
    if (n == 0)
        return ST_OK;
    if (n != (ssize_t)sizeof child_errno || child_errno == 0) /* killed while held */
        return st_error_set(err, ST_EIO, 0, "cannot run '%s': it ended before its exec",
                            name ? name : "the job");
    return exec_error(err, name ? name : "the job", child_errno); /* it exits 127 */
}

void st_job_abandon(st_job *job)
{
    if (!job->launched || job->pid <= 0 || job->state == ST_JOB_EXITED)
        return;
    if (job->gate_fd >= 0) { /* held: only the child itself, before its exec */
        close(job->gate_fd);
        close(job->exec_fd);
        job->gate_fd = job->exec_fd = -1;
        (void)kill((pid_t)job->pid, SIGKILL); /* also a stopped one */
    } else {
        (void)kill(-(pid_t)job->pid, SIGKILL);
    }
    if (job->exit_code < 0) {
        int status = 0;
        pid_t w;
        while ((w = waitpid((pid_t)job->pid, &status, 0)) < 0 && errno == EINTR)
            ;
        if (w == (pid_t)job->pid)
            job->exit_code = decode_status(status);
    }
    reap_group(job); /* a released job's orphans, where we are their subreaper */
    job->state = ST_JOB_EXITED;
    st_job_release_terminal(job);
    st_peak_finish(&job->peak); /* its cgroup, empty now */
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

/* Whether the job goes on after its root: a survivor, or an orphan not
 * yet discovered (its rediscovery forced). */
static int orphan_pending(st_tree *tree)
{
    if (survivors(tree) > 0)
        return 1;
    if (st_tree_unseen(tree) > 0) {
        st_tree_rediscover(tree);
        return 1;
    }
    return 0;
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
            if (orphan_pending(tree))
                return 0; /* the root's code is known; the job goes on */
            job->state = ST_JOB_EXITED;
            return 1;
        }
    } else {
        reap_group(job); /* orphans (survivors, or a job being killed) */
        if (job->state != ST_JOB_KILLING) {
            if (orphan_pending(tree))
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
