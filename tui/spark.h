/* spark.h: sparklines, multi-row graphs, time axis and event markers as
 * text (curses-free, pure: values in, UTF-8 or ASCII out).
 *
 * Values are doubles; NAN means "no sample" and is drawn as a blank (a gap),
 * so a present zero and a missing sample look different.
 *
 * Scale: a present value v maps to frac = (v - lo) / (hi - lo), clamped to
 * [0, 1] (hi <= lo: frac 1 when v > lo, else 0), then to a level
 * ceil(frac * N) clamped to [1, N]: the lowest level is drawn even for
 * v <= lo.
 *   sparkline, UTF-8: N = 8,  levels 1..8 = ▁▂▃▄▅▆▇█
 *   sparkline, ASCII: N = 9,  levels 1..9 = . : - = + * # % @
 *   graph of R rows:  N = 8R eighths; the row b rows above the bottom shows
 *                     fill = level - 8b eighths: >= 8 full block (ASCII #),
 *                     <= 0 blank, 1..7 ▁▂▃▄▅▆▇ (ASCII . . - - = = #)
 *
 * Columns and time: sample k is the one due at k * interval.  The monitor
 * samples at or after a deadline, never before, and skips deadlines it
 * missed by a whole interval, so k = floor(t_ms / interval_ms).  With per_col samples per column, absolute column c holds
 * the samples with c * per_col <= k < (c + 1) * per_col, so columns do not
 * shift as time passes and a finished column never changes. */
#ifndef STAGETOP_TUI_SPARK_H
#define STAGETOP_TUI_SPARK_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/events.h"
#include "stagetop/sample.h"
#include "stagetop/trace.h"

enum tui_agg {
    TUI_AGG_MAX, /* a column shows the largest of its samples (spikes stay visible) */
    TUI_AGG_MIN  /* the smallest (for the memory level, where low is the news) */
};

/* The value of one field (ST_F_*) of s as a double (level and pressure in
 * percent, bytes otherwise), or NAN when s does not hold it. */
double tui_sample_value(const st_sample *s, unsigned field);

/* The index k of the deadline a sample (or event) at t_ms belongs to:
 * floor(t_ms / interval_ms). */
uint64_t tui_sample_k(uint32_t t_ms, uint32_t interval_ms);

/* Fill out[0..ncols) with columns col0 .. col0+ncols-1 of field: each the
 * max (or min) of its samples, NAN when it holds none.  The view's samples
 * must be sorted by t_ms (a ring's view is); finding the start is a binary
 * search, so the cost is the visible samples only.  per_col >= 1. */
void tui_bucket(st_samples_view v, unsigned field, int agg, uint32_t interval_ms,
                unsigned per_col, uint64_t col0, int ncols, double *out);

/* Sparkline levels of n values: 0 for a gap, else 1..8 (ASCII 1..9). */
void tui_spark_levels(const double *v, int n, double lo, double hi, int ascii, unsigned char *out);
/* Heights in eighths (0 for a gap, else 1 .. 8*rows) of n values in a graph
 * `rows` rows high: computed once, then cut into rows by tui_graph_cells. */
void tui_graph_heights(const double *v, int n, double lo, double hi, int rows, int *h);
/* Row r (0 = top) of heights h: 0 blank, 1..7 eighths, 8 full. */
void tui_graph_cells(const int *h, int n, int rows, int r, unsigned char *out);
/* Both at once: cells of row r (0 = top) of a graph `rows` high over n
 * values. */
void tui_graph_levels(const double *v, int n, double lo, double hi, int rows, int r,
                      unsigned char *out);
/* A lane's bounds for n values (NAN: none): lo = base, hi = the largest
 * value; *has_data when some value is above base.  A lane with a baseline
 * (the swap in use when the run started) draws growth over it, so swap
 * that was there before the run reads as an empty lane, not a full one;
 * base 0 is the plain "0 .. largest in view" (hi 1 with no data). */
void tui_scale_over_base(const double *v, int n, double base, double *lo, double *hi,
                         int *has_data);
/* The glyph (UTF-8 or ASCII text) of a sparkline level or a graph cell. */
const char *tui_spark_glyph(int level, int ascii);
const char *tui_graph_glyph(int fill, int ascii);

/* A one-row sparkline of n values (at most 1024) into out (3 bytes per glyph in UTF-8, 1 in
 * ASCII; always NUL-terminated; stops at a glyph that would not fit).
 * Returns the bytes written. */
size_t tui_spark(const double *v, int n, double lo, double hi, int ascii, char *out, size_t outlen);

/* Row r (0 = top) of a graph `rows` rows high over n values (at most 1024). */
size_t tui_graph_row(const double *v, int n, double lo, double hi, int rows, int r, int ascii,
                     char *out, size_t outlen);

/* The seconds between two ticks of the time axis for columns of col_s
 * seconds: the smallest of 0.1 0.2 0.5 1 2 5 10 15 30 s, 1 2 5 10 15 30 min,
 * 1 2 3 6 12 24 h that puts ticks at least 10 columns apart (the largest
 * when none does). */
double tui_axis_step(double col_s);

/* A tick label for t seconds before the right edge: "-0.5s" (under 1 s),
 * "-45s", "-2m", "-1m30s", "-3h", "-1h30m".  Returns its length. */
int tui_axis_label(double t, char *buf, size_t len);

/* The time axis under a graph of ncols columns of col_s seconds, whose
 * rightmost column is "now": a rule (─, ASCII -) with a tick (┴, ASCII +)
 * at column ncols-1 - round(j * step / col_s) for j = 1, 2, ...; each tick's
 * label ends just left of it, and is left out when it would not fit or would
 * touch the label to its right.  Returns the bytes written. */
size_t tui_axis(int ncols, double col_s, int ascii, char *out, size_t outlen);
/* The same axis in clock time (key T): clock 1 puts a tick at every whole
 * multiple of the step of local time (right_s: the right edge's local time,
 * seconds since an epoch at a local midnight), labelled "14:05:30" (steps
 * under a minute), "14:05" (a minute or more), "14:05:30.5" (under a
 * second); clock 0 is tui_axis. */
size_t tui_axis_time(int ncols, double col_s, int clock, double right_s, int ascii, char *out,
                     size_t outlen);
/* The epoch seconds of an ISO 8601 UTC time as traces write it
 * ("2026-12-04T02:41:30Z", stageload's "2026-10-05T03:14:39+00:00", an
 * offset other than 0 too).  1, or 0 when it is not one. */
int tui_utc_seconds(const char *s, double *epoch);
/* A clock label of local_s (seconds from a local midnight) for ticks step
 * apart.  Returns its length. */
int tui_axis_clock(double local_s, double step, char *buf, size_t len);

/* The letter that marks an event kind on the event row: S stage, L load and
 * reload, R release, M mark, P pause, C resume (continue), K kill, X exit,
 * B budget, ? other. */
char tui_event_letter(int kind);

/* The event row under the axis, ncols wide (same columns as tui_bucket):
 * each event with a column in view puts its letter there; a stage event is
 * followed by its stage name, a mark by its note (control characters made
 * visible), up to one blank before the next marker.  Events never hide
 * each other: where several fall in one column, their count is drawn
 * ('2'..'9', '+' for ten or more), followed by the text of the latest of
 * them that has one.  Events must be sorted by t_ms.
 * Returns the bytes written. */
size_t tui_events_row(const st_event *ev, size_t nev, uint32_t interval_ms, unsigned per_col,
                      uint64_t col0, int ncols, int ascii, char *out, size_t outlen);

#endif
