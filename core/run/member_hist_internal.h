/* member_hist_internal.h: each live member's own footprint over its last samples,
 * kept by the monitor (core/run/monitor.c) for the screen's details box
 * (tui/details.c, through st_run_view_history_of).
 *
 * Bounded: a ring of ST_MEMBER_HIST_N values per member, footprints in KiB
 * as uint32 (up to 4 TiB; larger is kept as the largest), one entry per
 * member of the tree as it was last sampled.  A member that left is
 * forgotten at the next sample, so the memory is (members now) x
 * st_member_hist_entry_bytes() (about 2 KiB each; docs/performance.md). */
#ifndef STAGETOP_MEMBER_HIST_INTERNAL_H
#define STAGETOP_MEMBER_HIST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/sample.h"

#define ST_MEMBER_HIST_N 512
#define ST_MEMBER_HIST_NONE UINT32_MAX /* a sample where the footprint was not read */

struct st_mh_entry;

typedef struct st_member_hist {
    struct st_mh_entry **v;  /* one per member, in (pid, start) order */
    size_t n, cap;
} st_member_hist;

void st_member_hist_free(st_member_hist *h);

/* One sample: the footprint of each of members[0..n) appended to its ring
 * (a new member's ring starts with it); entries of processes not among
 * them are freed.  0, or -1 when out of memory (the members that found no
 * room are not kept: their history starts again later). */
int st_member_hist_add(st_member_hist *h, const st_proc_mem *members, size_t n);

/* The newest values of id, at most cap, oldest first, into kib: how many
 * (0: id is not kept).  ST_MEMBER_HIST_NONE marks a sample without it. */
size_t st_member_hist_get(const st_member_hist *h, st_proc_id id, uint32_t *kib, size_t cap);

/* The bytes one member's entry holds (its ring, identity and the pointer
 * to it), what docs/performance.md says. */
size_t st_member_hist_entry_bytes(void);

#endif
