/* sample.h: one reading of a process tree and of the system, and its fields.
 *
 * A sample says which fields it holds (valid bits): a field that the
 * platform cannot provide is "not available", not an error.  The struct is
 * kept small (72 bytes) because the ring holds hours of them. */
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
    ST_F_PROCS = 1u << 6,     /* number of processes in the tree */
    ST_F_CPU = 1u << 7,       /* tree CPU, hundredths of a percent of one core */
    ST_F_PAGEINS = 1u << 8,   /* tree page-ins (major faults), hundredths per second */
    ST_F_TREE_SWAP = 1u << 9, /* tree's own swapped memory, bytes (Linux VmSwap sum) */
    ST_F_COMPRESSED = 1u << 10 /* system memory held by the compressor, bytes */
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
    uint64_t tree_swap; /* bytes, sum of the tree's VmSwap */
    uint64_t compressed;/* bytes, whole system */
    uint32_t cpu_c;     /* CPU over the last interval, hundredths of a percent of one core */
    uint32_t pageins_c; /* page-ins per second over the last interval, hundredths */
} st_sample;

_Static_assert(sizeof(st_sample) == 72, "st_sample is 72 bytes (docs/design.md)");

/* Samples as (at most) two contiguous spans, oldest first: a ring's view. */
typedef struct st_samples_view {
    const st_sample *a; size_t a_len;
    const st_sample *b; size_t b_len;
} st_samples_view;

/* Convenience: does s hold field f? */
static inline int st_sample_has(const st_sample *s, unsigned f) { return (s->valid & f) == f; }

#endif
