/* linux_procs.h: internal to the Linux backend (core/platform/platform_linux.c and
 * core/platform/linux_procs.c); not a public contract.
 *
 * The backend keeps, for each watched process, a record with an fd on its
 * /proc/PID/status and fds on the children file of each of its threads, and
 * pread()s them at offset 0 on every sample (see linux_procs.c for why this
 * is safe: such fds stay bound to the process they were opened for). */
#ifndef STAGETOP_LINUX_PROCS_H
#define STAGETOP_LINUX_PROCS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "stagetop/linux_parse.h"
#include "stagetop/platform.h"

/* A cached children file of one thread. */
typedef struct lx_thr {
    int32_t tid;
    int fd;
} lx_thr;

/* What the backend keeps about one process it has read. */
typedef struct lx_proc {
    int32_t pid;
    uint64_t start;
    int status_fd;        /* open on /proc/PID/status: bound to this process */
    int stat_fd;          /* open on /proc/PID/stat (CPU, page-ins, state); -1: none */
    lx_thr *thr;          /* children files, one per thread */
    int32_t n_thr, cap_thr;
    st_proc_mem stash;    /* reading taken during descendants() */
    uint64_t stash_gen;   /* st_backend.gen when taken; 0: none */
    uint64_t stash_ns;    /* CLOCK_MONOTONIC when taken (also: last read) */
} lx_proc;

struct st_backend {
    lx_proc *procs;       /* sorted by pid */
    size_t n_procs, cap_procs;
    size_t n_open, fd_limit; /* cached fds, and their cap */
    char *buf;            /* read buffer, grows */
    size_t buf_cap;
    int32_t *kids;        /* children of one parent, while walking */
    size_t kids_cap;
    int32_t *nthr;        /* thread count of each entry of a walk */
    size_t nthr_cap;
    uint64_t gen;         /* counts descendants() calls */
    uint64_t swept_ns;    /* last sweep of idle records */
    int meminfo_fd;       /* -1: not open yet */
    int psi_fd;           /* -1: not open yet; -2: not available */
    int pidfd_nosys;      /* the kernel lacks pidfd syscalls */
    int zswap_on;         /* -1: not asked yet; 0/1: /sys/module/zswap/parameters/enabled */
    uint64_t tick_ns;     /* one clock tick (sysconf(_SC_CLK_TCK)) in ns */
    uint64_t btime;       /* the boot time (/proc/stat's btime), seconds since the epoch */
    int btime_read;       /* 0: not read yet; 1: btime; -1: not readable */
};

/* errno -> ST_* status. */
int st_lx_map_errno(int e);
/* Grow b->buf (doubling); -1 when out of memory. */
int st_lx_grow_buf(st_backend *b);
/* Read a one-record /proc file (status, stat, meminfo, pressure) whole
 * with one pread at offset 0 into b->buf (NUL-terminated).  Length or -errno. */
ssize_t st_lx_pread_whole(st_backend *b, int fd);
/* The CPU, fault and state fields of *st into *out (ST_PM_COUNTERS,
 * ST_PM_STATE). */
void st_lx_fill_counters(const st_backend *b, const st_lx_stat *st, st_proc_mem *out);
/* Read /proc/PID/stat and parse it into *st. */
int st_lx_read_stat(st_backend *b, int32_t pid, st_lx_stat *st, st_error *err);
/* Open and read a whole file by path into b->buf.  Returns the length or -errno. */
ssize_t st_lx_read_path(st_backend *b, const char *path);

/* The backend table's process functions (see platform.h). */
int st_lx_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err);
int st_lx_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err);
void st_lx_release(st_backend *b, st_proc_id id);
/* Close every cached fd and free the records. */
void st_lx_forget_all(st_backend *b);

/* linux_limit.c: platform.h's limit_find (the memory limit that binds). */
int st_lx_limit_find(st_backend *b, int32_t pid, st_cg_watch *w, int force);

#endif
