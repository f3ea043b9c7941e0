/* monitor_internal.h: the insides of one watched run (monitor.h), for the
 * core/run files that make it (monitor.c, run_view.c, monitor_opts.c,
 * monitor_access.c, monitor_events.c) and the unit tests that look inside.  A front end never
 * includes it: it reads a run through st_monitor_view. */
#ifndef STAGETOP_MONITOR_INTERNAL_H
#define STAGETOP_MONITOR_INTERNAL_H

#include "stagetop/follow.h"
#include "stagetop/gpu.h"
#include "stagetop/monitor.h"
#include "stagetop/ring.h"
#include "stagetop/runseries.h"
#include "stagetop/tree.h"
#include "member_hist_internal.h"

struct st_monitor {
    st_monitor_opts opts;
    const st_platform *plat;
    st_backend *b;
    st_tree tree;
    st_member_hist hist;     /* each member's own footprint, its last samples (bounded) */
    st_ring ring;
    st_event_list events;
    st_summary summary;
    st_trace_meta meta;
    st_recorder *rec;        /* JSONL stream or NULL */
    st_runseries series;     /* opts.whole_run: the whole run, for its charts (bounded);
                                else empty (st_runseries_add does nothing) */
    st_trace_tap *tap;       /* opts.whole_run: the record's reading, kept; else NULL */
    st_job job;
    st_gpu *gpu;             /* NULL when no GPU lane */
    double t0;               /* monotonic time of t = 0 */
    double t_end;            /* monotonic time the job was seen ended (0: not yet) */
    uint64_t next_k;         /* index of the next deadline: t0 + k * interval */
    uint32_t stride;         /* deadlines per sample: 1, more while sampling cannot keep up */
    uint64_t dropped;        /* deadlines missed (skipped, not sampled) */
    st_sys_mem sys;          /* latest system reading */
    st_sys_mem sys_start;    /* first system reading (swap growth base) */
    st_sample last;          /* latest sample */
    int has_last;
    double cpu_per_sample;   /* stagetop's CPU seconds per sample, smoothed */
    double slept;            /* st_slept_total() at the last sample (-1: unknown) */
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
    char env_note[600];      /* -p: the stage files of the job's environment followed (or
                              * why not), "" when none (monitor_env.c) */
    size_t own_events;       /* stagetop's own events in the list (limits.h ST_KEEP_*) */
    uint64_t stages_folded;  /* stage events past ST_KEEP_STAGES (one summary window) */
    uint32_t last_event_ms;  /* the last event's t: with the summary's samples, the
                                earliest t the next may take (st_summary_event_floor) */
    /* The run's warnings, one st_error per source (enum st_warn_source in
     * run_view.h; msg "" when there is none): ST_WARN_GUARD a limit was
     * crossed but its action reached no process (EPERM); ST_WARN_RECORD the
     * first record-stream write failure (sys_errno EPIPE: the reader of
     * --jsonl left); ST_WARN_FOLLOW the latest --events read failure;
     * ST_WARN_GPU the last GPU read failure; ST_WARN_NO_GPU why there is no
     * GPU lane.  Front ends read them through st_monitor_view. */
    st_error warn[ST_WARN_SOURCES];
    /* The memory limit that binds the job (monitor_limit.c) */
    st_cg_watch limit;       /* its cgroup, limit and files */
    double limit_next;       /* when the root's cgroup is looked at again */
    double limit_walk;       /* when it is walked again whatever it says */
    uint64_t oom_kills;      /* the OOM killer's kills seen in it since the start */
    char oom_note[160];      /* what the exit event says of them ("" none) */
    int oom_root;            /* 1: they ended the root (the exit event's name "oom_kill") */
};

/* -p: watch pid (st_job_attach); a guard on a root watched only (pid 1,
 * an ancestor of stagetop) is refused, ST_EINVAL: it could never act. */
int st_monitor_attach(st_monitor *m, int32_t pid, const st_guard_opts *guard, st_error *err);
/* -p without --events: follow the files the root's environment names in
 * $STAGETOP_EVENTS (as job_follow) and $STAGELOAD_TRACE (as follow),
 * saying so in env_note (monitor_env.c). */
void st_monitor_env_follow(st_monitor *m, double interval);
/* The start record's MPS keys (monitor_mps.c, docs/trace-format.md), as
 * members "\"key\":value" appended to w: on a platform with Metal
 * (st_platform.mps_device), the device's recommended working set and wired
 * limit, and the job's PYTORCH_MPS_*_WATERMARK_RATIO as it was launched
 * (a comma first when any): 1 when written, else 0 (no Metal here). */
struct st_jw;
int st_monitor_mps_meta(st_monitor *m, struct st_jw *w, int any);
/* Open a follower of path whose polls take slices of a quarter interval. */
int st_monitor_open_follower(st_follow **fp, const char *path, double interval, st_error *err);
void st_monitor_close_follower(st_follow **fp);
/* The first record-stream failure becomes ST_WARN_RECORD. */
void st_monitor_note_record_error(st_monitor *m, const st_error *e);
/* List (bounded: limits.h ST_KEEP_*), summary, record stream. */
int st_monitor_add_event(st_monitor *m, const st_event *ev, st_error *err);
/* Before a sample: one slice of each followed file. */
void st_monitor_poll_follow(st_monitor *m, double now);
/* At the end: what each followed file still holds, its last line too. */
void st_monitor_finish_follow(st_monitor *m, double now);
/* monitor_limit.c: the limit that binds and the OOM killer.  open finds
 * the root's cgroup (before the meta is made); meta writes its keys into
 * the start record's other keys (a comma first when any: 1 when written);
 * sample puts the room into s (limit_free) and reads the OOM-kill counters
 * when a member has left; exit says on the job's exit event whether the OOM
 * killer ended it (name "oom_kill", note); close closes its files. */
struct st_jw;
void st_monitor_limit_open(st_monitor *m, double now);
int st_monitor_limit_meta(const st_monitor *m, struct st_jw *w, int any);
void st_monitor_limit_sample(st_monitor *m, double now, st_sample *s);
void st_monitor_limit_exit(st_monitor *m, st_event *ev);
void st_monitor_limit_close(st_monitor *m);

/* The sampling pace (monitor_pace.c): after each sample, double the
 * deadlines per sample (m->stride) while one costs over half its period,
 * halve them back when cheap; ST_WARN_PACE says it. */
void st_monitor_pace(st_monitor *m);
/* The GPU lane (monitor_gpu.c): opened once at the start (or why there is
 * none, in warn[ST_WARN_NO_GPU]); the tree's GPU memory into s (the last
 * reading again when read under 50 ms ago). */
void st_monitor_open_gpu(st_monitor *m);
void st_monitor_read_gpu(st_monitor *m, double now, st_sample *s);
/* The machine slept since the last sample (monitor_pace.c): a "sleep" event
 * at t_ms, the sample's. */
void st_monitor_note_sleep(st_monitor *m, uint32_t t_ms);
/* The record's name taken by another file (monitor_out.c): 1 and the name
 * beside it the trace goes to instead (alt), or 0. */
#define ST_REC_ALT_MAX 4200
int st_monitor_record_taken(const st_monitor *m, char *alt, size_t size);

#endif
