/* linux_parse.h: parsers for the Linux /proc files stagetop reads.
 *
 * Every parser takes the file's text from memory (text, len; no NUL needed),
 * so unit tests feed them fixtures and the backend feeds them what one
 * read() returned.  A field the text lacks is left invalid (not an error);
 * a field that is present but malformed or out of range is ST_EPARSE with a
 * message that names the line.  Nothing here touches the file system. */
#ifndef STAGETOP_LINUX_PARSE_H
#define STAGETOP_LINUX_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"

/* Valid bits of st_lx_status. */
enum st_lx_status_field {
    ST_LX_RSSANON = 1u << 0,
    ST_LX_RSSSHMEM = 1u << 1,
    ST_LX_RSSFILE = 1u << 2,
    ST_LX_VMRSS = 1u << 3,
    ST_LX_VMSWAP = 1u << 4,
    ST_LX_VMHWM = 1u << 5,
    ST_LX_PPID = 1u << 6,
    ST_LX_THREADS = 1u << 7
};

/* The fields of /proc/PID/status that stagetop uses, in bytes. */
typedef struct st_lx_status {
    uint64_t rss_anon, rss_shmem, rss_file, vm_rss, vm_swap, vm_hwm;
    int32_t ppid;
    int32_t threads; /* "Threads:" */
    unsigned valid;  /* enum st_lx_status_field bits */
} st_lx_status;

/* Parse /proc/PID/status ("Key:\t  N kB" lines).  A kernel thread or a
 * zombie has no Vm* lines: those fields stay invalid and ST_OK is returned. */
int st_lx_parse_status(const char *text, size_t len, st_lx_status *out, st_error *err);

/* The fields of /proc/PID/stat that stagetop uses. */
typedef struct st_lx_stat {
    int32_t pid;
    char comm[64];      /* the name between the first '(' and the last ')' */
    char state;         /* field 3: R, S, D, Z, T, ... */
    int32_t ppid;       /* field 4 */
    int32_t num_threads;/* field 20 */
    uint64_t start;     /* field 22: start time, clock ticks since boot */
    uint64_t majflt, cmajflt;  /* fields 12, 13: major faults, own and of reaped children */
    uint64_t utime, stime;     /* fields 14, 15: clock ticks (sysconf(_SC_CLK_TCK)) */
    uint64_t cutime, cstime;   /* fields 16, 17: of reaped children, clock ticks */
} st_lx_stat;

/* Parse /proc/PID/stat.  Fields are counted after the LAST ')', since the
 * command name may hold spaces, parentheses and ") (". */
int st_lx_parse_stat(const char *text, size_t len, st_lx_stat *out, st_error *err);

/* Valid bits of st_lx_meminfo. */
enum st_lx_meminfo_field {
    ST_LX_MEMTOTAL = 1u << 0,
    ST_LX_MEMAVAILABLE = 1u << 1,
    ST_LX_SWAPTOTAL = 1u << 2,
    ST_LX_SWAPFREE = 1u << 3,
    ST_LX_ZSWAP = 1u << 4
};

/* The fields of /proc/meminfo that stagetop uses, in bytes. */
typedef struct st_lx_meminfo {
    uint64_t mem_total, mem_available, swap_total, swap_free;
    uint64_t zswap; /* "Zswap:" (compressed size of zswap's pool), when the kernel has it */
    unsigned valid; /* enum st_lx_meminfo_field bits */
} st_lx_meminfo;

/* Parse /proc/meminfo ("Key:   N kB" lines). */
int st_lx_parse_meminfo(const char *text, size_t len, st_lx_meminfo *out, st_error *err);

/* Parse /proc/pressure/memory: the "some" line's avg10 (a percent with two
 * decimals, 0..100) in hundredths.  ST_EPARSE when the line is missing or
 * malformed. */
int st_lx_parse_psi(const char *text, size_t len, uint16_t *some_avg10_c, st_error *err);

/* Parse /proc/stat's "btime N" line (the boot time, seconds since the
 * epoch) into *out.  ST_EPARSE when the line is missing or malformed. */
int st_lx_parse_btime(const char *text, size_t len, uint64_t *out, st_error *err);

/* Iterate over a /proc/PID/task/TID/children file: space-separated
 * decimal pids.  *pos starts at 0.  Returns 1 and sets *pid for each pid,
 * 0 at the end, ST_EPARSE on junk or a pid out of range (1..INT32_MAX). */
int st_lx_next_pid(const char *text, size_t len, size_t *pos, int32_t *pid, st_error *err);

/* Valid bits of st_lx_rollup. */
enum st_lx_rollup_field {
    ST_LX_PSS = 1u << 0,
    ST_LX_PSS_ANON = 1u << 1,   /* Linux 5.8+ */
    ST_LX_PSS_SHMEM = 1u << 2,  /* Linux 5.8+ */
    ST_LX_SWAPPSS = 1u << 3,
    ST_LX_R_RSS = 1u << 4,
    ST_LX_PRIVATE = 1u << 5,    /* Private_Clean and Private_Dirty both */
    ST_LX_SHARED = 1u << 6      /* Shared_Clean and Shared_Dirty both */
};

/* The fields of /proc/PID/smaps_rollup that stagetop uses, in bytes: the
 * process's proportional share of each page it maps (a page mapped by k
 * processes counts 1/k in each), and its private and shared resident
 * bytes (file pages included). */
typedef struct st_lx_rollup {
    uint64_t pss, pss_anon, pss_shmem, swap_pss, rss;
    uint64_t private_bytes, shared_bytes;
    unsigned valid; /* enum st_lx_rollup_field bits */
} st_lx_rollup;

/* Parse /proc/PID/smaps_rollup (a "[rollup]" line, then "Key:  N kB"
 * lines).  A kernel before 5.8 has no Pss_Anon / Pss_Shmem: they stay
 * invalid (the caller flags it). */
int st_lx_parse_rollup(const char *text, size_t len, st_lx_rollup *out, st_error *err);

#endif
