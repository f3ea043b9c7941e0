/* lanes.c: the lane table (include/stagetop/lanes.h), one row per field of
 * st_sample, and the few functions every output shares to read it. */
#include "stagetop/lanes.h"
#include "stagetop/sample.h"

#include <string.h>


#define AT(f) offsetof(st_sample, f)
#define SYS(bit, f) .source = ST_LS_SYSTEM, .sys_bit = bit, .sys_offset = offsetof(st_sys_mem, f)
#define PROC(bit, f, how) .source = ST_LS_PROC, .pm_bit = bit, .pm_offset = offsetof(st_proc_mem, f), .sum = how
#define U53 0 /* bytes: integers 0..2^53 (JSON's exact integers) */
#define KEY(k) .key = k, .key_len = sizeof k - 1, .json_key = ",\"" k "\":"

const st_lane st_lanes[ST_LANE_COUNT] = {
    [ST_LANE_FOOTPRINT] = {
        .id = ST_LANE_FOOTPRINT, .type = ST_LT_U64, .offset = AT(footprint),
        PROC(ST_PM_FOOTPRINT, footprint, ST_LSUM_READ), .platforms = ST_LPL_ALL,
        KEY("footprint"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK,
        .label = "footprint (tree)", .label_inline = "footprint", .label_short = "fp",
        .absent = "no reading", .absent_short = "-",
        .colour = ST_LC_CYAN, .screen_rank = 1, .screen_always = 1,
        .prom_name = "stagetop_tree_footprint_bytes",
        .prom_help = "Footprint of the watched process tree, summed over its processes "
                     "(macOS phys_footprint; Linux RssAnon+RssShmem+VmSwap).",
        .prom_format = ST_LP_INT, .prom_rank = 1,
        .axis = ST_AX_BYTES, .plot_rank = 1,
        .plot_id = "footprint", .plot_label = "footprint (tree)", .svg_colour = "#0072B2",
        .plot_width = "2", .plot_head = "peak footprint", .plot_run = "peak footprint",
        .report_rank = 1, .report_always = 1, .report_label = "peak footprint",
        .report_key = "peak_footprint", .report_change_key = "peak_footprint_pct",
        .doctor = "footprint", .doctor_rank = 1,
    },
    [ST_LANE_RSS] = {
        .id = ST_LANE_RSS, .type = ST_LT_U64, .offset = AT(rss),
        PROC(ST_PM_RSS, rss, ST_LSUM_READ), .platforms = ST_LPL_ALL,
        KEY("rss"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK,
        .label = "resident (tree)", .label_inline = "rss", .label_short = "rss",
        .absent = "no reading", .absent_short = "-",
        .colour = ST_LC_WHITE,
        .prom_name = "stagetop_tree_rss_bytes",
        .prom_help = "Resident set size of the watched process tree, summed over its processes.",
        .prom_format = ST_LP_INT, .prom_rank = 2,
        .doctor = "rss", .doctor_rank = 2,
    },
    [ST_LANE_SWAP] = {
        .id = ST_LANE_SWAP, .type = ST_LT_U64, .offset = AT(swap_used), SYS(ST_SYS_SWAP, swap_used),
        .platforms = ST_LPL_ALL,
        KEY("swap_used"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_GROWTH,
        .label = "swap used", .label_inline = "swap", .label_short = "swap",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_MAGENTA, .screen_rank = 2, .screen_always = 1,
        .prom_name = "stagetop_system_swap_used_bytes", .prom_help = "System swap used.",
        .prom_format = ST_LP_INT, .prom_rank = 5,
        .axis = ST_AX_BYTES, .plot_rank = 2,
        .plot_id = "swap", .plot_label = "swap used (system)", .svg_colour = "#D55E00",
        .plot_width = "1.6", .plot_head = "swap", .plot_run = "swap rise",
        .report_rank = 2, .report_always = 1,
        .report_label = "swap start \xE2\x86\x92 peak \xE2\x86\x92 end", .report_key = "swap",
        .report_rise_label = "swap peak rise", .report_rise_key = "swap_peak_rise",
        .report_change_key = "swap_peak_rise_bytes",
        .doctor = "swap used", .doctor_rank = 3,
    },
    [ST_LANE_LEVEL] = {
        .id = ST_LANE_LEVEL, .type = ST_LT_CENTI, .offset = AT(level_c), SYS(ST_SYS_LEVEL, level_c),
        .platforms = ST_LPL_ALL,
        KEY("level"), .max = 10000, .range = "0..100",
        .unit = ST_LU_PERCENT, .rule = ST_LR_MIN,
        .label = "memory available", .label_inline = "available", .label_short = "avail",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_GREEN, .screen_rank = 3, .screen_always = 1,
        .prom_name = "stagetop_system_memory_available_ratio",
        .prom_help = "Memory-available level, 0..1 (macOS kern.memorystatus_level; "
                     "Linux MemAvailable/MemTotal).",
        .prom_format = ST_LP_RATIO, .prom_rank = 6,
        .axis = ST_AX_PERCENT, .plot_rank = 4,
        .plot_id = "level", .plot_label = "memory available (%, right axis)",
        .svg_colour = "#CC79A7", .plot_width = "1.5", .plot_head = "min available",
        .report_rank = 3, .report_always = 1, .report_label = "min level", .report_key = "min_level",
        .doctor = "level", .doctor_rank = 4,
    },
    [ST_LANE_PROCS] = {
        .id = ST_LANE_PROCS, .type = ST_LT_U32, .offset = AT(procs),
        .source = ST_LS_TREE, .platforms = ST_LPL_ALL,
        KEY("procs"), .max = UINT32_MAX, .range = "integers 0..4294967295",
        .unit = ST_LU_COUNT, .rule = ST_LR_LAST,
        .label = "processes", .label_inline = "procs", .label_short = "proc",
        .absent = "no reading", .absent_short = "-",
        .colour = ST_LC_WHITE,
        .prom_name = "stagetop_tree_processes", .prom_help = "Processes in the watched tree.",
        .prom_format = ST_LP_INT, .prom_rank = 4,
        .doctor = NULL, /* no reference check: doctor reads one process */
    },
    [ST_LANE_GPU] = {
        .id = ST_LANE_GPU, .type = ST_LT_U64, .offset = AT(gpu),
        .source = ST_LS_GROUP, .platforms = ST_LPL_LINUX, /* NVML */
        KEY("gpu"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK,
        .label = "GPU memory (tree)", .label_inline = "gpu", .label_short = "gpu",
        .absent = "no reading", .absent_short = "-",
        .colour = ST_LC_BLUE, .screen_rank = 4, .screen_always = 0,
        .prom_name = "stagetop_tree_gpu_bytes",
        .prom_help = "GPU memory used by the tree's processes on all GPUs (NVML).",
        .prom_format = ST_LP_INT, .prom_rank = 3,
        .axis = ST_AX_BYTES, .plot_rank = 3,
        .plot_id = "gpu", .plot_label = "GPU memory (tree)", .svg_colour = "#E69F00",
        .plot_width = "1.6", .plot_head = "GPU peak",
        .report_rank = 4, .report_always = 1, .report_label = "GPU peak", .report_key = "peak_gpu",
        .doctor = "gpu", .doctor_rank = 6,
    },
    [ST_LANE_PRESSURE] = {
        .id = ST_LANE_PRESSURE, .type = ST_LT_CENTI, .offset = AT(pressure_c),
        .platforms = ST_LPL_ALL,
        SYS(ST_SYS_PRESSURE, pressure_c),
        KEY("pressure"), .max = 65535, .range = "0..655.35",
        .unit = ST_LU_PRESSURE, .rule = ST_LR_LAST,
        .label = "pressure", .label_inline = "pressure", .label_short = "pr",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_WHITE,
        .prom_name = "stagetop_system_memory_pressure_some_avg10_ratio",
        .prom_help = "Linux PSI memory 'some avg10': share of the last 10 s in which a task stalled "
                     "on memory, 0..1.",
        .prom_level_name = "stagetop_system_memory_pressure_level",
        .prom_level_help = "macOS kern.memorystatus_vm_pressure_level: 1 normal, 2 warning, 4 critical.",
        .prom_format = ST_LP_RATIO, .prom_rank = 7,
        .doctor = "pressure", .doctor_rank = 5,
    },
    [ST_LANE_TREE_SWAP] = {
        .id = ST_LANE_TREE_SWAP, .type = ST_LT_U64, .offset = AT(tree_swap),
        PROC(ST_PM_SWAP, swap, ST_LSUM_HELD), .platforms = ST_LPL_LINUX,
        KEY("tree_swap"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK, .summary_key = "peak_tree_swap",
        .label = "swap (tree)", .label_inline = "tree swap", .label_short = "tsw",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_RED,
        .prom_name = "stagetop_tree_swap_bytes",
        .prom_help = "Memory of the watched process tree that sits in swap, summed over its "
                     "processes (Linux VmSwap; not available on macOS).",
        .prom_format = ST_LP_INT, .prom_rank = 8,
        .report_rank = 7, .report_label = "tree swap peak", .report_key = "peak_tree_swap",
        .doctor = NULL, /* no reference check of its own: VmSwap is in the footprint's */
    },
    [ST_LANE_CPU] = {
        .id = ST_LANE_CPU, .type = ST_LT_CENTI32, .offset = AT(cpu_c),
        .source = ST_LS_TREE, .platforms = ST_LPL_ALL, /* tree_rates.c */
        KEY("cpu"), .max = UINT32_MAX, .range = "0..42949672.95",
        .unit = ST_LU_CPU, .rule = ST_LR_RATE, .summary_key = "peak_cpu",
        .label = "CPU (tree)", .label_inline = "cpu", .label_short = "cpu",
        .absent = "no reading", .absent_short = "-",
        .colour = ST_LC_YELLOW,
        .prom_name = "stagetop_tree_cpu_cores",
        .prom_help = "CPU of the watched process tree over the last interval, in cores (1 = one "
                     "core busy; user + system time).",
        .prom_format = ST_LP_RATIO, .prom_rank = 9,
        .report_rank = 5, .report_label = "CPU (tree)", .report_key = "cpu",
        .counter_offset = offsetof(st_proc_mem, cpu_ns), .counter_div = 1000000, /* ms */
        .doctor = "cpu", .doctor_rank = 7,
        .integral_div = 10000, /* CPU seconds */
    },
    [ST_LANE_PAGEINS] = {
        .id = ST_LANE_PAGEINS, .type = ST_LT_CENTI32, .offset = AT(pageins_c),
        .source = ST_LS_TREE, .platforms = ST_LPL_ALL, /* tree_rates.c */
        KEY("pageins"), .max = UINT32_MAX, .range = "0..42949672.95",
        .unit = ST_LU_PER_S, .rule = ST_LR_RATE, .summary_key = "peak_pageins",
        .label = "page-ins (tree)", .label_inline = "pageins", .label_short = "pgin",
        .absent = "no reading", .absent_short = "-",
        .colour = ST_LC_RED,
        .prom_name = "stagetop_tree_pageins_per_second",
        .prom_help = "Page-ins from disk of the watched process tree per second over the last "
                     "interval (Linux majflt; macOS ri_pageins).  The counter: "
                     "stagetop_tree_pageins_total.",
        .prom_format = ST_LP_CENTI, .prom_rank = 10,
        .report_rank = 6, .report_label = "page-ins (tree)", .report_key = "pageins",
        .counter_offset = offsetof(st_proc_mem, pageins), .counter_div = 1,
        .doctor = "pageins", .doctor_rank = 8,
        .integral_div = 100, /* page-ins */
    },
    [ST_LANE_COMPRESSED] = {
        .id = ST_LANE_COMPRESSED, .type = ST_LT_U64, .offset = AT(compressed),
        .platforms = ST_LPL_ALL, /* Linux: zswap on */
        KEY("compressed"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK, .summary_key = "peak_compressed",
        .label = "compressed", .label_inline = "compressed", .label_short = "cmp",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_MAGENTA,
        .prom_name = "stagetop_system_memory_compressed_bytes",
        .prom_help = "System memory held by the compressor (macOS compressor pages; Linux zswap "
                     "pool when zswap is on).",
        .prom_format = ST_LP_INT, .prom_rank = 11,
        .report_rank = 8, .report_label = "compressed peak", .report_key = "peak_compressed",
        .doctor = NULL, /* no reference check: no other program reads the pool */
        SYS(ST_SYS_COMPRESSED, compressed),
    },
    [ST_LANE_LIMIT_FREE] = {
        /* the room under the cgroup memory limit that binds the job: that
         * cgroup's limit less its usage (docs/metrics.md, "The limit that
         * binds"); shown in the level lane's row, not a lane of its own */
        .id = ST_LANE_LIMIT_FREE, .type = ST_LT_U64, .offset = AT(limit_free),
        .source = ST_LS_GROUP, .platforms = ST_LPL_LINUX, /* core/run/monitor_limit.c */
        KEY("limit_free"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_MIN, .summary_key = "min_limit_free",
        .label = "limit free", .label_inline = "limit free", .label_short = "lim",
        .absent = "no limit", .absent_short = "-",
        .colour = ST_LC_GREEN,
        .prom_name = "stagetop_tree_memory_limit_free_bytes",
        .prom_help = "Room left under the cgroup memory limit that binds the watched job "
                     "(memory.max or memory.limit_in_bytes less the cgroup's usage).",
        .prom_format = ST_LP_INT, .prom_rank = 12,
        .doctor = NULL, /* no reference check: the cgroup's own files are the reading */
    },
    /* Not a reading of its own: how old the proportional correction the
     * footprint carries is (core/run/tree_share.c), written with the
     * samples whose footprint is the proportional one (docs/metrics.md,
     * "Counted once").  Kept as a row so that the record, the reader, the
     * summary's largest value and the per-stage statistics come from the
     * table; no screen lane, gauge, plot series, report row or doctor
     * check: the header says it beside the definition. */
    [ST_LANE_FOOTPRINT_AGE] = {
        .id = ST_LANE_FOOTPRINT_AGE, .type = ST_LT_CENTI32, .offset = AT(footprint_age_c),
        .source = ST_LS_TREE, .platforms = ST_LPL_LINUX, /* tree_share.c */
        KEY("footprint_age"), .max = UINT32_MAX, .range = "0..42949672.95",
        .unit = ST_LU_SECONDS, .rule = ST_LR_PEAK, .summary_key = "max_footprint_age",
        .label = "footprint age", .label_inline = "fp age", .label_short = "age",
        .absent = "not proportional", .absent_short = "-",
        .colour = ST_LC_WHITE,
        .doctor = NULL, /* no reference: an age, not a reading */
    },
    [ST_LANE_METAL] = {
        .id = ST_LANE_METAL, .type = ST_LT_U64, .offset = AT(metal),
        PROC(ST_PM_METAL, metal, ST_LSUM_HELD), .platforms = ST_LPL_DARWIN, /* TASK_VM_INFO */
        KEY("metal"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK, .summary_key = "peak_metal",
        .label = "Metal (tree)", .label_inline = "metal", .label_short = "mtl",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_BLUE, .screen_rank = 5, .screen_always = 0, /* shown once read */
        .prom_name = "stagetop_tree_metal_bytes",
        .prom_help = "Graphics-tagged memory of the watched process tree, resident and "
                     "compressed, summed over its processes (macOS TASK_VM_INFO "
                     "ledger_tag_graphics_footprint + _compressed; not on Linux).",
        .prom_format = ST_LP_INT, .prom_rank = 13,
        .report_rank = 9, .report_label = "Metal peak", .report_key = "peak_metal",
        .doctor = "metal", .doctor_rank = 10, /* footprint's (graphics) categories: doctor_ref.c */
    },
    [ST_LANE_TREE_COMPRESSED] = {
        .id = ST_LANE_TREE_COMPRESSED, .type = ST_LT_U64, .offset = AT(tree_compressed),
        PROC(ST_PM_COMPRESSED, compressed, ST_LSUM_HELD), .platforms = ST_LPL_DARWIN,
        KEY("tree_compressed"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK, .summary_key = "peak_tree_compressed",
        .label = "compressed (tree)", .label_inline = "tree compressed", .label_short = "tcmp",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_MAGENTA,
        .prom_name = "stagetop_tree_compressed_bytes",
        .prom_help = "Memory of the watched process tree held by the compressor, at its "
                     "uncompressed size, summed over its processes (macOS TASK_VM_INFO "
                     "compressed; not on Linux).",
        .prom_format = ST_LP_INT, .prom_rank = 14,
        .report_rank = 10, .report_label = "tree compressed peak",
        .report_key = "peak_tree_compressed",
        .doctor = "compressed", .doctor_rank = 11, /* vmmap --summary's TOTAL SWAPPED SIZE: doctor_ref.c */
    },
    [ST_LANE_GPU_SYSTEM] = {
        /* the IORegistry's IOAccelerator PerformanceStatistics, "In use
         * system memory" (core/platform/darwin_gpu.c; the key is not
         * Apple's documented API: unverified until a Mac confirms it) */
        .id = ST_LANE_GPU_SYSTEM, .type = ST_LT_U64, .offset = AT(gpu_system),
        .platforms = ST_LPL_DARWIN, /* IOKit, loaded at run time */
        KEY("gpu_system"), .max = U53, .range = "integers 0..2^53",
        .unit = ST_LU_BYTES, .rule = ST_LR_PEAK, .summary_key = "peak_gpu_system",
        .label = "GPU memory (system)", .label_inline = "gpu system", .label_short = "gsys",
        .absent = "not available", .absent_short = "n/a",
        .colour = ST_LC_BLUE, .screen_rank = 6, .screen_always = 0, /* shown once read */
        .prom_name = "stagetop_system_gpu_memory_in_use_bytes",
        .prom_help = "System memory the GPU uses, the whole machine's (macOS IOAccelerator "
                     "PerformanceStatistics 'In use system memory', summed over the "
                     "accelerators; not on Linux).",
        .prom_format = ST_LP_INT, .prom_rank = 15,
        .report_rank = 11, .report_label = "GPU system peak", .report_key = "peak_gpu_system",
        .doctor = "gpu system", .doctor_rank = 9, /* ioreg -r -c IOAccelerator: doctor_mac.c */
        SYS(ST_SYS_GPU_SYSTEM, gpu_system),
    },
};

const st_lane *st_lane_by_key(const char *key)
{
    for (int i = 0; i < ST_LANE_COUNT; i++)
        if (strcmp(st_lanes[i].key, key) == 0)
            return &st_lanes[i];
    return NULL;
}

int st_lanes_shared_per_process(const char *metric, uint64_t procs)
{
    return procs > 1 && metric &&
           (strcmp(metric, ST_FOOTPRINT_METRIC_STATUS) == 0 || strcmp(metric, ST_FOOTPRINT_METRIC_DARWIN) == 0);
}

const st_lane *st_lane_by_bit(unsigned bit)
{
    for (int i = 0; i < ST_LANE_COUNT; i++)
        if (st_lane_bit(i) == bit)
            return &st_lanes[i];
    return NULL;
}

static unsigned rank_of(const st_lane *l, int output)
{
    switch (output) {
    case ST_LO_SCREEN: return l->screen_rank;
    case ST_LO_PROM: return l->prom_name ? l->prom_rank : 0;
    case ST_LO_REPORT: return l->report_rank;
    case ST_LO_DOCTOR: return l->doctor ? l->doctor_rank : 0;
    default: return l->axis != ST_AX_NONE ? l->plot_rank : 0;
    }
}

size_t st_lanes_order(int output, int ids[ST_LANE_COUNT])
{
    size_t n = 0;
    for (int i = 0; i < ST_LANE_COUNT; i++) { /* insertion by rank: a handful of rows */
        unsigned r = rank_of(&st_lanes[i], output);
        if (!r)
            continue;
        size_t j = n++;
        while (j > 0 && rank_of(&st_lanes[ids[j - 1]], output) > r) {
            ids[j] = ids[j - 1];
            j--;
        }
        ids[j] = i;
    }
    return n;
}

void st_lane_stats_add(st_lane_stats *st, const st_sample *s, uint32_t dt_ms)
{
    for (unsigned left = s->valid & ((1u << ST_LANE_COUNT) - 1); left; left &= left - 1) {
        int i = __builtin_ctz(left);
        const st_lane *l = &st_lanes[i];
        uint64_t v = st_lane_raw(l, s);
        if (!(st->has & (1u << i))) {
            st->first[i] = st->min[i] = st->max[i] = v;
            st->has |= 1u << i;
        } else if (v < st->min[i]) {
            st->min[i] = v;
        } else if (v > st->max[i]) {
            st->max[i] = v;
        }
        st->last[i] = v;
        if (l->integral_div)
            st->integral[i] += (double)v / l->integral_div * (dt_ms / 1000.0);
    }
}

uint64_t st_lane_sys_raw(const st_lane *l, const st_sys_mem *sys)
{
    const unsigned char *p = (const unsigned char *)sys + l->sys_offset;
    return l->type == ST_LT_U64 ? *(const uint64_t *)(const void *)p
         : l->type == ST_LT_U32 || l->type == ST_LT_CENTI32 ? *(const uint32_t *)(const void *)p
         : *(const uint16_t *)(const void *)p;
}

void st_lanes_from_sys(st_sample *s, const st_sys_mem *sys)
{
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *l = &st_lanes[i];
        if (!l->sys_bit)
            continue;
        st_lane_set_raw(l, s, st_lane_sys_raw(l, sys)); /* the value always (a reader of the raw field sees it) ... */
        if (!(sys->valid & l->sys_bit)) /* ... the bit only when read */
            s->valid &= ~st_lane_bit(i);
    }
}
