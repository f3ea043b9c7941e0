/* monitor_out.c: what a run writes out of the monitor on request: the JSON
 * export (the `e` key, --record FILE.json, --report/--plot) and its default
 * path; where the record goes when another file took its name. */
#include "monitor_internal.h"
#include "stagetop/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int st_monitor_export(st_monitor *m, const char *path, st_error *err)
{
    st_summary_finish(&m->summary);
    uint64_t missing = m->dropped + st_ring_overwritten(&m->ring);
    return st_trace_export(path, &m->meta, st_ring_view(&m->ring), &m->events, &m->summary,
                           missing, err);
}

int st_monitor_whole_run(st_monitor *m, st_trace *out, uint64_t *samples, st_error *err)
{
    st_summary_finish(&m->summary);
    *samples = st_runseries_exact(&m->series) ? 0 : m->series.n_samples;
    int rc = st_trace_tap_end(m->tap, &m->summary, m->dropped, out, err);
    if (rc != ST_OK)
        return rc;
    /* the record's samples were summed and let go: the chart's are the series' */
    size_t max = st_runseries_points_max(&m->series);
    st_sample *pts = malloc((max ? max : 1) * sizeof *pts);
    if (!pts) {
        st_trace_free(out);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the run's chart");
    }
    free(out->samples);
    out->samples = pts;
    out->n_samples = st_runseries_points(&m->series, pts);
    out->cap_samples = max ? max : 1;
    out->summed_samples = out->n_samples; /* (nothing is summed again) */
    return ST_OK;
}

void st_monitor_export_path(const st_monitor *m, const char *dir, char *buf, size_t len)
{
    char stamp[32] = "";
    time_t wall = st_wall_time();
    struct tm tm;
    if (localtime_r(&wall, &tm))
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, len, "%s/stagetop-%ld-%s.json", dir && *dir ? dir : ".",
             (long)m->tree.root.pid, stamp);
}

/* The record's file is gone from its name (st_recorder_deleted): did
 * another file take the name (a rename onto it)?  Then the trace goes to
 * NAME.stagetop-PID.json beside it (into alt), the other file left alone. */
int st_monitor_record_taken(const st_monitor *m, char *alt, size_t size)
{
    struct stat st;
    if (!m->opts.record_path || lstat(m->opts.record_path, &st) != 0)
        return 0;
    snprintf(alt, size, "%s.stagetop-%ld.json", m->opts.record_path, (long)getpid());
    return 1;
}
