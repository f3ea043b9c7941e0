/* monitor.h: one watched run: backend -> tree sample -> ring (+ record
 * stream) -> summary, with the event list and job control.  The TUI and
 * headless mode both drive it; time is an argument (monotonic seconds). */
#ifndef STAGETOP_MONITOR_H
#define STAGETOP_MONITOR_H

#include <stdint.h>
#include "stagetop/clock.h"
#include "stagetop/error.h"
#include "stagetop/events.h"
#include "stagetop/guard.h"
#include "stagetop/jobctl.h"
#include "stagetop/platform.h"
#include "stagetop/run_view.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"

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
    char *const *job_env;    /* a launched job's environment (its MPS ratios for the start
                                record, monitor_mps.c); NULL: read the root's through the
                                backend's environ_var, as it was launched */
    int whole_run;           /* 1: keep the run's series and the record's reading
                                for st_monitor_whole_run (--report/--plot at the end) */
} st_monitor_opts;

void st_monitor_opts_default(st_monitor_opts *o);
/* The guard's budgets (docs/guard.md): swap growth allowed in bytes; the
 * level, in percent 0..100, under which the guard acts; what it does
 * (enum st_guard_action). */
void st_monitor_opts_swap_budget(st_monitor_opts *o, uint64_t bytes);
void st_monitor_opts_kill_free(st_monitor_opts *o, double pct);
void st_monitor_opts_on_budget(st_monitor_opts *o, int action);

/* One watched run.  Opaque: a front end holds a pointer (st_monitor_new),
 * reads the run through st_monitor_view (run_view.h) and acts through the
 * st_monitor_* functions below; the insides are core/run/monitor_internal.h's. */
typedef struct st_monitor st_monitor;

/* A zeroed monitor for st_monitor_open, or NULL (out of memory). */
st_monitor *st_monitor_new(void);
/* Free what st_monitor_new gave (after st_monitor_close, or unopened). */
void st_monitor_free(st_monitor *m);

/* Open the backend, start watching pid (launched: 1 if job was spawned by
 * st_job_spawn into *job_or_null), open the record stream and write its
 * start record.  ST_ESRCH / ST_EPERM / ST_EIO with a clear message.  A
 * held job (st_spawn_opts.hold) stays held: its caller releases it
 * (st_job_release) once this has succeeded, or abandons it. */
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

/* The command line of a member (or any process) of the run, read now
 * through the monitor's backend (a run view reads nothing). */
int st_monitor_command(const st_monitor *m, st_proc_id id, char *buf, size_t len, st_error *err);

/* When a member (or any process) of the run started, wall-clock seconds
 * since the epoch, from its identity (platform.h's start_time).
 * ST_ENOTSUP where the platform does not say. */
int st_monitor_start_time(const st_monitor *m, st_proc_id id, double *wall, st_error *err);

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
/* The whole run as a trace, for --report and --plot at the end without a
 * record (opts.whole_run; once, after st_monitor_finish): its meta, events
 * and summary as `stagetop report` of the run's JSONL record would read
 * them (st_trace_tap: exact), its samples the run's series
 * (stagetop/runseries.h: decimated per column, each column's minimum and
 * maximum kept; every sample while the run has fewer than its columns'
 * worth).  *samples: how many samples the points stand for when they are
 * decimated (st_plot_opts.samples), else 0.  ST_EINVAL when not
 * kept; out is then empty. */
int st_monitor_whole_run(st_monitor *m, st_trace *out, uint64_t *samples, st_error *err);
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

#endif
