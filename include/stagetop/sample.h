/* sample.h: one reading of a process tree and of the system, and its fields.
 *
 * A sample says which fields it holds (valid bits): a field that the
 * platform cannot provide is "not available", not an error.  The struct is
 * kept small (112 bytes, asserted below) because the ring holds hours of
 * them.
 *
 * Each field is a lane: its id (enum st_lane_id, in the order traces write
 * the keys) gives its valid bit, and the lane table (stagetop/lanes.h,
 * core/model/lanes.c) says everything else about it once: trace key and
 * range, unit, summary rule, label, colour, Prometheus name, plot axis,
 * doctor reference, where the run reads it.  A new lane: a field here, an
 * id here, a row there (docs/design.md, "A new lane"). */
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
    ST_LANE_LIMIT_FREE,/* room left under the memory limit that binds the job (cgroup), bytes */
    ST_LANE_FOOTPRINT_AGE, /* the oldest proportional correction in the footprint, seconds */
    ST_LANE_METAL,     /* the tree's graphics-tagged footprint, bytes (macOS TASK_VM_INFO) */
    ST_LANE_TREE_COMPRESSED, /* the tree's memory held by the compressor, bytes (macOS) */
    ST_LANE_GPU_SYSTEM, /* the system's GPU memory in use, bytes (macOS IOAccelerator) */
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
    ST_F_COMPRESSED = 1u << ST_LANE_COMPRESSED,
    ST_F_LIMIT_FREE = 1u << ST_LANE_LIMIT_FREE,
    ST_F_FOOTPRINT_AGE = 1u << ST_LANE_FOOTPRINT_AGE,
    ST_F_METAL = 1u << ST_LANE_METAL,
    ST_F_TREE_COMPRESSED = 1u << ST_LANE_TREE_COMPRESSED,
    ST_F_GPU_SYSTEM = 1u << ST_LANE_GPU_SYSTEM
};

typedef struct st_sample {
    uint64_t footprint; /* bytes, sum over the tree */
    uint64_t rss;       /* bytes, sum over the tree */
    uint64_t swap_used; /* bytes, whole system */
    uint64_t gpu;       /* bytes, sum over the tree's pids on all GPUs */
    uint64_t tree_swap; /* bytes, sum over the tree (Linux VmSwap) */
    uint64_t compressed;/* bytes held by the compressor, whole system */
    uint64_t limit_free;/* bytes left under the cgroup memory limit that binds the job */
    uint64_t metal;     /* bytes, sum over the tree (macOS graphics footprint) */
    uint64_t tree_compressed; /* bytes, sum over the tree (macOS task_vm_info.compressed) */
    uint64_t gpu_system; /* bytes, whole system (macOS IOAccelerator "In use system memory") */
    uint32_t t_ms;      /* milliseconds since the start of the run */
    uint32_t procs;     /* processes in the tree */
    uint32_t cpu_c;     /* CPU over the last interval, hundredths of a percent of one core */
    uint32_t pageins_c; /* page-ins per second over the last interval, hundredths */
    uint32_t footprint_age_c; /* the footprint's oldest carried correction, hundredths of a
                                 second (valid only when the footprint is the proportional one) */
    uint16_t level_c;   /* level in hundredths of a percent (0..10000) */
    uint16_t pressure_c;/* pressure in hundredths (PSI %, or macOS level 1/2/4 * 100) */
    uint32_t valid;     /* enum st_field bits: one per lane, up to 32 lanes */
} st_sample;

/* The ring's unit: say the new size here and in docs/performance.md when a
 * lane grows it.  Layout: the 64-bit lanes first, then the 32-bit, then the
 * 16-bit ones, then the 32-bit valid mask (one bit per lane, so 32 lanes
 * before it must widen); a new 64-bit lane adds 8 bytes (800 KB per 100k
 * samples), a 32-bit one 4, a 16-bit one 2 (padded to 8 in pairs).
 * limit_free (64-bit) took it from 72 to 80, footprint_age (32-bit) from 80
 * to 88; metal and tree_compressed (64-bit, macOS) from 88 to 104, with the
 * same 4 bytes of padding free (one more 32-bit or two 16-bit lanes fit);
 * gpu_system (64-bit, macOS) from 104 to 112, the 4 bytes still free. */
_Static_assert(sizeof(st_sample) == 112, "st_sample is 112 bytes (docs/performance.md)");
_Static_assert(ST_LANE_COUNT <= 32, "a lane's valid bit fits st_sample.valid");

/* The system's reading, as the backends' read_system gives it (platform.h).
 * Valid bits of st_sys_mem: their own bit space, not the sample's lane bits;
 * the lane table copies the system lanes into a sample (st_lanes_from_sys). */
enum st_sys_field {
    ST_SYS_SWAP = 1u << 0,      /* swap_used */
    ST_SYS_LEVEL = 1u << 1,     /* level_c */
    ST_SYS_PRESSURE = 1u << 2,  /* pressure_c */
    ST_SYS_MEMTOTAL = 1u << 3,
    ST_SYS_SWAPTOTAL = 1u << 4,
    ST_SYS_COMPRESSED = 1u << 5, /* compressed */
    ST_SYS_GPU_SYSTEM = 1u << 6  /* gpu_system */
};

typedef struct st_sys_mem {
    uint64_t mem_total;  /* bytes of RAM */
    uint64_t swap_total; /* bytes */
    uint64_t swap_used;  /* bytes */
    uint64_t compressed; /* bytes held by the compressor: Linux Zswap, macOS
                            compressor_page_count * page size */
    uint64_t gpu_system; /* bytes of system memory the GPU uses: macOS, the sum
                            over the IOAccelerator services of their
                            PerformanceStatistics "In use system memory"
                            (core/platform/darwin_gpu.c); Linux: not read */
    uint16_t level_c;    /* memory-available level, hundredths of a percent */
    uint16_t pressure_c; /* Linux PSI some avg10 * 100; macOS 100/200/400 */
    uint16_t valid;      /* enum st_sys_field bits */
} st_sys_mem;

/* A process's identity and one reading of it, as the backends' read_proc
 * gives it (platform.h): the model's, so that the lane table can name the
 * field a tree sums (lanes.h, ST_LS_PROC). */
typedef struct st_proc_id {
    int32_t pid;
    uint64_t start;
} st_proc_id;

/* Valid bits of st_proc_mem. */
enum st_pm_field {
    ST_PM_FOOTPRINT = 1u << 0,
    ST_PM_RSS = 1u << 1,
    ST_PM_SWAP = 1u << 2, /* the process's own swapped memory (Linux VmSwap) */
    ST_PM_PEAK = 1u << 3, /* the kernel's high-water mark for the process */
    ST_PM_COUNTERS = 1u << 4, /* cpu_ns, child_cpu_ns, pageins, child_pageins */
    ST_PM_STATE = 1u << 5,    /* state */
    ST_PM_RATES = 1u << 6,    /* cpu_c, pageins_c (set by the tree, not the backend) */
    ST_PM_COMM = 1u << 7,     /* comm */
    ST_PM_SHMEM = 1u << 8,    /* shmem (Linux RssShmem) */
    ST_PM_METAL = 1u << 9,    /* metal (macOS TASK_VM_INFO rev3 and later) */
    ST_PM_COMPRESSED = 1u << 10 /* compressed (macOS TASK_VM_INFO) */
};

/* One process's memory, bytes. */
typedef struct st_proc_mem {
    st_proc_id id;
    int32_t ppid;
    uint64_t footprint; /* Linux RssAnon+RssShmem+VmSwap; macOS ri_phys_footprint */
    uint64_t rss;       /* Linux VmRSS; macOS ri_resident_size */
    uint64_t swap;      /* Linux VmSwap; macOS: not available */
    uint64_t peak;      /* Linux VmHWM; macOS ri_lifetime_max_phys_footprint */
    uint64_t shmem;     /* Linux RssShmem (shared memory mapped: it may be shared) */
    /* macOS TASK_VM_INFO through the task's name port (core/platform/darwin_vm.c):
     * the graphics-tagged footprint, resident and compressed
     * (ledger_tag_graphics_footprint + _compressed), and the bytes of the task
     * held by the compressor (task_vm_info.compressed, counted at their
     * uncompressed size); Linux: not read */
    uint64_t metal, compressed;
    /* Counters since the process started (docs/metrics.md, "CPU and
     * page-ins"): its own CPU time (user + system) in ns and the part of
     * its children that it has reaped (Linux utime+stime and cutime+cstime
     * of /proc/PID/stat; macOS ri_user_time + ri_system_time and
     * ri_child_*, Mach units converted); page-ins from disk (Linux majflt /
     * cmajflt; macOS ri_pageins / ri_child_pageins). */
    uint64_t cpu_ns, child_cpu_ns;
    uint64_t pageins, child_pageins;
    char state;         /* R, S, D, T, Z, ... (Linux stat field 3; macOS T and Z only) */
    char comm[16];      /* the process's own name (Linux stat field 2, what prctl(PR_SET_NAME)
                           and setproctitle set; forked children inherit it); macOS: not read */
    /* Rates over the last interval, filled by the watched tree (tree.h):
     * CPU in hundredths of a percent of one core, page-ins per second in
     * hundredths. */
    uint32_t cpu_c, pageins_c;
    uint16_t valid;     /* enum st_pm_field bits */
} st_proc_mem;

/* Samples as (at most) two contiguous spans, oldest first: a ring's view. */
typedef struct st_samples_view {
    const st_sample *a; size_t a_len;
    const st_sample *b; size_t b_len;
} st_samples_view;

/* Convenience: does s hold field f? */
static inline int st_sample_has(const st_sample *s, unsigned f) { return (s->valid & f) == f; }

#endif
