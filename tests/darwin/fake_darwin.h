/* fake_darwin.h: a scripted macOS kernel for the Darwin backend's tests.
 *
 * fake_darwin.c implements sysctl(), sysctlbyname(), proc_pid_rusage(),
 * proc_pidpath() and the backend's kill() (st_fake_kill, see the shim's
 * libproc.h) over a process table that the test writes, so that the real
 * core/platform/platform_darwin.c runs unchanged on Linux.  They behave like XNU
 * where the backend depends on it (see each knob).  Single-threaded. */
#ifndef STAGETOP_FAKE_DARWIN_H
#define STAGETOP_FAKE_DARWIN_H

#include <stddef.h>
#include <stdint.h>

/* One scripted process. */
typedef struct fake_proc {
    int32_t pid, ppid;
    int32_t pgid;             /* e_pgid: the parent's at fake_darwin_add, as
                                 fork enters the child in its parent's group
                                 (xnu-11417.101.15 bsd/kern/kern_fork.c:1012,
                                 pgrp_enter_locked); its own pid without a
                                 parent; a test sets it for setpgid/setsid */
    uint64_t start_us;        /* p_starttime in microseconds (wall clock) */
    uint64_t start_abs;       /* ri_proc_start_abstime (monotonic); 0: start_us * 1000 */
    char comm[17];            /* p_comm (MAXCOMLEN + 1) */
    char path[256];           /* proc_pidpath; "" = proc_pidpath fails */
    char args[512];           /* argv, NUL-separated, for KERN_PROCARGS2 */
    size_t args_len;
    int argc;
    const char *raw_args;     /* if set: KERN_PROCARGS2 returns these bytes */
    size_t raw_len;
    const char *env;          /* the environment execve was given: NUL-ended
                                 strings, env_len bytes, the test's memory;
                                 NULL: "PATH=/usr/bin:/bin" */
    size_t env_len;
    int env_restricted;       /* CS_RESTRICT: KERN_PROCARGS2 leaves the
                                 environment out (fake_darwin.c says where) */
    uint64_t footprint, resident, peak;
    /* CPU in Mach time units (the knobs' time base), page-ins; own and of
     * reaped children (ri_child_*) */
    uint64_t user_abs, system_abs, child_user_abs, child_system_abs;
    uint64_t pageins, child_pageins;
    int zombie;               /* p_stat SZOMB: rusage answers from what was saved
                                 at exit (footprint 0, resident and peak kept) */
    int other_user;           /* rusage and KERN_PROCARGS2 refused (EPERM /
                                 EINVAL), kill EPERM, as for another uid */
    int exiting;              /* in exit1/proc_exit, not yet SZOMB: p_flag
                                 P_WEXIT, and no task port (fake_taskinfo.c) */
} fake_proc;

/* Recorded kill() calls. */
typedef struct fake_kill_rec {
    int32_t pid;
    int sig;
} fake_kill_rec;

#define FAKE_KILL_LOG 64

typedef struct fake_darwin_knobs {
    int v4_refused;           /* proc_pid_rusage(V4) -> EINVAL (pre-10.13 kernel) */
    int rusage_einval;        /* proc_pid_rusage -> EINVAL for every flavor */
    int enomem_fetches;       /* the next N KERN_PROC_ALL fetches fail ENOMEM */
    int grow_after_probe;     /* after the next size probe, N processes appear */
    int32_t reuse_on_read;    /* on the next rusage read of this pid, the pid is
                                 first reused by a new process (start + 1 s) */
    int real_zombies;         /* a scripted zombie is also a real child of the
                                 test: proc_pid_rusage answers ESRCH for it
                                 once the real one is reaped, as XNU does */
    /* sysctlbyname values; *_ok = 0 makes the name unknown (ENOENT) */
    int swap_ok, level_ok, pressure_ok, memsize_ok;
    uint64_t swap_total, swap_avail, swap_used, memsize;
    int level, pressure;
    int argmax;               /* kern.argmax */
    /* mach_timebase_info (default 125/3, Apple Silicon), host_page_size
     * (default 16384), host_statistics64's compressor_page_count;
     * vm_stats_ok = 0 makes host_statistics64 fail */
    uint32_t tb_numer, tb_denom;
    uint64_t page_size;
    uint32_t compressor_pages;
    int vm_stats_ok;
    /* counters */
    unsigned probes, fetches, rusage_v4, rusage_v2, rusage_other;
    unsigned pid_lookups;
    fake_kill_rec kills[FAKE_KILL_LOG];
    unsigned n_kills;
} fake_darwin_knobs;

/* Empty table, default knobs (all sysctls present: 48 GIB RAM, level 80,
 * pressure 1, 1 GIB swap of which 0 used). */
void fake_darwin_reset(void);
/* The knobs and counters (one static instance). */
fake_darwin_knobs *fake_darwin_knobs_get(void);
/* Add a running process; returns it for further settings (comm = name,
 * path = "/usr/bin/<name>", argv = {name}).  NULL when the pid exists. */
fake_proc *fake_darwin_add(int32_t pid, int32_t ppid, uint64_t start_us, const char *name);
/* Set argv (argc strings) and the exec path. */
void fake_darwin_set_argv(fake_proc *p, const char *path, int argc, const char *const *argv);
fake_proc *fake_darwin_find(int32_t pid);
/* The process exits, as XNU's proc_exit (bsd/kern/kern_exit.c) does it:
 * its rusage is saved with ri_phys_footprint zeroed, its live children are
 * re-parented to launchd (pid 1) and its zombie children are reaped, then it
 * becomes a zombie (SZOMB) until fake_darwin_remove.  0, or -1 if absent. */
int fake_darwin_exit(int32_t pid);
/* The process is reaped (it exits first if it has not): gone from the
 * table.  0 if it was there, -1 if not. */
int fake_darwin_remove(int32_t pid);
/* Processes in the table. */
size_t fake_darwin_count(void);
/* Free the table. */
void fake_darwin_free(void);

#endif
