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
#include "stagetop/json.h"
#include "stagetop/lanes.h"
#include "stagetop/utf8.h"

size_t st_metrics_escape_label(const char *in, size_t max_chars, char *out, size_t outlen)
{
    const unsigned char *s = (const unsigned char *)(in ? in : ""), *e = s + strlen((const char *)s);
    size_t o = 0, chars = 0;
    if (outlen == 0)
        return 0;
    while (s < e) {
        char tmp[4];
        const char *unit = tmp;
        size_t ulen = 1, step = st_utf8_seq(s, e);
        if (chars == max_chars) {
            if (o + 4 <= outlen) {
                memcpy(out + o, "...", 3);
                o += 3;
            }
            break;
        }
        if (step == 0) {
            tmp[0] = '?';
            step = 1;
        } else if (*s == '\\' || *s == '"') {
            tmp[0] = '\\';
            tmp[1] = (char)*s;
            ulen = 2;
        } else if (*s == '\n') {
            unit = "\\n";
            ulen = 2;
        } else if (*s < 0x20 || *s == 0x7F || (*s == 0xC2 && s[1] < 0xA0)) {
            tmp[0] = '?'; /* C0, DEL, C1 (U+0080..U+009F) */
        } else {
            unit = (const char *)s;
            ulen = step;
        }
        if (o + ulen + 1 > outlen)
            break;
        memcpy(out + o, unit, ulen);
        o += ulen;
        s += step;
        chars++;
    }
    out[o] = '\0';
    return o;
}

void st_metrics_set_labels(st_metrics *mx, int32_t pid, const char *command)
{
    char cmd[ST_METRICS_CMD_CHARS * 4 + 8];
    st_metrics_escape_label(command, ST_METRICS_CMD_CHARS, cmd, sizeof cmd);
    snprintf(mx->labels, sizeof mx->labels, "pid=\"%ld\",command=\"%s\"", (long)pid, cmd);
}

int st_metrics_open(st_metrics *mx, const char *path, st_error *err)
{
    memset(mx, 0, sizeof *mx);
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return st_error_set(err, ST_EINVAL, EINVAL, "metrics: bad file name '%s'", path ? path : "");
    st_metrics_set_labels(mx, 0, "");
    mx->path = path;
    /* Can a file be made there?  Say so now, not after the first sample. */
    st_atomic_file probe;
    st_error why;
    if (st_atomic_open(&probe, path, 0, &why) != ST_OK) {
        mx->path = NULL;
        return st_error_set(err, ST_EIO, why.sys_errno, "metrics: cannot create a file beside %s: %s",
                            path, strerror(why.sys_errno));
    }
    st_atomic_abort(&probe);
    return ST_OK;
}

void st_metrics_close(st_metrics *mx)
{
    free(mx->buf);
    mx->path = NULL;
    mx->buf = NULL;
    mx->len = mx->cap = 0;
}

void st_metrics_values_of(const st_monitor *m, double wall, st_metrics_values *v)
{
    memset(v, 0, sizeof *v);
    v->wall = wall;
    v->state = m->job.state;
    if (m->has_last) {
        v->last = m->last;
        v->has_sample = 1;
    }
    if (m->summary.has_kernel_peak) {
        v->kernel_peak = m->summary.kernel_peak;
        v->has_kernel_peak = 1;
    }
    if (m->has_last && (m->last.valid & ST_F_SWAP) && m->summary.has_swap) {
        v->swap_growth = (int64_t)(m->last.swap_used - m->summary.swap_start);
        v->has_swap_growth = 1;
    }
    if (m->summary.act.has & ST_F_PAGEINS) { /* the counters' growth, not the rounded rates */
        v->pageins_total = m->tree.rates.total_majflt;
        v->has_pageins = 1;
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

static void head(st_metrics *mx, int *oom, const char *name, const char *help)
{
    add(mx, oom, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static void gauge_u64(st_metrics *mx, int *oom, const char *name, const char *help, uint64_t v)
{
    head(mx, oom, name, help);
    add(mx, oom, "%s{%s} %llu\n", name, mx->labels, (unsigned long long)v);
}

int st_metrics_render(st_metrics *mx, const st_metrics_values *v, st_error *err)
{
    int oom = 0;
    const st_sample *s = &v->last;
    unsigned has = v->has_sample ? s->valid : 0;
    mx->len = 0;
    int ids[ST_LANE_COUNT];
    size_t n = st_lanes_order(ST_LO_PROM, ids);
    for (size_t i = 0; i < n; i++) {
        const st_lane *l = &st_lanes[ids[i]];
        if (has & st_lane_bit(l->id)) {
            uint64_t raw = st_lane_raw(l, s);
            head(mx, &oom, l->prom_name, l->prom_help);
            if (l->prom_format == ST_LP_RATIO)
                add(mx, &oom, "%s{%s} %u.%04u\n", l->prom_name, mx->labels, (unsigned)(raw / 10000u),
                    (unsigned)(raw % 10000u));
            else if (l->prom_format == ST_LP_CENTI)
                add(mx, &oom, "%s{%s} %u.%02u\n", l->prom_name, mx->labels, (unsigned)(raw / 100u),
                    (unsigned)(raw % 100u));
            else
                add(mx, &oom, "%s{%s} %llu\n", l->prom_name, mx->labels, (unsigned long long)raw);
        }
        /* the derived numbers, each after the lane it comes from */
        if (l->id == ST_LANE_RSS && v->has_kernel_peak)
            gauge_u64(mx, &oom, "stagetop_tree_kernel_peak_bytes",
                      "Largest per-process kernel high-water mark seen in the tree since the start "
                      "(macOS lifetime max footprint; Linux VmHWM).", v->kernel_peak);
        if (l->id == ST_LANE_SWAP && v->has_swap_growth) {
            head(mx, &oom, "stagetop_swap_growth_bytes",
                 "System swap used now minus swap used at the run's first sample.");
            add(mx, &oom, "stagetop_swap_growth_bytes{%s} %lld\n", mx->labels, (long long)v->swap_growth);
        }
    }
    if (v->has_pageins) {
        add(mx, &oom, "# HELP %s %s\n# TYPE %s counter\n", "stagetop_tree_pageins_total",
            "Page-ins (major faults) of the watched process tree since stagetop started watching "
            "(Linux majflt; macOS ri_pageins).", "stagetop_tree_pageins_total");
        add(mx, &oom, "stagetop_tree_pageins_total{%s} %llu\n", mx->labels,
            (unsigned long long)v->pageins_total);
    }
    static const char *const states[] = {"running", "paused", "exited"};
    int now_state = v->state == ST_JOB_PAUSED ? 1 : v->state == ST_JOB_EXITED ? 2 : 0;
    head(mx, &oom, "stagetop_job_state",
         "1 for the job's state (running, paused or exited), 0 for the others.");
    for (int i = 0; i < 3; i++)
        add(mx, &oom, "stagetop_job_state{%s,state=\"%s\"} %d\n", mx->labels, states[i], i == now_state);
    head(mx, &oom, "stagetop_last_sample_timestamp_seconds",
         "Unix time of the latest sample (a stale value: stagetop stopped).");
    add(mx, &oom, "stagetop_last_sample_timestamp_seconds{%s} %.3f\n", mx->labels, v->wall);
    if (oom)
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
