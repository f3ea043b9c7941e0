/* sample.h: one reading of a process tree and of the system, and its fields.
 *
 * A sample says which fields it holds (valid bits): a field that the
 * platform cannot provide is "not available", not an error.  The struct is
 * kept small (72 bytes, asserted below) because the ring holds hours of
 * them.
 *
 * Each field is a lane: its id (enum st_lane_id, in the order traces write
 * the keys) gives its valid bit, and the lane table (stagetop/lanes.h,
 * core/model/lanes.c) says everything else about it once: trace key and
 * range, unit, summary rule, label, colour, Prometheus name, plot axis,
 * doctor reference.  A new lane: a field here, an id here, a row there. */
#ifndef STAGETOP_SAMPLE_H
#define STAGETOP_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

enum st_lane_id {
    ST_LANE_FOOTPRINT, /* tree footprint, bytes (see docs/metrics.md) */
    ST_LANE_RSS,       /* tree resident size, bytes */
    ST_LANE_SWAP,      /* system swap used, bytes */
    ST_LANE_LEVEL,     /* memory-available level, percent */
    ST_LANE_PROCS,     /* number of processes in the tree */
    ST_LANE_GPU,       /* tree GPU memory, bytes */
    ST_LANE_PRESSURE,  /* pressure: Linux PSI some avg10 (%), macOS 1/2/4 */
    ST_LANE_TREE_SWAP, /* the tree's own memory in swap, bytes (Linux VmSwap) */
    ST_LANE_CPU,       /* tree CPU over the last interval, percent of one core */
    ST_LANE_PAGEINS,   /* tree page-ins (major faults) per second over the last interval */
    ST_LANE_COMPRESSED,/* system memory held by the compressor, bytes */
    ST_LANE_COUNT      /* the number of lanes: decided here, once */
};

/* Valid bits of a sample: one per lane, bit = 1 << lane id. */
enum st_field {
    ST_F_FOOTPRINT = 1u << ST_LANE_FOOTPRINT,
    ST_F_RSS = 1u << ST_LANE_RSS,
    ST_F_SWAP = 1u << ST_LANE_SWAP,
    ST_F_LEVEL = 1u << ST_LANE_LEVEL,
    ST_F_PROCS = 1u << ST_LANE_PROCS,
    ST_F_GPU = 1u << ST_LANE_GPU,
    ST_F_PRESSURE = 1u << ST_LANE_PRESSURE,
    ST_F_TREE_SWAP = 1u << ST_LANE_TREE_SWAP,
    ST_F_CPU = 1u << ST_LANE_CPU,
    ST_F_PAGEINS = 1u << ST_LANE_PAGEINS,
    ST_F_COMPRESSED = 1u << ST_LANE_COMPRESSED
};

typedef struct st_sample {
    uint64_t footprint; /* bytes, sum over the tree */
    uint64_t rss;       /* bytes, sum over the tree */
    uint64_t swap_used; /* bytes, whole system */
    uint64_t gpu;       /* bytes, sum over the tree's pids on all GPUs */
    uint64_t tree_swap; /* bytes, sum over the tree (Linux VmSwap) */
    uint64_t compressed;/* bytes held by the compressor, whole system */
    uint32_t t_ms;      /* milliseconds since the start of the run */
    uint32_t procs;     /* processes in the tree */
    uint32_t cpu_c;     /* CPU over the last interval, hundredths of a percent of one core */
    uint32_t pageins_c; /* page-ins per second over the last interval, hundredths */
    uint16_t level_c;   /* level in hundredths of a percent (0..10000) */
    uint16_t pressure_c;/* pressure in hundredths (PSI %, or macOS level 1/2/4 * 100) */
    uint16_t valid;     /* enum st_field bits */
    uint16_t reserved;  /* zero */
} st_sample;

/* The ring's unit: say the new size here and in docs/performance.md when a
 * lane grows it. */
_Static_assert(sizeof(st_sample) == 72, "st_sample is 72 bytes (docs/performance.md)");
_Static_assert(ST_LANE_COUNT <= 16, "a lane's valid bit fits st_sample.valid");

/* The system's reading, as the backends' read_system gives it (platform.h).
 * Valid bits of st_sys_mem: their own bit space, not the sample's lane bits;
 * the lane table copies the system lanes into a sample (st_lanes_from_sys). */
enum st_sys_field {
    ST_SYS_SWAP = 1u << 0,      /* swap_used */
    ST_SYS_LEVEL = 1u << 1,     /* level_c */
    ST_SYS_PRESSURE = 1u << 2,  /* pressure_c */
    ST_SYS_MEMTOTAL = 1u << 3,
    ST_SYS_SWAPTOTAL = 1u << 4,
    ST_SYS_COMPRESSED = 1u << 5 /* compressed */
};

typedef struct st_sys_mem {
    uint64_t mem_total;  /* bytes of RAM */
    uint64_t swap_total; /* bytes */
    uint64_t swap_used;  /* bytes */
    uint64_t compressed; /* bytes held by the compressor: Linux Zswap, macOS
                            compressor_page_count * page size */
    uint16_t level_c;    /* memory-available level, hundredths of a percent */
    uint16_t pressure_c; /* Linux PSI some avg10 * 100; macOS 100/200/400 */
    uint16_t valid;      /* enum st_sys_field bits */
} st_sys_mem;

/* Samples as (at most) two contiguous spans, oldest first: a ring's view. */
typedef struct st_samples_view {
    const st_sample *a; size_t a_len;
    const st_sample *b; size_t b_len;
} st_samples_view;

/* Convenience: does s hold field f? */
static inline int st_sample_has(const st_sample *s, unsigned f) { return (s->valid & f) == f; }

#endif
