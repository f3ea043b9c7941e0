/* platform_linux.c: the Linux backend, reading /proc.
 *
 * The per-process work (walking a tree through every thread's children
 * file, reading members through cached /proc fds) is in linux_procs.c,
 * the reading both use (a whole /proc file, a stat line) in linux_read.c;
 * this file has the table, the system numbers, command lines, the picker's
 * list and signals.  docs/performance.md ("Sampling") has the costs. */
#include "linux_procs.h"
#include "linux_cgroup.h"
#include "stagetop/env_block.h"
#include "stagetop/grow.h"
#include "stagetop/lanes.h"
#include "stagetop/sample.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture */
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

#define ST_LX_FD_MAX 512 /* most /proc fds kept open between samples */

/* ---- the table's functions ---------------------------------------------- */

static int lx_open(st_backend **out, st_error *err)
{
    struct rlimit rl;
    st_backend *b = calloc(1, sizeof *b);
    if (!b)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    /* Cached fds: at most ST_LX_FD_MAX, and a quarter of the fd limit. */
    b->fd_limit = ST_LX_FD_MAX;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 4 < b->fd_limit)
        b->fd_limit = (size_t)(rl.rlim_cur / 4);
    if (st_lx_grow_buf(b) != 0) {
        free(b);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    }
    b->meminfo_fd = -1;
    b->psi_fd = -1;
    b->zswap_on = -1;
    {
        long hz = sysconf(_SC_CLK_TCK);
        b->tick_ns = hz > 0 && hz <= 1000000000L ? 1000000000ull / (uint64_t)hz : 10000000ull;
    }
    b->gen = 1; /* a stash_gen of 0 means "no stash" */
    *out = b;
    return ST_OK;
}

static void lx_close(st_backend *b)
{
    if (!b)
        return;
    st_lx_forget_all(b);
    if (b->meminfo_fd >= 0)
        close(b->meminfo_fd);
    if (b->psi_fd >= 0)
        close(b->psi_fd);
    free(b->buf);
    free(b->kids);
    free(b->nthr);
    free(b);
}

static int lx_identify_parent(st_backend *b, int32_t pid, st_proc_ref *out, st_error *err)
{
    st_lx_stat st;
    int rc = st_lx_read_stat(b, pid, &st, err);
    if (rc != ST_OK)
        return rc;
    out->id.pid = pid;
    out->id.start = st.start;
    out->ppid = st.ppid > 0 ? st.ppid : 0;
    return ST_OK;
}

static int lx_is_zombie(st_backend *b, int32_t pid)
{
    st_lx_stat st;
    if (st_lx_read_stat(b, pid, &st, NULL) != ST_OK)
        return -1;
    return st.state == 'Z';
}

/* The job's orphans re-parent to us, not to init (prctl(2)). */
static int lx_become_subreaper(void)
{
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

/* The boot time plus the start's clock ticks (proc(5): /proc/stat's btime,
 * /proc/PID/stat's starttime "expressed in clock ticks (divide by
 * sysconf(_SC_CLK_TCK))" since boot).  btime is read once: the kernel
 * derives it from the clocks each time, so a stepped wall clock would move
 * every process's start by as much. */
static int lx_start_time(st_backend *b, st_proc_id id, double *out, st_error *err)
{
    if (b->btime_read == 0) {
        ssize_t n = st_lx_read_path(b, "/proc/stat");
        b->btime_read = n > 0 && st_lx_parse_btime(b->buf, (size_t)n, &b->btime, NULL) == ST_OK ? 1 : -1;
    }
    if (b->btime_read < 0)
        return st_error_set(err, ST_EIO, 0, "/proc/stat: no boot time (btime)");
    uint64_t hz = 1000000000ull / b->tick_ns; /* whole seconds, then the ticks left */
    *out = (double)(b->btime + id.start / hz) + (double)(id.start % hz) / (double)hz;
    return ST_OK;
}

static int lx_identify(st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    return st_identify_by_parent(lx_identify_parent, b, pid, out, err);
}

/* pread a system file kept open in *fdp (opened on first use). */
static ssize_t read_sys_file(st_backend *b, int *fdp, const char *path)
{
    ssize_t n;
    if (*fdp < 0) {
        *fdp = open(path, O_RDONLY | O_CLOEXEC);
        if (*fdp < 0)
            return -errno;
    }
    n = st_lx_pread_whole(b, *fdp);
    if (n < 0) {
        close(*fdp);
        *fdp = -1;
    }
    return n;
}

static int lx_read_system(st_backend *b, st_sys_mem *out, st_error *err)
{
    st_lx_meminfo mi;
    ssize_t n;
    int rc;
    memset(out, 0, sizeof *out);
    n = read_sys_file(b, &b->meminfo_fd, "/proc/meminfo");
    if (n < 0)
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "/proc/meminfo: %s", strerror((int)-n));
    if ((rc = st_lx_parse_meminfo(b->buf, (size_t)n, &mi, err)) != ST_OK)
        return rc;
    if (mi.valid & ST_LX_MEMTOTAL) {
        out->mem_total = mi.mem_total;
        out->valid |= ST_SYS_MEMTOTAL;
    }
    if ((mi.valid & (ST_LX_MEMTOTAL | ST_LX_MEMAVAILABLE)) == (ST_LX_MEMTOTAL | ST_LX_MEMAVAILABLE) &&
        mi.mem_total >= 1024) {
        uint64_t c = (mi.mem_available >> 10) * 10000 / (mi.mem_total >> 10);
        out->level_c = (uint16_t)(c > 10000 ? 10000 : c);
        out->valid |= ST_SYS_LEVEL;
    }
    if (mi.valid & ST_LX_SWAPTOTAL) {
        out->swap_total = mi.swap_total;
        out->valid |= ST_SYS_SWAPTOTAL;
        if (mi.valid & ST_LX_SWAPFREE) {
            out->swap_used = mi.swap_free < mi.swap_total ? mi.swap_total - mi.swap_free : 0;
            out->valid |= ST_SYS_SWAP;
        }
    }
    if (b->zswap_on < 0) { /* asked once: switching zswap on is rare */
        char yn = 'N';
        int fd = open("/sys/module/zswap/parameters/enabled", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (read(fd, &yn, 1) != 1)
                yn = 'N';
            close(fd);
        }
        b->zswap_on = yn == 'Y' || yn == 'y' || yn == '1';
    }
    if ((mi.valid & ST_LX_ZSWAP) && b->zswap_on) {
        out->compressed = mi.zswap;
        out->valid |= ST_SYS_COMPRESSED;
    }
    if (b->psi_fd != -2) {
        uint16_t c;
        n = read_sys_file(b, &b->psi_fd, "/proc/pressure/memory");
        if (n < 0)
            b->psi_fd = -2; /* no PSI here (old kernel, or psi=0): stop asking */
        else if (st_lx_parse_psi(b->buf, (size_t)n, &c, NULL) == ST_OK) {
            out->pressure_c = c;
            out->valid |= ST_SYS_PRESSURE;
        }
    }
    return ST_OK;
}

static int lx_command(st_backend *b, st_proc_id id, char *buf, size_t len, st_error *err)
{
    char path[64];
    st_lx_stat st;
    size_t off = 0;
    int fd, rc;
    if (!buf || len == 0)
        return st_error_set(err, ST_EINVAL, EINVAL, "no room for a command");
    buf[0] = '\0';
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)id.pid);
    if (id.pid > 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
        while (off < len - 1) {
            ssize_t n = read(fd, buf + off, len - 1 - off);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            off += (size_t)n;
        }
        close(fd);
    }
    /* Identity after the read: then what was read is this process's. */
    rc = st_lx_read_stat(b, id.pid, &st, err);
    if (rc == ST_OK && st.start != id.start)
        rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
    if (rc != ST_OK) {
        buf[0] = '\0';
        return rc;
    }
    while (off > 0 && buf[off - 1] == '\0')
        off--;
    for (size_t i = 0; i < off; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[off] = '\0';
    if (off == 0)
        snprintf(buf, len, "%s", st.comm);
    return ST_OK;
}

static int lx_list_all(st_backend *b, st_proc_vec *out, st_error *err)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    st_proc_vec_clear(out);
    if (!d)
        return st_error_set(err, st_lx_map_errno(errno), errno, "/proc: %s", strerror(errno));
    while ((de = readdir(d)) != NULL) {
        char *end;
        long v;
        st_lx_stat st;
        st_proc_ref ref;
        int rc;
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        v = strtol(de->d_name, &end, 10);
        if (*end || v <= 0 || v > INT32_MAX || st_lx_read_stat(b, (int32_t)v, &st, NULL) != ST_OK)
            continue;
        ref.id.pid = (int32_t)v;
        ref.id.start = st.start;
        ref.ppid = st.ppid;
        if ((rc = st_proc_vec_push(out, &ref, err)) != ST_OK) {
            closedir(d);
            return rc;
        }
    }
    closedir(d);
    return ST_OK;
}

static int signal_result(int r, int e, st_proc_id id, int sig, st_error *err)
{
    if (r == 0)
        return ST_OK;
    return st_error_set(err, st_lx_map_errno(e), e, "signal %d to process %d: %s", sig, (int)id.pid,
                        strerror(e));
}

static int lx_send_signal(st_backend *b, st_proc_id id, int sig, st_error *err)
{
    st_lx_stat st;
    int rc;
    if (id.pid <= 0)
        return st_error_set(err, ST_EINVAL, EINVAL, "refusing to signal pid %d", (int)id.pid);
    if (!b->pidfd_nosys) {
        int pfd = (int)syscall(SYS_pidfd_open, (pid_t)id.pid, 0);
        if (pfd >= 0) {
            long r;
            int e;
            /* The pidfd pins the process; check it is the one we mean. */
            rc = st_lx_read_stat(b, id.pid, &st, err);
            if (rc == ST_OK && st.start != id.start)
                rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
            if (rc != ST_OK) {
                close(pfd);
                return rc;
            }
            r = syscall(SYS_pidfd_send_signal, pfd, sig, NULL, 0);
            e = errno;
            close(pfd);
            if (r == 0 || e != ENOSYS)
                return signal_result((int)r, e, id, sig, err);
            b->pidfd_nosys = 1;
        } else if (errno == ENOSYS) {
            b->pidfd_nosys = 1;
        } else {
            int e = errno;
            return st_error_set(err, st_lx_map_errno(e), e, "process %d: %s", (int)id.pid, strerror(e));
        }
    }
    /* No pidfd: check the identity as close to kill() as we can. */
    rc = st_lx_read_stat(b, id.pid, &st, err);
    if (rc == ST_OK && st.start != id.start)
        rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
    if (rc != ST_OK)
        return rc;
    rc = kill(id.pid, sig);
    return signal_result(rc, errno, id, sig, err);
}

static int lx_proc_name(st_backend *b, int32_t pid, char *buf, size_t len, st_error *err)
{
    st_lx_stat st;
    int rc = st_lx_read_stat(b, pid, &st, err);
    if (len)
        snprintf(buf, len, "%s", rc == ST_OK ? st.comm : "");
    return rc;
}

/* The Tgid line of /proc/PID/status (a thread's id opens /proc/TID too). */
static int lx_thread_group(st_backend *b, int32_t pid, int32_t *out, st_error *err)
{
    char path[64];
    ssize_t n;
    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    n = st_lx_read_path(b, path);
    if (n < 0)
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "%s: %s", path, strerror((int)-n));
    const char *p = strstr(b->buf, "\nTgid:");
    long tgid = p ? strtol(p + 6, NULL, 10) : 0;
    if (tgid <= 0 || tgid > INT32_MAX)
        return st_error_set(err, ST_EPARSE, 0, "%s: no Tgid line", path);
    *out = (int32_t)tgid;
    return ST_OK;
}

/* One variable of /proc/PID/environ (read whole, up to ST_LX_ENVIRON_MAX),
 * of the process id still is (its start read after the block). */
#define ST_LX_ENVIRON_MAX (1u << 20)
static int lx_environ_var(st_backend *b, st_proc_id id, const char *name, char *buf, size_t len,
                          st_error *err)
{
    char path[64];
    if (len)
        buf[0] = '\0';
    snprintf(path, sizeof path, "/proc/%d/environ", (int)id.pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return st_error_set(err, st_lx_map_errno(e), e, "%s: %s", path, strerror(e));
    }
    size_t cap = 64 * 1024, n = 0;
    char *blk = malloc(cap);
    ssize_t r = 0;
    while (blk && (r = read(fd, blk + n, cap - n)) > 0) {
        n += (size_t)r;
        if (n == cap && cap < ST_LX_ENVIRON_MAX) {
            char *g = realloc(blk, cap * 2);
            if (!g)
                break;
            blk = g;
            cap *= 2;
        } else if (n == cap) {
            break; /* the first MiB is searched */
        }
    }
    int e = errno;
    close(fd);
    if (!blk)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    if (r < 0) {
        free(blk);
        return st_error_set(err, st_lx_map_errno(e), e, "%s: %s", path, strerror(e));
    }
    const char *v;
    size_t vlen;
    if (len && st_env_block_find(blk, n, name, &v, &vlen))
        snprintf(buf, len, "%.*s", (int)(vlen < len ? vlen : len - 1), v);
    free(blk);
    st_lx_stat st; /* the block was that process's, not a reused pid's */
    int rc = st_lx_read_stat(b, id.pid, &st, err);
    if (rc == ST_OK && st.start != id.start)
        rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
    if (rc != ST_OK && len)
        buf[0] = '\0';
    return rc;
}

const st_platform st_platform_native = {
    .name = "linux",
    .footprint_metric = ST_FOOTPRINT_METRIC_STATUS, /* lanes.h: counts a shared page per process */
    .peak_metric = "VmHWM",
    .open = lx_open,
    .close = lx_close,
    .identify = lx_identify,
    .descendants = st_lx_descendants,
    .read_proc = st_lx_read_proc,
    .release = st_lx_release,
    .read_system = lx_read_system,
    .command = lx_command,
    .list_all = lx_list_all,
    .send_signal = lx_send_signal,
    .identify_parent = lx_identify_parent,
    .proc_name = lx_proc_name,
    .thread_group = lx_thread_group,
    .is_zombie = lx_is_zombie,
    .environ_var = lx_environ_var,
    .start_time = lx_start_time,
    .group_prepare = st_lx_group_prepare,
    .group_enter = st_lx_group_enter,
    .group_spawned = st_lx_group_spawned,
    .group_discard = st_lx_group_discard,
    .group_settle = st_lx_group_settle,
    .limit_find = st_lx_limit_find,
    .group_footprint = st_lx_group_footprint,
    .group_pids = st_lx_group_pids,
    .become_subreaper = lx_become_subreaper,
    .read_share = st_lx_read_share,
    .peak_is_maxrss = 1,
};
