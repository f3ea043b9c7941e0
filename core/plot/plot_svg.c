/* plot_svg.c: a trace as one self-contained SVG chart (plot.h, docs/plot.md):
 * layout, axes ranges, title lines, and the atomic file write.  Drawing
 * order: background, stage bands, grid and axes, series, event markers,
 * stage labels (white halo), title lines, legend. */
#include "stagetop/plot.h"
#include "stagetop/atomic_file.h"
#include "stagetop/version.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot_internal.h"

#define FIELD(f) (f), strnlen((f), sizeof(f))

/* 1, 2, 2.5, 5 x 10^k: the step for about `target` intervals over range. */
static double nice_step(double range, double target)
{
    double raw = range / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10);
}

/* Time range: from 0 (or the first sample when the start is far), to the
 * last sample, stretched a little for events just after it (an exit). */
static void time_range(st_plot_ctx *p)
{
    double span = p->tmax - p->tmin, last_ev = 0;
    const st_event_list *ev = &p->t->events;
    p->x0 = p->tmin <= 0.1 * span ? 0 : p->tmin;
    if (ev->v && ev->len)
        last_ev = ev->v[ev->len - 1].t_ms / 1000.0;
    p->x1 = p->tmax;
    if (last_ev > p->x1)
        p->x1 = fmin(last_ev, p->tmax + 0.1 * (p->tmax - p->x0) + 1.0);
    if (p->x1 - p->x0 < 1.0)
        p->x1 = p->x0 + 1.0;
}

static void byte_axis(st_plot_ctx *p)
{
    double m = st_plot_axis_peak(p, ST_AX_BYTES);
    uint64_t ram = p->t->meta.mem_total;
    if (ram > 0 && (double)ram <= 1.25 * m)
        m = (double)ram;   /* the RAM line fits: show it */
    if (m < 1024)
        m = 1024;
    m *= 1.12;             /* headroom for the stage labels */
    double unit = m >= ST_PLOT_GIB ? ST_PLOT_GIB : m >= 1048576.0 ? 1048576.0 : 1024.0;
    p->ystep = nice_step(m / unit, 5) * unit;
    p->ymax = ceil(m / p->ystep - 1e-9) * p->ystep;
}

/* Both runs' frame (a comparison, plot_cmp.c): the plot area, and axes
 * over both. */
void st_plot_cmp_frame(st_plot_ctx *pa, st_plot_ctx *pb)
{
    pa->L = 74;
    pa->R = pa->W - 54;
    pa->T = 80;
    pa->B = pa->H - 92;
    pa->pw = (int)(pa->R - pa->L);
    double tmin = fmin(pa->tmin, pb->tmin), tmax = fmax(pa->tmax, pb->tmax);
    pa->x0 = tmin <= 0.1 * (tmax - tmin) ? 0 : tmin;
    pa->x1 = tmax - pa->x0 < 1.0 ? pa->x0 + 1.0 : tmax;
    double m = fmax(st_plot_axis_peak(pa, ST_AX_BYTES), st_plot_axis_peak(pb, ST_AX_BYTES));
    m = (m < 1024 ? 1024 : m) * 1.2; /* headroom for the strips */
    double unit = m >= ST_PLOT_GIB ? ST_PLOT_GIB : m >= 1048576.0 ? 1048576.0 : 1024.0;
    pa->ystep = nice_step(m / unit, 5) * unit;
    pa->ymax = ceil(m / pa->ystep - 1e-9) * pa->ystep;
    pb->L = pa->L; pb->R = pa->R; pb->T = pa->T; pb->B = pa->B; pb->pw = pa->pw;
    pb->x0 = pa->x0; pb->x1 = pa->x1; pb->ymax = pa->ymax; pb->ystep = pa->ystep;
}

/* ---- title, meta line, summary line ---- */

/* Append "sep" + s to buf (which holds raw, not yet cleaned text). */
static void join(char *buf, size_t size, const char *s, size_t n)
{
    size_t len = strlen(buf);
    if (!n || len + 4 >= size)
        return;
    snprintf(buf + len, size - len, "%s%.*s", len ? " \xC2\xB7 " : "", (int)n, s);
}

/* The start record's other keys (meta.extra, a JSON object): pipeline and
 * mode for the title, short scalars as "key=value" on the meta line. */
static void extra_items(const st_trace_meta *m, char *pipeline, char *mode, size_t vsize, char *meta,
                        size_t size)
{
    st_meta_iter it;
    st_meta_item e;
    char val[64], item[128];
    st_meta_iter_init(&it, m);
    while (st_meta_iter_next(&it, &e, sizeof val)) {
        int trunc = e.type == ST_META_STR && e.truncated;
        if (e.type == ST_META_STR)
            snprintf(val, sizeof val, "%.63s", e.str);
        else if (e.type == ST_META_NUM)
            snprintf(val, sizeof val, "%.*s", (int)(e.num_len < 24 ? e.num_len : 24), e.num);
        else
            snprintf(val, sizeof val, "%s", e.b ? "true" : "false");
        if (!strcmp(e.key, "pipeline") && e.type == ST_META_STR)
            snprintf(pipeline, vsize, "%s", val);
        else if (!strcmp(e.key, "mode") && e.type == ST_META_STR)
            snprintf(mode, vsize, "%s", val);
        else if (strcmp(e.key, "utc") && strcmp(e.key, "interval")) {
            snprintf(item, sizeof item, "%s=%.28s%s", e.key, val,
                     trunc || strlen(val) > 28 ? "\xE2\x80\xA6" : "");
            join(meta, size, item, strlen(item));
        }
    }
}

/* A figure of lane l for the summary line: bytes with their unit, a
 * percent with " %", other units a number with one decimal at most. */
static const char *figure(const st_lane *l, double v, char *b, size_t size)
{
    if (l->unit == ST_LU_BYTES)
        return st_format_bytes_as(v, ST_UNITS_POINT, b, size);
    char n[48];
    snprintf(b, size, "%s%s", st_format_decimal(v, 1, 1, n, sizeof n),
             l->unit == ST_LU_PERCENT || l->unit == ST_LU_CPU ? " %" : "");
    return b;
}

static void build_titles(st_plot_ctx *p, const st_plot_opts *o, char *title, char *meta, char *sum,
                         size_t size)
{
    const st_trace_meta *m = &p->t->meta;
    char b[64], c[64], d[64], e[64], item[256], pipeline[64] = "", mode[64] = "";
    title[0] = meta[0] = sum[0] = '\0';
    if (m->os[0]) /* FIELD needs the array itself: a ?: would give sizeof a pointer */
        join(meta, size, FIELD(m->os));
    else
        join(meta, size, FIELD(m->platform));
    join(meta, size, FIELD(m->host));
    join(meta, size, FIELD(m->start_utc));
    if (m->pid > 0) {
        snprintf(item, sizeof item, "pid %d", (int)m->pid);
        join(meta, size, item, strlen(item));
    }
    if (m->stagetop[0]) {
        snprintf(item, sizeof item, "stagetop %.*s", (int)strnlen(m->stagetop, 16), m->stagetop);
        join(meta, size, item, strlen(item));
    }
    extra_items(m, pipeline, mode, sizeof pipeline, meta, size);
    if (o && o->title && o->title[0]) {
        join(title, size, o->title, strlen(o->title));
    } else if (m->command[0]) {
        join(title, size, FIELD(m->command));
    } else {
        join(title, size, pipeline, strlen(pipeline));
        join(title, size, mode, strlen(mode));
        if (!title[0] && p->t->format == ST_FMT_STAGELOAD)
            join(title, size, "stageload trace", 15);
        else if (!title[0])
            join(title, size, "stagetop trace", 14);
    }

    for (int system = 0; system <= 1; system++) /* the tree's lanes, then the system's */
        for (int k = 0; k < p->n_series; k++) {
            const st_lane *l = &st_lanes[p->lane[k]];
            if (!p->has[k] || !l->plot_head || (l->source == ST_LS_SYSTEM) != system)
                continue;
            if (l->rule == ST_LR_GROWTH)
                snprintf(item, sizeof item, "%s %s \xE2\x86\x92 %s \xE2\x86\x92 %s (rise %s)",
                         l->plot_head, figure(l, p->first[k], b, sizeof b),
                         figure(l, p->peak[k], c, sizeof c), figure(l, p->last[k], d, sizeof d),
                         figure(l, p->peak[k] - p->first[k], e, sizeof e));
            else
                snprintf(item, sizeof item, "%s %s", l->plot_head, figure(l, p->peak[k], b, sizeof b));
            join(sum, size, item, strlen(item));
            if (l->id == ST_LANE_FOOTPRINT && p->t->summary.has_kernel_peak) {
                snprintf(item, sizeof item, "kernel peak %s",
                         st_format_bytes_as((double)p->t->summary.kernel_peak, ST_UNITS_POINT, b,
                                            sizeof b));
                join(sum, size, item, strlen(item));
            }
        }
    snprintf(item, sizeof item, "%s, %zu samples",
             st_format_duration_as(p->tmax - p->tmin, ST_UNITS_POINT, b, sizeof b),
             o && o->samples ? o->samples : p->n_drawable);
    join(sum, size, item, strlen(item));
}

/* ---- entry points ---- */

void st_plot_opts_init(st_plot_opts *o)
{
    memset(o, 0, sizeof *o);
}

int st_plot_size(st_plot_ctx *p, const st_plot_opts *o, st_error *err)
{
    p->W = o && o->width ? o->width : ST_PLOT_WIDTH;
    p->H = o && o->height ? o->height : ST_PLOT_HEIGHT;
    if (p->W < ST_PLOT_MIN_WIDTH || p->W > ST_PLOT_MAX_SIDE || p->H < ST_PLOT_MIN_HEIGHT ||
        p->H > ST_PLOT_MAX_SIDE)
        return st_error_set(err, ST_EINVAL, 0, "plot size %dx%d is out of range (%dx%d to %dx%d)",
                            p->W, p->H, ST_PLOT_MIN_WIDTH, ST_PLOT_MIN_HEIGHT, ST_PLOT_MAX_SIDE,
                            ST_PLOT_MAX_SIDE);
    return ST_OK;
}

int st_plot_prepare(const st_trace *t, const st_plot_opts *o, st_plot_ctx *p, int skip_scan,
                    st_error *err)
{
    if (!skip_scan)
        memset(p, 0, sizeof *p);
    int rc = st_plot_size(p, o, err);
    if (rc != ST_OK)
        return rc;
    if (!t)
        return st_error_set(err, ST_EINVAL, 0, "no trace to plot");
    p->t = t;
    if (t->samples && !skip_scan)
        st_plot_scan(p);
    if (!p->n_drawable)
        return st_error_set(err, ST_EINVAL, 0,
                            "the trace has no samples (footprint, swap, GPU or level) to plot");
    return ST_OK;
}

void st_plot_layout(st_plot_ctx *p)
{
    p->L = 74;
    p->R = p->W - 54;
    p->T = 80;
    p->B = p->H - 72;
    p->pw = (int)(p->R - p->L);
    time_range(p);
    byte_axis(p);
}

static int render(st_plot_ctx *p, const st_plot_opts *o, st_error *err)
{
    FILE *f = p->f;
    st_plot_band *bands = NULL;
    size_t size = 2048;
    char *title = NULL, *meta = NULL, *sum = NULL;
    st_plot_col *cols = NULL;
    double *pts = NULL;
    int rc;

    st_plot_layout(p);
    title = malloc(3 * size);
    cols = malloc(sizeof *cols * (size_t)p->pw);
    pts = malloc(sizeof *pts * 4 * (size_t)p->pw);
    if (!title || !cols || !pts) {
        rc = st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the plot");
        goto out;
    }
    meta = title + size;
    sum = meta + size;
    if ((rc = st_plot_collect_bands(p, &bands, err)) != ST_OK)
        goto out;
    build_titles(p, o, title, meta, sum, size);

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"-apple-system, 'Segoe UI', Helvetica, "
               "Arial, sans-serif\">\n<title>", p->W, p->H, p->W, p->H);
    st_plot_put_raw(p, title, size, 300);
    fprintf(f, "</title>\n<desc>stagetop %s plot. ", st_version());
    st_plot_put_raw(p, sum, size, 600);
    fputs("</desc>\n", f);
    fprintf(f, "<rect id=\"background\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            p->W, p->H);
    if (bands)
        st_plot_draw_bands(p, bands);
    st_plot_draw_axes(p);
    st_plot_draw_ram(p);
    for (int s = p->n_series - 1; s >= 0; s--) /* the first series (the footprint) on top */
        if (p->has[s])
            st_plot_draw_series(p, s, cols, pts);
    st_plot_draw_events(p);
    if (bands)
        st_plot_draw_band_labels(p, bands);
    /* A stream without its end record: the run was killed or is still going. */
    int cut = (p->t->format == ST_FMT_JSONL || p->t->format == ST_FMT_STAGELOAD) &&
              !p->t->has_end;
    double room = p->W - 28.0 - (cut ? 250 : 0);
    fputs("<text x=\"14\" y=\"28\" font-size=\"17\" font-weight=\"bold\" fill=\"#24292f\">", f);
    st_plot_put_raw(p, title, size, room < 170 ? 10 : (size_t)(room / (17 * 0.62)));
    if (cut)
        fputs("<tspan dx=\"12\" font-size=\"13\" font-weight=\"normal\" fill=\"#cf222e\">"
              "no end record: the run was cut short</tspan>", f);
    fputs("</text>\n", f);
    if (meta[0])
        st_plot_text(p, p->L - 60, 47, "fill=\"#57606a\"", 12, meta, size, p->W - 28.0);
    st_plot_text(p, p->L - 60, meta[0] ? 65 : 47, "fill=\"#24292f\"", 12.5, sum, size,
                 p->W - 28.0);
    st_plot_draw_legend(p);
    fputs("</svg>\n", f);
    rc = ST_OK;
out:
    free(bands);
    free(title);
    free(cols);
    free(pts);
    return rc;
}

int st_plot_write(st_plot_ctx *p, const st_plot_opts *o, FILE *out, st_error *err)
{
    int rc;
    if (!out)
        return st_error_set(err, ST_EINVAL, 0, "no output stream for the plot");
    p->f = out;
    errno = 0;
    if ((rc = render(p, o, err)) != ST_OK)
        return rc;
    if (fflush(out) != 0 || ferror(out)) {
        int e = errno ? errno : EIO;
        return st_error_set(err, ST_EIO, e, "writing the SVG failed: %s", strerror(e));
    }
    return ST_OK;
}

int st_plot_svg(const st_trace *t, const st_plot_opts *o, FILE *out, st_error *err)
{
    st_plot_ctx p;
    int rc = st_plot_prepare(t, o, &p, 0, err);
    return rc != ST_OK ? rc : st_plot_write(&p, o, out, err);
}

int st_plot_write_file(st_plot_ctx *p, const st_plot_opts *o, const char *path, st_error *err)
{
    st_atomic_file af;
    int rc, e;
    if (!path || !*path)
        return st_error_set(err, ST_EINVAL, 0, "no output file for the plot");
    if ((rc = st_atomic_open(&af, path, ST_ATOMIC_SYNC, err)) != ST_OK)
        return rc;
    /* stdio on a duplicate: fclose flushes and closes it, the commit syncs
     * and closes the original. */
    int dfd = fcntl(af.fd, F_DUPFD_CLOEXEC, 0);
    FILE *f = dfd >= 0 ? fdopen(dfd, "w") : NULL;
    if (!f) {
        e = errno;
        if (dfd >= 0)
            close(dfd);
        st_atomic_abort(&af);
        return st_error_set(err, ST_EIO, e, "cannot write %s: %s", path, strerror(e));
    }
    rc = st_plot_write(p, o, f, err);
    if (fclose(f) != 0 && rc == ST_OK) {
        e = errno;
        rc = st_error_set(err, ST_EIO, e, "writing %s failed: %s", path, strerror(e));
    }
    if (rc != ST_OK) {
        st_atomic_abort(&af);
        return rc;
    }
    return st_atomic_commit(&af, err);
}

int st_plot_svg_file(const st_trace *t, const st_plot_opts *o, const char *path, st_error *err)
{
    st_plot_ctx p;
    int rc;
    if (!path || !*path)
        return st_error_set(err, ST_EINVAL, 0, "no output file for the plot");
    if ((rc = st_plot_prepare(t, o, &p, 0, err)) != ST_OK)
        return rc; /* nothing created */
    return st_plot_write_file(&p, o, path, err);
}
