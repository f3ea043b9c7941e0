/* linux_cgroup.h: internal to the Linux backend (core/platform/linux_cgroup.c,
 * the group_* functions of st_platform_native); not a public contract.
 * Declared here so that a unit test can run the placement against a
 * cgroup tree it made (tests/unit/test_cgroup_place.c). */
#ifndef STAGETOP_LINUX_CGROUP_H
#define STAGETOP_LINUX_CGROUP_H

#include <stdint.h>
#include "stagetop/platform.h"

/* group_prepare once the mount and stagetop's cgroup are known: mnt is
 * the cgroup2 mount point, root the mount's root (mountinfo field 4, "/"
 * usually) and rel stagetop's cgroup as /proc/self/cgroup's "0::" line
 * gives it. */
void st_lx_group_prepare_at(st_job_group *g, const char *mnt, const char *root, const char *rel);

void st_lx_group_prepare(st_job_group *g);
void st_lx_group_enter(const st_job_group *g);
void st_lx_group_spawned(st_job_group *g, int32_t pid);
void st_lx_group_discard(st_job_group *g);
int st_lx_group_settle(st_job_group *g, int force, uint64_t *peak);

/* group_prepare on a cgroup v1 memory hierarchy: mnt its mount point,
 * root the mount's root, rel stagetop's memory cgroup as the
 * "N:memory:" line of /proc/self/cgroup gives it. */
void st_lx_group_prepare_v1_at(st_job_group *g, const char *mnt, const char *root, const char *rel);
/* Open the group's memory.stat (and v2's memory.swap.current) for
 * group_footprint, and its cgroup.procs for group_pids: 0, or -1 when
 * memory.stat cannot be opened. */
int st_lx_group_open_stats(st_job_group *g);

/* linux_share.c: platform.h's read_share (smaps_rollup). */
int st_lx_read_share(st_backend *b, st_proc_id id, st_proc_share *out, st_error *err);

/* memory.stat's counters of memory counted once (bytes). */
typedef struct st_lx_memstat {
    uint64_t anon;  /* v2 anon; v1 rss (anonymous and swap cache, THP included) */
    uint64_t shmem; /* shmem (tmpfs, /dev/shm, shared anonymous mappings) */
    uint64_t swap;  /* v1 swap, where memsw accounting shows it (v2: memory.swap.current) */
    int has_swap;   /* v1: the swap line was there */
} st_lx_memstat;
/* Parse memory.stat's text (v1: 1 for a cgroup v1 hierarchy's): 0, or -1
 * when its anonymous or shmem line is missing or not a number. */
int st_lx_parse_memstat(const char *text, size_t len, int v1, st_lx_memstat *out);
/* platform.h's group_footprint. */
int st_lx_group_footprint(st_backend *b, const st_job_group *g, uint64_t *out, st_error *err);
/* platform.h's group_pids. */
int st_lx_group_pids(st_backend *b, const st_job_group *g, int32_t **pids, size_t *cap, size_t *n,
                     st_error *err);

#endif
