/* platform.h: the backend table, one per operating system, chosen at link
 * time by the Makefile (core/platform/platform_linux.c or core/platform/platform_darwin.c
 * defines st_platform_native).  Tests plug in a fake backend through the
 * same table.  Every function is called from one thread only.
 *
 * Identity: a process is (pid, start).  `start` is an opaque start-time
 * token (Linux: clock ticks since boot from /proc/PID/stat field 22; macOS:
 * p_starttime in microseconds since the epoch).  A pid whose start differs
 * from the one recorded is another process: never read as a member, never
 * signalled. */
#ifndef STAGETOP_PLATFORM_H
#define STAGETOP_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/cgroup_limit.h"
#include "stagetop/error.h"
#include "stagetop/sample.h"

/* A process found while walking a tree or listing the machine. */
typedef struct st_proc_ref {
    st_proc_id id;
    int32_t ppid;
} st_proc_ref;

/* A growable array of st_proc_ref (core/platform/proc_vec.c). */
typedef struct st_proc_vec {
    st_proc_ref *v;
    size_t len, cap;
} st_proc_vec;

int st_proc_vec_push(st_proc_vec *vec, const st_proc_ref *ref, st_error *err);
void st_proc_vec_clear(st_proc_vec *vec); /* len = 0, keeps memory */
void st_proc_vec_free(st_proc_vec *vec);

/* st_proc_id and st_proc_mem, one process's reading that read_proc fills,
 * are the model's (sample.h): the lane table names the fields a tree sums. */

/* One process's proportional reading (Linux /proc/PID/smaps_rollup;
 * docs/metrics.md, "Counted once"): a page that k processes map counts 1/k
 * in each, so the sum over a tree counts each page once. */
typedef struct st_proc_share {
    uint64_t counted; /* Pss_Anon + Pss_Shmem + SwapPss (valid when split) */
    uint64_t alone;   /* Private_Clean + Private_Dirty: resident pages no other process maps */
    uint64_t shared;  /* Shared_Clean + Shared_Dirty: resident pages others map too */
    int split;        /* 1: the kernel has Pss_Anon and Pss_Shmem (5.8+); 0: counted is not known */
} st_proc_share;

/* st_sys_mem, the system's reading that read_system fills, is the model's
 * (sample.h): the lane table copies its lanes into a sample. */

typedef struct st_backend st_backend; /* opaque per-platform state */

/* A launched job's own control group (Linux: a cgroup v2 directory, or a
 * cgroup v1 memory one, under stagetop's own cgroup, never outside it;
 * docs/metrics.md, "cgroup"), whose peak counts the whole tree, exited
 * processes included, and whose memory counts each page of the tree once
 * (group_footprint).  Filled by the platform's group_* functions;
 * core/run/peak.c drives them. */
typedef struct st_job_group {
    int active;        /* 1: dir exists and fd is open */
    int fd;            /* its cgroup.procs, O_WRONLY|O_CLOEXEC */
    int v1;            /* 1: a cgroup v1 memory hierarchy's directory */
    int stat_fd;       /* its memory.stat once the job joined (-1: none) */
    int swap_fd;       /* its memory.swap.current (v2; -1: none) */
    int procs_rfd;     /* its cgroup.procs, read (group_pids; -1: none) */
    char dir[512];     /* absolute path of the job's group */
    char home[512];    /* stagetop's own group: leftovers go back there */
    char rel[512];     /* dir as /proc/PID/cgroup shows it */
    char where[560];   /* where the job runs: its own group, or stagetop's */
    char why[300];     /* why there is no group of its own ("" while there is one) */
} st_job_group;

/* The Metal device's numbers that PyTorch's MPS cap is made of (macOS:
 * core/platform/darwin_mps.c; docs/metrics.md "The MPS cap"). */
typedef struct st_mps_device {
    int has_recommended;        /* 1: recommended_max was read */
    uint64_t recommended_max;   /* MTLDevice recommendedMaxWorkingSetSize, bytes */
    int has_wired_limit;        /* 1: iogpu.wired_limit_mb is set (not 0, the default) */
    uint64_t wired_limit;       /* bytes */
    char why[160];              /* why recommended_max is absent ("" when read) */
} st_mps_device;

typedef struct st_platform {
    const char *name;             /* "linux", "darwin" (trace meta.platform) */
    const char *footprint_metric; /* "anon+shmem+swap", "phys_footprint" */
    const char *peak_metric;      /* "VmHWM", "lifetime_max_phys_footprint" */

    int (*open)(st_backend **out, st_error *err);
    void (*close)(st_backend *b);

    /* Identity of a live process.  ST_ESRCH when there is none (a zombie
     * counts as live until reaped), ST_EPERM when the kernel refuses. */
    int (*identify)(st_backend *b, int32_t pid, st_proc_id *out, st_error *err);

    /* Replace *out with root and all its live descendants (root first,
     * parents before children), each with its identity and ppid.  Children
     * forked by any thread are found.  ST_ESRCH when root itself is gone or
     * its identity changed.  Must not scan every process of the machine on
     * Linux; may use one snapshot on macOS. */
    int (*descendants)(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err);

    /* A discovery begins (1) or ends (0): between the two, descendants()
     * may answer every call from one view of the process table (macOS: one
     * KERN_PROC_ALL snapshot for the root and each orphaned subtree, not
     * one each).  Optional (NULL: every call reads afresh). */
    void (*discovery)(st_backend *b, int begin);

    /* Replace *out with every live process of process group pgid (each with
     * its identity and ppid), from the discovery's view of the process
     * table.  For a platform without a subreaper (macOS), so that a launched
     * job's orphans, re-parented to launchd, are still found
     * (st_tree_adopt_group).  Optional (NULL: Linux, whose subreaper
     * adopts them). */
    int (*group_members)(st_backend *b, int32_t pgid, st_proc_vec *out, st_error *err);

    /* Memory of one process.  ST_ESRCH when it is gone or its pid now
     * belongs to another process; ST_EPERM when the kernel refuses. */
    int (*read_proc)(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err);

    /* Forget any per-process state (cached descriptors) for id.  Optional
     * (NULL allowed). */
    void (*release)(st_backend *b, st_proc_id id);

    /* System-wide numbers.  Fields the system lacks are left invalid. */
    int (*read_system)(st_backend *b, st_sys_mem *out, st_error *err);

    /* Why a lane this platform samples is missing, said once (macOS: the
     * kernel refused TASK_VM_INFO's port, so no metal or tree_compressed
     * lane; IOKit or its IOAccelerator is not there, so no gpu_system
     * lane): "" when there is nothing to say.  Optional (NULL: never). */
    const char *(*lanes_note)(st_backend *b);

    /* The command line (argv joined by spaces; the name if argv is not
     * readable) as raw bytes, NUL-terminated, truncated to len-1.  The
     * caller makes control characters visible before drawing it. */
    int (*command)(st_backend *b, st_proc_id id, char *buf, size_t len, st_error *err);

    /* Every process of the machine (for the picker, not for sampling). */
    int (*list_all)(st_backend *b, st_proc_vec *out, st_error *err);

    /* Send sig to id, only if id is still that process (re-checked as close
     * to the kill as the platform allows: pidfd on Linux).  ST_ESRCH when it
     * is gone, ST_EPERM when refused.  Callers go through jobctl, which also
     * refuses pid <= 1, stagetop itself and its ancestors. */
    int (*send_signal)(st_backend *b, st_proc_id id, int sig, st_error *err);

    /* The kernel's lifetime peak (bytes) of pid, a child of stagetop that
     * has exited and is not reaped yet (a zombie keeps its pid, so no
     * identity check is needed).  Optional (NULL: none, as on Linux, where
     * an exited process keeps no high-water mark).  macOS:
     * ri_lifetime_max_phys_footprint (RUSAGE_INFO_V4); ST_ENOTSUP on a
     * kernel without V4.  Used by core/run/peak.c. */
    int (*zombie_peak)(st_backend *b, int32_t pid, uint64_t *out, st_error *err);

    /* identify's answer plus the parent: out->id as identify gives it,
     * out->ppid the parent's pid (0 when it has none).  Same errors as
     * identify.  Walks up the process tree for jobctl's "never signal an
     * ancestor of stagetop" rule (core/run/ancestry.c).  Optional (NULL: only
     * getppid() is known). */
    int (*identify_parent)(st_backend *b, int32_t pid, st_proc_ref *out, st_error *err);

    /* The short name of pid (Linux: comm of /proc/PID/stat; macOS: p_comm
     * of the kern.proc.pid sysctl) as raw bytes, NUL-terminated, truncated
     * to len-1, for a message about a pid that is not a member (jobsig.c's
     * target check): the caller makes it safe to show.  ST_ESRCH when there
     * is no such process.  Optional (NULL: names are not known). */
    int (*proc_name)(st_backend *b, int32_t pid, char *buf, size_t len, st_error *err);

    /* The process that pid belongs to when pid may name a thread: *out is
     * the thread group's leader (Linux: Tgid of /proc/PID/status; a
     * thread's id opens /proc/TID too), pid itself for a process.
     * ST_ESRCH when there is none.  Optional (NULL: thread ids are not
     * pids on this platform, as on macOS; every pid is a process). */
    int (*thread_group)(st_backend *b, int32_t pid, int32_t *out, st_error *err);

    /* 1 when pid is a zombie (it has exited; its parent has not reaped it:
     * nothing of it can be watched), 0 when it is not, -1 unknown.
     * Optional (NULL: never asked). */
    int (*is_zombie)(st_backend *b, int32_t pid);

    /* The value of the variable name in the environment that id was
     * started with (Linux: /proc/PID/environ, readable by its own user and
     * root; the block is read whole up to 1 MiB and parsed by env_block.h;
     * macOS: KERN_PROCARGS2's environment, not a restricted process's),
     * NUL-terminated, truncated to len-1: ST_OK (buf "" when it is not
     * set), ST_EPERM when that block is not readable, ST_ESRCH when id is
     * gone.  For -p: a job's $STAGETOP_EVENTS and $STAGELOAD_TRACE are
     * followed without --events.  Optional (NULL: not known here). */
    int (*environ_var)(st_backend *b, st_proc_id id, const char *name, char *buf, size_t len,
                       st_error *err);

    /* ---- the launched job's own group (st_job_group); NULL: none on this
     * platform.  Never takes the job out of the group stagetop runs in. ---- */
    /* Before fork: make the group (never fails: g->why says why not, and
     * g->where where the job will run). */
    void (*group_prepare)(st_job_group *g);
    /* In the child before exec: join it (async-signal-safe calls only). */
    void (*group_enter)(const st_job_group *g);
    /* In the parent after exec: check that pid joined (else give it up). */
    void (*group_spawned)(st_job_group *g, int32_t pid);
    /* Remove the group (fork or exec failed). */
    void (*group_discard)(st_job_group *g);
    /* Read the group's peak (bytes) into *peak (returns 1 when read), then
     * remove the group if it is empty; force: move what is left back to
     * stagetop's group first and give the group up either way. */
    int (*group_settle)(st_job_group *g, int force, uint64_t *peak);
    /* The group's memory with each page counted once, in one read of its
     * memory.stat (v2: anon + shmem + memory.swap.current; v1: rss +
     * shmem + swap; docs/metrics.md, "Counted once"), bytes.  ST_ESRCH
     * when the group is gone.  NULL: none on this platform. */
    int (*group_footprint)(st_backend *b, const st_job_group *g, uint64_t *out, st_error *err);
    /* The processes in the group itself (its cgroup.procs: not those of
     * a cgroup below it), sorted, into (*pids)[0..*n), grown as needed
     * (grow.h: *cap its capacity).  ST_ESRCH when the group is gone. */
    int (*group_pids)(st_backend *b, const st_job_group *g, int32_t **pids, size_t *cap, size_t *n,
                      st_error *err);

    /* Before a launched job's fork: make the caller the reaper of its
     * descendants' orphans (Linux: prctl PR_SET_CHILD_SUBREAPER), so that
     * st_job_poll reaps them and the tree counts them.  Returns 1 when the
     * caller is one now; NULL: no such thing on this platform (macOS). */
    int (*become_subreaper)(void);

    /* The proportional reading of one process (st_proc_share): costly (the
     * kernel walks its page tables: ~1.4 ms for 100 MiB mapped, ~11 ms for
     * 1 GiB), so the tree reads it within a CPU budget (core/run/tree_share.c).
     * ST_ESRCH gone or another process; ST_EPERM refused.  Optional (NULL:
     * no proportional counter on this platform, as on macOS). */
    int (*read_share)(st_backend *b, st_proc_id id, st_proc_share *out, st_error *err);

    /* The memory limit that binds pid (cgroup_limit.h's st_cg_watch; Linux:
     * /proc/PID/cgroup walked up under the mounts /proc/self/mountinfo
     * names, docs/metrics.md "The limit that binds").  Walks when the
     * cgroup text differs from the one last walked, or force: 1 walked,
     * 0 nothing changed, -1 pid's cgroup is not readable.  Optional (NULL:
     * no cgroups on this platform, as on macOS). */
    int (*limit_find)(st_backend *b, int32_t pid, st_cg_watch *w, int force);

    /* The Metal device's recommended working set (read in a short-lived
     * child, so stagetop never carries the framework) and the GPU's wired
     * limit, for the start record.  Never fails: out says what is absent
     * and why.  Optional (NULL: no Metal on this platform). */
    void (*mps_device)(st_mps_device *out);

    /* ---- capabilities: what the core may expect here (0/NULL in a fake
     * table: the Linux-like default) ---- */
    /* NULL: the GPU lane (NVML through dlopen) may be tried; else why this
     * platform has none (shown where the lane would be). */
    const char *no_gpu_lane;
    /* 1: st_sys_mem.pressure_c is a level (1 normal, 2 warn, 4 critical,
     * times 100: macOS kern.memorystatus_vm_pressure_level); 0: a
     * percentage (Linux PSI some avg10). */
    int pressure_is_level;
    /* 1: process memory comes from proc_pid_rusage, whose V4 flavor holds
     * the kernel peak (macOS); 0: it is not read through rusage flavors. */
    int rusage_flavors;
    /* 1: the kernel peak (ST_PM_PEAK) is the counter that wait4's
     * ru_maxrss reports for a reaped child, in KiB (Linux VmHWM). */
    int peak_is_maxrss;
    /* 1: wait4's ru_maxrss is in bytes (macOS); 0: in KiB (Linux).  Used
     * by core/run/peak.c. */
    int maxrss_in_bytes;
    /* The independent references `stagetop doctor` checks each lane
     * against (core/doctor/doctor_ref.c, docs/doctor.md): this system's
     * files and tools. */
    enum st_doctor_refs {
        ST_DOCTOR_REFS_PROC = 0,    /* /proc files, ps, nvidia-smi (Linux) */
        ST_DOCTOR_REFS_MACOS = 1    /* vmmap, footprint, sysctl, memory_pressure, sw_vers */
    } doctor_refs;
} st_platform;

/* identify for a backend whose one reading gives the parent too: its
 * identify is this over its identify_parent. */
static inline int st_identify_by_parent(int (*identify_parent)(st_backend *, int32_t, st_proc_ref *,
                                                               st_error *),
                                        st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    st_proc_ref ref;
    int rc = identify_parent(b, pid, &ref, err);
    if (rc == ST_OK)
        *out = ref.id;
    return rc;
}

/* The backend of the system stagetop was built for. */
extern const st_platform st_platform_native;

#endif
