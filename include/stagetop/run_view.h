/* run_view.h: one read-only snapshot of a run, what a front end draws.
 *
 * A live run (st_monitor_view) and a loaded or followed trace
 * (st_trace_run_view) give the same type, so the screen, the replay screen and
 * headless mode read one thing and never the monitor's ring, tree, guard,
 * recorder or follower.  A view is a snapshot: it holds no way back to its
 * source and reads nothing (a live member's command line is asked of the
 * monitor, st_monitor_command).  Every pointer in it borrows data from its
 * source and is valid until the source changes (the next st_monitor_step,
 * the next record fed to the trace): take a fresh view for each frame.  Numbers
 * derived from the samples (the swap growth rate, the time to the swap
 * budget) are computed here once, with one name each (docs/screen.md). */
#ifndef STAGETOP_RUN_VIEW_H
#define STAGETOP_RUN_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/events.h"
#include "stagetop/guard.h"
#include "stagetop/platform.h"
#include "stagetop/sample.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"

struct st_monitor;
struct st_member_hist;

/* Where a warning comes from (one entry per source at most). */
enum st_warn_source {
    ST_WARN_GUARD,   /* a budget was crossed but its action reached no process */
    ST_WARN_RECORD,  /* the record stream failed (sampling goes on) */
    ST_WARN_FOLLOW,  /* --events / $STAGETOP_EVENTS: the latest read failure */
    ST_WARN_GPU,     /* the last GPU reading failed (the lane has gaps) */
    ST_WARN_EPERM,   /* members whose memory the kernel refused */
    ST_WARN_NO_GPU,  /* why there is no GPU lane (information, not a warning) */
    ST_WARN_PACE,    /* sampling costs too much CPU for --interval: backed off */
    ST_WARN_LANES,   /* the backend's note: a lane it samples is missing (platform.h lanes_note) */
    ST_WARN_SOURCES
};

typedef struct st_run_warning {
    int source;      /* enum st_warn_source */
    int info;        /* 1: information only (not shown as a warning) */
    st_error e;      /* code, errno and the one-line message */
} st_run_warning;

/* Window of the swap growth rate (seconds): swap_rate is the growth of
 * system swap used between the newest sample and the oldest one at most
 * this old, per second. */
#define ST_RUN_SWAP_RATE_WINDOW_S 10.0

typedef struct st_run_view {
    /* ---- meta: what is watched ---- */
    const st_trace_meta *meta;    /* command, pid, platform, interval ... */
    double interval;              /* seconds between samples (columns) */
    const char *footprint_metric; /* the definition in force ("" unknown) */
    int footprint_carried;        /* the last sample's footprint carries
                                     proportional corrections (core/run/tree_share.c;
                                     a trace: its footprint_age key)... */
    double footprint_age_s;       /* ...the oldest of them, seconds */
    int footprint_per_process;    /* the definition counts a shared page once
                                     per process and the last sample's tree
                                     has more than one (lanes.h,
                                     st_lanes_shared_per_process): said */
    const char *peak_metric;      /* the kernel peak's name, NULL: "kernel" */
    int32_t root_pid;             /* the watched root (0 unknown) */
    int replay;                   /* 1: made from a trace, not a live run */
    double uptime_s;              /* live: seconds since t = 0; once the job has ended,
                                   * from t = 0 to when its end was seen (it stops) */

    /* ---- samples ---- */
    st_samples_view samples;      /* the window kept, oldest first */
    uint64_t samples_total;       /* samples ever taken (changes each sample) */
    const st_sample *last;        /* the newest sample in the window, or NULL */
    uint64_t dropped;             /* deadlines missed / samples the trace lost */
    const st_summary *summary;    /* the whole run so far */
    uint64_t stages_folded;       /* live: stage events past the kept windows (limits.h), one window */

    /* ---- members (live only; n_members 0 in a replay) ---- */
    const st_proc_mem *members;   /* root first */
    size_t n_members;
    int root_alive;               /* 0 once the root process is gone */
    uint64_t kernel_peak; int has_kernel_peak;
    uint64_t eperm_count;         /* members whose memory the kernel refused */
    int has_gpu_lane;             /* a GPU lane is read */
    const int32_t *gpu_pids;      /* the last GPU reading, per member: pid ... */
    const uint64_t *gpu_bytes;    /* ... and its bytes on all GPUs */
    size_t gpu_n;
    const struct st_tree_share *share; /* live: each member's last proportional read (NULL: none) */
    const struct st_member_hist *hist; /* live: each member's own footprint, its last
                                     samples (NULL: none; st_run_view_history_of) */

    /* ---- events ---- */
    const st_event *events;       /* in time order */
    size_t n_events;

    /* ---- system ---- */
    st_sys_mem sys;               /* latest system reading (valid 0: none) */
    st_sys_mem sys_start;         /* first one (swap growth base) */

    /* ---- guard ---- */
    int guard_active;
    st_guard_opts guard_opts;
    int guard_tripped;            /* a limit was crossed and acted on */
    int guard_no_swap;            /* a swap budget is armed but the system has no
                                     swap configured: it cannot trigger */
    int guard_level_crossed;      /* a level threshold is armed and the level was
                                     already under it at the start */
    uint16_t level_start_c;       /* the level at the start (with guard_level_crossed) */
    int has_guard_base;           /* the guard's swap base is set (first sample) */
    uint64_t guard_swap_base;     /* swap used the budget counts from (moves on resume) */
    st_guard_verdict verdict;     /* the last limit crossed */
    uint64_t pageins_total;       /* the tree's page-ins since the start (counters, not rates) */
    uint64_t cpu_total_ns;        /* the tree's CPU since the start, exited members included */
    int pressure_is_level;        /* the platform's pressure is a 1/2/4 level (macOS), not PSI */

    /* ---- job ---- */
    int32_t job_pid;
    int job_launched, job_state;  /* enum st_job_state */
    int paused_by_us, exit_code;
    int stop_sig;                 /* ST_JOB_STOPPED: the signal that stopped the root */
    int signalled, refused;       /* processes of the last action */
    const char *refusal;          /* why the first refused ("" none) */
    int read_only;                /* p, k and the guard never signal */
    const char *env_follow;       /* live -p: the stage files of the job's environment that
                                   * are followed, or why not ("" none; NULL in replay) */
    const char *watch_only;       /* live: why the job is never signalled (pid 1, an
                                   * ancestor of stagetop), "" when it may be; NULL in replay */
    int kill_asked;
    double grace_s;

    /* ---- the memory limit that binds (docs/metrics.md, "The limit that binds") ---- */
    st_trace_limit limit;         /* the job's cgroup and its limit (the room: the
                                     limit_free lane of the samples) */
    const char *oom_note;         /* what the kernel's OOM killer did to the job, as its
                                     exit event says it ("" nothing seen) */
    int oom_root;                 /* 1: it ended the root (the exit event's name "oom_kill") */

    /* ---- derived, computed once here ---- */
    int has_swap_rate;
    double swap_rate;             /* bytes/s over ST_RUN_SWAP_RATE_WINDOW_S (signed) */
    double budget_eta_s;          /* seconds until the swap budget at swap_rate;
                                     < 0: no budget, or swap not growing */
    double cpu_per_sample;        /* stagetop's CPU seconds per sample (live) */

    /* ---- warnings: one list ---- */
    st_run_warning warnings[ST_WARN_SOURCES];
    size_t n_warnings;
} st_run_view;

/* The view of a live run at monotonic time now. */
void st_monitor_view(const struct st_monitor *m, double now, st_run_view *out);

/* The view of a trace as far as it has been read: samples [0, n_samples),
 * events [0, n_events) (a replay's window edge; pass the trace's counts
 * for all of it), interval in seconds (the replay's column interval). */
void st_trace_run_view(const st_trace *t, size_t n_samples, size_t n_events, double interval,
                   st_run_view *out);

/* Warnings: the first non-information entry in the screen's order (guard,
 * record, follow, GPU), or NULL. */
const st_run_warning *st_run_view_warning(const st_run_view *v);
/* The entry of one source, or NULL. */
const st_run_warning *st_run_view_find(const st_run_view *v, int source);

/* The swap growth rate of a window (bytes/s, see ST_RUN_SWAP_RATE_WINDOW_S):
 * 1 and *rate when the newest sample has swap, is at least 2 s into the run
 * and an older one at least 1 s before it has swap too; else 0. */
int st_run_swap_rate(st_samples_view s, double *rate);

/* Seconds until swap_now reaches base + budget at rate (0 when already
 * there), < 0 when rate <= 0. */
double st_run_budget_eta(uint64_t base, uint64_t budget, uint64_t swap_now, double rate);

/* What one member held alone and shared at its last proportional read
 * (smaps_rollup's Private_* and Shared_*; tree.h st_tree_share_of): 1, or
 * 0 when it was not read (yet), or in a replay. */
int st_run_view_share_of(const st_run_view *v, st_proc_id id, uint64_t *alone, uint64_t *shared);

/* One member's own footprint over its last samples (KiB, at most cap, the
 * newest last; ST_RUN_HIST_NONE: not read at that sample), one value a
 * sample, at most ST_RUN_HIST_MAX kept: how many (0: none, a replay).  The
 * memory is bounded: docs/performance.md. */
#define ST_RUN_HIST_MAX 512
#define ST_RUN_HIST_NONE UINT32_MAX
size_t st_run_view_history_of(const st_run_view *v, st_proc_id id, uint32_t *kib, size_t cap);

/* GPU bytes of one member as of the last GPU reading: 1 and *bytes, or 0. */
int st_run_view_gpu_of(const st_run_view *v, int32_t pid, uint64_t *bytes);

#endif
