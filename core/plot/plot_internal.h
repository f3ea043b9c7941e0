/* plot_internal.h: the SVG plotter's parts (internal to core/).
 *
 * plot_svg.c lays the chart out and writes the file; plot_draw.c draws its
 * parts into st_plot_ctx.f; plot_text.c cleans, escapes and formats text
 * (trace text is untrusted; numbers ignore the C locale). */
#ifndef STAGETOP_PLOT_INTERNAL_H
#define STAGETOP_PLOT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include "stagetop/error.h"
#include "stagetop/lanes.h"
#include "stagetop/plot.h"
#include "stagetop/trace.h"
#include "stagetop/units.h"

#define ST_PLOT_GIB 1073741824.0

/* The drawn series are the lanes with a plot axis, by plot rank
 * (stagetop/lanes.h): series s (0 .. n_series - 1, the index of has, peak,
 * first and last) draws lane lane[s], with the row's id, label, colour and
 * width.  A lane with a plot axis is a series; nothing here names one. */

/* One pixel column of a series: its minimum and maximum and where they are. */
typedef struct st_plot_col {
    double vmin, vmax, xmin_at, xmax_at;
    unsigned char has, gap; /* gap: the line breaks after this column */
} st_plot_col;

/* A series' walk through the samples: the column of its last value and
 * whether samples without it came since (the line breaks there). */
typedef struct st_plot_run {
    int last_c, pending_gap;
} st_plot_run;

/* One stage band. */
typedef struct st_plot_band {
    size_t ev;            /* index of its stage event */
    double x0, x1;        /* pixels */
    double t1;            /* seconds, its end */
    size_t merged;        /* further stages folded into it (dense traces) */
} st_plot_band;

/* The chart being drawn. */
typedef struct st_plot_ctx {
    FILE *f;
    const st_trace *t;
    int W, H, pw;         /* canvas; pw = plot area width in pixels */
    double L, R, T, B;    /* plot area edges */
    double x0, x1;        /* time range, seconds */
    double ymax, ystep;   /* left axis, bytes */
    size_t n_drawable;    /* samples with at least one drawn field */
    double tmin, tmax;    /* their time range, seconds */
    int n_series;         /* set by st_plot_scan */
    int lane[ST_LANE_COUNT]; /* series s draws lane lane[s] (set by st_plot_scan) */
    int has[ST_LANE_COUNT];
    double peak[ST_LANE_COUNT]; /* max per series; its minimum for ST_LR_MIN */
    double first[ST_LANE_COUNT], last[ST_LANE_COUNT]; /* its first and last value */
    unsigned ev_seen;     /* 1u << kind of each event kind drawn (legend) */
    size_t n_bands;
    /* (compare plot, plot_cmp.c) NULL for a single trace: */
    const char *id_prefix; /* before the ids of series and stage groups */
    const char *dash;      /* stroke-dasharray of every series ("none": solid) */
    /* (a streamed read, plot_stream.c) NULL: made from t's samples */
    st_plot_col *cols;     /* series s's pw columns at cols + s * pw */
} st_plot_ctx;

/* ---- plot_text.c ---- */

/* Clean at most n bytes of s (stops at a NUL) into out (outsz >= 8): valid
 * UTF-8 that XML 1.0 accepts (invalid sequences, control characters,
 * U+FFFE/U+FFFF become U+FFFD; tab/newline a space), at most max_cps code
 * points (0 = no limit) counting the "…" added when it is shortened.
 * Returns the number of code points written. */
size_t st_plot_text_clean(const char *s, size_t n, char *out, size_t outsz, size_t max_cps);
/* Write clean text to f with & < > " ' escaped (for content and attributes). */
void st_plot_xml_puts(FILE *f, const char *clean);
/* Numbers, byte counts and durations: units.h (ST_UNITS_POINT). */

/* ---- plot_draw.c ---- */

/* A coordinate (one decimal, no trailing zeros). */
void st_plot_num(st_plot_ctx *p, double v);
/* Untrusted text, cleaned, shortened to max_cps and escaped. */
void st_plot_put_raw(st_plot_ctx *p, const char *s, size_t n, size_t max_cps);
/* How many code points of text at font_px fit width_px (an estimate: an
 * average glyph is 0.58 em wide), 1 .. 1000. */
size_t st_plot_fit_cps(double width_px, double font_px);
/* <text x y font-size attrs>s</text>, shortened to fit max_w pixels. */
void st_plot_text(st_plot_ctx *p, double x, double y, const char *attrs, double font_px,
                  const char *s, size_t n, double max_w);
/* Fill n_series, lane, n_drawable, tmin/tmax, has, peak, first and last
 * from t's samples; or, sample by sample, begin (n_series, lane) and then
 * each sample in time order (a streamed read). */
void st_plot_scan(st_plot_ctx *p);
void st_plot_scan_begin(st_plot_ctx *p);
void st_plot_scan_sample(st_plot_ctx *p, const st_sample *smp);
/* Series s's pw columns, emptied, then each sample in time order added
 * (st_plot_x: the time range must be set, st_plot_layout). */
void st_plot_cols_begin(st_plot_col *cols, int pw, st_plot_run *run);
void st_plot_col_add(const st_plot_ctx *p, int s, st_plot_col *cols, st_plot_run *run,
                     const st_sample *smp);
/* Does a series on axis (enum st_lane_axis) hold a value?  Its largest
 * value (0 when none). */
int st_plot_axis_has(const st_plot_ctx *p, int axis);
double st_plot_axis_peak(const st_plot_ctx *p, int axis);
/* Stage windows (NULL when none; caller frees); sets n_bands. */
int st_plot_collect_bands(st_plot_ctx *p, st_plot_band **out, st_error *err);
void st_plot_draw_bands(st_plot_ctx *p, const st_plot_band *b);
void st_plot_draw_band_labels(st_plot_ctx *p, const st_plot_band *b);
/* Grid, left/right/time axes and the plot frame. */
void st_plot_draw_axes(st_plot_ctx *p);
void st_plot_draw_ram(st_plot_ctx *p);
/* Series s with cols[pw] (unless p->cols) and pts[4 * pw] as scratch. */
int st_plot_draw_series(st_plot_ctx *p, int s, st_plot_col *cols, double *pts);
/* x of time t (seconds), clamped to the plot area. */
double st_plot_x(const st_plot_ctx *p, double t);
/* <line attrs x1 y1 x2 y2/> */
void st_plot_line(st_plot_ctx *p, const char *attrs, double x1, double y1, double x2, double y2);

/* ---- plot_events.c ---- */

/* Markers (and labels where there is room) of the non-stage events. */
void st_plot_draw_events(st_plot_ctx *p);
/* The marker of an event kind centred at (x, y), as in the legend. */
/* An event kind's marker: its label, colour, shape (^ v d s > x o O) and
 * whether it also gets a faint full-height line (plot_marks.c). */
typedef struct st_plot_ev_style {
    const char *label, *color;
    char shape, line;
} st_plot_ev_style;
const st_plot_ev_style *st_plot_ev_style_of(int kind);
void st_plot_marker(st_plot_ctx *p, int kind, double x, double y);
/* "load", "release", ...; "other" for unknown kinds. */
const char *st_plot_event_label(int kind);
void st_plot_draw_legend(st_plot_ctx *p);
/* The legend's items (series, stage, event kinds) from x along the bottom
 * row, without the group (the comparison puts its line styles first). */
void st_plot_legend_items(st_plot_ctx *p, double x);

/* ---- plot_svg.c ---- */

/* Set up p for t (o may be NULL): its size, then the samples scanned
 * unless skip_scan (a streamed read scanned them already); ST_EINVAL
 * without a drawable sample.  memset's p first unless skip_scan. */
int st_plot_prepare(const st_trace *t, const st_plot_opts *o, st_plot_ctx *p, int skip_scan,
                    st_error *err);
/* The plot area, the time range and the left axis (after the scan). */
void st_plot_layout(st_plot_ctx *p);
/* Both runs' frame (a comparison, plot_cmp.c): the plot area, the time
 * range over both (symmetric: either side first gives the same), the
 * byte axis. */
void st_plot_cmp_frame(st_plot_ctx *pa, st_plot_ctx *pb);
/* The SVG document of a prepared p to out (flushed; ST_EIO when a write
 * failed), and the same written atomically to path. */
int st_plot_write(st_plot_ctx *p, const st_plot_opts *o, FILE *out, st_error *err);
int st_plot_write_file(st_plot_ctx *p, const st_plot_opts *o, const char *path, st_error *err);

/* ---- plot_stream.c ---- */

/* A streamed read's scanned chart into p (its frame still to lay out;
 * cols NULL): 1, or 0 when r was read whole (p untouched). */
int st_plot_stream_ctx(const st_plot_read *r, st_plot_ctx *p);
/* r's columns for p's layout into p->cols (the caller frees it): the ones
 * the first read made when its guessed frame is p's (st_plot_read_scan_cmp),
 * else a second read's. */
int st_plot_stream_cols(st_plot_read *r, st_plot_ctx *p, st_error *err);

/* The chart's size from o (0: the defaults) into p->W, p->H, refused out
 * of range (plot_svg.c; one chart and two on one, plot_cmp.c). */
int st_plot_size(st_plot_ctx *p, const st_plot_opts *o, st_error *err);

#endif
