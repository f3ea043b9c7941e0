/* peak.c: kernel peaks that do not leave with the process (peak.h).
 *
 * wait4's ru_maxrss is the largest resident set of the reaped child and of
 * every descendant it (or its descendants) waited for: Linux keeps it in
 * signal->cmaxrss at each wait and wait4 reports max(own, cmaxrss) (KiB);
 * XNU adds the children's rusage into the one wait4 returns (bytes; from
 * XNU's source, unverified on a Mac).  A descendant that was reaped by init
 * or by another subreaper, or auto-reaped (its parent ignored SIGCHLD), is
 * not in it.  It is a per-process maximum, not a sum over processes.
 *
 * The job's own group (Linux: a cgroup v2 or v1, core/platform/linux_cgroup.c)
 * is the platform's (group_* in st_platform); this file drives it. */
#include "stagetop/peak.h"
#include "stagetop/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int st_peak_source_known(const char *name)
{
    static const char *const names[] = { ST_PEAK_SAMPLED, ST_PEAK_WAIT4, ST_PEAK_LIFETIME,
                                         ST_PEAK_CGROUP };
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

void st_peak_bind(st_job_peak *pk, const st_platform *plat, st_backend *b)
{
    pk->plat = plat;
    pk->b = b;
}

static void note_max(uint64_t *v, int *has, uint64_t bytes)
{
    if (!*has || bytes > *v)
        *v = bytes;
    *has = 1;
}

static void cg_settle(st_job_peak *pk, int force);

pid_t st_peak_reap(st_job_peak *pk, pid_t which, int *status)
{
    siginfo_t si;
    pid_t pid = which;
    int r;
    memset(&si, 0, sizeof si);
    do {
        r = waitid(which == -1 ? P_ALL : which < 0 ? P_PGID : P_PID,
                   (id_t)(which == -1 ? 0 : which < 0 ? -which : which), &si,
                   WEXITED | WNOHANG | WNOWAIT);
    } while (r < 0 && errno == EINTR);
    if (r == 0 && si.si_pid > 0) {
        pid = si.si_pid; /* a zombie: its lifetime peak is still readable */
        uint64_t v;
        if (pk->plat && pk->plat->zombie_peak && pk->b &&
            pk->plat->zombie_peak(pk->b, (int32_t)pid, &v, NULL) == ST_OK)
            note_max(&pk->lifetime, &pk->has_lifetime, v);
    }
    /* Otherwise wait4 on `which` itself: none has exited (0), none is left
     * (ECHILD), or waitid cannot peek here; reaping must never depend on
     * waitid.  A child exiting between the two calls is reaped without its
     * zombie read (the wait4 mark is kept). */
    struct rusage ru;
    pid_t w;
    memset(&ru, 0, sizeof ru);
    do {
        w = wait4(pid, status, WNOHANG, &ru);
    } while (w < 0 && errno == EINTR);
    if (w > 0 && w == pk->root)
        pk->root_reaped = 1;
    if (w > 0 && pk->rates) /* its last counters, with its reaped children's: the cpu and pageins lanes */
        st_tree_note_exit(pk->rates, (int32_t)w,
                          ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
                              ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u,
                          (uint64_t)ru.ru_majflt);
    if (w > 0 && pk->root_reaped)
        cg_settle(pk, 0); /* the tree may be empty now */
    if (w > 0 && ru.ru_maxrss > 0) {
        const st_platform *plat = pk->plat ? pk->plat : &st_platform_native;
        uint64_t bytes = (uint64_t)ru.ru_maxrss * (plat->maxrss_in_bytes ? 1u : 1024u);
        note_max(&pk->wait4, &pk->has_wait4, bytes);
    }
    return w;
}

void st_peak_feed(const st_job_peak *pk, st_summary *s)
{
    if (pk->has_wait4)
        st_summary_add_kernel_peak_from(s, pk->wait4, ST_PEAK_WAIT4);
    if (pk->has_lifetime)
        st_summary_add_kernel_peak_from(s, pk->lifetime, ST_PEAK_LIFETIME);
    if (pk->has_cgroup)
        st_summary_add_kernel_peak_from(s, pk->cgroup, ST_PEAK_CGROUP);
}

/* The job's own group, through the native platform's group_* functions
 * (st_job_group in platform.h; Linux: core/platform/linux_cgroup.c). */
static void why(st_job_peak *pk, const char *text)
{
    snprintf(pk->grp.why, sizeof pk->grp.why, "%s", text);
    snprintf(pk->grp.where, sizeof pk->grp.where, "stagetop's own cgroup (no cgroup of its own: %s)",
             text);
}

void st_peak_prepare(st_job_peak *pk)
{
    const st_platform *p = &st_platform_native;
    const char *env = getenv("STAGETOP_CGROUP");
    memset(pk, 0, sizeof *pk);
    pk->grp.fd = pk->grp.stat_fd = pk->grp.swap_fd = pk->grp.procs_rfd = -1;
    if (env && strcmp(env, "0") == 0)
        why(pk, "turned off (STAGETOP_CGROUP=0)");
    else if (!p->group_prepare)
        why(pk, "no cgroups on this system");
    else
        p->group_prepare(&pk->grp);
}

void st_peak_child_enter(const st_job_peak *pk)
{
    if (pk && pk->grp.active && st_platform_native.group_enter)
        st_platform_native.group_enter(&pk->grp);
}

void st_peak_discard(st_job_peak *pk)
{
    if (pk->grp.active && st_platform_native.group_discard)
        st_platform_native.group_discard(&pk->grp);
}

void st_peak_spawned(st_job_peak *pk, pid_t pid)
{
    pk->root = pid;
    if (pk->grp.active && st_platform_native.group_spawned)
        st_platform_native.group_spawned(&pk->grp, (int32_t)pid);
}

/* Read the group's peak, then remove the group if it is empty; force: give
 * it up either way (group_settle). */
static void cg_settle(st_job_peak *pk, int force)
{
    uint64_t v = 0;
    if (pk->grp.active && st_platform_native.group_settle &&
        st_platform_native.group_settle(&pk->grp, force, &v))
        note_max(&pk->cgroup, &pk->has_cgroup, v);
}

void st_peak_finish(st_job_peak *pk)
{
    cg_settle(pk, 1);
}
