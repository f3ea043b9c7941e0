/* linux_read.c: the reading the Linux backend's two halves share
 * (platform_linux.c, linux_procs.c; declared in linux_procs.h): errno to
 * st codes, the read buffer, a whole /proc file in one pread, a process's
 * stat line and the counters it gives. */
#include "linux_procs.h"
#include "stagetop/grow.h"
#include "stagetop/sample.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int st_lx_map_errno(int e)
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

int st_lx_grow_buf(st_backend *b)
{
    return st_grow(&b->buf, &b->buf_cap, b->buf_cap + 1, 1, 4096);
}

/* Read a one-record seq_file (status, stat, meminfo, pressure) from offset
 * 0 into b->buf with one pread: such a file is produced whole, so a read
 * shorter than the buffer is the whole file.  A second read at the end
 * offset would make the kernel produce the text again, so it is avoided.
 * Returns the length, or -errno. */
ssize_t st_lx_pread_whole(st_backend *b, int fd)
{
    for (;;) {
        ssize_t n;
        if (b->buf_cap < 4096 && st_lx_grow_buf(b) != 0)
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
        if (st_lx_grow_buf(b) != 0)
            return -ENOMEM;
    }
}

/* Open and read a whole file by path.  Returns the length or -errno. */
ssize_t st_lx_read_path(st_backend *b, const char *path)
{
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    n = st_lx_pread_whole(b, fd);
    close(fd);
    return n;
}

void st_lx_fill_counters(const st_backend *b, const st_lx_stat *st, st_proc_mem *out)
{
    out->cpu_ns = (st->utime + st->stime) * b->tick_ns;
    out->child_cpu_ns = (st->cutime + st->cstime) * b->tick_ns;
    out->pageins = st->majflt;
    out->child_pageins = st->cmajflt;
    out->state = st->state;
    snprintf(out->comm, sizeof out->comm, "%.15s", st->comm); /* TASK_COMM_LEN 16 */
    out->valid |= ST_PM_COUNTERS | ST_PM_STATE | ST_PM_COMM;
}

int st_lx_read_stat(st_backend *b, int32_t pid, st_lx_stat *st, st_error *err)
{
    char path[64];
    ssize_t n;
    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    n = st_lx_read_path(b, path);
    if (n < 0 && st_lx_map_errno((int)-n) == ST_ESRCH)
        return st_error_set(err, ST_ESRCH, (int)-n, "no process with pid %d", (int)pid);
    if (n < 0)
        return st_error_set(err, st_lx_map_errno((int)-n), (int)-n, "%s: %s", path, strerror((int)-n));
    return st_lx_parse_stat(b->buf, (size_t)n, st, err);
}
