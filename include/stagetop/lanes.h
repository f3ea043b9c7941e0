/* lanes.h: the lane table: one row per sampled lane (a field of st_sample),
 * read by every output that takes a lane's value out of a sample: the
 * record and export (core/trace/trace_export.c), the reader
 * (trace_parse.c), the metrics file (core/metrics.c), the plot
 * (core/plot/plot_draw.c), the screen (tui/view_lanes.c, tui/spark.c) and the
 * summary's per-lane statistics (st_lane_stats, core/model/summary.c).
 *
 * The lane ids and valid bits are in sample.h (enum st_lane_id); the rows
 * are in core/model/lanes.c, in id order, which is the order a trace record
 * writes the keys in.  A lane with a NULL name for an
 * output (prom_name, svg_colour, screen) is not in that output.  The order
 * an output lists its lanes in is the row's rank for it (a new lane goes
 * last by giving it the next rank), so that the outputs of 0.2 stay byte
 * for byte what they were. */
#ifndef STAGETOP_LANES_H
#define STAGETOP_LANES_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "stagetop/sample.h"

/* A trace key's bytes with its NUL at most (the reader's key buffer). */
#define ST_LANE_KEY_MAX 32

/* How the value is stored in st_sample. */
enum st_lane_type {
    ST_LT_U64,   /* uint64_t, the unit itself */
    ST_LT_U32,   /* uint32_t, the unit itself */
    ST_LT_CENTI, /* uint16_t, hundredths of the unit */
    ST_LT_CENTI32 /* uint32_t, hundredths of the unit */
};


/* What the value is measured in (and so how it is formatted). */
enum st_lane_unit {
    ST_LU_BYTES,    /* st_format_bytes */
    ST_LU_PERCENT,  /* "%.1f%%" */
    ST_LU_COUNT,    /* "%u" */
    ST_LU_PRESSURE, /* "%.2f" (Linux PSI percent; macOS level 1/2/4) */
    ST_LU_PER_S,    /* a rate: "%.1f/s" */
    ST_LU_CPU,      /* percent of one core, not bounded by 100: "%.1f%%" */
    ST_LU_SECONDS   /* an age in seconds: "%.1fs" */
};

/* The lane's summary over a run (st_lane_stats holds all of them; the rule
 * says which one a lane's label and summary show). */
enum st_lane_rule {
    ST_LR_PEAK,   /* the largest value */
    ST_LR_MIN,    /* the smallest (the memory level: low is the news) */
    ST_LR_GROWTH, /* last minus first (system swap) */
    ST_LR_LAST,   /* the latest value only */
    ST_LR_RATE    /* a rate (per second): its peak */
};

/* How the Prometheus value is printed. */
enum st_lane_prom {
    ST_LP_INT,     /* the integer */
    ST_LP_RATIO,   /* hundredths of a percent as a ratio 0..1: "%u.%04u" of c/10000 */
    ST_LP_CENTI    /* hundredths as "%u.%02u" */
};

/* Which axis of the plot (docs/plot.md) draws the lane. */
enum st_lane_axis {
    ST_AX_NONE,    /* not plotted */
    ST_AX_BYTES,   /* the left axis, bytes */
    ST_AX_PERCENT  /* the right axis, 0..100 % */
};

/* Where the run reads the lane (core/run/tree.c, core/run/monitor.c). */
enum st_lane_source {
    ST_LS_PROC,   /* the sum over the tree's processes of a st_proc_mem field
                     (pm_offset, valid bit pm_bit): st_tree_sample adds it */
    ST_LS_TREE,   /* computed by the tree from its members (the process
                     count, the rates of tree_rates.c): cleared by
                     st_tree_sample before it reads them again */
    ST_LS_GROUP,  /* a reading of the whole tree by a reader of its own
                     (the GPU's NVML, a cgroup): the tree leaves it alone */
    ST_LS_SYSTEM  /* a system reading: sys_bit and sys_offset below */
};

/* How a summed lane (ST_LS_PROC) is valid. */
enum st_lane_sum {
    ST_LSUM_HELD, /* once a process holds the field (Linux VmSwap) */
    ST_LSUM_READ  /* once a process is read (a zombie counts 0; an empty tree 0) */
};

/* Which platforms sample the lane (a trace from elsewhere may still hold
 * it): bits of the backends' names. */
enum st_lane_platforms {
    ST_LPL_LINUX = 1u << 0,
    ST_LPL_DARWIN = 1u << 1,
    ST_LPL_ALL = ST_LPL_LINUX | ST_LPL_DARWIN
};

/* Screen colours: curses' COLOR_* numbers (core does not include curses). */
enum st_lane_colour {
    ST_LC_BLACK, ST_LC_RED, ST_LC_GREEN, ST_LC_YELLOW,
    ST_LC_BLUE, ST_LC_MAGENTA, ST_LC_CYAN, ST_LC_WHITE
};

typedef struct st_lane {
    int id;                  /* enum st_lane_id; bit = 1u << id */
    /* in the sample */
    uint8_t type;            /* enum st_lane_type */
    uint8_t offset;          /* offsetof(st_sample, field) */
    /* in traces (docs/trace-format.md) */
    char key[ST_LANE_KEY_MAX]; /* the sample record's key, zero-filled */
    uint8_t key_len;         /* strlen(key) */
    char json_key[40];       /* ,"key": (the writer copies it whole: keys
                                are under 32 bytes, the reader's limit) */
    uint64_t max;            /* largest raw value accepted (hundredths for
                                ST_LT_CENTI); 0: 2^53 (st_jnum_u53) */
    const char *range;       /* the accepted range as a reader's error says it */
    /* its meaning */
    uint8_t unit;            /* enum st_lane_unit */
    uint8_t rule;            /* enum st_lane_rule */
    const char *summary_key; /* the trace summary's member for the rule's value
                                ("peak_tree_swap"), written when read; NULL:
                                the summary names the lane itself (0.2's) */
    /* where the run reads it */
    uint8_t source;          /* enum st_lane_source */
    uint8_t platforms;       /* enum st_lane_platforms: who samples it */
    uint8_t sum;             /* enum st_lane_sum (ST_LS_PROC) */
    uint8_t pm_offset;       /* offsetof(st_proc_mem, field) (ST_LS_PROC, u64) */
    uint16_t pm_bit;         /* enum st_pm_field of that field (ST_LS_PROC) */
    /* where a system lane comes from: its bit and field in st_sys_mem
       (sample.h; same type as in the sample); sys_bit 0: not a system lane */
    uint16_t sys_bit;        /* enum st_sys_field */
    uint8_t sys_offset;      /* offsetof(st_sys_mem, field) */
    /* the screen (docs/screen.md) */
    const char *label;       /* its own row of a tall label: "footprint (tree)" */
    const char *label_inline, *label_short; /* "footprint", "fp" */
    const char *absent, *absent_short; /* no reading: "no reading", "-" */
    uint8_t colour;          /* enum st_lane_colour */
    uint8_t screen_rank;     /* lane slot on the screen (1 first); 0: not shown */
    uint8_t screen_always;   /* 1: shown even without a reading; 0: shown once
                                the run reads it (the GPU lane: a GPU reader) */
    /* the metrics file (docs/metrics-export.md) */
    const char *prom_name, *prom_help; /* NULL: not exported */
    uint8_t prom_format;     /* enum st_lane_prom */
    uint8_t prom_counter;    /* 1: a counter (..._total), else a gauge */
    /* where the platform's reading is a level, not a share of time (macOS'
       pressure 1/2/4): its own metric, the integer level (NULL: none) */
    const char *prom_level_name, *prom_level_help;
    uint8_t prom_rank;       /* order in the file (1 first) */
    /* the plot (docs/plot.md) */
    uint8_t axis;            /* enum st_lane_axis */
    uint8_t plot_rank;       /* series order: legend, drawing (1 first) */
    const char *plot_id, *plot_label, *svg_colour;
    const char *plot_width;  /* its line's stroke-width (solid; a comparison
                                dashes B's lines: plot_cmp.c) */
    /* the chart's summary line (its <desc>): the item's head, then the
       rule's figures in the lane's unit (a percent with " %"):
       ST_LR_GROWTH: "swap A -> P -> Z (rise P-A)"; else "GPU peak P".
       Items go in plot rank, the tree's lanes (not ST_LS_SYSTEM) before the
       system's; the trace's kernel peak follows the footprint's.  NULL:
       not in the line. */
    const char *plot_head;
    /* a comparison's run line (plot_cmp.c): "peak footprint", "swap rise"
       (the rule's value, peak - first for ST_LR_GROWTH; a peak's change
       from the other run follows it); NULL: not in the line */
    const char *plot_run;
    /* the summary tables of `report` and `diff` (core/report/model.c,
       docs/report.md): the lane's measure, its label and JSON name; its
       unit and change follow from unit and rule (bytes: their peak and a
       percent change; a level: its minimum, in points; a rate: its total
       and peak, no change); a growth lane (ST_LR_GROWTH) has two rows, its
       path (first -> peak -> last) and its rise (rise_label, rise_key;
       change_key names the rise's change) */
    uint8_t report_rank;     /* row order (1 first); 0: not in the tables */
    uint8_t report_always;   /* 1: a row even when no trace has the lane */
    const char *report_label, *report_key, *report_change_key;
    const char *report_rise_label, *report_rise_key;
    /* a rate lane (ST_LR_RATE): the st_proc_mem counter it is the rate of
       (valid with ST_PM_COUNTERS), and its unit in doctor's (ns / 1000000:
       ms) */
    uint8_t counter_offset;  /* offsetof(st_proc_mem, field), a uint64_t */
    uint32_t counter_div;
    /* doctor (docs/doctor.md, core/doctor/doctor.c): the lane's reference
       check, by the name doctor_ref.c dispatches on and the report prints
       (NULL: the lane has none and doctor does not check it), and its
       place in doctor's report (doctor's own kernel-peak check sits
       between ranks 2 and 3).  Doctor reads the lane the way its source
       says: a per-process field of the one process, a rate's counter, the
       GPU reader (ST_LS_GROUP), or the system reading. */
    const char *doctor;
    uint8_t doctor_rank;
    /* a rate's integral (st_lane_stats): raw / integral_div is the quantity
       per second that the summary sums over time (CPU: hundredths of a
       percent of one core -> cores, 10000, so the integral is CPU seconds;
       page-ins: hundredths -> page-ins, 100); 0: not integrated */
    uint16_t integral_div;
} st_lane;

/* The table: ST_LANE_COUNT rows, row i has id i. */
extern const st_lane st_lanes[ST_LANE_COUNT];

static inline unsigned st_lane_bit(int id) { return 1u << id; }
/* Does lane l hold hundredths of its unit? */
static inline int st_lane_centi(const st_lane *l) { return l->type >= ST_LT_CENTI; }

/* The raw stored value of lane l in s (hundredths for ST_LT_CENTI),
 * whether or not s holds it. */
static inline uint64_t st_lane_raw(const st_lane *l, const st_sample *s)
{
    const unsigned char *p = (const unsigned char *)s + l->offset;
    switch (l->type) {
    case ST_LT_U64: return *(const uint64_t *)(const void *)p;
    case ST_LT_U32: case ST_LT_CENTI32: return *(const uint32_t *)(const void *)p;
    default: return *(const uint16_t *)(const void *)p;
    }
}

/* Store raw (already range-checked) into lane l of s and set its bit. */
static inline void st_lane_set_raw(const st_lane *l, st_sample *s, uint64_t raw)
{
    unsigned char *p = (unsigned char *)s + l->offset;
    switch (l->type) {
    case ST_LT_U64: *(uint64_t *)(void *)p = raw; break;
    case ST_LT_U32: case ST_LT_CENTI32: *(uint32_t *)(void *)p = (uint32_t)raw; break;
    default: *(uint16_t *)(void *)p = (uint16_t)raw; break;
    }
    s->valid |= st_lane_bit(l->id);
}

/* The value of lane id in s in its unit (hundredths divided out), or NAN
 * when s does not hold it. */
static inline double st_lane_value(int id, const st_sample *s)
{
    const st_lane *l = &st_lanes[id];
    if (!(s->valid & st_lane_bit(id)))
        return NAN;
    uint64_t raw = st_lane_raw(l, s);
    return st_lane_centi(l) ? (double)raw / 100.0 : (double)raw;
}

/* The lane whose trace key is key, or NULL. */
const st_lane *st_lane_by_key(const char *key);
/* The same for the reader: key is zero-filled to ST_LANE_KEY_MAX bytes;
 * *next (NULL, or 0 for a record's first key) is where to look first, and
 * is set to the lane after the one found, so that a record's keys in id
 * order cost one fixed-size comparison each (inline: the reader's hot
 * loop). */
static inline const st_lane *st_lane_by_padded_key(const char key[ST_LANE_KEY_MAX], int *next)
{
    int i = next && *next >= 0 && *next < ST_LANE_COUNT ? *next : 0;
    for (int tried = 0; tried < ST_LANE_COUNT; tried++, i = i + 1 == ST_LANE_COUNT ? 0 : i + 1) {
        if (memcmp(st_lanes[i].key, key, ST_LANE_KEY_MAX) == 0) {
            if (next)
                *next = i + 1;
            return &st_lanes[i];
        }
    }
    return NULL;
}

/* The footprint's definitions that count a page k processes share k times
 * (docs/metrics.md, "Counted once"): the platforms' tables name them
 * (st_platform.footprint_metric), a trace's meta.footprint_metric says
 * which one it holds. */
#define ST_FOOTPRINT_METRIC_STATUS "anon+shmem+swap" /* Linux's status sum */
#define ST_FOOTPRINT_METRIC_DARWIN "phys_footprint"  /* macOS, XNU's ledger */
/* What the screen and the summaries say of such a footprint. */
#define ST_FOOTPRINT_SHARED_NOTE "shared pages counted per process"
/* 1 when definition metric counts a shared page once per process and the
 * tree has procs > 1 processes to share it: the footprint may read more
 * than the tree holds, and is shown with ST_FOOTPRINT_SHARED_NOTE rather
 * than as the tree's memory counted once.  0 for any other definition
 * (the proportional one, an unknown or empty name) or a lone process. */
int st_lanes_shared_per_process(const char *metric, uint64_t procs);

/* The lane whose valid bit is bit (exactly one bit), or NULL. */
const st_lane *st_lane_by_bit(unsigned bit);

/* An output's lanes in its order: the ids of the rows with a rank for it,
 * by rank.  Returns how many (<= ST_LANE_COUNT). */
enum st_lane_output { ST_LO_SCREEN, ST_LO_PROM, ST_LO_PLOT, ST_LO_REPORT, ST_LO_DOCTOR };
size_t st_lanes_order(int output, int ids[ST_LANE_COUNT]);

/* Per-lane statistics over a run or a stage window, one update per sample
 * (the summary keeps one for the run, st_summary.lanes, and one per stage,
 * st_stage_stat.lanes): what a lane needs, from its row alone.  For lane i,
 * valid when has & (1u << i): */
typedef struct st_lane_stats {
    uint32_t has;                  /* lanes read at least once */
    uint64_t first[ST_LANE_COUNT]; /* raw values (hundredths for ST_LT_CENTI) */
    uint64_t last[ST_LANE_COUNT];
    uint64_t min[ST_LANE_COUNT];
    uint64_t max[ST_LANE_COUNT];
    double integral[ST_LANE_COUNT]; /* rows with integral_div: the sum of
                                       raw / integral_div x the seconds since
                                       the previous sample (a sample's rate
                                       covers the interval that ends at it) */
} st_lane_stats;

/* Add sample s, dt_ms after the previous one (0 for the first). */
void st_lane_stats_add(st_lane_stats *st, const st_sample *s, uint32_t dt_ms);

/* Copy the system lanes (sys_bit != 0) of a system reading into s: each
 * value, and its lane bit where the reading has the lane's ST_SYS_* bit. */
struct st_sys_mem;
void st_lanes_from_sys(st_sample *s, const struct st_sys_mem *sys);
/* The raw value of system lane l (sys_bit != 0) in a system reading,
 * whether or not it holds it. */
uint64_t st_lane_sys_raw(const st_lane *l, const struct st_sys_mem *sys);

#endif
