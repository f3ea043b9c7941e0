/* metrics.c: the run's latest values as a Prometheus text-format file
 * (include/stagetop/metrics.h; docs/metrics-export.md). */
#include "stagetop/metrics.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/atomic_file.h"
#include "stagetop/grow.h"
#include "stagetop/lanes.h"

int st_metrics_open(st_metrics *mx, const char *path, st_error *err)
{
    memset(mx, 0, sizeof *mx);
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return st_error_set(err, ST_EINVAL, EINVAL, "metrics: bad file name '%s'", path ? path : "");
    st_metrics_set_run(mx, 0, "", "");
    mx->path = path;
    /* Can a file be made there?  Say so now, not after the first sample. */
    st_error why;
    if (st_atomic_check(path, &why) != ST_OK) {
        mx->path = NULL;
        return st_error_set(err, why.code, why.sys_errno, "metrics: %s", why.msg);
    }
    return ST_OK;
}

void st_metrics_close(st_metrics *mx)
{
    free(mx->buf);
    mx->path = NULL;
    mx->buf = NULL;
    mx->len = mx->cap = 0;
}

void st_metrics_values_of(const st_run_view *rv, double wall, st_metrics_values *v)
{
    const st_summary *sm = rv->summary;
    memset(v, 0, sizeof *v);
    v->wall = wall;
    v->state = rv->job_state;
    v->pressure_is_level = rv->pressure_is_level; /* the platform's capability */
    if (rv->last) {
        v->last = *rv->last;
        v->has_sample = 1;
    }
    if (sm && sm->n_samples) {
        v->footprint_peak = sm->peak_footprint;
        v->has_footprint_peak = 1;
    }
    if (sm && sm->has_kernel_peak) {
        v->kernel_peak = sm->kernel_peak;
        v->has_kernel_peak = 1;
        snprintf(v->kernel_peak_source, sizeof v->kernel_peak_source, "%s", sm->kernel_peak_source);
    }
    if (rv->last && (rv->last->valid & ST_F_SWAP) && sm && sm->has_swap) {
        v->swap_growth = (int64_t)(rv->last->swap_used - sm->swap_start);
        v->swap_growth_peak = (int64_t)(sm->swap_peak - sm->swap_start);
        v->has_swap_growth = 1;
    }
    if (sm && sm->n_stage_events && sm->n_stages) {
        snprintf(v->stage, sizeof v->stage, "%s", sm->stages[sm->n_stages - 1].stage);
        v->has_stage = 1;
    }
    v->guard_active = rv->guard_active;
    v->guard_tripped = rv->guard_tripped;
    v->swap_budget = rv->guard_opts.swap_budget;
    v->has_swap_budget = rv->guard_active && rv->guard_opts.has_swap_budget;
    v->kill_free_c = rv->guard_opts.kill_free_c;
    v->has_kill_free = rv->guard_active && rv->guard_opts.has_kill_free;
    v->exit_code = rv->exit_code;
    v->has_exit_code = rv->job_launched && rv->job_state == ST_JOB_EXITED;
    v->samples_total = rv->samples_total;
    v->dropped_total = rv->dropped;
    if (rv->uptime_s > 0)
        v->start_wall = wall - rv->uptime_s;
    if (sm && (sm->act.has & ST_F_PAGEINS)) { /* the counters' growth, not the rounded rates */
        v->pageins_total = rv->pageins_total;
        v->has_pageins = 1;
    }
    if (sm && (sm->act.has & ST_F_CPU)) { /* the members' CPU time summed, reaped ones kept */
        v->cpu_total_ns = rv->cpu_total_ns;
        v->has_cpu = 1;
    }
}

static void add(st_metrics *mx, int *oom, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(st_metrics *mx, int *oom, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        size_t room = mx->cap - mx->len;
        va_start(ap, fmt);
        int n = vsnprintf(mx->buf ? mx->buf + mx->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            *oom = 1;
            return;
        }
        if ((size_t)n < room) {
            mx->len += (size_t)n;
            return;
        }
        if (st_grow(&mx->buf, &mx->cap, mx->len + (size_t)n + 1, 1, 4096) != 0) {
            *oom = 1;
            return;
        }
    }
}

/* Where a series' labels come from. */
enum { SC_SYSTEM, SC_JOB };

typedef struct out {
    st_metrics *mx;
    int oom;
} out;

static void head(out *o, const char *name, const char *type, const char *help)
{
    add(o->mx, &o->oom, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{labels} : the job's labels (scope SC_JOB) and extra ("" none), or
 * none at all (SC_SYSTEM); the value follows. */
static void series(out *o, const char *name, int scope, const char *extra)
{
    const char *user = scope == SC_JOB ? o->mx->labels : "";
    if (!*user && !*extra)
        add(o->mx, &o->oom, "%s ", name);
    else
        add(o->mx, &o->oom, "%s{%s%s%s} ", name, user, *user && *extra ? "," : "", extra);
}

static void one_u64(out *o, const char *name, const char *type, int scope, const char *help, uint64_t v)
{
    head(o, name, type, help);
    series(o, name, scope, "");
    add(o->mx, &o->oom, "%llu\n", (unsigned long long)v);
}

static void one_i64(out *o, const char *name, int scope, const char *help, int64_t v)
{
    head(o, name, "gauge", help);
    series(o, name, scope, "");
    add(o->mx, &o->oom, "%lld\n", (long long)v);
}

/* An info series: name{labels,key="value"} 1 (value escaped). */
static void info(out *o, const char *name, const char *help, const char *key, const char *value)
{
    char esc[256], extra[300];
    st_metrics_escape_label(value, 60, esc, sizeof esc);
    snprintf(extra, sizeof extra, "%s=\"%s\"", key, esc);
    head(o, name, "gauge", help);
    series(o, name, SC_JOB, extra);
    add(o->mx, &o->oom, "1\n");
}

/* The per-lane gauges: one row per field of st_sample that goes in the
 * file (the lane table's Prometheus columns, docs/metrics-export.md).  A
 * row is written while the job lives, when the sample holds its field and
 * the platform matches (PR_*). */
enum { FMT_INT, FMT_RATIO_C }; /* the value; hundredths of a percent as a ratio 0..1 */
enum { PR_ANY, PR_PSI, PR_LEVEL }; /* the pressure lane: Linux PSI or macOS's level */

/* The lanes, from the lane table (lanes.h: each row's Prometheus name, help
 * and format): the job's lanes, or the system's (a row with a st_sys_mem
 * bit).  Left out once the job has exited: no live-looking gauges. */
static void lanes(out *o, const st_metrics_values *v, int scope)
{
    unsigned has = v->has_sample && v->state != ST_JOB_EXITED ? v->last.valid : 0;
    int ids[ST_LANE_COUNT];
    size_t n = st_lanes_order(ST_LO_PROM, ids);
    for (size_t i = 0; i < n; i++) {
        const st_lane *l = &st_lanes[ids[i]];
        if ((l->sys_bit ? SC_SYSTEM : SC_JOB) != scope || !(has & st_lane_bit(l->id)))
            continue;
        uint64_t raw = st_lane_raw(l, &v->last);
        const char *name = l->prom_name, *help = l->prom_help;
        int fmt = l->prom_format;
        if (v->pressure_is_level && l->prom_level_name) {
            name = l->prom_level_name; /* macOS: a level, not a share of time */
            help = l->prom_level_help;
            raw /= 100;                /* stored as level * 100 */
            fmt = ST_LP_INT;
        }
        head(o, name, l->prom_counter ? "counter" : "gauge", help);
        series(o, name, scope, "");
        if (fmt == ST_LP_RATIO)
            add(o->mx, &o->oom, "%u.%04u\n", (unsigned)(raw / 10000u), (unsigned)(raw % 10000u));
        else if (fmt == ST_LP_CENTI)
            add(o->mx, &o->oom, "%u.%02u\n", (unsigned)(raw / 100u), (unsigned)(raw % 100u));
        else
            add(o->mx, &o->oom, "%llu\n", (unsigned long long)raw);
    }
}

/* Two-or-more-valued states: one series per state, 1 for the current. */
static void stateset(out *o, const char *name, const char *help, const char *const *states, int n,
                     int now)
{
    char extra[64];
    head(o, name, "gauge", help);
    for (int i = 0; i < n; i++) {
        snprintf(extra, sizeof extra, "state=\"%s\"", states[i]);
        series(o, name, SC_JOB, extra);
        add(o->mx, &o->oom, "%d\n", i == now);
    }
}

int st_metrics_render(st_metrics *mx, const st_metrics_values *v, st_error *err)
{
    out o = {mx, 0};
    mx->len = 0;
    /* the job's identity, once */
    head(&o, "stagetop_run_info", "gauge",
         "The watched job: root pid, command line, stagetop version and platform (value 1).");
    add(mx, &o.oom, "stagetop_run_info{%s%s%s} 1\n", mx->labels, *mx->labels ? "," : "", mx->info);
    /* the job */
    static const char *const states[] = {"running", "paused", "exited"};
    stateset(&o, "stagetop_job_state",
             "1 for the job's state (running, paused or exited), 0 for the others.", states, 3,
             v->state == ST_JOB_PAUSED || v->state == ST_JOB_STOPPED ? 1 /* stopped by someone else: not running */
             : v->state == ST_JOB_EXITED ? 2 : 0);
    if (v->has_exit_code)
        one_i64(&o, "stagetop_job_exit_code", SC_JOB,
                "Exit code of a job stagetop started, once it has exited (128+N: signal N).",
                v->exit_code);
    if (v->has_stage)
        info(&o, "stagetop_stage_info", "The stage the job is in (its last stage event), value 1.",
             "stage", v->stage);
    lanes(&o, v, SC_JOB);
    if (v->has_pageins)
        one_u64(&o, "stagetop_tree_pageins_total", "counter", SC_JOB,
                "Page-ins (major faults) of the watched process tree since stagetop started watching "
                "(Linux majflt; macOS ri_pageins).", v->pageins_total);
    if (v->has_cpu) { /* seconds, to the nanosecond the kernel counts in */
        head(&o, "stagetop_tree_cpu_seconds_total", "counter",
             "CPU time (user + system) of the watched process tree since stagetop started watching; "
             "members that exited stay counted.");
        series(&o, "stagetop_tree_cpu_seconds_total", SC_JOB, "");
        add(mx, &o.oom, "%llu.%09llu\n", (unsigned long long)(v->cpu_total_ns / 1000000000u),
            (unsigned long long)(v->cpu_total_ns % 1000000000u));
    }
    if (v->has_footprint_peak)
        one_u64(&o, "stagetop_tree_footprint_peak_bytes", "gauge", SC_JOB,
                "Largest footprint of the whole tree in one sample since the run started.",
                v->footprint_peak);
    if (v->has_kernel_peak) {
        one_u64(&o, "stagetop_tree_kernel_peak_bytes", "gauge", SC_JOB,
                "Largest per-process kernel high-water mark of the tree since the start "
                "(macOS lifetime max footprint; Linux VmHWM, wait4 ru_maxrss or cgroup memory.peak).",
                v->kernel_peak);
        if (v->kernel_peak_source[0])
            info(&o, "stagetop_tree_kernel_peak_info",
                 "Where stagetop_tree_kernel_peak_bytes came from (sampled, wait4, lifetime_max, "
                 "cgroup), value 1.", "source", v->kernel_peak_source);
    }
    if (v->has_swap_growth) {
        one_i64(&o, "stagetop_swap_growth_bytes", SC_JOB,
                "System swap used at the latest sample minus at the run's first sample (swap growth; may be negative).",
                v->swap_growth);
        one_i64(&o, "stagetop_swap_growth_peak_bytes", SC_JOB,
                "Largest system swap used during the run minus swap used at its first sample.",
                v->swap_growth_peak);
    }
    if (v->guard_active) {
        static const char *const gstates[] = {"armed", "tripped"};
        if (v->has_swap_budget)
            one_u64(&o, "stagetop_guard_swap_budget_bytes", "gauge", SC_JOB,
                    "--swap-budget: swap growth the guard allows before it acts.", v->swap_budget);
        if (v->has_kill_free) {
            head(&o, "stagetop_guard_min_available_ratio", "gauge",
                 "--kill-free: the guard acts when the memory-available level stays under it, 0..1.");
            series(&o, "stagetop_guard_min_available_ratio", SC_JOB, "");
            add(mx, &o.oom, "%u.%04u\n", (unsigned)v->kill_free_c / 10000u,
                (unsigned)v->kill_free_c % 10000u);
        }
        stateset(&o, "stagetop_guard_state",
                 "1 for the guard's state: armed, or tripped (a limit was crossed and acted on).",
                 gstates, 2, v->guard_tripped != 0);
    }
    if (v->start_wall > 0) {
        head(&o, "stagetop_run_start_timestamp_seconds", "gauge", "Unix time the run started.");
        series(&o, "stagetop_run_start_timestamp_seconds", SC_JOB, "");
        add(mx, &o.oom, "%.3f\n", v->start_wall);
    }
    head(&o, "stagetop_last_sample_timestamp_seconds", "gauge",
         "Unix time of the latest sample (a stale value: stagetop stopped).");
    series(&o, "stagetop_last_sample_timestamp_seconds", SC_JOB, "");
    add(mx, &o.oom, "%.3f\n", v->wall);
    one_u64(&o, "stagetop_samples_total", "counter", SC_JOB, "Samples taken since the run started.",
            v->samples_total);
    one_u64(&o, "stagetop_dropped_samples_total", "counter", SC_JOB,
            "Sample deadlines missed since the run started.", v->dropped_total);
    /* the system, without the job's labels */
    lanes(&o, v, SC_SYSTEM);
    if (o.oom)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "metrics: out of memory");
    return ST_OK;
}

int st_metrics_write(st_metrics *mx, const st_metrics_values *v, st_error *err)
{
    int rc = st_metrics_render(mx, v, err);
    if (rc != ST_OK)
        return rc;
    rc = st_atomic_write(mx->path, mx->buf, mx->len, 0, err);
    if (rc == ST_OK)
        mx->writes++;
    return rc;
}
