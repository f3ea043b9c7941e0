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

/* linux_share.c: platform.h's read_share (smaps_rollup). */
int st_lx_read_share(st_backend *b, st_proc_id id, st_proc_share *out, st_error *err);

#endif
