/* jobsig.c: the signal rules of job control: which processes stagetop may
 * signal, and pausing, resuming and killing the watched tree.
 *
 * Every signal goes either to a member of the watched tree, through the
 * platform's send_signal (which re-checks the member's identity, pid +
 * start, as close to the kill as the platform allows), or, for a job that
 * stagetop launched, to the job's own process group while that group's
 * number is known to be ours.  Nothing is signalled that is pid <= 1,
 * stagetop itself or one of its ancestors, and nothing at all while the job
 * is read-only (a wide tree: st_job_scope_of) or watched only (-p of pid 1
 * or of an ancestor: st_job__watch_only, which nothing lifts).
 *
 * Ancestors are found through the platform table's identify_parent
 * (core/run/ancestry.c: /proc/PID/stat on Linux, the kern.proc.pid sysctl on
 * macOS).  The chain is computed once per action.
 *
 * Reuse of the job's process-group number: while the root is unreaped (a
 * zombie keeps its pid), the group number cannot name another group.  After
 * the root has been reaped, the group is signalled only while kill(-pgid, 0)
 * finds it populated; a group that empties and whose number is reused by a
 * new group leader within the grace period (a full wrap of the pid space)
 * is the remaining, documented risk.
 *
 * SIGCONT goes to the children before the root: a root that exits while
 * other members of its group are still stopped leaves an orphaned process
 * group with stopped members, which the kernel sends SIGHUP (POSIX). */
#include "stagetop/jobctl.h"
#include "job_internal.h"
#include "stagetop/ancestry.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define JOB_PAUSE_ROUNDS 8    /* rescans while pausing before giving up */

/* ---- ancestors ---------------------------------------------------------- */

/* Stagetop's ancestors, read through plat (the tree's backend b), or
 * through the native platform when plat cannot name parents (a test's
 * fake backend: the rule is about real processes). */
static void ancestry_build(st_ancestry *a, const st_platform *plat, st_backend *b)
{
    if (!plat || !plat->identify_parent) {
        plat = &st_platform_native;
        b = NULL;
    }
    st_ancestry_build(a, plat, b, (int32_t)getpid(), (int32_t)getppid());
}

/* The short name of pid through the platform ("" when unknown). */
static void proc_name(const st_platform *plat, st_backend *b, int32_t pid, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!b || !plat->proc_name || plat->proc_name(b, pid, buf, len, NULL) != ST_OK)
        buf[0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    for (char *c = buf; *c; c++) /* a hostile name is shown, not obeyed */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* The process pid belongs to (a thread's id names its process on Linux),
 * or pid when the platform has no threads in the pid space or cannot say. */
static int32_t proc_tgid(const st_platform *plat, st_backend *b, int32_t pid)
{
    int32_t t = pid;
    if (!b || !plat->thread_group || plat->thread_group(b, pid, &t, NULL) != ST_OK || t <= 0)
        return pid;
    return t;
}

/* The target check runs before any run exists: it opens the native
 * backend for the names and the thread check. */
int st_job_check_target(int32_t pid, int32_t *tgid, st_error *err)
{
    const st_platform *plat = &st_platform_native;
    st_backend *b = NULL;
    st_ancestry a;
    char name[64];
    int rc = ST_OK;
    if (tgid)
        *tgid = pid;
    ancestry_build(&a, NULL, NULL);
    if (plat->open && plat->open(&b, NULL) != ST_OK)
        b = NULL;
    const char *why = st_ancestry_why(&a, pid);
    if (pid == 1 || (pid > 1 && why && a.pid[0] != pid))
        why = NULL; /* pid 1 and ancestors: watched read-only (st_job_attach) */
    if (why) {
        proc_name(plat, b, pid, name, sizeof name);
        rc = st_error_set(err, ST_EINVAL, 0,
                          "refusing to watch pid %d%s%s%s: it is %s, which stagetop never "
                          "pauses or kills", (int)pid, name[0] ? " (" : "", name,
                          name[0] ? ")" : "", why);
    } else {
        int32_t t = proc_tgid(plat, b, pid);
        if (t != pid) {
            proc_name(plat, b, t, name, sizeof name);
            if (tgid)
                *tgid = t;
            rc = st_error_set(err, ST_EINVAL, 0,
                              "pid %d is a thread of process %d%s%s%s, not a process: watch -p %d",
                              (int)pid, (int)t, name[0] ? " (" : "", name, name[0] ? ")" : "",
                              (int)t);
        } else {
            st_error_clear(err);
        }
    }
    if (b)
        plat->close(b);
    return rc;
}

typedef struct scope_ent { int32_t pid; uint32_t idx; } scope_ent;

static int scope_cmp(const void *x, const void *y)
{
    int32_t a = ((const scope_ent *)x)->pid, b = ((const scope_ent *)y)->pid;
    return (a > b) - (a < b);
}

int st_job_scope_of(const st_platform *plat, st_backend *b, st_proc_id root,
                    st_job_scope *out, st_error *err)
{
    st_proc_vec all = { NULL, 0, 0 };
    memset(out, 0, sizeof *out);
    if (!plat->list_all)
        return st_error_set(err, ST_ENOTSUP, 0, "this platform cannot list processes");
    int rc = plat->list_all(b, &all, err);
    if (rc != ST_OK) {
        st_proc_vec_free(&all);
        return rc;
    }
    size_t n = all.len;
    /* state: 0 not known yet, 1 in root's tree, 2 not; parent: index or -1 */
    unsigned char *state = calloc(n ? n : 1, 1);
    long *parent = malloc((n ? n : 1) * sizeof *parent);
    long *path = malloc((n ? n : 1) * sizeof *path);
    scope_ent *by_pid = malloc((n ? n : 1) * sizeof *by_pid);
    if (!state || !parent || !path || !by_pid) {
        free(state);
        free(parent);
        free(path);
        free(by_pid);
        st_proc_vec_free(&all);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        by_pid[i] = (scope_ent){ all.v[i].id.pid, (uint32_t)i };
    qsort(by_pid, n, sizeof *by_pid, scope_cmp);
    for (size_t i = 0; i < n; i++) {
        scope_ent key = { all.v[i].ppid, 0 };
        scope_ent *hit = all.v[i].ppid > 0 ? bsearch(&key, by_pid, n, sizeof *by_pid, scope_cmp) : NULL;
        parent[i] = hit ? (long)hit->idx : -1;
        if (all.v[i].id.pid == root.pid)
            state[i] = 1;
    }
    /* Walk up from each process until a known one (or the top); all on the
     * way share its answer.  A parent loop (pids reused while listing)
     * ends after n steps. */
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        long k = (long)i;
        while (k >= 0 && state[k] == 0 && len < n) {
            path[len++] = k;
            k = parent[k];
        }
        unsigned char v = k >= 0 && state[k] == 1 ? 1 : 2;
        while (len > 0)
            state[path[--len]] = v;
    }
    int32_t self = (int32_t)getpid();
    for (size_t i = 0; i < n; i++)
        if (state[i] == 1) {
            out->tree_n++;
            if (all.v[i].id.pid == self)
                out->has_self = 1;
        }
    out->all_n = (uint32_t)n;
    out->wide = out->has_self || (out->tree_n >= ST_JOB_WIDE_MIN &&
                                  (uint64_t)out->tree_n * 100 > (uint64_t)out->all_n * ST_JOB_WIDE_PCT);
    free(state);
    free(parent);
    free(path);
    free(by_pid);
    st_proc_vec_free(&all);
    st_error_clear(err);
    return ST_OK;
}

/* ---- one action: signal tree members, count, remember the first refusal - */

typedef struct job_action {
    st_job *job;
    st_tree *tree;
    st_ancestry anc;
    int total;            /* processes the action was meant for */
    int group_ok;         /* the launched job's group got the signal */
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
    job->refusal[0] = '\0';
    ancestry_build(&ac->anc, tree ? tree->plat : NULL, tree ? tree->b : NULL);
}

static void action_note(job_action *ac, int code, int sys_errno, const char *msg)
{
    if (code != ST_EPERM && !ac->other_code)
        ac->other_code = code;
    if (!ac->has_first) {
        st_error_set(&ac->first, code, sys_errno, "%s", msg);
        ac->has_first = 1;
    }
    if (code == ST_EPERM && !ac->job->refusal[0])
        snprintf(ac->job->refusal, sizeof ac->job->refusal, "%.159s", msg);
}

/* Send sig to one member.  counted: this signal is the action's main one
 * (SIGCONT after SIGTERM is not counted again). */
static void signal_member(job_action *ac, st_proc_id id, int sig, int counted)
{
    st_job *job = ac->job;
    if (counted)
        ac->total++;
    const char *why = st_ancestry_why(&ac->anc, id.pid);
    if (why) {
        if (counted) {
            job->refused++;
            char msg[128];
            snprintf(msg, sizeof msg, "pid %d is %s: never signalled", (int)id.pid, why);
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
static int job_group(const st_job *job, const st_ancestry *anc)
{
    if (!job->launched || job->pid <= 1 || job->state == ST_JOB_EXITED)
        return 0;
    if ((int32_t)getpgrp() == job->pid || st_ancestry_why(anc, job->pid))
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
    if (killpg(pgid, sig) == 0) {
        ac->group_ok = 1;
    } else if (errno == EPERM) {
        char msg[128];
        snprintf(msg, sizeof msg, "process group %d: permission denied", pgid);
        action_note(ac, ST_EPERM, EPERM, msg);
    }
}

/* The tree's time base: the latest time it was discovered at. */
static double tree_now(const st_tree *t) { return t->last_discover > 0 ? t->last_discover : 0.0; }

/* Refresh membership now (new children), ignoring a tree that has exited.
 * On failure the member list is the last one known. */
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
    if (ac->job->signalled == 0 && !ac->group_ok) /* every one had gone: nothing was done */
        return st_error_set(err, ST_ESRCH, ESRCH, "could not %s: signalled 0 of %d processes "
                            "(gone)", verb, ac->total);
    st_error_clear(err);
    return ST_OK;
}

void st_job__watch_only(st_job *job)
{
    st_ancestry a;
    job->watch_only[0] = '\0';
    if (job->launched || job->pid <= 0)
        return;
    ancestry_build(&a, NULL, NULL);
    const char *why = st_ancestry_why(&a, job->pid);
    if (job->pid == 1)
        snprintf(job->watch_only, sizeof job->watch_only, "pid 1 (init) is never signalled");
    else if (why && a.pid[0] != job->pid)
        snprintf(job->watch_only, sizeof job->watch_only,
                 "pid %d is an ancestor of stagetop, never signalled", (int)job->pid);
}

/* A job watched only (pid 1, an ancestor): nothing is signalled, ever. */
static int watch_only(st_job *job, const char *verb, st_error *err)
{
    job->signalled = job->refused = 0;
    snprintf(job->refusal, sizeof job->refusal, "watched read-only: %s", job->watch_only);
    return st_error_set(err, ST_EPERM, EPERM, "not %s: %s", verb, job->refusal);
}

/* A read-only job: nothing is signalled, and that is a refusal. */
static int read_only(st_job *job, const char *verb, st_error *err)
{
    job->signalled = job->refused = 0;
    snprintf(job->refusal, sizeof job->refusal,
             "read-only: the tree is too wide to signal (see --allow-wide)");
    return st_error_set(err, ST_EPERM, EPERM, "not %s: %s", verb, job->refusal);
}

/* ---- public ------------------------------------------------------------- */

int st_job_pause(st_job *job, st_tree *tree, st_error *err)
{
    if (job->state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, ESRCH, "nothing to pause: the job has exited");
    if (job->state == ST_JOB_KILLING)
        return st_error_set(err, ST_EINVAL, 0, "not pausing: the job is being killed");
    if (job->watch_only[0])
        return watch_only(job, "pausing", err);
    if (job->read_only)
        return read_only(job, "pausing", err);
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
    if (job->signalled > 0) {
        job->state = ST_JOB_PAUSED;
        job->paused_by_us = 1;
    }
    if (r != ST_OK)
        return r;
    return action_end(&ac, "pause", err);
}

int st_job_resume(st_job *job, st_tree *tree, st_error *err)
{
    if (job->state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, ESRCH, "nothing to resume: the job has exited");
    if (job->watch_only[0])
        return watch_only(job, "resuming", err);
    if (job->read_only)
        return read_only(job, "resuming", err);
    st_error rerr;
    int r = refresh(tree, tree_now(tree), &rerr); /* failed: the last-known members */
    job_action ac;
    action_begin(&ac, job, tree);
    signal_tree_root_last(&ac, SIGCONT, 1);
    if (job->state == ST_JOB_PAUSED || job->state == ST_JOB_STOPPED)
        job->state = ST_JOB_RUNNING;
    job->paused_by_us = 0;
    int a = action_end(&ac, "resume", err);
    if (r != ST_OK)
        return st_error_set(err, r, rerr.sys_errno, "resumed %d process(es) known before: %s",
                            job->signalled, rerr.msg);
    return a;
}

int st_job_kill(st_job *job, st_tree *tree, double now, st_error *err)
{
    if (job->state == ST_JOB_EXITED) {
        job->signalled = job->refused = 0;
        st_error_clear(err);
        return ST_OK; /* nothing left to kill */
    }
    if (job->watch_only[0])
        return watch_only(job, "killing", err);
    if (job->read_only)
        return read_only(job, "killing", err);
    st_error rerr;
    int r = refresh(tree, now, &rerr); /* failed: the last-known members */
    job_action ac;
    action_begin(&ac, job, tree);
    signal_tree(&ac, SIGTERM, 1);
    if (!job->launched && job->signalled == 0 && (job->refused > 0 || r != ST_OK))
        return r != ST_OK ? st_error_set(err, r, rerr.sys_errno, "could not kill: %s", rerr.msg)
                          : action_end(&ac, "kill", err); /* no one got it: nothing is being killed */
    signal_group(&ac, SIGTERM);
    signal_tree_root_last(&ac, SIGCONT, 0); /* a stopped process acts on SIGTERM once continued */
    signal_group(&ac, SIGCONT);
    if (job->state != ST_JOB_KILLING)
        job->kill_deadline = now + job->grace_s;
    job->state = ST_JOB_KILLING;
    job->paused_by_us = 0;
    job->kill_asked = 1;
    int a = action_end(&ac, "kill", err);
    if (r != ST_OK)
        return st_error_set(err, r, rerr.sys_errno, "SIGTERM to %d process(es) known before: %s",
                            job->signalled, rerr.msg);
    return a;
}

int st_job__kill_hard(st_job *job, st_tree *tree, double now, st_error *err)
{
    if (job->read_only || job->watch_only[0])
        return ST_OK;
    st_sample s;
    memset(&s, 0, sizeof s);
    int r = st_tree_sample(tree, now, &s, err); /* no rediscovery: orphans stay listed */
    if (r != ST_OK && r != ST_ESRCH)
        return r;
    job_action ac;
    action_begin(&ac, job, tree);
    signal_tree(&ac, SIGKILL, 1);
    signal_group(&ac, SIGKILL);
    int a = action_end(&ac, "kill", err);
    return a == ST_ESRCH ? ST_OK : a; /* all gone already: done */
}
