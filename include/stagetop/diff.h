/* diff.h: two traces compared (`stagetop diff A B`, docs/report.md).
 *
 * Stages are matched by name: one row per distinct name, A's names in the
 * order they first appear, then the names only B has in theirs.  A name
 * that occurs more than once on one side sums its time and takes its
 * highest peak.  Changes are B against A:
 *   peak_footprint_pct  100 * (B - A) / A (none when A's peak is 0)
 *   duration_s          B's duration - A's (and in percent of A's)
 *   per stage           the time's change (seconds and percent), the peak's
 *   swap peak rise      (B's swap peak - start) - (A's peak - start): the
 *                       largest swap growth of each run (docs/metrics.md)
 * Text output is cleaned for a terminal (md.h); JSON is the summaries as
 * `stagetop summary` prints them plus the stages and the changes. */
#ifndef STAGETOP_DIFF_H
#define STAGETOP_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/report_model.h"
#include "stagetop/trace.h"

typedef struct st_diff_side {
    int present;             /* the stage is on this side */
    int64_t seconds_ms;
    uint64_t peak_footprint; int has_peak;
    int64_t swap_growth; int has_swap;     /* summed over the name's windows */
    uint16_t min_level_c; int has_level;   /* the lowest of them */
} st_diff_side;

typedef struct st_diff_stage {
    char stage[64];
    st_diff_side a, b;
    double peak_pct; int has_peak_pct; /* the peak's change (st_report_delta) */
    double time_s; int has_time;       /* the time's change, seconds (both sides) */
    double time_pct; int has_time_pct; /* and percent (A's time not 0) */
} st_diff_stage;

typedef struct st_diff {
    const st_trace *a, *b;   /* borrowed */
    st_diff_stage *stages;   /* owned */
    size_t n_stages, cap_stages;
    st_report_row rows[ST_RM_MAX_ROWS]; /* the summary rows with their changes */
    size_t n_rows;
    /* the changes the gate and callers read, from rows: */
    double peak_pct; int has_peak_pct; /* both have samples, A's peak is not 0 */
    double duration_s;
    double duration_pct; int has_duration_pct;      /* A's duration not 0 */
    int64_t swap_peak_rise; int has_swap_peak_rise; /* both sides have swap */
} st_diff;

/* Compare a and b (both loaded and finished); ST_ENOMEM. */
int st_diff_compute(const st_trace *a, const st_trace *b, st_diff *d, st_error *err);
void st_diff_free(st_diff *d);

/* 100 * (b - a) / a; *ok = 0 when a is 0. */
double st_diff_pct(uint64_t a, uint64_t b, int *ok);
/* Does B's peak footprint exceed A's by more than pct percent?  (A peak of
 * 0 on A's side: any B peak above 0 does.) */
int st_diff_peak_exceeds(const st_diff *d, double pct);
/* Does B's duration exceed A's by more than pct percent?  (A duration of 0:
 * any B duration above 0 does.) */
int st_diff_time_exceeds(const st_diff *d, double pct);

/* A cell of the comparison's stage table: a side's time, peak, swap growth
 * or min level, or the time's or the peak's change (side ignored), written
 * in style (report_model.h). */
enum { ST_DIFF_COL_TIME, ST_DIFF_COL_PEAK, ST_DIFF_COL_PEAK_CHANGE, ST_DIFF_COL_TIME_CHANGE,
       ST_DIFF_COL_SWAP, ST_DIFF_COL_LEVEL };
const char *st_diff_stage_cell(const st_diff_stage *s, int col, int side_b, enum st_report_style style,
                               char *buf, size_t n);

/* The stage table's columns, in order, for every renderer: the text's
 * heading and width, the Markdown's heading, the cell. */
typedef struct st_diff_col {
    const char *text_head;
    int width;
    const char *md_head;
    int col, side_b;
} st_diff_col;
extern const st_diff_col st_diff_cols[];
extern const size_t st_diff_n_cols;

/* The comparison as text (for a terminal) and as JSON; malloc'd, NULL when
 * out of memory.  label_a / label_b name the sides (file names). */
/* When the two traces' footprints have different definitions
 * (meta.footprint_metric, docs/metrics.md), a sentence that says so into
 * buf, and 1; else 0.  The text and the Markdown report print it. */
int st_diff_metric_note(const st_diff *d, char *buf, size_t n);
char *st_diff_text(const st_diff *d, const char *label_a, const char *label_b);
char *st_diff_json(const st_diff *d);

#endif
