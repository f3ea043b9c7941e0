/* linux_share.c: the Linux backend's reading of memory counted once
 * (docs/metrics.md, "Counted once"): a process's proportional share from
 * /proc/PID/smaps_rollup (read_share).
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
