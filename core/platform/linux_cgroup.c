/* linux_cgroup.c: the launched job's own cgroup (st_platform_native's
 * group_* functions; docs/metrics.md, "cgroup").
 *
 * A directory stagetop-PID-N under stagetop's own cgroup v2, or where the
 * memory controller is on a cgroup v1 hierarchy, under stagetop's own
 * memory cgroup there (never beside it or elsewhere:
 * st_lx_group_prepare_at says why), created before the fork; the child
 * writes "0" to its cgroup.procs before exec, so everything the job forks
 * is charged there: memory.stat counts the tree's pages once
 * (group_footprint, linux_share.c), and memory.peak (v2, Linux 5.19+) or
 * memory.max_usage_in_bytes (v1) is the highest total of the whole tree,
 * exited processes included. */
#include "linux_cgroup.h"
#include "stagetop/cgroup_limit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void why(st_job_group *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->why, sizeof g->why, fmt, ap);
    va_end(ap);
}

/* snprintf whose truncation is expected (a long path is cut, not refused). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void put(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

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

static int has_word(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
            return 1;
    return 0;
}

/* The cgroup v1 mount of the memory controller: its root and mount point
 * (mountinfo fields 4 and 5, " - cgroup " with "memory" among the super
 * options).  0, or -1 when there is none. */
static int cg1_mount(char *root, size_t rlen, char *mnt, size_t mlen)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char line[4096];
    int found = -1;
    if (!f)
        return -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        char r[1024], m[1024], opts[1024];
        const char *sep = strstr(line, " - ");
        if (!sep || strncmp(sep, " - cgroup ", 10) != 0)
            continue;
        if (sscanf(sep + 10, "%*s %1023s", opts) != 1)
            continue;
        for (char *c = opts; *c; c++)
            if (*c == ',')
                *c = ' ';
        if (!has_word(opts, "memory"))
            continue;
        if (sscanf(line, "%*s %*s %*s %1023s %1023s", r, m) != 2 || strchr(m, '\\'))
            continue;
        if (strlen(r) < rlen && strlen(m) < mlen) {
            strcpy(root, r);
            strcpy(mnt, m);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* The memory controller's path (v1's memory line, or v2's "0::PATH") in
 * /proc/PID/cgroup ("self" for pid 0): 0, or -1 when there is none. */
static int cg_of(pid_t pid, int v1, char *rel, size_t len)
{
    char path[64], buf[4096];
    int n;
    if (pid > 0)
        snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    else
        snprintf(path, sizeof path, "/proc/self/cgroup");
    if ((n = read_small(path, buf, sizeof buf)) < 0)
        return -1;
    return st_cg_path_of(buf, (size_t)n, v1, rel, len) ? 0 : -1;
}

/* Remove the empty stagetop-PID-N cgroups under dir whose stagetop is gone
 * (one killed by SIGKILL could not): rmdir removes a cgroup only when no
 * process is in it, and one whose PID runs (another stagetop, or a process
 * that took the number) is left. */
static void sweep_stale(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[1200];
    while (d && (de = readdir(d)) != NULL) {
        int pid, n, end = 0;
        if (sscanf(de->d_name, "stagetop-%d-%d%n", &pid, &n, &end) != 2 || de->d_name[end] != '\0' ||
            pid <= 0 || pid == (int)getpid() || kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        (void)rmdir(path);
    }
    if (d)
        closedir(d);
}

/* Try to make the job's cgroup under dir (whose path in /proc is rel). */
static int try_under(st_job_group *g, const char *dir, const char *rel)
{
    char path[1200], ctl[256];
    if (g->v1) { /* v1: the controller is there; its counting must reach dir */
        snprintf(path, sizeof path, "%s/memory.use_hierarchy", dir);
        if (read_small(path, ctl, sizeof ctl) > 0 && ctl[0] == '0') {
            why(g, "memory.use_hierarchy is 0 in %s: a cgroup of its own would not count "
                   "against its limits", dir);
            return -1;
        }
    } else {
        snprintf(path, sizeof path, "%s/cgroup.subtree_control", dir);
        if (read_small(path, ctl, sizeof ctl) < 0 || !has_word(ctl, "memory")) {
            why(g, "the memory controller is not enabled for the children of %s", dir);
            return -1;
        }
    }
    sweep_stale(dir);
    for (int n = 0; n < 16; n++) {
        int w = snprintf(g->dir, sizeof g->dir, "%s/stagetop-%d-%d", dir, (int)getpid(), n);
        int wr = snprintf(g->rel, sizeof g->rel, "%s/stagetop-%d-%d",
                          strcmp(rel, "/") == 0 ? "" : rel, (int)getpid(), n);
        if (w < 0 || (size_t)w >= sizeof g->dir || wr < 0 || (size_t)wr >= sizeof g->rel) {
            why(g, "cgroup path too long under %s", dir);
            return -1;
        }
        if (mkdir(g->dir, 0755) == 0)
            break;
        if (errno != EEXIST || n == 15) {
            why(g, "cannot create a cgroup under %s: %s", dir, strerror(errno));
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s/%s", g->dir, g->v1 ? "memory.stat" : "memory.peak");
    if (access(path, R_OK) != 0) {
        if (g->v1)
            why(g, "no memory.stat in %s", g->dir);
        else
            why(g, "no memory.peak in %s (Linux 5.19 or later has it)", g->dir);
        (void)rmdir(g->dir);
        return -1;
    }
    snprintf(path, sizeof path, "%s/cgroup.procs", g->dir);
    g->fd = open(path, O_WRONLY | O_CLOEXEC);
    if (g->fd < 0) {
        why(g, "cannot open %s: %s", path, strerror(errno));
        (void)rmdir(g->dir);
        return -1;
    }
    g->active = 1;
    g->why[0] = '\0';
    return 0;
}

/* Where the job runs, once the placement is decided. */
static void say_where(st_job_group *g, const char *home_rel)
{
    if (g->active)
        put(g->where, sizeof g->where,
                 "cgroup %s%s, its own inside stagetop's (every limit of stagetop's and above applies)",
                 g->rel, g->v1 ? " (cgroup v1, memory)" : "");
    else if (home_rel)
        put(g->where, sizeof g->where, "stagetop's cgroup %s (no cgroup of its own: %s)",
                 home_rel, g->why);
    else
        put(g->where, sizeof g->where, "stagetop's own cgroup (no cgroup of its own: %s)", g->why);
}

/* dir = the mount point + rel under the mount's root (in g->home): 0, or
 * -1 (said) when rel is outside the mount or too long. */
static int home_dir(st_job_group *g, const char *mnt, const char *root, const char *rel)
{
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    if (rl && (strncmp(rel, root, rl) != 0 || (rel[rl] != '/' && rel[rl] != '\0'))) {
        why(g, "stagetop's cgroup %s is outside the cgroup%s mount at %s", rel,
            g->v1 ? " v1 memory" : " v2", mnt);
        return -1;
    }
    int w = snprintf(g->home, sizeof g->home, "%s%s", mnt, strcmp(rel + rl, "/") == 0 ? "" : rel + rl);
    if (w < 0 || (size_t)w >= sizeof g->home) {
        why(g, "stagetop's cgroup path is too long");
        return -1;
    }
    return 0;
}

static void start(st_job_group *g, int v1)
{
    g->active = 0;
    g->fd = g->stat_fd = g->swap_fd = g->procs_rfd = -1;
    g->v1 = v1;
}

/* Only under stagetop's own cgroup, never beside it: a cgroup beside it
 * would take the job out of the limits (memory.max, pids.max, cpu.max) that
 * whoever started stagetop put on it and its ancestors (a systemd scope, a
 * Slurm step, a container).  A cgroup that holds processes (stagetop) cannot
 * enable the memory controller for children unless it is the root, so
 * usually the job simply stays where stagetop runs, and says why. */
void st_lx_group_prepare_at(st_job_group *g, const char *mnt, const char *root, const char *rel)
{
    start(g, 0);
    if (home_dir(g, mnt, root, rel) != 0) {
        say_where(g, NULL);
        return;
    }
    if (try_under(g, g->home, rel) != 0)
        why(g, "its memory controller is not enabled for children (a cgroup holding processes "
               "cannot enable it), and one beside it would leave its limits");
    say_where(g, rel);
}

/* cgroup v1 has no rule against a cgroup holding processes having
 * children: the job's cgroup is made under stagetop's own memory cgroup
 * where stagetop may create one (root, or a directory it may write), and
 * the hierarchy's accounting (memory.use_hierarchy, always on since Linux
 * 5.11) charges it to stagetop's cgroup and its ancestors, limits
 * included. */
void st_lx_group_prepare_v1_at(st_job_group *g, const char *mnt, const char *root, const char *rel)
{
    char reason[300];
    start(g, 1);
    if (home_dir(g, mnt, root, rel) != 0) {
        say_where(g, NULL);
        return;
    }
    if (try_under(g, g->home, rel) != 0) {
        snprintf(reason, sizeof reason, "%s", g->why);
        why(g, "the memory controller is on a cgroup v1 hierarchy, and %s", reason);
    }
    say_where(g, rel);
}

void st_lx_group_prepare(st_job_group *g)
{
    char root[1024], mnt[1024], rel[1024], ctl[256], path[1100];
    const char *v2why = NULL;
    start(g, 0);
    if (cg2_mount(root, sizeof root, mnt, sizeof mnt) != 0)
        v2why = "cgroup v2 is not mounted";
    else {
        snprintf(path, sizeof path, "%s/cgroup.controllers", mnt);
        if (read_small(path, ctl, sizeof ctl) < 0 || !has_word(ctl, "memory"))
            v2why = "no memory controller on cgroup v2";
    }
    if (!v2why) {
        if (cg_of(0, 0, rel, sizeof rel) != 0) {
            why(g, "stagetop's own cgroup v2 is unknown (/proc/self/cgroup)");
            say_where(g, NULL);
            return;
        }
        st_lx_group_prepare_at(g, mnt, root, rel);
        return;
    }
    if (cg1_mount(root, sizeof root, mnt, sizeof mnt) != 0) {
        why(g, "%s, and no cgroup v1 hierarchy has the memory controller", v2why);
        say_where(g, NULL);
        return;
    }
    if (cg_of(0, 1, rel, sizeof rel) != 0) {
        why(g, "stagetop's own cgroup v1 memory cgroup is unknown (/proc/self/cgroup)");
        say_where(g, NULL);
        return;
    }
    st_lx_group_prepare_v1_at(g, mnt, root, rel);
}

void st_lx_group_enter(const st_job_group *g)
{
    if (g && g->active) {
        ssize_t w = write(g->fd, "0", 1); /* "0": the writer itself */
        (void)w; /* failing: the job runs where stagetop runs (checked after) */
    }
}

static void close_stats(st_job_group *g)
{
    if (g->stat_fd >= 0)
        close(g->stat_fd);
    if (g->swap_fd >= 0)
        close(g->swap_fd);
    if (g->procs_rfd >= 0)
        close(g->procs_rfd);
    g->stat_fd = g->swap_fd = g->procs_rfd = -1;
}

int st_lx_group_open_stats(st_job_group *g)
{
    char path[600];
    close_stats(g);
    snprintf(path, sizeof path, "%s/memory.stat", g->dir);
    if ((g->stat_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return -1;
    if (!g->v1) {
        snprintf(path, sizeof path, "%s/memory.swap.current", g->dir);
        g->swap_fd = open(path, O_RDONLY | O_CLOEXEC); /* -1: no swap accounting (0 then) */
    }
    /* v2 lists the cgroup's tasks anew at each read from offset 0; v1
     * keeps the list it made at the first read after open while it is
     * read again within a second (kernel/cgroup/cgroup-v1.c,
     * cgroup_pidlist_start), so there group_pids opens it each time */
    if (!g->v1) {
        snprintf(path, sizeof path, "%s/cgroup.procs", g->dir);
        g->procs_rfd = open(path, O_RDONLY | O_CLOEXEC);
    }
    return 0;
}

void st_lx_group_discard(st_job_group *g)
{
    if (!g->active)
        return;
    if (g->fd >= 0)
        close(g->fd);
    g->fd = -1;
    close_stats(g);
    (void)rmdir(g->dir);
    g->active = 0;
}

void st_lx_group_spawned(st_job_group *g, int32_t pid)
{
    char rel[1024];
    if (!g->active)
        return;
    close(g->fd); /* the child wrote through its copy before exec */
    g->fd = -1;
    if (cg_of((pid_t)pid, g->v1, rel, sizeof rel) != 0 ||
        strcmp(rel, g->rel) != 0) {
        st_lx_group_discard(g);
        why(g, "the job could not join the cgroup %s", g->dir);
        put(g->where, sizeof g->where, "stagetop's own cgroup (no cgroup of its own: %s)", g->why);
        return;
    }
    (void)st_lx_group_open_stats(g); /* failing: the footprint is the members' (tree.c) */
}

/* Move every process still in the job's cgroup back home. */
static void move_home(const st_job_group *g)
{
    char path[600], buf[4096];
    snprintf(path, sizeof path, "%s/cgroup.procs", g->dir);
    if (read_small(path, buf, sizeof buf) <= 0)
        return;
    snprintf(path, sizeof path, "%s/cgroup.procs", g->home);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        (void)!write(fd, l, strlen(l)); /* one pid per write, as the kernel wants */
    close(fd);
}

/* A cgroup whose last process has just exited can answer EBUSY for a
 * moment: forced, the removal is retried (up to 1 s). */
int st_lx_group_settle(st_job_group *g, int force, uint64_t *peak)
{
    char path[600], buf[64];
    int got = 0;
    if (!g->active)
        return 0;
    snprintf(path, sizeof path, "%s/%s", g->dir, g->v1 ? "memory.max_usage_in_bytes" : "memory.peak");
    if (read_small(path, buf, sizeof buf) > 0) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(buf, &end, 10);
        if (errno == 0 && end != buf) {
            *peak = (uint64_t)v;
            got = 1;
        }
    }
    if (rmdir(g->dir) == 0 || errno == ENOENT) {
        close_stats(g);
        g->active = 0;
        return got;
    }
    if (!force)
        return got; /* processes left: the next reap or st_peak_finish */
    move_home(g);
    int r = -1, e = 0;
    for (int i = 0; i < 50 && (r = rmdir(g->dir)) != 0 && (e = errno) == EBUSY; i++) {
        struct timespec ts = { 0, 20 * 1000000L };
        nanosleep(&ts, NULL);
    }
    if (r != 0 && e != ENOENT)
        why(g, "could not remove the cgroup %s: %s", g->dir, strerror(e));
    close_stats(g);
    g->active = 0;
    return got;
}
