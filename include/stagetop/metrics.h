/* metrics.h: the latest values of a run as a Prometheus text-format file
 * (--metrics FILE), for node_exporter's textfile collector
 * (docs/metrics-export.md).
 *
 * After each sample the whole file is rebuilt in a reused buffer and
 * replaced atomically (atomic_file.h, no fsync: it is rewritten every
 * sample), so a scraper never reads half of it.  Every metric is a gauge
 * named stagetop_*, with the labels pid (the root) and command (the job's
 * command line, escaped, cut to ST_METRICS_CMD_CHARS characters on a UTF-8
 * boundary).  A field the platform does not provide is left out. */
#ifndef STAGETOP_METRICS_H
#define STAGETOP_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/monitor.h"

#define ST_METRICS_CMD_CHARS 120

/* The values written, taken from a monitor (st_metrics_values) or filled
 * by hand (tests, benchmarks). */
typedef struct st_metrics_values {
    st_sample last;         /* the latest sample (valid bits say what is there) */
    int has_sample;
    uint64_t kernel_peak; int has_kernel_peak;
    int64_t swap_growth; int has_swap_growth;   /* swap used - swap at the first sample */
    uint64_t pageins_total; int has_pageins;    /* the tree's page-ins since the start (a counter) */
    int state;              /* enum st_job_state */
    double wall;            /* Unix time of the sample */
} st_metrics_values;

typedef struct st_metrics {
    const char *path;       /* the caller's string: it must outlive mx */
    char labels[1024];      /* pid="..",command=".." (rendered once) */
    char *buf; size_t len, cap;
    uint64_t writes;        /* files written */
} st_metrics;

/* Remember path (not copied); checks that a file can be created beside
 * path now (ST_EIO naming the directory otherwise).  Allocates nothing: a
 * failed or unused mx needs no st_metrics_close. */
int st_metrics_open(st_metrics *mx, const char *path, st_error *err);
/* The labels of every metric: the root pid and the job's command. */
void st_metrics_set_labels(st_metrics *mx, int32_t pid, const char *command);
void st_metrics_close(st_metrics *mx);

/* A label value escaped for the text format (backslash, double quote and
 * newline as \\, \", \n; other control characters, C1 controls and bytes
 * that are not UTF-8 as '?'), cut to at most max_chars code points (then
 * "..." is appended).  Returns the length written (out is NUL-terminated). */
size_t st_metrics_escape_label(const char *in, size_t max_chars, char *out, size_t outlen);

/* The run's values now (wall: Unix time). */
void st_metrics_values_of(const st_monitor *m, double wall, st_metrics_values *v);

/* Render v into mx->buf (mx->len bytes); ST_ENOMEM. */
int st_metrics_render(st_metrics *mx, const st_metrics_values *v, st_error *err);

/* Render and replace the file. */
int st_metrics_write(st_metrics *mx, const st_metrics_values *v, st_error *err);

#endif
