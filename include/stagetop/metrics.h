/* metrics.h: the latest values of a run as a Prometheus text-format file
 * (--metrics FILE), for node_exporter's textfile collector
 * (docs/metrics-export.md).
 *
 * After each sample the whole file is rebuilt in a reused buffer and
 * replaced atomically (atomic_file.h, no fsync: it is rewritten every
 * sample), so a scraper never reads half of it.  Every metric is named
 * stagetop_*, in base units (bytes, seconds, ratios 0..1).  The job's
 * identity (pid, command, version, platform) is on one series,
 * stagetop_run_info{...} 1; the job's series carry only the labels the user
 * chose (--metrics-label name=value, st_metrics_add_label), so a new run of
 * the same job continues the same series; the system's series (swap used,
 * memory level, pressure) carry none.  A field the platform does not
 * provide is left out; once the job has exited the live readings (tree and
 * system) are left out too and the run's final values stay. */
#ifndef STAGETOP_METRICS_H
#define STAGETOP_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/jobctl.h"
#include "stagetop/run_view.h"

#define ST_METRICS_CMD_CHARS 120
#define ST_METRICS_MAX_LABELS 16      /* --metrics-label given at most this often */
#define ST_METRICS_LABEL_NAME_MAX 64  /* bytes of a label name */
#define ST_METRICS_LABEL_VALUE_CHARS 120

/* The values written, taken from a run view (st_metrics_values_of) or filled
 * by hand (tests, benchmarks). */
typedef struct st_metrics_values {
    st_sample last;         /* the latest sample (valid bits say what is there) */
    int has_sample;
    int pressure_is_level;  /* 1: the pressure lane is macOS's 1/2/4 level, not PSI */
    uint64_t footprint_peak; int has_footprint_peak;  /* the tree's, over the run */
    uint64_t kernel_peak; int has_kernel_peak;
    char kernel_peak_source[16];  /* "sampled", "wait4", ...; "" unknown */
    int64_t swap_growth; int has_swap_growth;   /* swap used - swap at the first sample */
    int64_t swap_growth_peak;     /* (with has_swap_growth) the largest swap used - the first */
    char stage[64]; int has_stage;  /* the stage the job is in (a stage event was seen) */
    int guard_active, guard_tripped;
    uint64_t swap_budget; int has_swap_budget;  /* --swap-budget, bytes */
    uint16_t kill_free_c; int has_kill_free;    /* --kill-free, hundredths of a percent */
    uint64_t pageins_total; int has_pageins;    /* the tree's page-ins since the start (a counter) */
    uint64_t cpu_total_ns; int has_cpu;         /* the tree's CPU since the start, members that
                                                   exited included (a counter) */
    int state;              /* enum st_job_state */
    int exit_code; int has_exit_code;   /* a launched job that exited: its code (128+N: signal N) */
    uint64_t samples_total, dropped_total;
    double start_wall;      /* Unix time of the run's start (0 unknown) */
    double wall;            /* Unix time of the sample */
} st_metrics_values;

typedef struct st_metrics {
    const char *path;       /* the caller's string: it must outlive mx */
    char labels[1536];      /* the user's labels: a="..",b=".." ("" none) */
    char info[1536];        /* stagetop_run_info's own: pid="..",command="..",... */
    size_t n_labels;
    char names[ST_METRICS_MAX_LABELS][ST_METRICS_LABEL_NAME_MAX];
    char *buf; size_t len, cap;
    uint64_t writes;        /* files written */
} st_metrics;

/* Remember path (not copied); checks that a file can be created beside
 * path now (ST_EIO naming the directory otherwise).  Allocates nothing: a
 * failed or unused mx needs no st_metrics_close.  No user labels. */
int st_metrics_open(st_metrics *mx, const char *path, st_error *err);
/* stagetop_run_info's labels: the root pid, the job's command, stagetop's
 * version and the platform ("linux", "darwin"; "" leaves it out). */
void st_metrics_set_run(st_metrics *mx, int32_t pid, const char *command, const char *platform);
/* The same without a platform (kept for callers of 0.2). */
void st_metrics_set_labels(st_metrics *mx, int32_t pid, const char *command);
void st_metrics_close(st_metrics *mx);

/* Is "name=value" a label the user may add?  ST_OK; else ST_EINVAL with the
 * reason: the name must match [a-zA-Z_][a-zA-Z0-9_]*, not start with "__"
 * (reserved by Prometheus), not be one stagetop writes itself (pid,
 * command, version, platform, state, stage, source) nor a target label
 * Prometheus sets (job, instance), and be at most
 * ST_METRICS_LABEL_NAME_MAX - 1 bytes; the value must not be empty. */
int st_metrics_label_check(const char *name_value, st_error *err);
/* Add a label to every job series and to stagetop_run_info (checked as
 * above; a name given twice, more than ST_METRICS_MAX_LABELS labels or
 * too much text: ST_EINVAL).  The value is escaped and cut like the command. */
int st_metrics_add_label(st_metrics *mx, const char *name_value, st_error *err);

/* A label value escaped for the text format (backslash, double quote and
 * newline as \\, \", \n; the other unsafe characters of utf8.h and bytes
 * that are not UTF-8 as '?'), cut to at most max_chars code points (then
 * "..." is appended).  Returns the length written (out is NUL-terminated). */
size_t st_metrics_escape_label(const char *in, size_t max_chars, char *out, size_t outlen);

/* The run's values now, from its view (wall: Unix time). */
void st_metrics_values_of(const st_run_view *rv, double wall, st_metrics_values *v);

/* Render v into mx->buf (mx->len bytes); ST_ENOMEM. */
int st_metrics_render(st_metrics *mx, const st_metrics_values *v, st_error *err);

/* Render and replace the file. */
int st_metrics_write(st_metrics *mx, const st_metrics_values *v, st_error *err);

#endif
