/* sample.h: one reading of a process tree and of the system, and its fields.
 *
 * A sample says which fields it holds (valid bits): a field that the
 * platform cannot provide is "not available", not an error.  The struct is
 * kept small (48 bytes) because the ring holds hours of them. */
#ifndef STAGETOP_SAMPLE_H
#define STAGETOP_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

enum st_field {
    ST_F_FOOTPRINT = 1u << 0, /* tree footprint, bytes (see docs/metrics.md) */
    ST_F_RSS = 1u << 1,       /* tree resident size, bytes */
    ST_F_SWAP = 1u << 2,      /* system swap used, bytes */
    ST_F_LEVEL = 1u << 3,     /* memory-available level, percent */
    ST_F_PRESSURE = 1u << 4,  /* pressure: Linux PSI some avg10 (%), macOS 1/2/4 */
    ST_F_GPU = 1u << 5,       /* tree GPU memory, bytes */
    ST_F_PROCS = 1u << 6      /* number of processes in the tree */
};

typedef struct st_sample {
    uint64_t footprint; /* bytes, sum over the tree */
    uint64_t rss;       /* bytes, sum over the tree */
    uint64_t swap_used; /* bytes, whole system */
    uint64_t gpu;       /* bytes, sum over the tree's pids on all GPUs */
    uint32_t t_ms;      /* milliseconds since the start of the run */
    uint32_t procs;     /* processes in the tree */
    uint16_t level_c;   /* level in hundredths of a percent (0..10000) */
    uint16_t pressure_c;/* pressure in hundredths (PSI %, or macOS level 1/2/4 * 100) */
    uint16_t valid;     /* enum st_field bits */
    uint16_t reserved;  /* zero */
} st_sample;

/* Samples as (at most) two contiguous spans, oldest first: a ring's view. */
typedef struct st_samples_view {
    const st_sample *a; size_t a_len;
    const st_sample *b; size_t b_len;
} st_samples_view;

/* Convenience: does s hold field f? */
static inline int st_sample_has(const st_sample *s, unsigned f) { return (s->valid & f) == f; }

#endif
