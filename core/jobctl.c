/* jobctl.c: starting, pausing, resuming and killing the watched job.
 *
 * Every signal goes either to a member of the watched tree, through the
 * platform's send_signal (which re-checks the member's identity, pid +
 * start, as close to the kill as the platform allows), or, for a job that
 * stagetop launched, to the job's own process group while that group's
 * number is known to be ours.  Nothing is signalled that is pid <= 1,
 * stagetop itself or one of its ancestors.
 *
 * Ancestors are found through /proc/PID/stat (field 4, the parent) where
 * /proc exists; elsewhere only getppid() is known (macOS has no /proc; a
 * sysctl walk is left for later).  The chain is computed once per action.
 *
 * Reuse of the job's process-group number: while the root is unreaped (a
 * zombie keeps its pid), the group number cannot name another group.  After
 * the root has been reaped during a kill, the group is signalled only while
 * kill(-pgid, 0) finds it populated; a group that empties and whose number
 * is reused by a new group leader within the grace period (a full wrap of
 * the pid space) is the remaining, documented risk.  On Linux st_job_spawn
 * makes stagetop a child subreaper, so the job's orphans are our children:
 * st_job_poll reaps them (waitpid on the group), and a killed job's group
 * empties as soon as its processes exit, not when init gets round to them.
 *
 * SIGCONT goes to the children before the root: a root that exits while
 * other members of its group are still stopped leaves an orphaned process
 * group with stopped members, which the kernel sends SIGHUP (POSIX). */
#include "stagetop/jobctl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

#define JOB_DEFAULT_GRACE_S 5.0
#define JOB_PAUSE_ROUNDS 8    /* rescans while pausing before giving up */
#define JOB_MAX_ANCESTORS 128

/* ---- ancestors ---------------------------------------------------------- */

typedef struct job_ancestry {
    int32_t pid[JOB_MAX_ANCESTORS]; /* self, parent, grandparent, ... */
    int n;
} job_ancestry;

/* The parent of pid from /proc/PID/stat, or -1. */
static int32_t proc_ppid(int32_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *close_paren = strrchr(buf, ')'); /* the name may hold ')' */
    int ppid = -1;
    if (!close_paren || sscanf(close_paren + 1, " %*c %d", &ppid) != 1)
        return -1;
    return (int32_t)ppid;
}

static void ancestry_build(job_ancestry *a)
{
    a->n = 0;
    a->pid[a->n++] = (int32_t)getpid();
    int32_t p = (int32_t)getppid();
    while (p > 0 && a->n < JOB_MAX_ANCESTORS) {
        a->pid[a->n++] = p;
        if (p <= 1)
            break;
        p = proc_ppid(p); /* -1 without /proc: the chain ends at getppid() */
    }
}

static int ancestry_allows(const job_ancestry *a, int32_t pid)
{
    if (pid <= 1)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->pid[i] == pid)
            return 0;
    return 1;
}

int st_job_may_signal(int32_t pid)
{
    job_ancestry a;
    if (pid <= 1)
        return 0;
    ancestry_build(&a);
    return ancestry_allows(&a, pid);
}

/* ---- one action: signal tree members, count, remember the first refusal - */

typedef struct job_action {
    st_job *job;
    st_tree *tree;
    job_ancestry anc;
    int total;            /* processes the action was meant for */
    int other_code;       /* first error other than EPERM/ESRCH */
    st_error first;       /* the first refusal or error */
    int has_first;
} job_action;

static void action_begin(job_action *ac, st_job *job, st_tree *tree)
{
    memset(ac, 0, sizeof *ac);
    ac->job = job;
    ac->tree = tree;
    job->signalled = 0;
    job->refused = 0;
    ancestry_build(&ac->anc);
}

static void action_note(job_action *ac, int code, int sys_errno, const char *msg)
{
    if (code != ST_EPERM && !ac->other_code)
        ac->other_code = code;
    if (!ac->has_first) {
        st_error_set(&ac->first, code, sys_errno, "%s", msg);
        ac->has_first = 1;
    }
}

/* Send sig to one member.  counted: this signal is the action's main one
 * (SIGCONT after SIGTERM is not counted again). */
static void signal_member(job_action *ac, st_proc_id id, int sig, int counted)
{
    st_job *job = ac->job;
    if (counted)
        ac->total++;
    if (!ancestry_allows(&ac->anc, id.pid)) {
        if (counted) {
            job->refused++;
            char msg[128];
            snprintf(msg, sizeof msg, "pid %d is pid 1, stagetop itself or one of its ancestors",
                     (int)id.pid);
            action_note(ac, ST_EPERM, EPERM, msg);
        }
        return;
    }
    st_error e;
    st_error_clear(&e);
    int r = ac->tree->plat->send_signal(ac->tree->b, id, sig, &e);
    if (!counted)
        return;
    if (r == ST_OK) {
        job->signalled++;
    } else if (r == ST_EPERM) {
        job->refused++;
        char msg[300];
        snprintf(msg, sizeof msg, "pid %d: %s", (int)id.pid,
                 e.msg[0] ? e.msg : "permission denied (another user's process)");
        action_note(ac, ST_EPERM, e.sys_errno ? e.sys_errno : EPERM, msg);
    } else if (r != ST_ESRCH) { /* ESRCH: already gone, not an error */
        char msg[300];
        snprintf(msg, sizeof msg, "pid %d: %s", (int)id.pid, e.msg[0] ? e.msg : st_status_name(r));
        action_note(ac, r, e.sys_errno, msg);
    }
}

static int same_id(st_proc_id a, st_proc_id b) { return a.pid == b.pid && a.start == b.start; }

/* sig to the root (if alive) and then every other member, parents first. */
static void signal_tree(job_action *ac, int sig, int counted)
{
    st_tree *t = ac->tree;
    if (t->root_alive)
        signal_member(ac, t->root, sig, counted);
    for (size_t i = 0; i < t->n_members; i++)
        if (!same_id(t->members[i].id, t->root))
            signal_member(ac, t->members[i].id, sig, counted);
}

/* sig to every member, children first, the root last.  Used for SIGCONT:
 * when a root that was continued first exits while members of its process
 * group are still stopped, the group becomes orphaned and the kernel sends
 * those members SIGHUP (POSIX), killing them without their SIGTERM
 * handling or grace period. */
static void signal_tree_root_last(job_action *ac, int sig, int counted)
{
    st_tree *t = ac->tree;
    for (size_t i = t->n_members; i-- > 0;)
        if (!same_id(t->members[i].id, t->root))
            signal_member(ac, t->members[i].id, sig, counted);
    if (t->root_alive)
        signal_member(ac, t->root, sig, counted);
}

/* The launched job's process group, when it may be signalled now. */
static int job_group(const st_job *job, const job_ancestry *anc)
{
    if (!job->launched || job->pid <= 1 || job->state == ST_JOB_EXITED)
        return 0;
    if ((int32_t)getpgrp() == job->pid || !ancestry_allows(anc, job->pid))
        return 0;
    return job->pid;
}

static void signal_group(job_action *ac, int sig)
{
    int pgid = job_group(ac->job, &ac->anc);
    if (!pgid)
        return;
    if (ac->job->exit_code >= 0 && kill(-pgid, 0) != 0)
        return; /* root reaped and group empty: its number is no longer ours */
    if (killpg(pgid, sig) != 0 && errno == EPERM) {
        char msg[128];
        snprintf(msg, sizeof msg, "process group %d: permission denied", pgid);
        action_note(ac, ST_EPERM, EPERM, msg);
    }
}

/* The tree's time base: the latest time it was discovered at. */
static double tree_now(const st_tree *t) { return t->last_discover > 0 ? t->last_discover : 0.0; }

/* Refresh membership now (new children), ignoring a tree that has exited. */
static int refresh(st_tree *t, double now, st_error *err)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    st_tree_rediscover(t);
    int r = st_tree_sample(t, now, &s, err);
    return r == ST_ESRCH ? ST_OK : r;
}

static int action_end(job_action *ac, const char *verb, st_error *err)
{
    if (ac->job->refused > 0)
        return st_error_set(err, ST_EPERM, ac->first.sys_errno,
                            "could not %s %d of %d processes (%s)", verb, ac->job->refused,
                            ac->total, ac->first.msg);
    if (ac->other_code)
        return st_error_set(err, ac->other_code, ac->first.sys_errno, "could not %s: %s", verb,
                            ac->first.msg);
    st_error_clear(err);
    return ST_OK;
}

/* ---- public ------------------------------------------------------------- */

static void job_reset(st_job *job, int32_t pid, int launched)
{
    memset(job, 0, sizeof *job);
    job->pid = pid;
    job->launched = launched;
    job->state = ST_JOB_RUNNING;
    job->grace_s = JOB_DEFAULT_GRACE_S;
    job->kill_deadline = 0.0;
    job->exit_code = -1;
}

void st_job_attach(st_job *job, int32_t pid) { job_reset(job, pid, 0); }

/* In the child: own group, default dispositions, empty mask, exec.  Only
 * async-signal-safe calls; on failure the errno goes up the pipe. */
static void child_exec(char *const argv[], int wfd, const st_job_peak *pk)
{
    struct sigaction sa;
    sigset_t none;
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
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);
    (void)setpgid(0, 0);
    st_peak_child_enter(pk); /* its own cgroup, where it has one */
    execvp(argv[0], argv);
    int e = errno;
    ssize_t w;
    do {
        w = write(wfd, &e, sizeof e);
    } while (w < 0 && errno == EINTR);
    _exit(127);
}

int st_job_spawn(st_job *job, char *const argv[], st_error *err)
{
    if (!argv || !argv[0] || !argv[0][0])
        return st_error_set(err, ST_EINVAL, EINVAL, "no command to run");
#if defined(__linux__)
    /* Orphans of the job become ours, not init's: st_job_poll reaps them,
     * so a killed job's group empties as soon as its processes exit. */
    (void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
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
        child_exec(argv, fds[1], &pk);
    }
    close(fds[1]);
    (void)setpgid(pid, pid); /* also here: no race with our first killpg */
    int child_errno = 0;
    ssize_t n;
    do {
        n = read(fds[0], &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
    close(fds[0]);
    if (n == (ssize_t)sizeof child_errno) { /* exec failed: reap, report */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
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
    st_peak_spawned(&pk, pid);
    job->peak = pk;
    st_error_clear(err);
    return ST_OK;
}

int st_job_pause(st_job *job, st_tree *tree, st_error *err)
{
    if (job->state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, ESRCH, "nothing to pause: the job has exited");
    if (job->state == ST_JOB_KILLING)
        return st_error_set(err, ST_EINVAL, 0, "not pausing: the job is being killed");
    job_action ac;
    action_begin(&ac, job, tree);
    st_proc_vec done = { NULL, 0, 0 };
    int r = ST_OK;
    for (int round = 0; round < JOB_PAUSE_ROUNDS && r == ST_OK; round++) {
        if (round > 0 && (r = refresh(tree, tree_now(tree), err)) != ST_OK)
            break;
        int fresh = 0;
        /* root first, then the others in tree order (parents first) */
        for (size_t i = 0; i <= tree->n_members && r == ST_OK; i++) {
            st_proc_id id;
            if (i == 0) {
                if (!tree->root_alive)
                    continue;
                id = tree->root;
            } else {
                id = tree->members[i - 1].id;
                if (same_id(id, tree->root))
                    continue;
            }
            int seen = 0;
            for (size_t k = 0; k < done.len && !seen; k++)
                seen = same_id(done.v[k].id, id);
            if (seen)
                continue;
            st_proc_ref ref = { id, 0 };
            if ((r = st_proc_vec_push(&done, &ref, err)) != ST_OK)
                break;
            signal_member(&ac, id, SIGSTOP, 1);
            fresh++;
        }
        if (round > 0 && fresh == 0)
            break; /* a rescan found no one new: the tree is stopped */
    }
    st_proc_vec_free(&done);
    if (r != ST_OK)
        return r;
    if (job->signalled > 0) {
        job->state = ST_JOB_PAUSED;
        job->paused_by_us = 1;
    }
    return action_end(&ac, "pause", err);
}

int st_job_resume(st_job *job, st_tree *tree, st_error *err)
{
    if (job->state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, ESRCH, "nothing to resume: the job has exited");
    int r = refresh(tree, tree_now(tree), err);
    if (r != ST_OK)
        return r;
    job_action ac;
    action_begin(&ac, job, tree);
    signal_tree_root_last(&ac, SIGCONT, 1);
    if (job->state == ST_JOB_PAUSED)
        job->state = ST_JOB_RUNNING;
    job->paused_by_us = 0;
    return action_end(&ac, "resume", err);
}

int st_job_kill(st_job *job, st_tree *tree, double now, st_error *err)
{
    if (job->state == ST_JOB_EXITED) {
        job->signalled = job->refused = 0;
        st_error_clear(err);
        return ST_OK; /* nothing left to kill */
    }
    int r = refresh(tree, now, err);
    if (r != ST_OK)
        return r;
    job_action ac;
    action_begin(&ac, job, tree);
    signal_tree(&ac, SIGTERM, 1);
    if (!job->launched && job->signalled == 0 && job->refused > 0)
        return action_end(&ac, "kill", err); /* no one got it (EPERM): nothing is being killed */
    signal_group(&ac, SIGTERM);
    signal_tree_root_last(&ac, SIGCONT, 0); /* a stopped process acts on SIGTERM once continued */
    signal_group(&ac, SIGCONT);
    if (job->state != ST_JOB_KILLING)
        job->kill_deadline = now + job->grace_s;
    job->state = ST_JOB_KILLING;
    job->paused_by_us = 0;
    return action_end(&ac, "kill", err);
}

/* SIGKILL to every member still alive and to the launched job's group. */
static int kill_hard(st_job *job, st_tree *tree, double now, st_error *err)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    int r = st_tree_sample(tree, now, &s, err); /* no rediscovery: orphans stay listed */
    if (r != ST_OK && r != ST_ESRCH)
        return r;
    job_action ac;
    action_begin(&ac, job, tree);
    signal_tree(&ac, SIGKILL, 1);
    signal_group(&ac, SIGKILL);
    return action_end(&ac, "kill", err);
}

static int decode_status(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 0;
}

/* Reap, without blocking, every child of ours in the job's process group:
 * the root, and (Linux, where st_job_spawn made stagetop a subreaper) the
 * job's processes orphaned by their parent's exit, which would otherwise
 * linger as zombies in the group until stagetop exits.  Sets exit_code when
 * the root is among them. */
static void reap_group(st_job *job)
{
    int status = 0;
    pid_t w;
    for (;;) {
        w = st_peak_reap(&job->peak, -job->pid, &status); /* waitpid + its kernel peak */
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

int st_job_poll(st_job *job, st_tree *tree, double now, st_error *err)
{
    st_error_clear(err);
    if (job->state == ST_JOB_EXITED)
        return 0;
    if (!job->launched) {
        if (job->state == ST_JOB_KILLING && now >= job->kill_deadline) {
            int r = kill_hard(job, tree, now, err);
            if (r != ST_OK && r != ST_EPERM)
                return r;
        }
        if (tree->root_alive)
            return 0;
        if (job->state == ST_JOB_KILLING && now < job->kill_deadline && tree->n_members > 0)
            return 0; /* the root is gone, some of the tree is not yet */
        job->state = ST_JOB_EXITED;
        return 1;
    }
    if (job->exit_code < 0) { /* root not reaped yet */
        int r = reap_root(job, err);
        if (r < 0)
            return r;
        if (r == REAP_UNKNOWN) {
            job->state = ST_JOB_EXITED; /* code unknown */
            return 1;
        }
        if (r == REAP_DONE && job->state != ST_JOB_KILLING) {
            job->state = ST_JOB_EXITED;
            return 1;
        }
    } else {
        reap_group(job); /* orphans of a job being killed */
    }
    if (job->state != ST_JOB_KILLING)
        return 0;
    int root_reaped = job->exit_code >= 0;
    if (now >= job->kill_deadline) {
        int r = kill_hard(job, tree, now, err);
        if (r != ST_OK && r != ST_EPERM)
            return r;
        if (!root_reaped)
            return 0; /* the root dies now; the next poll reaps it */
        job->state = ST_JOB_EXITED;
        return 1;
    }
    if (root_reaped && kill(-job->pid, 0) != 0) { /* the whole group has gone */
        job->state = ST_JOB_EXITED;
        return 1;
    }
    return 0;
}
