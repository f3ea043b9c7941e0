/* tree.h: a watched process tree: its members and their latest readings.
 *
 * Membership is by identity (pid + start time): a process once seen in the
 * tree stays a member until it exits, whatever its parent becomes (it left
 * the root's descendants when a middle process exited, or its session or
 * process group); with a reaper set, every child of the reaper and what
 * lies under it are members too (docs/metrics.md, "Who is in the tree").
 *
 * Membership is refreshed through the backend's descendants() at most every
 * discover_s seconds (default: every sample when the interval is >= 0.5 s,
 * else every 0.5 s), and also whenever a member disappears.  Memory is read
 * from every known member on every sample. */
#ifndef STAGETOP_TREE_H
#define STAGETOP_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/platform.h"
#include "stagetop/sample.h"

/* One member's counters at a sample (core/run/tree_rates.c). */
typedef struct st_tree_ctr {
    st_proc_id id;
    int32_t ppid;
    size_t member;                      /* index in st_tree.members at that sample */
    uint64_t cpu_ns, child_cpu_ns, majflt, child_majflt;
    uint64_t credit_cpu_ns, credit_majflt; /* departed children's counted part */
    uint64_t exit_cpu_ns, exit_majflt;  /* wait4's rusage, when stagetop reaped it */
    int exited;
} st_tree_ctr;

/* The tree's rates: CPU and page-ins from counter deltas (tree_rates.c). */
typedef struct st_tree_rates {
    st_tree_ctr *prev, *cur;
    size_t n_prev, cap_prev, n_cur, cap_cur;
    double prev_s;
    int has_prev;
    uint64_t total_cpu_ns, total_majflt; /* counted since the first sample */
} st_tree_rates;

/* Fill out's cpu and pageins (from the second sample on) from the members
 * m[0..n) just read, and each member's cpu_c and pageins_c. */
int st_tree_rates_update(st_tree_rates *r, st_proc_mem *m, size_t n, double now_s, st_sample *out,
                         st_error *err);
void st_tree_rates_free(st_tree_rates *r);
/* A member that stagetop reaped: its final counters from wait4's rusage
 * (CPU time user + system in ns, major faults; its reaped children
 * included).  The rest after its last reading is added at the next sample. */
void st_tree_note_exit(st_tree_rates *r, int32_t pid, uint64_t cpu_ns, uint64_t majflt);

/* The footprint counted once (core/run/tree_share.c; docs/metrics.md,
 * "Counted once"): each member's carried correction, its status sum
 * minus its proportional sum at its last read. */
typedef struct st_share_ent {
    st_proc_id id;
    uint64_t delta;  /* status footprint minus Pss_Anon + Pss_Shmem + SwapPss, at t */
    uint64_t fp;     /* its status footprint at this sample */
    double t;        /* when delta was read; when it joined while has is 0 */
    double tried_s;  /* the sample that last tried it */
    int has;         /* delta was read */
    uint64_t alone, shared; /* at that read: Private_* and Shared_* of smaps_rollup */
} st_share_ent;

#define ST_SHARE_CPU 0.02        /* the budget: 2 % of one core */
#define ST_SHARE_CREDIT_MAX 0.1  /* CPU seconds of budget that may be saved up */
#define ST_SHARE_FRESH_S 1.0     /* a member read this recently is not read again */
#define ST_SHARE_METRIC "pss_anon+pss_shmem+swap_pss"

typedef struct st_tree_share {
    st_share_ent *e, *scratch;
    size_t n, cap, scap;
    double credit_s;  /* CPU seconds the next reads may take */
    double last_s;    /* the previous sample's time, -1 before */
    int split;        /* 1: the proportional path is in use (a kernel with
                         Pss_Anon and Pss_Shmem, a readable root); 0: the
                         status sum, shared pages counted per process */
    int in_force;     /* the last sample's footprint was corrected */
    double age_s;     /* then: its oldest correction, seconds */
    uint64_t reads;   /* proportional reads so far */
    double cost_s;    /* the CPU seconds they took */
} st_tree_share;

/* Decide the definition at the start: split = 1 when root's proportional
 * reading is readable and split (else the status sum stays, flagged). */
void st_tree_share_probe(st_tree_share *sh, const st_platform *plat, st_backend *b,
                         st_proc_id root);
/* Correct out->footprint (the status sum over m[0..n)): read proportional
 * readings within the budget, subtract the carried corrections. */
int st_tree_share_apply(st_tree_share *sh, const st_platform *plat, st_backend *b,
                        const st_proc_mem *m, size_t n, double now_s, st_sample *out,
                        st_error *err);
/* What member id held alone and shared (resident, file pages in) at its
 * last proportional read: 1, or 0 when it has not been read (a lone
 * process without shared memory is never read). */
int st_tree_share_of(const st_tree_share *sh, st_proc_id id, uint64_t *alone, uint64_t *shared);
/* The definition in force: ST_SHARE_METRIC, or plain (the platform's). */
const char *st_tree_share_metric(const st_tree_share *sh, const char *plain);
void st_tree_share_free(st_tree_share *sh);

/* The footprint of a launched job in a cgroup of its own: one read of the
 * group's memory.stat per sample (platform group_footprint; docs/metrics.md,
 * "Counted once"), in place of the members' sum and its proportional
 * corrections, which are then not read. */
#define ST_GROUP_METRIC "cgroup:anon+shmem+swap"

typedef struct st_tree {
    const st_platform *plat;
    st_backend *b;
    st_proc_id root;
    int root_alive;          /* 0 once the root process is gone */
    st_proc_mem *members;    /* latest reading of each live member, root first */
    size_t n_members, cap;
    st_proc_vec scratch;     /* discovery buffer */
    double discover_s;       /* minimum seconds between discoveries */
    double last_discover;    /* time of the last discovery, -1 before the first */
    uint64_t kernel_peak;    /* max of every member's peak seen so far (bytes) */
    int has_kernel_peak;
    uint64_t eperm_count;    /* members whose memory the kernel refused */
    st_tree_rates rates;     /* CPU, page-ins */
    st_proc_id reaper;       /* st_tree_adopt_orphans_of (has_reaper) */
    int has_reaper;
    int32_t group;           /* st_tree_adopt_group: the launched job's group, or 0 */
    st_tree_share share;     /* the footprint counted once (tree_share.c) */
    const st_job_group *cgroup; /* the job's own cgroup, its footprint (st_tree_use_cgroup) */
    int32_t *cg_pids;        /* the processes in it at the last sample, sorted */
    size_t cg_cap;
    st_proc_mem *outside;    /* the members not in it then (moved out), and their count */
    size_t out_cap, n_outside;
} st_tree;

/* Start watching pid.  ST_ESRCH no such process, ST_EPERM not allowed. */
int st_tree_init(st_tree *t, const st_platform *plat, st_backend *b, int32_t pid,
                 double discover_s, st_error *err);
void st_tree_free(st_tree *t);

/* Read every member (discovering first when due) and fill the tree fields
 * of *out: footprint, rss, procs, tree_swap, and from the second sample on
 * the CPU and page-in rates (core/run/tree_rates.c: the growth of the
 * members' counters over now_s minus the previous sample's now_s; a member
 * that joined counts from zero, a reaped one through its parent or wait4);
 * and their valid bits (t_ms and system fields are the caller's).  A member
 * that vanished drops out silently.
 * Returns ST_OK also when the whole tree has exited (procs = 0). */
int st_tree_sample(st_tree *t, double now_s, st_sample *out, st_error *err);

/* Make every child of pid (a child subreaper: stagetop for the job it
 * launched) other than pid itself, and its descendants, members: the job's
 * orphans re-parent to it.  ST_ESRCH / ST_EPERM from identify. */
int st_tree_adopt_orphans_of(st_tree *t, int32_t pid, st_error *err);

/* Where no subreaper adopts the job's orphans (macOS): make every process
 * of process group pgid (the group stagetop made the launched job lead)
 * that started no earlier than the root, and its descendants, members; an
 * orphan that left the group (setsid, setpgid) is still lost.  Never for
 * -p: a root that does not lead its group would adopt its siblings.
 * ST_ENOTSUP where the platform lists no group (group_members NULL). */
int st_tree_adopt_group(st_tree *t, int32_t pgid);

/* Count the tree's footprint as group g's memory (g stays the caller's,
 * alive as long as the tree): taken when the platform reads a group's
 * memory and g's reads now (1), else the members' sum stays (0).  Decided
 * once, at the start: a record has one definition.  While g is active each
 * sample's footprint is its one read, plus the members that are not in g
 * (one that moved itself to another cgroup) counted by the proportional
 * path (st_tree_share_apply over them alone); once g is gone (removed at
 * the end), the members' status sum. */
int st_tree_use_cgroup(st_tree *t, const st_job_group *g);
/* The footprint's definition in force: ST_GROUP_METRIC, the share's
 * (st_tree_share_metric), or plain (the platform's). */
const char *st_tree_metric(const st_tree *t, const char *plain);

/* Force a discovery on the next st_tree_sample. */
void st_tree_rediscover(st_tree *t);
/* How many processes the next discovery would add from the reaper's
 * children or the job's process group (other than the root): an orphan
 * forked and re-parented between two discoveries, never seen under the
 * root.  0 without a reaper or a group.  Reads the process table once. */
size_t st_tree_unseen(st_tree *t);

#endif
