/* prerun.h: what a front end asks of the machine before any run exists
 * (docs/design.md, "Before a run"): the process trees it may pick from
 * (`stagetop` with no target) and the memory level that --wait-free waits
 * for.  Both read through one backend of the platform table; neither
 * signals anything.
 *
 * Targets: every process with its own footprint and its tree footprint
 * (its own plus its descendants'), largest tree first.  Not offered: pid 1,
 * stagetop itself and its ancestors (ancestry.h: they cannot be paused or
 * killed safely), trees without memory, and a wrapper (a shell, make,
 * sudo, env...) whose tree is (ST_PRERUN_WRAPPER_PCT %) one child's tree:
 * it is shown as that child, so the process holding the memory is the one
 * picked. */
#ifndef STAGETOP_PRERUN_H
#define STAGETOP_PRERUN_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/platform.h"

#define ST_PRERUN_WRAPPER_PCT 97

typedef struct st_target {
    st_proc_id id;
    int32_t ppid;
    uint64_t own, tree;   /* footprint of the process, of its tree */
    uint32_t procs;       /* processes in its tree */
} st_target;

typedef struct st_prerun st_prerun;

/* Open the platform's backend for pre-run questions; ST_ENOMEM or the
 * backend's error. */
int st_prerun_open(st_prerun **out, const st_platform *plat, st_error *err);
void st_prerun_close(st_prerun *p);

/* List the machine's process trees now (the rules above); the previous
 * list is replaced.  The backend's error when nothing could be listed. */
int st_prerun_list_targets(st_prerun *p, st_error *err);
/* The targets of the last listing, largest tree first. */
size_t st_prerun_n_targets(const st_prerun *p);
const st_target *st_prerun_target(const st_prerun *p, size_t i);
/* A process's command line, read now. */
int st_prerun_command(const st_prerun *p, st_proc_id id, char *buf, size_t len, st_error *err);

/* The system's memory-available level now, in percent (0..100); ST_ENOTSUP
 * when the platform cannot read it. */
int st_prerun_level(const st_prerun *p, double *pct, st_error *err);

/* Is pid a zombie (it has exited and is not reaped: nothing of it can be
 * read)?  1 yes, 0 no, -1 unknown (the platform cannot tell). */
int st_prerun_is_zombie(const st_platform *plat, int32_t pid);

/* Where a job launched now would run (its own group, or stagetop's, and
 * why): the group is made and removed again (docs/metrics.md). */
void st_prerun_job_group(char *where, size_t len);

/* `doctor -p`: the footprint of pid's tree as the screen sums it, against
 * the sum of each member's reference reading (doctor.h's st_doctor_check,
 * judged): on Linux each member's PSS, so a tree sum that counts shared
 * memory more than once disagrees (st_doctor_share_judge).  *per_proc gets
 * the members' own footprints summed (Linux: status, a shared page in
 * each).  Returns 1 when every member had a reference, 0 when one had
 * none (c->has_ref 0), -1 when the tree could not be read (err). */
struct st_doctor_check;
int st_prerun_tree_check(const st_platform *plat, int32_t pid, struct st_doctor_check *c,
                         uint32_t *procs, uint64_t *per_proc, st_error *err);

#endif
