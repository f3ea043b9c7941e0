/* summary.h: a trace's summary, computed incrementally over the whole run
 * (the ring may have forgotten the start), with stageload's summarize()
 * semantics where they overlap:
 *   duration        last sample t - first sample t
 *   peak_footprint  max sample footprint (0 with no samples)
 *   swap            start/peak/end of swap_used (absent with no samples)
 *   min_level       min sample level
 *   stages          windows between stage events; the time before the first
 *                   stage event is "setup" unless that event is at t <= 0;
 *                   a window holds samples with t0 <= t < t1 (the last one
 *                   also the sample at t1 == end); seconds = t1 - t0
 *   loads/releases  count, bytes, seconds of load+reload / release events
 *   outside_stage   sorted names of load/reload events whose note is
 *                   "outside_stage"
 * plus stagetop's kernel_peak (max per-process high-water mark) and peak_gpu.
 *
 * The stage rule, one for the run and every reader (docs/trace-format.md,
 * "Time order"): a sample belongs to the stage whose window [stage event t,
 * next stage event t) holds its t.  The summary assigns by the order it is
 * fed, so feed samples and events in time order, an event at the same t_ms
 * as a sample before it (st_stage_event_first); the run places an event
 * that comes late at st_summary_event_floor. */
#ifndef STAGETOP_SUMMARY_H
#define STAGETOP_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/events.h"
#include "stagetop/lanes.h"
#include "stagetop/sample.h"

/* Byte sums (loads, releases) stop here: 2^53, the largest byte count a
 * trace may hold (docs/trace-format.md). */
#define ST_SUMMARY_BYTES_MAX (1ULL << 53)

/* The activity lanes over a run or a stage window, as their outputs word
 * them: read off the window's lane statistics (st_lane_stats, kept from the
 * lane table's rows): CPU seconds and page-ins are the rates' integrals,
 * the peaks the lanes' largest values.  has: ST_F_CPU, ST_F_PAGEINS,
 * ST_F_TREE_SWAP, ST_F_COMPRESSED bits of the lanes read at least once. */
typedef struct st_activity {
    double cpu_s;               /* CPU seconds (user + system) */
    double pageins;             /* page-ins (major faults) */
    uint32_t peak_cpu_c;        /* hundredths of a percent of one core */
    uint32_t peak_pageins_c;    /* hundredths per second */
    uint64_t peak_tree_swap, peak_compressed;
    unsigned has;
} st_activity;

/* core/model/activity.c: a read off the lane statistics ls. */
void st_activity_of(st_activity *a, const st_lane_stats *ls);
/* The activity as every output words it, or "-" without the lane:
 *   cpu      "12.3 s, mean 45%" (mean over seconds; "12.3 s" when seconds <= 0)
 *   pageins  "1234, peak 500/s"
 *   peak     bytes of the tree_swap (which = ST_F_TREE_SWAP) or compressed peak */
const char *st_activity_cpu(const st_activity *a, double seconds, char *buf, size_t len);
const char *st_activity_pageins(const st_activity *a, char *buf, size_t len);
const char *st_activity_peak(const st_activity *a, unsigned which, char *buf, size_t len);

typedef struct st_stage_stat {
    char stage[64];
    uint32_t t0_ms;
    int64_t seconds_ms;      /* t1 - t0, set by st_summary_finish */
    uint64_t peak_footprint;
    int has_peak;            /* 0: no sample fell inside (stageload: null) */
    /* (added by trace) the peak of the samples fed while this window was
     * open, before st_summary_finish applies the end rule */
    uint64_t open_peak;
    int has_open_peak;
    /* (added for the stage table, `report` and `diff`) swap growth: the
     * swap_used of the window's last sample minus the reading before the
     * window opened (or its first sample); min level; loads in the window */
    uint64_t swap_base, swap_last; int has_swap;
    uint16_t min_level_c; int has_level;
    uint64_t loads_count, loads_bytes;
    int64_t paused_ms;       /* the job paused within the window (pause to resume), closed
                                parts; st_summary_stage adds a pause still open */
    st_lane_stats lanes;     /* every lane's first/last/min/max/integral in the window */
    st_activity act;         /* CPU, page-ins, the tree's swap, compressed (of lanes) */
} st_stage_stat;

typedef struct st_summary {
    size_t n_samples;
    uint32_t first_t_ms, last_t_ms;
    uint64_t peak_footprint;
    uint64_t peak_rss;
    uint64_t kernel_peak; int has_kernel_peak;
    char kernel_peak_source[16]; /* where kernel_peak came from (peak.h's
                                    names: "sampled", "wait4", ...); "" unknown */
    uint64_t peak_gpu; int has_gpu;
    uint64_t swap_start, swap_peak, swap_end; int has_swap;
    uint16_t min_level_c; int has_level;
    st_lane_stats lanes;    /* every lane's first/last/min/max/integral (lanes.h) */
    st_activity act;        /* CPU seconds, page-ins, their peaks; the tree's swap and
                               compressed peaks (mean CPU: act.cpu_s / duration), of lanes */
    st_stage_stat *stages; size_t n_stages, cap_stages;
    uint64_t loads_count, loads_bytes; double loads_seconds;
    uint64_t releases_count, releases_bytes;
    /* pauses (pause and resume events; the guard's: a pause right after a
     * budget event whose note is "pause"): how many, and the time paused
     * (st_summary_paused_ms adds a pause still open at the last sample) */
    uint64_t n_pauses, n_guard_pauses;
    int64_t paused_ms;
    int paused, guard_pause_next;
    uint32_t pause_t_ms, pause_mark_ms; /* the open pause's start; where its
                                           current stage's share starts */
    int bytes_saturated;     /* a loads or releases byte sum reached ST_SUMMARY_BYTES_MAX
                                and was held there ("bytes_saturated" in the JSON) */
    int finished;
    /* (added by trace) */
    uint64_t end_peak; int has_end_peak; /* max footprint of samples at last_t_ms */
    uint64_t n_stage_events;             /* stage events fed */
    char **outside_stage;                /* sorted unique names of loads noted */
    size_t n_outside_stage, cap_outside_stage; /* "outside_stage" (stageload) */
    size_t n_outside_sorted;             /* [0, this) sorted and unique; the rest
                                            appended since (st_summary_finish sorts) */
} st_summary;

/* The stage rule's order: 1 when an event at event_t_ms goes before a
 * sample at sample_t_ms (it opens its window first: event_t_ms <= sample_t_ms). */
int st_stage_event_first(uint32_t event_t_ms, uint32_t sample_t_ms);
/* The earliest t an event of kind (enum st_event_kind) fed to s now may
 * carry and keep the rule for the samples already fed: one past the last
 * sample's t (0 before any; a first stage at 0 while every sample is at 0
 * takes them, as a reader sorting by t would), at least the last event's
 * (last_event_t_ms, kept by the caller). */
uint32_t st_summary_event_floor(const st_summary *s, int kind, uint32_t last_event_t_ms);

void st_summary_init(st_summary *s);
void st_summary_free(st_summary *s);
/* ST_ENOMEM when a stage cannot be stored (the summary stays usable). */
int st_summary_add_sample(st_summary *s, const st_sample *smp, st_error *err);
int st_summary_add_event(st_summary *s, const st_event *ev, st_error *err);
/* The outside_stage names sorted (repeats adjacent), for a writer holding
 * a const summary that was fed since st_summary_finish: a malloc'd array
 * of n_outside_stage pointers into s (free() the array only); NULL when out
 * of memory. */
char **st_summary_outside_sorted(const st_summary *s);
/* Record a kernel high-water mark (bytes) seen outside the samples. */
void st_summary_add_kernel_peak(st_summary *s, uint64_t bytes);
/* The same, naming its source (NULL or "": unknown).  The largest mark
 * wins and keeps its source; an equal one does not replace it. */
void st_summary_add_kernel_peak_from(st_summary *s, uint64_t bytes, const char *source);
/* Close the last stage window at the last sample.  Idempotent.  Feeding
 * more after finish re-opens it. */
void st_summary_finish(st_summary *s);
/* Swap growth of one stage window in bytes (signed); 0 with *has = 0
 * without swap. */
int64_t st_stage_swap_growth(const st_stage_stat *st, int *has);

/* One stage's row, as every output shows it (`report`, `diff`, the screen's
 * stage table, replay, the exported summary):
 *   seconds      t1 - t0 (t1: the next stage's start, or the last sample);
 *   peak         the window's peak footprint (stageload's end rule
 *                applied: a sample at t == t1 == end is inside);
 *   swap growth  swap_used of the window's last sample minus the reading
 *                before the window opened (or its first sample);
 *   min level    the lowest memory level in the window;
 *   loads        load/reload events fed while the window was open;
 *   paused       the part of seconds the job was paused (pause to resume). */
typedef struct st_stage_row {
    char stage[64];
    uint32_t t0_ms;
    int64_t seconds_ms;
    uint64_t peak_footprint; int has_peak;
    int64_t swap_growth; int has_swap;
    uint16_t min_level_c; int has_level;
    uint64_t loads_count, loads_bytes;
    int64_t paused_ms; /* of seconds_ms, the time the job was paused (0: none) */
    st_activity act;   /* CPU seconds, page-ins, peaks in the window */
} st_stage_row;

/* The time the job was paused over the run: the closed pauses, and one
 * still open until the last sample. */
int64_t st_summary_paused_ms(const st_summary *s);

/* Stage i of s as a row, whether or not s is finished and without changing
 * it (a writer may hold a const summary of a run still going).  i must be
 * < s->n_stages. */
void st_summary_stage(const st_summary *s, size_t i, st_stage_row *row);

#endif
