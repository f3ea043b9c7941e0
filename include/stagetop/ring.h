/* ring.h: a fixed-capacity ring of samples; memory is allocated once.
 *
 * Oldest samples are overwritten when full; index 0 is always the oldest
 * kept sample.  Statistics over the whole run (not only what the ring
 * still holds) live in st_summary (summary.h: its per-lane st_lane_stats,
 * lanes.h), not here. */
#ifndef STAGETOP_RING_H
#define STAGETOP_RING_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/sample.h"

typedef struct st_ring {
    st_sample *buf;
    size_t cap;     /* capacity, >= 1 */
    size_t head;    /* index in buf of the oldest sample */
    size_t len;     /* samples held, <= cap */
    uint64_t total; /* samples ever pushed */
} st_ring;

/* Allocate a ring of cap >= 1 samples.  ST_EINVAL for cap 0, ST_ENOMEM. */
int st_ring_init(st_ring *r, size_t cap, st_error *err);
void st_ring_free(st_ring *r);
/* Append s, overwriting the oldest when full. */
void st_ring_push(st_ring *r, const st_sample *s);
/* Samples held now. */
size_t st_ring_len(const st_ring *r);
/* The i-th oldest held sample (0 <= i < len), or NULL when out of range. */
const st_sample *st_ring_get(const st_ring *r, size_t i);
/* The newest sample, or NULL when empty. */
const st_sample *st_ring_last(const st_ring *r);
/* Samples pushed that the ring no longer holds (total - len). */
uint64_t st_ring_overwritten(const st_ring *r);
/* The held samples, oldest first, as two spans (no copy). */
st_samples_view st_ring_view(const st_ring *r);
/* Capacity for a history of history_s seconds at interval_s (>= 1, capped
 * at 16M samples). */
size_t st_ring_capacity_for(double history_s, double interval_s);

#endif
