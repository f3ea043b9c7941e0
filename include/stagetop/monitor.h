/* monitor.h: one watched run: backend -> tree sample -> ring (+ record
 * stream) -> summary, with the event list and job control.  The TUI and
 * headless mode both drive it; time is an argument (monotonic seconds). */
#ifndef STAGETOP_MONITOR_H
#define STAGETOP_MONITOR_H

#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/events.h"
#include "stagetop/follow.h"
#include "stagetop/gpu.h"
#include "stagetop/guard.h"
#include "stagetop/jobctl.h"
#include "stagetop/platform.h"
#include "stagetop/ring.h"
#include "stagetop/run_view.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"
#include "stagetop/tree.h"

typedef struct st_monitor_opts {
    double interval;         /* seconds between samples, 0.01..60 */
    double history_s;        /* what the ring keeps (default 7200) */
    const char *record_path; /* NULL: none; "*.json": export at close; else JSONL */
    int record_fd;           /* >= 0: JSONL records to this fd (--jsonl); -1 none */
    int no_gpu;              /* 1: no GPU lane */
    const char *gpu_lib;     /* NULL: default NVML search (tests: a fake) */
    double grace_s;          /* kill grace period (default 5) */
    const char *command;     /* meta.command when launched; NULL: read it */
    st_guard_opts guard;     /* budgets (st_guard_active() says if any) */
    double discover_s;       /* tree discovery period; <= 0: automatic */
    const char *events_path; /* --events: a stageload trace the job writes */
    const char *job_events_path; /* $STAGETOP_EVENTS of a launched job: followed
                                    like events_path (plain or JSONL lines) */
    int record_overwrite;    /* --overwrite: an existing record file is replaced */
    int record_sync;         /* --record-sync: enum st_rec_sync (default 1 s) */
    const char *job_log;     /* a launched job's log: "job_log" in the trace's meta; NULL none */
} st_monitor_opts;

void st_monitor_opts_default(st_monitor_opts *o);
/* The guard's budgets (docs/guard.md): swap growth allowed in bytes; the
 * level, in percent 0..100, under which the guard acts; what it does
 * (enum st_guard_action). */
void st_monitor_opts_swap_budget(st_monitor_opts *o, uint64_t bytes);
void st_monitor_opts_kill_free(st_monitor_opts *o, double pct);
void st_monitor_opts_on_budget(st_monitor_opts *o, int action);

typedef struct st_monitor {
    st_monitor_opts opts;
    const st_platform *plat;
    st_backend *b;
    st_tree tree;
    st_ring ring;
    st_event_list events;
    st_summary summary;
    st_trace_meta meta;
    st_recorder *rec;        /* JSONL stream or NULL */
    st_job job;
    st_gpu *gpu;             /* NULL when no GPU lane */
    double t0;               /* monotonic time of t = 0 */
    uint64_t next_k;         /* index of the next deadline: t0 + k * interval */
    uint64_t dropped;        /* deadlines missed (skipped, not sampled) */
    st_sys_mem sys;          /* latest system reading */
    st_sys_mem sys_start;    /* first system reading (swap growth base) */
    st_sample last;          /* latest sample */
    int has_last;
    double cpu_per_sample;   /* stagetop's CPU seconds per sample, smoothed */
    st_guard guard;          /* budget policy (active when guard_on) */
    int guard_on;
    st_guard_verdict verdict;/* the last limit crossed */
    int guard_tripped;       /* 1 once a limit was crossed and acted on */
    double gpu_next;         /* when the GPU is read next (rate-limited) */
    double cmd_next;         /* -p: when the root's command line is read again */
    int32_t *gpu_pids;       /* the last GPU reading, per member: pid ... */
    uint64_t *gpu_bytes;     /* ... and its bytes on all GPUs */
    size_t gpu_n, gpu_cap;
    st_follow *follow;       /* --events, or NULL */
    st_follow *job_follow;   /* job_events_path, or NULL */
    /* The run's warnings, one st_error per source (enum st_warn_source in
     * run_view.h; msg "" when there is none): ST_WARN_GUARD a limit was
     * crossed but its action reached no process (EPERM); ST_WARN_RECORD the
     * first record-stream write failure (sys_errno EPIPE: the reader of
     * --jsonl left); ST_WARN_FOLLOW the latest --events read failure;
     * ST_WARN_GPU the last GPU read failure; ST_WARN_NO_GPU why there is no
     * GPU lane.  Front ends read them through st_monitor_view. */
    st_error warn[ST_WARN_SOURCES];
} st_monitor;

/* Open the backend, start watching pid (launched: 1 if job was spawned by
 * st_job_spawn into *job_or_null), open the record stream and write its
 * start record.  ST_ESRCH / ST_EPERM / ST_EIO with a clear message. */
int st_monitor_open(st_monitor *m, const st_platform *plat, const st_monitor_opts *o,
                    int32_t pid, const st_job *launched_job, double now, st_error *err);

/* (Re)start the clock: t = 0 and the first deadline are `now`.  The front
 * end calls it right before its loop, so the time spent opening is not
 * counted as missed deadlines. */
void st_monitor_start(st_monitor *m, double now);

/* Absolute monotonic time of the next sample (no drift: t0 + k*interval). */
double st_monitor_deadline(const st_monitor *m);

/* Take the sample that is due at `now`: skips (and counts in dropped) the
 * deadlines that passed unsampled, reads the tree, the system and the GPU,
 * pushes to the ring, the summary and the record stream, reaps a launched
 * job.  A failing record stream does not stop sampling (ST_WARN_RECORD). */
int st_monitor_step(st_monitor *m, double now, st_error *err);

/* Add an event at `now` (ev->t_ms is set from now): list, summary, record. */
int st_monitor_event(st_monitor *m, st_event *ev, double now, st_error *err);
/* Add a mark with an optional note. */
int st_monitor_mark(st_monitor *m, const char *note, double now, st_error *err);

/* The message of one warning source (enum st_warn_source), "" if none. */
const char *st_monitor_warning(const st_monitor *m, int source);

/* GPU bytes of one member as of the last GPU reading: 1 and *bytes, or 0
 * when there is no GPU lane or no reading for pid. */
int st_monitor_gpu_of(const st_monitor *m, int32_t pid, uint64_t *bytes);

/* Job control with events (pause/resume/kill). */
int st_monitor_pause(st_monitor *m, double now, st_error *err);
int st_monitor_resume(st_monitor *m, double now, st_error *err);
int st_monitor_kill(st_monitor *m, double now, st_error *err);

/* A wide tree is watched read-only (p, k and the guard never signal);
 * allow = 1 lets them signal it, 0 makes it read-only again. */
void st_monitor_allow_signals(st_monitor *m, int allow);

/* The watched tree's scope (st_job_scope_of on the monitor's backend). */
int st_monitor_scope(const st_monitor *m, st_job_scope *out, st_error *err);

/* Export the JSON trace (atomic) to path. */
int st_monitor_export(st_monitor *m, const char *path, st_error *err);
/* A fresh export path: DIR/stagetop-PID-YYYYmmdd-HHMMSS.json into buf. */
void st_monitor_export_path(const st_monitor *m, const char *dir, char *buf, size_t len);

/* The run's numbers are final: the terminal given back, the kernel peaks
 * kept at reaping (and the job's cgroup's) fed to the summary, its last
 * stage closed.  Idempotent; st_monitor_close does it too.  A front end
 * calls it to print or export the final numbers before closing. */
void st_monitor_finish(st_monitor *m);

/* End the run: resume a job stagetop paused (unless keep_paused), write the
 * record stream's end (or the .json export), free everything. */
int st_monitor_close(st_monitor *m, int keep_paused, st_error *err);

/* Monotonic seconds (CLOCK_MONOTONIC). */
double st_now(void);

#endif
