/* peak.h: kernel peaks that do not leave with the process.
 *
 * A process that spikes and exits between two samples takes its high-water
 * mark with it (docs/metrics.md).  For a job stagetop launched, three kernel
 * sources outlive it:
 *   wait4         ru_maxrss of each child stagetop reaps (the root, and on
 *                 Linux the job's orphans, stagetop being their subreaper):
 *                 the largest resident set of that process and of every
 *                 descendant it waited for (Linux KiB, macOS bytes)
 *   lifetime_max  macOS: ri_lifetime_max_phys_footprint read from the root
 *                 while it is a zombie, before it is reaped (platform
 *                 zombie_peak)
 *   cgroup        Linux with a writable cgroup v2 memory controller: the
 *                 job runs in a cgroup of its own and memory.peak is the
 *                 whole tree's peak, exited processes included
 * Each goes to the summary with its name (st_summary_add_kernel_peak_from),
 * beside "sampled" (the per-process marks read while sampling).
 *
 * The child side (st_peak_child_enter) only makes async-signal-safe calls. */
#ifndef STAGETOP_PEAK_H
#define STAGETOP_PEAK_H

#include <stdint.h>
#include <sys/types.h>
#include "stagetop/error.h"
#include "stagetop/platform.h"
#include "stagetop/summary.h"

/* Source names, as written in the trace's summary.kernel_peak_source. */
#define ST_PEAK_SAMPLED "sampled"
#define ST_PEAK_WAIT4 "wait4"
#define ST_PEAK_LIFETIME "lifetime_max"
#define ST_PEAK_CGROUP "cgroup"

/* Is name one of the source names above? */
int st_peak_source_known(const char *name);

typedef struct st_job_peak {
    uint64_t wait4;    int has_wait4;    /* max ru_maxrss over reaped children, bytes */
    uint64_t lifetime; int has_lifetime; /* max zombie lifetime peak, bytes */
    uint64_t cgroup;   int has_cgroup;   /* memory.peak (v1: memory.max_usage_in_bytes), bytes */
    /* for zombie_peak (st_peak_bind); NULL: not read */
    const st_platform *plat;
    st_backend *b;
    pid_t root;          /* the launched root (st_peak_spawned) */
    /* the watched tree's rates: a reaped child's final CPU time and major
     * faults (wait4's rusage) go there (st_tree_note_exit); NULL: not fed */
    struct st_tree_rates *rates;
    int root_reaped;     /* 1 once st_peak_reap has reaped it */
    st_job_group grp;    /* the job's own group (platform group_*: Linux cgroup v2 or v1) */
} st_job_peak;

/* Before fork: zero *pk and make the job's own group through the native
 * platform's group_prepare (Linux: a cgroup under stagetop's own, only
 * where its memory controller is enabled for children, or on a cgroup v1
 * memory hierarchy where stagetop may create one; never fails:
 * without one, grp.why says why and grp.where where the job runs).
 * STAGETOP_CGROUP=0 in the environment turns this off. */
void st_peak_prepare(st_job_peak *pk);
/* In the child, before exec: move itself into the cgroup (best effort). */
void st_peak_child_enter(const st_job_peak *pk);
/* In the parent once the exec succeeded: remember the root, check that it
 * is in the group (else the group is removed and grp.why says so). */
void st_peak_spawned(st_job_peak *pk, pid_t pid);
/* The exec failed or the fork did: remove the cgroup. */
void st_peak_discard(st_job_peak *pk);

/* The backend whose zombie_peak is read before a child is reaped. */
void st_peak_bind(st_job_peak *pk, const st_platform *plat, st_backend *b);

/* Like waitpid(which, status, WNOHANG) (which: a pid, -pgid, or -1 for any
 * child), for exited
 * children only: finds a child that has exited without reaping it (waitid
 * WNOWAIT), reads its zombie peak (if bound), then reaps it with wait4 and
 * keeps its ru_maxrss.  Once the root is reaped, each reap also tries to
 * settle the cgroup: if it is empty, memory.peak is read and the cgroup
 * removed.  Returns the pid reaped, 0 when none has exited, -1 with errno
 * set. */
pid_t st_peak_reap(st_job_peak *pk, pid_t which, int *status);

/* Read memory.peak (once the job is over, or at the end of the run), then
 * remove the group: processes still in it go back to stagetop's first.
 * Idempotent. */
void st_peak_finish(st_job_peak *pk);

/* Feed every source known so far to the summary, each under its name. */
void st_peak_feed(const st_job_peak *pk, st_summary *s);

#endif
