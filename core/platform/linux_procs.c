/* linux_procs.c: the Linux backend's per-process work: walking a tree and
 * reading its members' memory, cheaply.  (POSIX calls only; built on Linux.)
 *
 * Identity.  An fd opened on /proc/PID/status (or on a thread's children
 * file) stays bound to the process it was opened for: the proc inode holds
 * that process's struct pid.  Measured on Linux 6.18 (docs/performance.md):
 * a zombie still reads (without its Vm lines), a reaped process reads
 * ESRCH, and after the pid is reused by a new process the old fd still
 * reads ESRCH while a fresh open sees the new one.  So a record's fds are
 * opened first and /proc/PID/stat is read after: if stat shows the expected
 * start time, the process was alive since before the open and the fds are
 * provably its own.  From then on, a successful read through the fd proves
 * the process is still that one, without a stat read.
 *
 * Cost.  Each sample pread()s the cached status fd at offset 0 and, when
 * discovering, each thread's cached children fd (a seq_file rewinds on a
 * read at offset 0): one syscall per file, no path walk, no open, no close.
 * descendants() keeps the status reading it made to check a member; the
 * read_proc() that follows within ST_LX_STASH_NS returns it.  Past the fd
 * cap, files are opened, read and closed each time. */
#define _GNU_SOURCE
#include "stagetop/grow.h"
#include "linux_procs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ST_LX_STASH_NS 50000000ull /* a reading from descendants() serves read_proc() 50 ms */
#define ST_LX_IDLE_NS 10000000000ull /* a record unread for 10 s may go at the fd cap */
/* A children-file read shorter than this (and than asked for) reached the
 * end: seq_file stops early only when its buffer (at least a page) cannot
 * take the next record (at most 11 bytes), so such a read is >= 4085. */
#define ST_LX_SEQ_SURE 4000

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Read a children file from offset 0 to its end into b->buf. */
static ssize_t read_seq(st_backend *b, int fd)
{
    size_t off = 0;
    for (;;) {
        ssize_t n;
        if (b->buf_cap - off < 64 && st_lx_grow_buf(b) != 0)
            return -ENOMEM;
        n = pread(fd, b->buf + off, b->buf_cap - off - 1, (off_t)off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        off += (size_t)n;
        if (n == 0 || (off < ST_LX_SEQ_SURE && (size_t)n < b->buf_cap - (off - (size_t)n) - 1))
            break;
    }
    b->buf[off] = '\0';
    return (ssize_t)off;
}

/* ---- records ------------------------------------------------------------ */

/* Index of pid in b->procs, or -(insertion point) - 1. */
static long rec_find(const st_backend *b, int32_t pid)
{
    size_t lo = 0, hi = b->n_procs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->procs[mid].pid == pid)
            return (long)mid;
        if (b->procs[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(long)lo - 1;
}

static void rec_drop_threads(st_backend *b, lx_proc *r)
{
    for (int32_t i = 0; i < r->n_thr; i++)
        close(r->thr[i].fd);
    b->n_open -= (size_t)r->n_thr;
    r->n_thr = 0;
}

static void rec_remove(st_backend *b, size_t i)
{
    lx_proc *r = &b->procs[i];
    rec_drop_threads(b, r);
    free(r->thr);
    close(r->status_fd);
    b->n_open--;
    if (r->stat_fd >= 0) {
        close(r->stat_fd);
        b->n_open--;
    }
    memmove(r, r + 1, (b->n_procs - i - 1) * sizeof *r);
    b->n_procs--;
}

/* At the fd cap, forget records that nobody read for ST_LX_IDLE_NS (a
 * caller that never called release() for processes it stopped watching),
 * at most once a second.  Returns whether there is room now. */
static int rec_room(st_backend *b)
{
    uint64_t now;
    if (b->n_open < b->fd_limit)
        return 1;
    now = mono_ns();
    if (now - b->swept_ns < 1000000000ull)
        return 0;
    b->swept_ns = now;
    for (size_t i = b->n_procs; i-- > 0;)
        if (now - b->procs[i].stash_ns > ST_LX_IDLE_NS)
            rec_remove(b, i);
    return b->n_open < b->fd_limit;
}

/* Keep status_fd in a new record for (pid, start); its index, or -1 (fd
 * closed) when out of memory. */
static long rec_insert(st_backend *b, int32_t pid, uint64_t start, int status_fd)
{
    long at = rec_find(b, pid);
    size_t i;
    if (at >= 0)
        rec_remove(b, (size_t)at); /* a stale record of an earlier process */
    if (st_grow(&b->procs, &b->cap_procs, b->n_procs + 1, sizeof *b->procs, 32) != 0) {
        close(status_fd);
        return -1;
    }
    i = (size_t)(-rec_find(b, pid) - 1);
    memmove(&b->procs[i + 1], &b->procs[i], (b->n_procs - i) * sizeof *b->procs);
    memset(&b->procs[i], 0, sizeof b->procs[i]);
    b->procs[i].pid = pid;
    b->procs[i].start = start;
    b->procs[i].status_fd = status_fd;
    b->procs[i].stat_fd = -1;
    b->n_procs++;
    b->n_open++;
    return (long)i;
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
    if (s->valid & ST_LX_RSSSHMEM) {
        out->shmem = s->rss_shmem;
        out->valid |= ST_PM_SHMEM;
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

/* Add record i's CPU time, major faults and state (/proc/PID/stat) to its
 * stash, through a cached fd opened after the status fd proved the process
 * alive; the start time in the text proves it is still that process (a
 * stat fd opened on a reused pid would show another start).  Without a
 * stat reading the stash keeps its memory fields only. */
static void rec_counters(st_backend *b, size_t i)
{
    lx_proc *r = &b->procs[i];
    st_lx_stat st;
    ssize_t n;
    if (r->stat_fd < 0) {
        char path[64];
        if (b->n_open >= b->fd_limit) { /* no room to keep it: read by path */
            if (st_lx_read_stat(b, r->pid, &st, NULL) == ST_OK && st.start == r->start)
                st_lx_fill_counters(b, &st, &r->stash);
            return;
        }
        snprintf(path, sizeof path, "/proc/%d/stat", (int)r->pid);
        if ((r->stat_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
            return;
        b->n_open++;
    }
    n = st_lx_pread_whole(b, r->stat_fd);
    if (n < 0 || st_lx_parse_stat(b->buf, (size_t)n, &st, NULL) != ST_OK || st.start != r->start) {
        close(r->stat_fd);
        r->stat_fd = -1;
        b->n_open--;
        return;
    }
    st_lx_fill_counters(b, &st, &r->stash);
}

/* Read record i's status through its fd into *s and its stash.  A failed
 * read removes the record (ST_ESRCH: the process is gone). */
static int rec_read(st_backend *b, size_t i, st_lx_status *s, st_error *err)
{
    lx_proc *r = &b->procs[i];
    st_proc_id id = {r->pid, r->start};
    ssize_t n = st_lx_pread_whole(b, r->status_fd);
    int rc;
    if (n < 0) {
        rec_remove(b, i);
        if (n == -ESRCH || n == -ENOENT)
            return st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "/proc/%d/status: %s",
                            (int)id.pid, strerror((int)-n));
    }
    if ((rc = st_lx_parse_status(b->buf, (size_t)n, s, err)) != ST_OK)
        return rc;
    fill_mem(s, id, &r->stash);
    rec_counters(b, i);
    r->stash_gen = b->gen;
    r->stash_ns = mono_ns();
    return ST_OK;
}

/* A process not on record: open its status, then read its stat (after the
 * open: the fd is then provably that process's) and check that it is the
 * process meant: `want`'s start, or a child of `parent`.  Keeps the fd in a
 * new record when the cap allows (*idx >= 0), else closes it (*idx = -1).
 * With need_fd == 0 and no room, only the stat is read. */
static int open_member(st_backend *b, int32_t pid, const st_proc_id *want, const st_proc_id *parent,
                       int need_fd, st_lx_stat *st, long *idx, int *fd_out, st_error *err)
{
    char path[64];
    int fd = -1, rc;
    int room = rec_room(b);
    *idx = -1;
    *fd_out = -1;
    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
    if (room || need_fd) {
        snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
        if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
            return st_error_set(err, st_lx_map_errno(errno), errno, "%s: %s", path, strerror(errno));
    }
    rc = st_lx_read_stat(b, pid, st, err);
    if (rc == ST_OK && ((want && st->start != want->start) ||
                        (parent && (st->ppid != parent->pid || st->start < parent->start))))
        rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d is not the one watched", (int)pid);
    if (rc != ST_OK) {
        if (fd >= 0)
            close(fd);
        return rc;
    }
    if (fd >= 0 && room) {
        *idx = rec_insert(b, pid, st->start, fd);
        if (*idx < 0)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    } else {
        *fd_out = fd;
    }
    return ST_OK;
}

/* ---- walking ------------------------------------------------------------ */

/* Check that pid is the process meant (want) or a child of parent, and
 * learn its ppid and thread count.  Leaves a fresh stash when on record. */
static int visit(st_backend *b, int32_t pid, const st_proc_id *want, const st_proc_id *parent,
                 st_proc_ref *ref, int32_t *threads, st_error *err)
{
    st_lx_status s;
    st_lx_stat st;
    long idx = rec_find(b, pid);
    int rc, fd;
    if (idx >= 0 && want && b->procs[idx].start != want->start) {
        rec_remove(b, (size_t)idx); /* that record is of an earlier process */
        idx = -1;
    }
    if (idx >= 0) {
        uint64_t start = b->procs[idx].start;
        rc = rec_read(b, (size_t)idx, &s, err);
        if (rc == ST_OK) {
            if (parent && (s.valid & ST_LX_PPID) && s.ppid != parent->pid)
                return st_error_set(err, ST_ESRCH, ESRCH, "process %d moved", (int)pid);
            ref->id.pid = pid;
            ref->id.start = start;
            ref->ppid = s.ppid;
            *threads = (s.valid & ST_LX_THREADS) ? s.threads : 1;
            return ST_OK;
        }
        if (rc != ST_ESRCH || want)
            return rc;
        /* the recorded child is gone; the pid may be a new one's */
    }
    rc = open_member(b, pid, want, parent, 0, &st, &idx, &fd, err);
    if (rc != ST_OK)
        return rc;
    if (fd >= 0)
        close(fd);
    ref->id.pid = pid;
    ref->id.start = st.start;
    ref->ppid = st.ppid;
    *threads = st.num_threads;
    if (idx >= 0 && (rc = rec_read(b, (size_t)idx, &s, err)) != ST_OK)
        return rc;
    return ST_OK;
}

static int add_kids(st_backend *b, ssize_t n, size_t *nk, st_error *err)
{
    size_t pos = 0;
    int32_t c;
    int more;
    while ((more = st_lx_next_pid(b->buf, (size_t)n, &pos, &c, err)) == 1) {
        if (st_grow(&b->kids, &b->kids_cap, *nk + 1, sizeof *b->kids, 64) != 0)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
        b->kids[(*nk)++] = c;
    }
    return more;
}

/* Read one thread's children file: through a cached fd of record r (kept
 * when there is room), or by path. */
static int read_thread_kids(st_backend *b, lx_proc *r, int32_t pid, int32_t tid, size_t *nk,
                            st_error *err)
{
    char path[96];
    ssize_t n;
    int fd;
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)tid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return ST_OK; /* the thread exited meanwhile */
    n = read_seq(b, fd);
    if (r && n >= 0 && b->n_open < b->fd_limit) {
        if (r->n_thr == r->cap_thr) {
            int32_t ncap = r->cap_thr ? r->cap_thr * 2 : 4;
            lx_thr *nt = realloc(r->thr, (size_t)ncap * sizeof *nt);
            if (nt) {
                r->thr = nt;
                r->cap_thr = ncap;
            }
        }
        if (r->n_thr < r->cap_thr) {
            r->thr[r->n_thr].tid = tid;
            r->thr[r->n_thr++].fd = fd;
            b->n_open++;
            fd = -1;
        }
    }
    if (fd >= 0)
        close(fd);
    return n < 0 ? ST_OK : add_kids(b, n, nk, err);
}

/* The children of every thread of pid into b->kids[0..*nk). */
static int list_kids(st_backend *b, int32_t pid, int32_t threads, size_t *nk, st_error *err)
{
    long idx = rec_find(b, pid);
    lx_proc *r = idx >= 0 ? &b->procs[idx] : NULL;
    char path[64];
    DIR *d;
    struct dirent *de;
    int rc = ST_OK;
    *nk = 0;
    if (threads < 1)
        threads = 1;
    /* The same threads as last time (same count, every fd still reads):
     * a thread that exited would fail its read. */
    if (r && r->n_thr == threads && (threads > 1 || r->thr[0].tid == pid)) {
        int32_t i;
        for (i = 0; i < r->n_thr; i++) {
            ssize_t n = read_seq(b, r->thr[i].fd);
            if (n < 0 || (rc = add_kids(b, n, nk, err)) < 0)
                break;
        }
        if (i == r->n_thr || rc == ST_ENOMEM)
            return rc;
        *nk = 0; /* the threads changed: list them again */
        rc = ST_OK;
    }
    if (r)
        rec_drop_threads(b, r);
    if (threads == 1)
        return read_thread_kids(b, r, pid, pid, nk, err);
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    if ((d = opendir(path)) == NULL)
        return ST_OK; /* it exited meanwhile */
    while (rc >= 0 && (de = readdir(d)) != NULL) {
        char *end;
        long v = strtol(de->d_name, &end, 10);
        if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && !*end && v > 0 && v <= INT32_MAX)
            rc = read_thread_kids(b, r, pid, (int32_t)v, nk, err);
    }
    closedir(d);
    return rc < 0 ? rc : ST_OK;
}

static int set_nthr(st_backend *b, size_t i, int32_t v, st_error *err)
{
    if (st_grow(&b->nthr, &b->nthr_cap, i + 1, sizeof *b->nthr, 64) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    b->nthr[i] = v;
    return ST_OK;
}

int st_lx_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    st_proc_ref ref;
    int32_t threads;
    int rc;
    st_proc_vec_clear(out);
    b->gen++;
    rc = visit(b, root.pid, &root, NULL, &ref, &threads, err);
    if (rc != ST_OK)
        return rc;
    if ((rc = st_proc_vec_push(out, &ref, err)) != ST_OK || (rc = set_nthr(b, 0, threads, err)) != ST_OK)
        return rc;
    /* Breadth first: out itself is the queue, so parents precede children. */
    for (size_t i = 0; i < out->len; i++) {
        st_proc_id parent = out->v[i].id;
        size_t nk, first = out->len;
        int32_t pthreads = b->nthr[i];
        if ((rc = list_kids(b, parent.pid, pthreads, &nk, err)) != ST_OK)
            return rc;
        for (size_t k = 0; k < nk; k++) {
            int32_t c = b->kids[k];
            int dup = 0;
            if (pthreads > 1) /* a thread's exit can move a child to a sibling */
                for (size_t j = first; j < out->len && !dup; j++)
                    dup = out->v[j].id.pid == c;
            if (dup)
                continue;
            rc = visit(b, c, NULL, &parent, &ref, &threads, NULL);
            if (rc == ST_ENOMEM)
                return st_error_set(err, rc, ENOMEM, "out of memory");
            if (rc != ST_OK)
                continue; /* gone meanwhile, or a stranger on a reused pid */
            if ((rc = set_nthr(b, out->len, threads, err)) != ST_OK ||
                (rc = st_proc_vec_push(out, &ref, err)) != ST_OK)
                return rc;
        }
    }
    return ST_OK;
}

int st_lx_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err)
{
    st_lx_status s;
    st_lx_stat st;
    long idx = rec_find(b, id.pid);
    ssize_t n;
    int rc, fd;
    if (idx >= 0 && b->procs[idx].start != id.start) {
        rec_remove(b, (size_t)idx); /* a stale record of an earlier process */
        idx = -1;
    }
    if (idx >= 0) {
        lx_proc *r = &b->procs[idx];
        if (r->stash_gen == b->gen && mono_ns() - r->stash_ns < ST_LX_STASH_NS) {
            *out = r->stash; /* read moments ago by descendants() */
            r->stash_gen = 0;
            return ST_OK;
        }
        if ((rc = rec_read(b, (size_t)idx, &s, err)) != ST_OK)
            return rc;
        *out = b->procs[idx].stash;
        b->procs[idx].stash_gen = 0;
        return ST_OK;
    }
    rc = open_member(b, id.pid, &id, NULL, 1, &st, &idx, &fd, err);
    if (rc != ST_OK)
        return rc;
    if (idx >= 0) {
        if ((rc = rec_read(b, (size_t)idx, &s, err)) != ST_OK)
            return rc;
        *out = b->procs[idx].stash;
        b->procs[idx].stash_gen = 0;
        return ST_OK;
    }
    n = st_lx_pread_whole(b, fd); /* past the fd cap: open, read, close */
    close(fd);
    if (n < 0)
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "/proc/%d/status: %s",
                            (int)id.pid, strerror((int)-n));
    if ((rc = st_lx_parse_status(b->buf, (size_t)n, &s, err)) != ST_OK)
        return rc;
    fill_mem(&s, id, out);
    st_lx_fill_counters(b, &st, out); /* the stat open_member read, just after the open */
    return ST_OK;
}

void st_lx_release(st_backend *b, st_proc_id id)
{
    long idx = rec_find(b, id.pid);
    if (idx >= 0 && b->procs[idx].start == id.start)
        rec_remove(b, (size_t)idx);
}

void st_lx_forget_all(st_backend *b)
{
    while (b->n_procs > 0)
        rec_remove(b, b->n_procs - 1);
    free(b->procs);
    b->procs = NULL;
    b->cap_procs = 0;
}

