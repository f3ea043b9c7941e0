/* platform_linux.c: the Linux backend, reading /proc.
 *
 * Cost model (docs/performance.md, "Sampling"): a sample reads one
 * /proc/PID/status per member.  An fd opened on /proc/PID/status stays bound
 * to the process it was opened for (the proc inode holds that process's
 * struct pid): once the process is reaped, reads fail with ESRCH, and a new
 * process that reuses the pid is never seen through it.  So the backend keeps
 * the fd of up to ST_LX_FD_CAP members open and pread()s it at offset 0 on
 * every sample, which saves the path walk, open and close.  The fd is cached
 * only after /proc/PID/stat, read AFTER the open, still shows the recorded
 * start time: the process was then alive since before the open, so the fd is
 * provably that process's.
 *
 * Finding the tree reads /proc/PID/task/TID/children of every thread of
 * every member (a child forked by a non-main thread is listed only under
 * that thread), never the whole of /proc.  Each child found is checked
 * (its stat's ppid is the parent, it started no earlier than the parent)
 * so that a pid reused in a race is not adopted. */
#include "stagetop/platform.h"
#include "stagetop/linux_parse.h"
#include "stagetop/sample.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture */
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

#define ST_LX_FD_CAP 256 /* most status fds kept open */

typedef struct fd_ent {
    int32_t pid;
    uint64_t start;
    int fd;
} fd_ent;

struct st_backend {
    fd_ent *fds;       /* cached status fds, sorted by pid */
    size_t n_fds, fd_limit;
    char *buf;         /* read buffer, grows */
    size_t buf_cap;
    int32_t *kids;     /* children of one parent, while walking */
    size_t kids_cap;
    int32_t *nthr;     /* thread count of each entry of a descendants() walk */
    size_t nthr_cap;
    int meminfo_fd;    /* -1: not open yet */
    int psi_fd;        /* -1: not open yet; -2: not available */
    int pidfd_nosys;   /* the kernel lacks pidfd syscalls */
};

/* ---- reading ------------------------------------------------------------ */

static int map_errno(int e)
{
    switch (e) {
    case ENOENT:
    case ESRCH: return ST_ESRCH;
    case EACCES:
    case EPERM: return ST_EPERM;
    case ENOMEM: return ST_ENOMEM;
    default: return ST_EIO;
    }
}

static int grow_buf(st_backend *b)
{
    size_t ncap = b->buf_cap ? b->buf_cap * 2 : 4096;
    char *nb = realloc(b->buf, ncap);
    if (!nb)
        return -1;
    b->buf = nb;
    b->buf_cap = ncap;
    return 0;
}

/* Read a one-record seq_file (status, stat, meminfo, pressure) from offset
 * 0 into b->buf with one pread: such a file is produced whole, so a read
 * shorter than the buffer is the whole file.  A second read at the end
 * offset would make the kernel produce the text again, so it is avoided.
 * Returns the length, or -errno. */
static ssize_t pread_whole(st_backend *b, int fd)
{
    for (;;) {
        ssize_t n;
        if (b->buf_cap < 4096 && grow_buf(b) != 0)
            return -ENOMEM;
        n = pread(fd, b->buf, b->buf_cap - 1, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if ((size_t)n < b->buf_cap - 1) {
            b->buf[n] = '\0';
            return n;
        }
        if (grow_buf(b) != 0)
            return -ENOMEM;
    }
}

/* Read a file to its end with read() (a many-record seq_file such as
 * children may return less than asked before its end).  -errno on error. */
static ssize_t read_to_end(st_backend *b, int fd)
{
    size_t off = 0;
    for (;;) {
        ssize_t n;
        if (b->buf_cap - off < 2 && grow_buf(b) != 0)
            return -ENOMEM;
        n = read(fd, b->buf + off, b->buf_cap - off - 1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (n == 0)
            break;
        off += (size_t)n;
    }
    b->buf[off] = '\0';
    return (ssize_t)off;
}

/* Open and read a whole file by path.  Returns the length or -errno. */
static ssize_t read_path(st_backend *b, const char *path, int many_records)
{
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    n = many_records ? read_to_end(b, fd) : pread_whole(b, fd);
    close(fd);
    return n;
}

static int read_stat(st_backend *b, int32_t pid, st_lx_stat *st, st_error *err)
{
    char path[64];
    ssize_t n;
    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    n = read_path(b, path, 0);
    if (n < 0 && map_errno((int)-n) == ST_ESRCH)
        return st_error_set(err, ST_ESRCH, (int)-n, "no process with pid %d", (int)pid);
    if (n < 0)
        return st_error_set(err, map_errno((int)-n), (int)-n, "%s: %s", path, strerror((int)-n));
    return st_lx_parse_stat(b->buf, (size_t)n, st, err);
}

/* ---- the status fd cache ------------------------------------------------ */

/* Index of pid in b->fds, or -(insertion point) - 1. */
static long fd_find(const st_backend *b, int32_t pid)
{
    size_t lo = 0, hi = b->n_fds;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->fds[mid].pid == pid)
            return (long)mid;
        if (b->fds[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(long)lo - 1;
}

static void fd_remove(st_backend *b, size_t i)
{
    close(b->fds[i].fd);
    memmove(&b->fds[i], &b->fds[i + 1], (b->n_fds - i - 1) * sizeof *b->fds);
    b->n_fds--;
}

/* Keep fd for id if there is room; else close it. */
static void fd_insert(st_backend *b, st_proc_id id, int fd)
{
    long at = fd_find(b, id.pid);
    size_t i;
    if (at >= 0) { /* should not happen: the caller dropped a stale entry */
        close(fd);
        return;
    }
    if (b->n_fds >= b->fd_limit) {
        close(fd);
        return;
    }
    i = (size_t)(-at - 1);
    memmove(&b->fds[i + 1], &b->fds[i], (b->n_fds - i) * sizeof *b->fds);
    b->fds[i].pid = id.pid;
    b->fds[i].start = id.start;
    b->fds[i].fd = fd;
    b->n_fds++;
}

/* ---- the table's functions ---------------------------------------------- */

static int lx_open(st_backend **out, st_error *err)
{
    struct rlimit rl;
    st_backend *b = calloc(1, sizeof *b);
    if (!b)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    b->fd_limit = ST_LX_FD_CAP;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 4 < b->fd_limit)
        b->fd_limit = (size_t)(rl.rlim_cur / 4);
    b->fds = calloc(b->fd_limit ? b->fd_limit : 1, sizeof *b->fds);
    if (!b->fds || grow_buf(b) != 0) {
        free(b->fds);
        free(b);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    }
    b->meminfo_fd = -1;
    b->psi_fd = -1;
    *out = b;
    return ST_OK;
}

static void lx_close(st_backend *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n_fds; i++)
        close(b->fds[i].fd);
    if (b->meminfo_fd >= 0)
        close(b->meminfo_fd);
    if (b->psi_fd >= 0)
        close(b->psi_fd);
    free(b->fds);
    free(b->buf);
    free(b->kids);
    free(b->nthr);
    free(b);
}

static int lx_identify(st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    st_lx_stat st;
    int rc = read_stat(b, pid, &st, err);
    if (rc != ST_OK)
        return rc;
    out->pid = pid;
    out->start = st.start;
    return ST_OK;
}

/* Read the children files of every thread of pid into b->kids[*nk...]. */
static int read_children(st_backend *b, int32_t pid, int32_t nthreads, size_t *nk, st_error *err)
{
    char path[96];
    DIR *d = NULL;
    struct dirent *de;
    int32_t tid = pid;
    *nk = 0;
    if (nthreads > 1) {
        snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
        d = opendir(path);
        if (!d)
            return ST_OK; /* it exited meanwhile: no children to find */
    }
    for (;;) {
        ssize_t n;
        size_t pos = 0;
        int32_t c;
        int more;
        if (d) {
            char *end;
            long v;
            de = readdir(d);
            if (!de)
                break;
            if (de->d_name[0] < '0' || de->d_name[0] > '9')
                continue;
            v = strtol(de->d_name, &end, 10);
            if (*end || v <= 0 || v > INT32_MAX)
                continue;
            tid = (int32_t)v;
        }
        snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)tid);
        n = read_path(b, path, 1);
        if (n >= 0) {
            while ((more = st_lx_next_pid(b->buf, (size_t)n, &pos, &c, err)) == 1) {
                if (*nk == b->kids_cap) {
                    size_t ncap = b->kids_cap ? b->kids_cap * 2 : 64;
                    int32_t *nv = realloc(b->kids, ncap * sizeof *nv);
                    if (!nv) {
                        if (d)
                            closedir(d);
                        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
                    }
                    b->kids = nv;
                    b->kids_cap = ncap;
                }
                b->kids[(*nk)++] = c;
            }
            if (more < 0) {
                if (d)
                    closedir(d);
                return more;
            }
        }
        if (!d)
            break;
    }
    if (d)
        closedir(d);
    return ST_OK;
}

static int set_nthr(st_backend *b, size_t i, int32_t v, st_error *err)
{
    if (i >= b->nthr_cap) {
        size_t ncap = b->nthr_cap ? b->nthr_cap * 2 : 64;
        int32_t *nv;
        while (ncap <= i)
            ncap *= 2;
        nv = realloc(b->nthr, ncap * sizeof *nv);
        if (!nv)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
        b->nthr = nv;
        b->nthr_cap = ncap;
    }
    b->nthr[i] = v;
    return ST_OK;
}

static int lx_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    st_lx_stat st;
    st_proc_ref ref;
    int rc = read_stat(b, root.pid, &st, err);
    st_proc_vec_clear(out);
    if (rc != ST_OK)
        return rc;
    if (st.start != root.start)
        return st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)root.pid);
    ref.id = root;
    ref.ppid = st.ppid;
    if ((rc = st_proc_vec_push(out, &ref, err)) != ST_OK ||
        (rc = set_nthr(b, 0, st.num_threads, err)) != ST_OK)
        return rc;
    /* Breadth first: out itself is the queue, so parents precede children. */
    for (size_t i = 0; i < out->len; i++) {
        st_proc_id parent = out->v[i].id;
        size_t nk, first = out->len;
        rc = read_children(b, parent.pid, b->nthr[i], &nk, err);
        if (rc != ST_OK)
            return rc;
        for (size_t k = 0; k < nk; k++) {
            int32_t c = b->kids[k];
            int dup = 0;
            if (b->nthr[i] > 1) /* a thread's exit can move a child to a sibling */
                for (size_t j = first; j < out->len && !dup; j++)
                    dup = out->v[j].id.pid == c;
            if (dup || read_stat(b, c, &st, NULL) != ST_OK)
                continue; /* gone meanwhile */
            if (st.ppid != parent.pid || st.start < parent.start)
                continue; /* the pid was reused by a stranger */
            ref.id.pid = c;
            ref.id.start = st.start;
            ref.ppid = st.ppid;
            if ((rc = set_nthr(b, out->len, st.num_threads, err)) != ST_OK ||
                (rc = st_proc_vec_push(out, &ref, err)) != ST_OK)
                return rc;
        }
    }
    return ST_OK;
}

static void fill_mem(const st_lx_status *s, st_proc_id id, st_proc_mem *out)
{
    memset(out, 0, sizeof *out);
    out->id = id;
    out->ppid = (s->valid & ST_LX_PPID) ? s->ppid : 0;
    if ((s->valid & (ST_LX_RSSANON | ST_LX_RSSSHMEM | ST_LX_VMSWAP)) ==
        (ST_LX_RSSANON | ST_LX_RSSSHMEM | ST_LX_VMSWAP)) {
        out->footprint = s->rss_anon + s->rss_shmem + s->vm_swap;
        out->valid |= ST_PM_FOOTPRINT;
    }
    if (s->valid & ST_LX_VMRSS) {
        out->rss = s->vm_rss;
        out->valid |= ST_PM_RSS;
    }
    if (s->valid & ST_LX_VMSWAP) {
        out->swap = s->vm_swap;
        out->valid |= ST_PM_SWAP;
    }
    if (s->valid & ST_LX_VMHWM) {
        out->peak = s->vm_hwm;
        out->valid |= ST_PM_PEAK;
    }
}

static int lx_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err)
{
    st_lx_status s;
    st_lx_stat st;
    ssize_t n;
    int rc, fd;
    long at = fd_find(b, id.pid);
    if (at >= 0 && b->fds[at].start != id.start) {
        fd_remove(b, (size_t)at); /* a stale entry of an earlier process */
        at = -1;
    }
    if (at >= 0) {
        n = pread_whole(b, b->fds[at].fd);
        if (n < 0) {
            fd_remove(b, (size_t)at);
            if (n == -ESRCH || n == -ENOENT)
                return st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
            return st_error_set(err, map_errno((int)-n), (int)-n, "/proc/%d/status: %s",
                                (int)id.pid, strerror((int)-n));
        }
    } else {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/status", (int)id.pid);
        if (id.pid <= 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
            int e = id.pid <= 0 ? ESRCH : errno;
            return st_error_set(err, map_errno(e), e, "%s: %s", path, strerror(e));
        }
        /* Identity after the open: then the fd is provably this process's. */
        rc = read_stat(b, id.pid, &st, err);
        if (rc == ST_OK && st.start != id.start)
            rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
        if (rc != ST_OK) {
            close(fd);
            return rc;
        }
        n = pread_whole(b, fd);
        if (n < 0) {
            close(fd);
            return st_error_set(err, map_errno((int)-n), (int)-n, "%s: %s", path, strerror((int)-n));
        }
        fd_insert(b, id, fd);
    }
    rc = st_lx_parse_status(b->buf, (size_t)n, &s, err);
    if (rc != ST_OK)
        return rc;
    fill_mem(&s, id, out);
    return ST_OK;
}

static void lx_release(st_backend *b, st_proc_id id)
{
    long at = fd_find(b, id.pid);
    if (at >= 0 && b->fds[at].start == id.start)
        fd_remove(b, (size_t)at);
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
    n = pread_whole(b, *fdp);
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
        return st_error_set(err, map_errno((int)-n), (int)-n, "/proc/meminfo: %s", strerror((int)-n));
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
        out->valid |= ST_F_LEVEL;
    }
    if (mi.valid & ST_LX_SWAPTOTAL) {
        out->swap_total = mi.swap_total;
        out->valid |= ST_SYS_SWAPTOTAL;
        if (mi.valid & ST_LX_SWAPFREE) {
            out->swap_used = mi.swap_free < mi.swap_total ? mi.swap_total - mi.swap_free : 0;
            out->valid |= ST_F_SWAP;
        }
    }
    if (b->psi_fd != -2) {
        uint16_t c;
        n = read_sys_file(b, &b->psi_fd, "/proc/pressure/memory");
        if (n < 0)
            b->psi_fd = -2; /* no PSI here (old kernel, or psi=0): stop asking */
        else if (st_lx_parse_psi(b->buf, (size_t)n, &c, NULL) == ST_OK) {
            out->pressure_c = c;
            out->valid |= ST_F_PRESSURE;
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
    rc = read_stat(b, id.pid, &st, err);
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
        return st_error_set(err, map_errno(errno), errno, "/proc: %s", strerror(errno));
    while ((de = readdir(d)) != NULL) {
        char *end;
        long v;
        st_lx_stat st;
        st_proc_ref ref;
        int rc;
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        v = strtol(de->d_name, &end, 10);
        if (*end || v <= 0 || v > INT32_MAX || read_stat(b, (int32_t)v, &st, NULL) != ST_OK)
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
    return st_error_set(err, map_errno(e), e, "signal %d to process %d: %s", sig, (int)id.pid,
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
            rc = read_stat(b, id.pid, &st, err);
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
            return st_error_set(err, map_errno(e), e, "process %d: %s", (int)id.pid, strerror(e));
        }
    }
    /* No pidfd: check the identity as close to kill() as we can. */
    rc = read_stat(b, id.pid, &st, err);
    if (rc == ST_OK && st.start != id.start)
        rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
    if (rc != ST_OK)
        return rc;
    rc = kill(id.pid, sig);
    return signal_result(rc, errno, id, sig, err);
}

const st_platform st_platform_native = {
    .name = "linux",
    .footprint_metric = "anon+shmem+swap",
    .peak_metric = "VmHWM",
    .open = lx_open,
    .close = lx_close,
    .identify = lx_identify,
    .descendants = lx_descendants,
    .read_proc = lx_read_proc,
    .release = lx_release,
    .read_system = lx_read_system,
    .command = lx_command,
    .list_all = lx_list_all,
    .send_signal = lx_send_signal,
};
