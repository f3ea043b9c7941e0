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
 * The cgroup (Linux only): a directory stagetop-PID-N under stagetop's own
 * cgroup v2 (or, when that one holds processes and so cannot enable the
 * memory controller for children, under its parent), created before the
 * fork; the child writes "0" to its cgroup.procs before exec, so everything
 * the job forks is charged there and memory.peak (Linux 5.19+) is the
 * highest total of the whole tree, exited processes included. */
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
        r = waitid(which < 0 ? P_PGID : P_PID, (id_t)(which < 0 ? -which : which), &si,
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
#if defined(__APPLE__)
        uint64_t bytes = (uint64_t)ru.ru_maxrss;
#else
        uint64_t bytes = (uint64_t)ru.ru_maxrss * 1024u;
#endif
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

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void why(st_job_peak *pk, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pk->cg_why, sizeof pk->cg_why, fmt, ap);
    va_end(ap);
}

#if defined(__linux__)

/* The first line of a small file, without its newline; -1 if unreadable. */
static int read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n;
    do {
        n = read(fd, buf, len - 1);
    } while (n < 0 && errno == EINTR);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return (int)n;
}

/* The cgroup2 mount's root and mount point (/proc/self/mountinfo fields 4
 * and 5, before " - cgroup2 ").  0, or -1 when cgroup v2 is not mounted. */
static int cg2_mount(char *root, size_t rlen, char *mnt, size_t mlen)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char line[4096];
    int found = -1;
    if (!f)
        return -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        char r[1024], m[1024];
        const char *sep = strstr(line, " - ");
        if (!sep || strncmp(sep, " - cgroup2 ", 11) != 0)
            continue;
        if (sscanf(line, "%*s %*s %*s %1023s %1023s", r, m) != 2 || strchr(m, '\\'))
            continue; /* an escaped (odd) mount point: not ours to guess */
        if (strlen(r) < rlen && strlen(m) < mlen) {
            strcpy(root, r);
            strcpy(mnt, m);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* The v2 line ("0::PATH") of /proc/PID/cgroup ("self" for pid 0). */
static int cg2_of(pid_t pid, char *rel, size_t len)
{
    char path[64], buf[4096];
    if (pid > 0)
        snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    else
        snprintf(path, sizeof path, "/proc/self/cgroup");
    if (read_small(path, buf, sizeof buf) < 0)
        return -1;
    for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "0::", 3) != 0)
            continue;
        size_t n = strcspn(l + 3, "\n");
        if (n == 0 || n >= len)
            return -1;
        memcpy(rel, l + 3, n);
        rel[n] = '\0';
        return 0;
    }
    return -1;
}

static int has_word(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
            return 1;
    return 0;
}

/* Try to make the job's cgroup under dir (whose path in /proc is rel). */
static int try_under(st_job_peak *pk, const char *dir, const char *rel)
{
    char path[600], ctl[256];
    snprintf(path, sizeof path, "%s/cgroup.subtree_control", dir);
    if (read_small(path, ctl, sizeof ctl) < 0 || !has_word(ctl, "memory")) {
        why(pk, "the memory controller is not enabled for the children of %s", dir);
        return -1;
    }
    for (int n = 0; n < 16; n++) {
        int w = snprintf(pk->cg_dir, sizeof pk->cg_dir, "%s/stagetop-%d-%d", dir, (int)getpid(), n);
        int wr = snprintf(pk->cg_rel, sizeof pk->cg_rel, "%s/stagetop-%d-%d",
                          strcmp(rel, "/") == 0 ? "" : rel, (int)getpid(), n);
        if (w < 0 || (size_t)w >= sizeof pk->cg_dir || wr < 0 || (size_t)wr >= sizeof pk->cg_rel) {
            why(pk, "cgroup path too long under %s", dir);
            return -1;
        }
        if (mkdir(pk->cg_dir, 0755) == 0)
            break;
        if (errno != EEXIST || n == 15) {
            why(pk, "cannot create a cgroup under %s: %s", dir, strerror(errno));
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s/memory.peak", pk->cg_dir);
    if (access(path, R_OK) != 0) {
        why(pk, "no memory.peak in %s (Linux 5.19 or later has it)", pk->cg_dir);
        (void)rmdir(pk->cg_dir);
        return -1;
    }
    snprintf(path, sizeof path, "%s/cgroup.procs", pk->cg_dir);
    pk->cg_fd = open(path, O_WRONLY | O_CLOEXEC);
    if (pk->cg_fd < 0) {
        why(pk, "cannot open %s: %s", path, strerror(errno));
        (void)rmdir(pk->cg_dir);
        return -1;
    }
    pk->cg_active = 1;
    pk->cg_why[0] = '\0';
    return 0;
}

void st_peak_prepare(st_job_peak *pk)
{
    char root[1024], mnt[1024], rel[1024], dir[1100], prel[1024];
    const char *env = getenv("STAGETOP_CGROUP");
    memset(pk, 0, sizeof *pk);
    pk->cg_fd = -1;
    if (env && strcmp(env, "0") == 0) {
        why(pk, "turned off (STAGETOP_CGROUP=0)");
        return;
    }
    if (cg2_mount(root, sizeof root, mnt, sizeof mnt) != 0) {
        why(pk, "cgroup v2 not mounted");
        return;
    }
    char ctl[256], path[1100];
    snprintf(path, sizeof path, "%s/cgroup.controllers", mnt);
    if (read_small(path, ctl, sizeof ctl) < 0 || !has_word(ctl, "memory")) {
        why(pk, "the memory controller is not on cgroup v2 at %s (a v1 hierarchy has it)", mnt);
        return;
    }
    if (cg2_of(0, rel, sizeof rel) != 0) {
        why(pk, "stagetop's own cgroup v2 is unknown (/proc/self/cgroup)");
        return;
    }
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    if (rl && (strncmp(rel, root, rl) != 0 || (rel[rl] != '/' && rel[rl] != '\0'))) {
        why(pk, "stagetop's cgroup %s is outside the cgroup v2 mount at %s", rel, mnt);
        return;
    }
    int w = snprintf(dir, sizeof dir, "%s%s", mnt, strcmp(rel + rl, "/") == 0 ? "" : rel + rl);
    if (w < 0 || (size_t)w >= sizeof pk->cg_home) {
        why(pk, "stagetop's cgroup path is too long");
        return;
    }
    memcpy(pk->cg_home, dir, (size_t)w + 1);
    if (try_under(pk, dir, rel) == 0)
        return;
    /* stagetop's cgroup holds processes (at least stagetop), so unless it
     * is the root it cannot enable controllers for children: try beside it. */
    char *slash = strrchr(dir, '/');
    snprintf(prel, sizeof prel, "%s", rel);
    char *pslash = strrchr(prel, '/');
    if (!slash || !pslash || strlen(dir) <= strlen(mnt) || strcmp(rel, "/") == 0)
        return;
    *slash = '\0';
    if (pslash == prel)
        pslash[1] = '\0';
    else
        *pslash = '\0';
    (void)try_under(pk, dir, prel); /* failing: cg_why says why (this try) */
}

void st_peak_child_enter(const st_job_peak *pk)
{
    if (pk && pk->cg_active) {
        ssize_t w = write(pk->cg_fd, "0", 1); /* "0": the writer itself */
        (void)w; /* failing: the job runs where stagetop runs (checked after) */
    }
}

void st_peak_discard(st_job_peak *pk)
{
    if (!pk->cg_active)
        return;
    if (pk->cg_fd >= 0)
        close(pk->cg_fd);
    pk->cg_fd = -1;
    (void)rmdir(pk->cg_dir);
    pk->cg_active = 0;
}

void st_peak_spawned(st_job_peak *pk, pid_t pid)
{
    char rel[1024];
    pk->root = pid;
    if (!pk->cg_active)
        return;
    close(pk->cg_fd); /* the child wrote through its copy before exec */
    pk->cg_fd = -1;
    if (cg2_of(pid, rel, sizeof rel) != 0 || strcmp(rel, pk->cg_rel) != 0) {
        st_peak_discard(pk);
        why(pk, "the job could not join the cgroup %s", pk->cg_dir);
    }
}

/* Move every process still in the job's cgroup back home. */
static void move_home(const st_job_peak *pk)
{
    char path[600], buf[4096];
    snprintf(path, sizeof path, "%s/cgroup.procs", pk->cg_dir);
    if (read_small(path, buf, sizeof buf) <= 0)
        return;
    snprintf(path, sizeof path, "%s/cgroup.procs", pk->cg_home);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        (void)!write(fd, l, strlen(l)); /* one pid per write, as the kernel wants */
    close(fd);
}

/* Read memory.peak, then remove the cgroup if it is empty; force: move
 * what is left back home first, and give up on the cgroup either way.  A
 * cgroup whose last process has just exited can answer EBUSY for a moment:
 * forced, that is retried (up to 1 s). */
static void cg_settle(st_job_peak *pk, int force)
{
    char path[600], buf[64];
    if (!pk->cg_active)
        return;
    snprintf(path, sizeof path, "%s/memory.peak", pk->cg_dir);
    if (read_small(path, buf, sizeof buf) > 0) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(buf, &end, 10);
        if (errno == 0 && end != buf)
            note_max(&pk->cgroup, &pk->has_cgroup, (uint64_t)v);
    }
    if (rmdir(pk->cg_dir) == 0 || errno == ENOENT) {
        pk->cg_active = 0;
        return;
    }
    if (!force)
        return; /* processes left: the next reap or st_peak_finish */
    move_home(pk);
    int r = -1, e = 0;
    for (int i = 0; i < 50 && (r = rmdir(pk->cg_dir)) != 0 && (e = errno) == EBUSY; i++) {
        struct timespec ts = { 0, 20 * 1000000L };
        nanosleep(&ts, NULL);
    }
    if (r != 0 && e != ENOENT)
        why(pk, "could not remove the cgroup %s: %s", pk->cg_dir, strerror(e));
    pk->cg_active = 0;
}

void st_peak_finish(st_job_peak *pk)
{
    cg_settle(pk, 1);
}

#else /* no cgroups */

void st_peak_prepare(st_job_peak *pk)
{
    memset(pk, 0, sizeof *pk);
    pk->cg_fd = -1;
    why(pk, "no cgroups on this system");
}

void st_peak_child_enter(const st_job_peak *pk) { (void)pk; }
void st_peak_spawned(st_job_peak *pk, pid_t pid) { pk->root = pid; }
void st_peak_discard(st_job_peak *pk) { (void)pk; }
void st_peak_finish(st_job_peak *pk) { (void)pk; }
static void cg_settle(st_job_peak *pk, int force) { (void)pk; (void)force; }

#endif
