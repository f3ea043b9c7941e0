/* linux_share.c: the Linux backend's reading of memory counted once
 * (docs/metrics.md, "Counted once"): a process's proportional share from
 * /proc/PID/smaps_rollup (read_share), and a launched job's own cgroup's
 * memory from its memory.stat (group_footprint), one read for the tree.
 *
 * smaps_rollup is costly: the kernel walks every page table of the process
 * for each read (measured on Linux 6.18: ~1.4 ms at 100 MiB mapped, ~11 ms
 * at 1 GiB), so it is read by path only when core/run/share.c's budget
 * allows (core/run/tree_share.c), never on every sample.  Identity: the file is opened first and
 * /proc/PID/stat read after; if stat still shows the start time expected,
 * the process was alive since before the open, so the fd was its own. */
#define _GNU_SOURCE
#include "linux_cgroup.h"
#include "linux_procs.h"
#include "stagetop/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read fd from offset 0 to its end into b->buf (NUL-terminated). */
static ssize_t read_all(st_backend *b, int fd)
{
    size_t off = 0;
    for (;;) {
        ssize_t n;
        if (b->buf_cap - off < 256 && st_lx_grow_buf(b) != 0)
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

int st_lx_read_share(st_backend *b, st_proc_id id, st_proc_share *out, st_error *err)
{
    char path[64];
    st_lx_rollup r;
    st_lx_stat st;
    ssize_t n;
    int fd, rc;
    memset(out, 0, sizeof *out);
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)id.pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return st_error_set(err, st_lx_map_errno(errno), errno, "%s: %s", path, strerror(errno));
    n = read_all(b, fd);
    close(fd);
    if (n < 0)
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "%s: %s", path,
                            strerror((int)-n));
    if ((rc = st_lx_parse_rollup(b->buf, (size_t)n, &r, err)) != ST_OK)
        return rc;
    if ((rc = st_lx_read_stat(b, id.pid, &st, err)) != ST_OK)
        return rc;
    if (st.start != id.start)
        return st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
    if (!(r.valid & ST_LX_PSS))
        return st_error_set(err, ST_ESRCH, ESRCH, "process %d maps nothing (a zombie)", (int)id.pid);
    if ((r.valid & (ST_LX_PSS_ANON | ST_LX_PSS_SHMEM)) == (ST_LX_PSS_ANON | ST_LX_PSS_SHMEM)) {
        out->counted = r.pss_anon + r.pss_shmem + r.swap_pss;
        out->split = 1;
    }
    out->alone = r.private_bytes;
    out->shared = r.shared_bytes;
    return ST_OK;
}

/* The value of the line "key N" of a flat keyed file (memory.stat), or -1. */
static int keyed(const char *text, size_t len, const char *key, uint64_t *out)
{
    size_t k = strlen(key);
    for (const char *l = text, *end = text + len; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        const char *le = nl ? nl : end;
        if ((size_t)(le - l) > k + 1 && memcmp(l, key, k) == 0 && l[k] == ' ') {
            uint64_t v = 0;
            const char *p = l + k + 1;
            if (p == le || *p < '0' || *p > '9')
                return -1;
            for (; p < le && *p >= '0' && *p <= '9'; p++) {
                if (v > (UINT64_MAX - 9) / 10)
                    return -1;
                v = v * 10 + (uint64_t)(*p - '0');
            }
            if (p != le)
                return -1;
            *out = v;
            return 0;
        }
        l = le + 1;
    }
    return -1;
}

/* v2: "anon" and "shmem" (the tree below included: v2's counters are
 * hierarchical).  v1: "total_rss" and "total_shmem" (the hierarchical
 * ones), else "rss" and "shmem", and "total_swap" / "swap" where swap is
 * accounted (memsw: absent otherwise, 0 then). */
int st_lx_parse_memstat(const char *text, size_t len, int v1, st_lx_memstat *out)
{
    memset(out, 0, sizeof *out);
    if (!v1)
        return keyed(text, len, "anon", &out->anon) == 0 &&
                       keyed(text, len, "shmem", &out->shmem) == 0 ? 0 : -1;
    if (keyed(text, len, "total_rss", &out->anon) != 0 && keyed(text, len, "rss", &out->anon) != 0)
        return -1;
    if (keyed(text, len, "total_shmem", &out->shmem) != 0 &&
        keyed(text, len, "shmem", &out->shmem) != 0)
        return -1;
    if (keyed(text, len, "total_swap", &out->swap) == 0 || keyed(text, len, "swap", &out->swap) == 0)
        out->has_swap = 1;
    return 0;
}

int st_lx_group_footprint(st_backend *b, const st_job_group *g, uint64_t *out, st_error *err)
{
    st_lx_memstat ms;
    ssize_t n;
    if (!g->active || g->stat_fd < 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "the job's cgroup is gone");
    if ((n = st_lx_pread_whole(b, g->stat_fd)) < 0)
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "%s/memory.stat: %s", g->dir,
                            strerror((int)-n));
    if (st_lx_parse_memstat(b->buf, (size_t)n, g->v1, &ms) != 0)
        return st_error_set(err, ST_EIO, 0, "%s/memory.stat: no %s line", g->dir,
                            g->v1 ? "rss or shmem" : "anon or shmem");
    if (!g->v1 && g->swap_fd >= 0) { /* memory.swap.current: one number */
        char *end;
        if ((n = st_lx_pread_whole(b, g->swap_fd)) < 0)
            return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "%s/memory.swap.current: %s",
                                g->dir, strerror((int)-n));
        errno = 0;
        ms.swap = strtoull(b->buf, &end, 10);
        if (errno || end == b->buf)
            return st_error_set(err, ST_EIO, 0, "%s/memory.swap.current: not a number", g->dir);
    }
    *out = ms.anon + ms.shmem + ms.swap;
    return ST_OK;
}

static int cmp_pid(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int st_lx_group_pids(st_backend *b, const st_job_group *g, int32_t **pids, size_t *cap, size_t *n,
                     st_error *err)
{
    char path[600];
    ssize_t len;
    *n = 0;
    if (!g->active || (!g->v1 && g->procs_rfd < 0))
        return st_error_set(err, ST_ESRCH, ESRCH, "the job's cgroup is gone");
    snprintf(path, sizeof path, "%s/cgroup.procs", g->dir);
    len = g->v1 ? st_lx_read_path(b, path) : st_lx_pread_whole(b, g->procs_rfd);
    if (len < 0)
        return st_error_set(err, st_lx_map_errno((int)-len), (int)-len, "%s: %s", path,
                            strerror((int)-len));
    for (const char *p = b->buf, *end = b->buf + len; p < end;) {
        long v = 0;
        int digits = 0;
        for (; p < end && *p >= '0' && *p <= '9' && v < 0x7fffffffL / 10; p++, digits++)
            v = v * 10 + (*p - '0');
        for (; p < end && *p != '\n'; p++) /* one pid a line */
            ;
        p++;
        if (!digits)
            continue;
        if (st_grow(pids, cap, *n + 1, sizeof **pids, 64) != 0)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu pids", *n + 1);
        (*pids)[(*n)++] = (int32_t)v;
    }
    if (*n > 1) /* none: *pids may still be NULL, which qsort may not be given */
        qsort(*pids, *n, sizeof **pids, cmp_pid);
    return ST_OK;
}
