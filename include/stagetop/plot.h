/* plot.h: a trace drawn as one self-contained SVG chart (`stagetop plot`).
 *
 * The chart (docs/plot.md): footprint, swap used and GPU memory in bytes on
 * the left axis, the memory-available level (%) on the right axis, time on
 * the bottom axis; stage bands between stage events, event markers, a title
 * from the trace's meta and a line of summary numbers.  Long traces are
 * reduced to at most two points (the minimum and the maximum) per pixel
 * column, so spikes stay visible and the file stays small.  All text that
 * comes from the trace is XML-escaped and made valid UTF-8.
 *
 * A trace without samples is an error (ST_EINVAL, "no samples to plot"):
 * nothing is written. */
#ifndef STAGETOP_PLOT_H
#define STAGETOP_PLOT_H

#include <stdio.h>
#include "stagetop/error.h"
#include "stagetop/trace.h"

#define ST_PLOT_WIDTH 1000   /* default size, pixels */
#define ST_PLOT_HEIGHT 560
#define ST_PLOT_MIN_WIDTH 400
#define ST_PLOT_MIN_HEIGHT 240
#define ST_PLOT_MAX_SIDE 20000

typedef struct st_plot_opts {
    int width, height;  /* pixels; 0 = the default; else within
                           ST_PLOT_MIN_* .. ST_PLOT_MAX_SIDE (ST_EINVAL) */
    const char *title;  /* NULL or "" = built from the trace's meta */
    size_t samples;     /* a decimated trace (a run's series, runseries.h): the
                           samples its points stand for, which the chart's
                           summary line counts; 0 = its own samples */
} st_plot_opts;

/* Defaults: 0 x 0 (= ST_PLOT_WIDTH x ST_PLOT_HEIGHT), no title override. */
void st_plot_opts_init(st_plot_opts *o);

/* Write the SVG document for t to out (o may be NULL for the defaults).
 * ST_EINVAL for a trace without samples or a bad size, ST_EIO when a write
 * to out fails (out is flushed before returning), ST_ENOMEM. */
int st_plot_svg(const st_trace *t, const st_plot_opts *o, FILE *out, st_error *err);

/* The same, written atomically to path: a temporary file in path's
 * directory, fsync'd, then renamed over path (a symlink at path is
 * replaced, never written through).  On any failure nothing is left: no
 * partial file under path and no stray temporary file. */
int st_plot_svg_file(const st_trace *t, const st_plot_opts *o, const char *path, st_error *err);

/* Two traces on one chart (plot_cmp.c): one time axis, A solid and B
 * dashed, both runs' stage bands as strips, a legend naming both (labels:
 * their file names).  ST_EINVAL when either has no samples (nothing is
 * written); the _file form writes atomically as st_plot_svg_file. */
int st_plot_cmp_svg(const st_trace *a, const st_trace *b, const char *label_a,
                    const char *label_b, const st_plot_opts *o, FILE *out, st_error *err);
int st_plot_cmp_svg_file(const st_trace *a, const st_trace *b, const char *label_a,
                         const char *label_b, const st_plot_opts *o, const char *path,
                         st_error *err);

/* ---- a trace file plotted in bounded memory (plot_stream.c) ---- */

/* Samples `plot -` (a pipe, read once) keeps at most: past them the read
 * stops with an error that names the cap and says to plot a file. */
#define ST_PLOT_PIPE_MAX (1u << 20)

/* What st_plot_read_file read. */
typedef struct st_plot_read {
    st_trace trace;   /* meta, events, summary, torn_line; its samples: every
                         one (read whole) or the last few (streamed) */
    int streamed;     /* 1: kept per pixel column, the samples let go */
    size_t samples;   /* streamed: the samples read */
    int reads;        /* streamed: 1 when the frame guessed from the file's
                         head and tail was right, else 2 */
    void *priv;
} st_plot_read;

/* Read path for a chart of size o (NULL: the defaults; kept, with its
 * title, for the write).  A regular file's samples are passed on and let
 * go (st_trace_pass_file), so memory does not grow with them: one read
 * scans the chart's frame (time range, each series' extremes) and fills
 * the pixel columns' minimum and maximum for a frame guessed from the
 * file's first and last 64 KiB; a second read fills them again when the
 * guess was not the frame.  The chart is byte for byte st_plot_svg's of
 * the whole trace.  A JSON document, or samples out of time order
 * (stageload), are read whole (as st_trace_load_file).  "-", a pipe or a
 * FIFO is read once, whole, up to ST_PLOT_PIPE_MAX samples (ST_EINVAL past
 * them, nothing kept).  Errors are the reader's (named by line); a chart
 * that cannot be drawn (no samples, a bad size) is the write's error, as
 * st_plot_svg's. */
int st_plot_read_file(const char *path, const st_plot_opts *o, st_plot_read *out, st_error *err);
/* The first read only (the second is the comparison's, once both frames
 * are known), for st_plot_cmp_read_svg: side path of `plot path other`
 * (the default size).  It also fills the columns of the comparison's
 * frame guessed from both files' first and last 64 KiB, which
 * st_plot_cmp_read_svg takes when that guess was its frame (reads 1),
 * else it reads path again. */
int st_plot_read_scan_cmp(const char *path, const char *other, st_plot_read *out, st_error *err);
/* The chart to out, or written atomically to path (as st_plot_svg_file). */
int st_plot_read_svg(st_plot_read *r, FILE *out, st_error *err);
int st_plot_read_svg_file(st_plot_read *r, const char *path, st_error *err);
void st_plot_read_free(st_plot_read *r);
/* A report's read (tui/report_read.c): the chart's read above, which also
 * calls sample on each sample of its first read (a non-zero return stops
 * it: set err) and folds what it keeps (st_trace_fold_pass_file), so that
 * trace's summary, meta and events are the whole file's (its samples: the
 * last few) and one read gives the report's numbers and its charts.  Read
 * whole instead (every sample in trace, sample not called for all): a JSON
 * document, records out of order, a pipe (the cap's message names who). */
typedef struct st_plot_also {
    int (*sample)(void *ctx, const st_sample *s, st_error *err);
    void *ctx;
    const char *who; /* "report" */
} st_plot_also;
int st_plot_read_file_also(const char *path, const st_plot_opts *o, const st_plot_also *also,
                           st_plot_read *out, st_error *err);
int st_plot_read_scan_also(const char *path, const st_plot_also *also, st_plot_read *out,
                           st_error *err);
int st_plot_read_scan_cmp_also(const char *path, const char *other, const st_plot_also *also,
                               st_plot_read *out, st_error *err);
/* Two traces read by st_plot_read_scan_cmp on one chart: byte for byte
 * st_plot_cmp_svg's of the whole traces (a streamed side is read again
 * for its columns); the _file form writes atomically. */
int st_plot_cmp_read_svg(st_plot_read *a, st_plot_read *b, const char *label_a,
                         const char *label_b, const st_plot_opts *o, FILE *out, st_error *err);
int st_plot_cmp_read_svg_file(st_plot_read *a, st_plot_read *b, const char *label_a,
                              const char *label_b, const st_plot_opts *o, const char *path,
                              st_error *err);

#endif
