/* plot_draw.c: the parts of the SVG chart (plot_internal.h): axes, series
 * reduced to min/max per pixel column, stage bands and labels, event
 * markers, legend.  Coordinates are printed by st_plot_num (no locale);
 * trace text goes through st_plot_put_raw (cleaned and escaped). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_internal.h"

#define CHAR_W 0.58 /* average glyph width / font size, for fitting text */
#define FIELD(f) (f), strnlen((f), sizeof(f))

/* What a series draws, its id, label, colour and width are the lane
 * table's (stagetop/lanes.h: axis, plot_*); every line is solid unless the
 * comparison dashes it (p->dash, plot_cmp.c). */

static const st_lane *lane_of(const st_plot_ctx *p, int s)
{
    return &st_lanes[p->lane[s]];
}

/* ---- small writers ---- */

size_t st_plot_fit_cps(double width_px, double font_px)
{
    double n = width_px / (font_px * CHAR_W);
    return n < 1 ? 1 : n > 1000 ? 1000 : (size_t)n;
}

/* <text x y attrs>s</text>, shortened to fit max_w pixels. */
void st_plot_text(st_plot_ctx *p, double x, double y, const char *attrs, double font_px,
                 const char *s, size_t n, double max_w)
{
    fputs("<text x=\"", p->f);
    st_plot_num(p, x);
    fputs("\" y=\"", p->f);
    st_plot_num(p, y);
    fputs("\" font-size=\"", p->f);
    st_plot_num(p, font_px);
    fprintf(p->f, "\"%s%s>", *attrs ? " " : "", attrs);
    st_plot_put_raw(p, s, n, st_plot_fit_cps(max_w, font_px));
    fputs("</text>\n", p->f);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

double st_plot_x(const st_plot_ctx *p, double t)
{
    return clampd(p->L + (t - p->x0) / (p->x1 - p->x0) * (p->R - p->L), p->L, p->R);
}

/* y of value v on axis (enum st_lane_axis). */
static double py_axis(const st_plot_ctx *p, int axis, double v)
{
    double top = axis == ST_AX_PERCENT ? 100.0 : p->ymax;
    return clampd(p->B - v / top * (p->B - p->T), p->T, p->B);
}

static double py(const st_plot_ctx *p, int s, double v)
{
    return py_axis(p, lane_of(p, s)->axis, v);
}

int st_plot_axis_has(const st_plot_ctx *p, int axis)
{
    for (int s = 0; s < p->n_series; s++)
        if (p->has[s] && lane_of(p, s)->axis == axis)
            return 1;
    return 0;
}

double st_plot_axis_peak(const st_plot_ctx *p, int axis)
{
    double m = 0;
    for (int s = 0; s < p->n_series; s++)
        if (p->has[s] && lane_of(p, s)->axis == axis && p->peak[s] > m)
            m = p->peak[s];
    return m;
}

/* The colour of the axis's first series ("#57606a" when it has none). */
static const char *axis_colour(const st_plot_ctx *p, int axis)
{
    for (int s = 0; s < p->n_series; s++)
        if (lane_of(p, s)->axis == axis)
            return lane_of(p, s)->svg_colour;
    return "#57606a";
}

/* A present value of series s (the percent axis ends at 100). */
static double value(const st_plot_ctx *p, const st_sample *smp, int s)
{
    double v = st_lane_value(p->lane[s], smp);
    return lane_of(p, s)->axis == ST_AX_PERCENT && v > 100.0 ? 100.0 : v;
}


/* ---- what the samples hold ---- */

void st_plot_scan_begin(st_plot_ctx *p)
{
    p->n_series = (int)st_lanes_order(ST_LO_PLOT, p->lane);
}

void st_plot_scan_sample(st_plot_ctx *p, const st_sample *smp)
{
    int any = 0;
    for (int s = 0; s < p->n_series; s++) {
        if (!(smp->valid & st_lane_bit(p->lane[s])))
            continue;
        double v = value(p, smp, s);
        any = 1;
        if (!p->has[s])
            p->first[s] = v;
        if (!p->has[s] || (lane_of(p, s)->rule == ST_LR_MIN ? v < p->peak[s] : v > p->peak[s]))
            p->peak[s] = v; /* for the level: its minimum */
        p->has[s] = 1;
        p->last[s] = v;
    }
    if (!any)
        return;
    double ts = smp->t_ms / 1000.0;
    if (!p->n_drawable || ts < p->tmin)
        p->tmin = ts;
    if (!p->n_drawable || ts > p->tmax)
        p->tmax = ts;
    p->n_drawable++;
}

void st_plot_scan(st_plot_ctx *p)
{
    const st_trace *t = p->t;
    st_plot_scan_begin(p);
    for (size_t i = 0; i < t->n_samples; i++)
        st_plot_scan_sample(p, &t->samples[i]);
}

/* ---- parts of the chart ---- */

/* <line attrs x1 y1 x2 y2/> */
void st_plot_line(st_plot_ctx *p, const char *attrs, double x1, double y1, double x2, double y2)
{
    fprintf(p->f, "<line %s x1=\"", attrs);
    st_plot_num(p, x1);
    fputs("\" y1=\"", p->f);
    st_plot_num(p, y1);
    fputs("\" x2=\"", p->f);
    st_plot_num(p, x2);
    fputs("\" y2=\"", p->f);
    st_plot_num(p, y2);
    fputs("\"/>", p->f);
}

/* A time tick's label: "45 s", "20 min", "1h20". */
static void time_label(char *b, size_t size, double v, double step)
{
    char n[40];
    double m = floor(v / 60 + 0.5);
    if (step < 60)
        snprintf(b, size, "%s s", st_format_decimal(v, step < 1, 0, n, sizeof n));
    else if (m < 60)
        snprintf(b, size, "%.0f min", m);
    else
        snprintf(b, size, "%.0fh%02.0f", floor(m / 60), fmod(m, 60));
}

void st_plot_draw_axes(st_plot_ctx *p)
{
    static const double tsteps[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600,
                                    900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
                                    172800, 432000, 864000, 1728000, 4320000};
    const char *tick = "fill=\"#57606a\"";
    char b[64], n[40];
    FILE *f = p->f;
    int bytes = st_plot_axis_has(p, ST_AX_BYTES);
    double unit = p->ymax >= ST_PLOT_GIB ? ST_PLOT_GIB : p->ymax >= 1048576.0 ? 1048576.0 : 1024.0;
    const char *uname = unit == ST_PLOT_GIB ? "GiB" : unit == 1048576.0 ? "MiB" : "KiB";
    fputs("<g id=\"grid\" stroke=\"#d8dde3\" stroke-width=\"1\">\n", f);
    for (int i = 1; bytes && i * p->ystep <= p->ymax * (1 + 1e-9); i++) {
        st_plot_line(p, "", p->L, py_axis(p, ST_AX_BYTES, i * p->ystep), p->R, py_axis(p, ST_AX_BYTES, i * p->ystep));
        fputc('\n', f);
    }
    for (int v = 20; !bytes && v <= 100; v += 20) {
        st_plot_line(p, "", p->L, py_axis(p, ST_AX_PERCENT, v), p->R, py_axis(p, ST_AX_PERCENT, v));
        fputc('\n', f);
    }
    fputs("</g>\n<g id=\"axis-left\" text-anchor=\"end\">\n", f);
    for (int i = 0; bytes && i * p->ystep <= p->ymax * (1 + 1e-9); i++) {
        double v = i * p->ystep;
        snprintf(b, sizeof b, "%s %s", st_format_decimal(v / unit, 2, 1, n, sizeof n), uname);
        st_plot_text(p, p->L - 6, py_axis(p, ST_AX_BYTES, v) + 4, tick, 11, b, strlen(b), 80);
    }
    fprintf(f, "</g>\n<g id=\"axis-right\" fill=\"%s\">\n", axis_colour(p, ST_AX_PERCENT));
    for (int v = 0; st_plot_axis_has(p, ST_AX_PERCENT) && v <= 100; v += 20) {
        snprintf(b, sizeof b, "%d %%", v);
        st_plot_text(p, p->R + 6, py_axis(p, ST_AX_PERCENT, v) + 4, "", 11, b, strlen(b), 60);
    }
    fputs("</g>\n<g id=\"axis-time\" text-anchor=\"middle\">\n", f);
    double span = p->x1 - p->x0, step = tsteps[sizeof tsteps / sizeof tsteps[0] - 1];
    double target = p->pw / 90.0 < 4 ? 4 : p->pw / 90.0;
    for (size_t i = 0; i < sizeof tsteps / sizeof tsteps[0]; i++)
        if (span / tsteps[i] <= target) {
            step = tsteps[i];
            break;
        }
    for (double k = ceil(p->x0 / step - 1e-9); k * step <= p->x1 + 1e-9; k++) {
        double x = st_plot_x(p, k * step);
        time_label(b, sizeof b, k * step, step);
        st_plot_line(p, "stroke=\"#57606a\"", x, p->B, x, p->B + 5);
        fputc('\n', f);
        st_plot_text(p, x, p->B + 18, tick, 11, b, strlen(b), 90);
    }
    st_plot_text(p, (p->L + p->R) / 2, p->B + 36, "fill=\"#3d4650\"", 12, "time since start",
                 16, 300);
    fputs("</g>\n", f);
    fprintf(f, "<rect id=\"plot-area\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
               "fill=\"none\" stroke=\"#8c959f\" stroke-width=\"1\"/>\n",
            (int)p->L, (int)p->T, p->pw, (int)(p->B - p->T));
}

static void flush_points(st_plot_ctx *p, int s, const double *pts, size_t n)
{
    if (n == 1) {
        fputs("<circle r=\"2\" cx=\"", p->f);
        st_plot_num(p, pts[0]);
        fputs("\" cy=\"", p->f);
        st_plot_num(p, pts[1]);
        fprintf(p->f, "\" fill=\"%s\"/>\n", lane_of(p, s)->svg_colour);
        return;
    }
    if (n == 0)
        return;
    fputs("<polyline points=\"", p->f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(i % 12 ? ' ' : '\n', p->f);
        st_plot_num(p, pts[2 * i]);
        fputc(',', p->f);
        st_plot_num(p, pts[2 * i + 1]);
    }
    fputs("\"/>\n", p->f);
}

void st_plot_cols_begin(st_plot_col *cols, int pw, st_plot_run *run)
{
    memset(cols, 0, sizeof *cols * (size_t)pw);
    run->last_c = -1;
    run->pending_gap = 0;
}

void st_plot_col_add(const st_plot_ctx *p, int s, st_plot_col *cols, st_plot_run *run,
                     const st_sample *smp)
{
    if (!(smp->valid & st_lane_bit(p->lane[s]))) {
        run->pending_gap = run->last_c >= 0;
        return;
    }
    double x = st_plot_x(p, smp->t_ms / 1000.0), v = value(p, smp, s);
    int c = (int)(x - p->L);
    c = c < 0 ? 0 : c >= p->pw ? p->pw - 1 : c;
    if (run->pending_gap && run->last_c >= 0 && run->last_c != c)
        cols[run->last_c].gap = 1;
    run->pending_gap = 0;
    st_plot_col *k = &cols[c];
    if (!k->has || v < k->vmin) { k->vmin = v; k->xmin_at = x; }
    if (!k->has || v > k->vmax) { k->vmax = v; k->xmax_at = x; }
    k->has = 1;
    run->last_c = c;
}

/* One series: per pixel column its minimum and maximum, in time order; a
 * run of samples without the field breaks the line.  The columns are
 * p->cols's (a streamed read, plot_stream.c) or made here in cols from
 * the trace's samples. */
int st_plot_draw_series(st_plot_ctx *p, int s, st_plot_col *cols, double *pts)
{
    const st_trace *t = p->t;
    if (p->cols) {
        cols = p->cols + (size_t)s * (size_t)p->pw;
    } else {
        st_plot_run run;
        st_plot_cols_begin(cols, p->pw, &run);
        for (size_t i = 0; i < t->n_samples; i++)
            st_plot_col_add(p, s, cols, &run, &t->samples[i]);
    }
    const char *dash = p->dash;
    fprintf(p->f, "<g id=\"%sseries-%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
                  "stroke-linejoin=\"round\" stroke-linecap=\"round\"%s%s%s>\n",
            p->id_prefix ? p->id_prefix : "", lane_of(p, s)->plot_id, lane_of(p, s)->svg_colour, lane_of(p, s)->plot_width,
            dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
    size_t n = 0;
    for (int c = 0; c < p->pw; c++) {
        st_plot_col *k = &cols[c];
        if (!k->has)
            continue;
        int lo_first = k->xmin_at <= k->xmax_at;
        double xa = lo_first ? k->xmin_at : k->xmax_at, va = lo_first ? k->vmin : k->vmax;
        double xb = lo_first ? k->xmax_at : k->xmin_at, vb = lo_first ? k->vmax : k->vmin;
        pts[2 * n] = xa; pts[2 * n + 1] = py(p, s, va); n++;
        if (xb != xa || vb != va) {
            pts[2 * n] = xb; pts[2 * n + 1] = py(p, s, vb); n++;
        }
        if (k->gap) {
            flush_points(p, s, pts, n);
            n = 0;
        }
    }
    flush_points(p, s, pts, n);
    fputs("</g>\n", p->f);
    return ST_OK;
}

/* Stage windows between stage events; when there are more stages than
 * pixel columns, those starting in the same column are folded together. */
int st_plot_collect_bands(st_plot_ctx *p, st_plot_band **out, st_error *err)
{
    const st_event_list *ev = &p->t->events;
    size_t n_stage = 0, cap, n = 0;
    for (size_t i = 0; ev->v && i < ev->len; i++)
        n_stage += ev->v[i].kind == ST_EV_STAGE && ev->v[i].t_ms / 1000.0 <= p->x1;
    *out = NULL;
    if (!n_stage)
        return ST_OK;
    int fold = n_stage > (size_t)p->pw;
    cap = fold ? (size_t)p->pw + 2 : n_stage;
    st_plot_band *b = calloc(cap, sizeof *b);
    if (!b)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu stage bands", cap);
    for (size_t i = 0; i < ev->len; i++) {
        const st_event *e = &ev->v[i];
        double ts = e->t_ms / 1000.0;
        if (e->kind != ST_EV_STAGE || ts > p->x1)
            continue;
        double x = st_plot_x(p, ts);
        if (n) {
            st_plot_band *prev = &b[n - 1];
            prev->x1 = x;
            prev->t1 = ts;
            if (fold && ((int)(x - p->L) == (int)(prev->x0 - p->L) || n == cap)) {
                prev->merged++;
                continue;
            }
        }
        b[n].ev = i;
        b[n].x0 = x;
        n++;
    }
    b[n - 1].x1 = p->R;
    b[n - 1].t1 = p->x1;
    p->n_bands = n;
    *out = b;
    return ST_OK;
}

void st_plot_draw_bands(st_plot_ctx *p, const st_plot_band *b)
{
    static const char *fill[2] = {"#e8eef6", "#f5f7fa"};
    char tt[400], s0[32], s1[32];
    fprintf(p->f, "<g id=\"%sstages\">\n", p->id_prefix ? p->id_prefix : "");
    for (size_t i = 0; i < p->n_bands; i++) {
        const st_event *e = &p->t->events.v[b[i].ev];
        fprintf(p->f, "<g class=\"stage\"><title>");
        snprintf(tt, sizeof tt, "%.*s: %s to %s%s", (int)strnlen(e->stage, sizeof e->stage),
                 e->stage, st_format_duration_as(e->t_ms / 1000.0, ST_UNITS_POINT, s0, sizeof s0),
                 st_format_duration_as(b[i].t1, ST_UNITS_POINT, s1, sizeof s1), b[i].merged ? " (and more)" : "");
        st_plot_put_raw(p, tt, sizeof tt, 200);
        fputs("</title><rect x=\"", p->f);
        st_plot_num(p, b[i].x0);
        fputs("\" y=\"", p->f);
        st_plot_num(p, p->T);
        fputs("\" width=\"", p->f);
        st_plot_num(p, fmax(0, b[i].x1 - b[i].x0)); /* unsorted events: 0 */
        fputs("\" height=\"", p->f);
        st_plot_num(p, p->B - p->T);
        fprintf(p->f, "\" fill=\"%s\"/>", fill[i % 2]);
        st_plot_line(p, "stroke=\"#b6c0cc\" stroke-width=\"0.8\"", b[i].x0, p->T, b[i].x0, p->B);
        fputs("</g>\n", p->f);
    }
    fputs("</g>\n", p->f);
}

/* Labels go on top of the lines, with a white halo: horizontal when the
 * name fits, shortened when a few letters fit, else rotated, else none
 * (the band's <title> still names it). */
void st_plot_draw_band_labels(st_plot_ctx *p, const st_plot_band *b)
{
    const double fs = 11, cw = fs * CHAR_W;
    char clean[256];
    fprintf(p->f, "<g id=\"%sstage-labels\" fill=\"#3d4650\" stroke=\"#ffffff\" stroke-width=\"3\" "
          "stroke-linejoin=\"round\" paint-order=\"stroke\" text-anchor=\"middle\">\n",
            p->id_prefix ? p->id_prefix : "");
    for (size_t i = 0; i < p->n_bands; i++) {
        const st_event *e = &p->t->events.v[b[i].ev];
        double w = b[i].x1 - b[i].x0, cx = (b[i].x0 + b[i].x1) / 2;
        size_t len = st_plot_text_clean(FIELD(e->stage), clean, sizeof clean, 0);
        if (len == 0)
            continue;
        if (len * cw <= w - 6 || (w - 6) / cw >= 4) {
            st_plot_text(p, cx, p->T + 14, "", fs, FIELD(e->stage), w - 6);
        } else if (w >= 9) {
            fputs("<text font-size=\"11\" text-anchor=\"start\" transform=\"translate(", p->f);
            st_plot_num(p, cx - 0.35 * fs);
            fputc(' ', p->f);
            st_plot_num(p, p->T + 6);
            fputs(") rotate(90)\">", p->f);
            st_plot_put_raw(p, FIELD(e->stage), st_plot_fit_cps(0.45 * (p->B - p->T), fs));
            fputs("</text>\n", p->f);
        }
    }
    fputs("</g>\n", p->f);
}

/* ---- legend ---- */

static void legend_item(st_plot_ctx *p, double *x, const char *label, int s, int kind, int is_band)
{
    const double fs = 12;
    double w = 24 + strlen(label) * fs * CHAR_W + 18;
    if (*x + w > p->W - 8)
        return;
    fprintf(p->f, "<g class=\"legend-item\">");
    if (s >= 0) {
        const char *dash = p->dash;
        char attrs[128];
        snprintf(attrs, sizeof attrs, "stroke=\"%s\" stroke-width=\"%s\"%s%s%s", lane_of(p, s)->svg_colour,
                 lane_of(p, s)->plot_width, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
                 dash ? "\"" : "");
        st_plot_line(p, attrs, *x, p->H - 18, *x + 18, p->H - 18);
    } else if (is_band) {
        fputs("<rect fill=\"#e8eef6\" stroke=\"#b6c0cc\" width=\"18\" height=\"10\" x=\"", p->f);
        st_plot_num(p, *x);
        fputs("\" y=\"", p->f);
        st_plot_num(p, p->H - 23);
        fputs("\"/>", p->f);
    } else {
        st_plot_marker(p, kind, *x + 9, p->H - 18);
    }
    fputs("\n", p->f);
    st_plot_text(p, *x + 24, p->H - 14, "fill=\"#24292f\"", fs, label, strlen(label), w);
    fputs("</g>\n", p->f);
    *x += w;
}

void st_plot_draw_legend(st_plot_ctx *p)
{
    fputs("<g id=\"legend\">\n", p->f);
    st_plot_legend_items(p, p->L);
    fputs("</g>\n", p->f);
}

void st_plot_legend_items(st_plot_ctx *p, double x)
{
    for (int s = 0; s < p->n_series; s++)
        if (p->has[s])
            legend_item(p, &x, lane_of(p, s)->plot_label, s, 0, 0);
    if (p->n_bands)
        legend_item(p, &x, "stage", -1, 0, 1);
    for (int k = 0; k <= ST_EV_OTHER; k++)
        if (p->ev_seen & (1u << k))
            legend_item(p, &x, st_plot_event_label(k), -1, k, 0);
}

/* A dashed line at the machine's RAM when it fits on the axis. */
void st_plot_draw_ram(st_plot_ctx *p)
{
    FILE *f = p->f;
    uint64_t ram = p->t->meta.mem_total;
    if (ram > 0 && (double)ram <= p->ymax) {
        char b[64], lab[80];
        double y = py_axis(p, ST_AX_BYTES, (double)ram);
        fputs("<g id=\"ram\">", f);
        st_plot_line(p, "stroke=\"#8c959f\" stroke-dasharray=\"5 4\"", p->L, y, p->R, y);
        snprintf(lab, sizeof lab, "RAM %s",
                 st_format_bytes_as((double)ram, ST_UNITS_POINT, b, sizeof b));
        st_plot_text(p, p->L + 4, y - 4, "fill=\"#57606a\"", 11, lab, strlen(lab), 200);
        fputs("</g>\n", f);
    }
}
