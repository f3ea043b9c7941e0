/* report_model.h: the rows that `stagetop diff` (text, --json) and
 * `stagetop report` (Markdown) show, built once, typed, and rendered by
 * each output (docs/report.md).
 *
 * A summary row is a measure of the whole run: a fixed label, a JSON name,
 * the unit of its values, what its change is (B against A), and the
 * values of one trace (a) or two (a, b) with the change computed here.
 * The rows of one trace and of a comparison come from the same builder;
 * the renderers only format (st_report_format, st_report_format_change) and lay
 * out.  The comparison's per-stage rows are st_diff_stage (diff.h), whose
 * cells are formatted by the same functions; one trace's per-stage rows
 * are st_stage_row (summary.h).
 *
 * The rows: the duration, then every lane with a report rank in the lane
 * table (stagetop/lanes.h: report_*; the kernel peak after the
 * footprint's), then loads and releases.  Adding a lane's measure: its
 * row's report_* fields; any other measure: an entry in core/report/model.c.
 * The text, the Markdown and (with a change_key) --json's "change" show it. */
#ifndef STAGETOP_REPORT_MODEL_H
#define STAGETOP_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/lanes.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"

/* What a value is, and so how it is written. */
typedef enum st_report_unit {
    ST_RM_DURATION,   /* s: seconds, "1m58s" */
    ST_RM_SECONDS,    /* s: seconds, "19.9s" / "19.9 s" (a stage's time) */
    ST_RM_BYTES,      /* i[0]: bytes */
    ST_RM_SBYTES,     /* i[0]: signed bytes, "+7.97 GiB" */
    ST_RM_LEVEL,      /* i[0]: hundredths of a percent, "56%" / "56 %" */
    ST_RM_SWAP_PATH,  /* i[0..2]: swap start, peak, end, "a → b → c" */
    ST_RM_LOADS,      /* i[0] count, i[1] bytes, s seconds: "2, 29.6 GiB in 12.6 s" */
    ST_RM_RELEASES,   /* i[0] count, i[1] bytes: "2, 29.6 GiB" */
    ST_RM_CPU,        /* s: CPU seconds, i[0]: the run's ms: "12.3 s, mean 45%" */
    ST_RM_PAGEINS     /* s: page-ins, i[0]: peak per second * 100: "1234, peak 500/s" */
} st_report_unit;

/* What the change column holds (comparisons). */
typedef enum st_report_change {
    ST_RM_CH_NONE,    /* nothing ("–") */
    ST_RM_CH_PCT,     /* 100 * (B - A) / A, percent; none when A is 0 */
    ST_RM_CH_DELTA,   /* B - A in the row's unit (seconds, bytes) */
    ST_RM_CH_POINTS   /* B - A of a level, in hundredths of a percentage point */
} st_report_change;

typedef struct st_report_value {
    int has;          /* 0: the trace has no such number ("–", JSON null) */
    int64_t i[3];
    double s;
} st_report_value;

typedef struct st_report_row {
    const char *label;      /* fixed text: "peak footprint" */
    const char *key;        /* its JSON name: "peak_footprint" */
    const char *change_key; /* the change's name in --json's "change", or NULL */
    st_report_unit unit;
    st_report_change change;
    st_report_value a, b;       /* b: comparisons only */
    int has_delta;          /* both sides have the value (and, for PCT, A is not 0) */
    double delta;           /* percent, seconds, bytes or hundredths of a point */
    int has_rel;            /* a time's DELTA also in percent of A (A not 0) */
    double rel;
} st_report_row;

#define ST_RM_MAX_ROWS (2 * ST_LANE_COUNT + 4) /* a growth lane has two; the run's own four */

/* The summary rows of one trace (b NULL: also its loads and releases) or
 * of A against B (the changes computed).  Both summaries finished.  Returns
 * the number of rows written to rows[0 .. max). */
size_t st_report_summary(const st_summary *a, const st_summary *b, st_report_row *rows, size_t max);

/* The row whose key is key, or NULL. */
const st_report_row *st_report_find(const st_report_row *rows, size_t n, const char *key);

/* A summary's duration: last sample t - first sample t, seconds. */
double st_report_duration_s(const st_summary *s);

/* How a value is written: text for a terminal (ST_RM_TEXT: "19.9s",
 * "56%") or Markdown (ST_RM_MD: "19.9 s", "56 %"); the same otherwise. */
enum st_report_style { ST_RM_TEXT, ST_RM_MD };

/* v in unit u, "–" when it has none; into buf, returned. */
const char *st_report_format(const st_report_value *v, st_report_unit u, enum st_report_style style, char *buf,
                         size_t n);
/* r's change, "–" when it has none (or the row has no change). */
const char *st_report_format_change(const st_report_row *r, enum st_report_style style, char *buf, size_t n);
/* The change of a (A) and b (B) with rule ch on values of unit u: *has 0
 * when there is none.  The one place a change is computed (summary rows
 * and stage cells). */
double st_report_delta(const st_report_value *a, const st_report_value *b, st_report_unit u, st_report_change ch,
                   int *has);

/* ---- the environment a trace names (the report's header table) ---- */

/* One row: a label and a value, both raw text (a meta.extra key and value
 * come from the trace: untrusted, cleaned or escaped by the renderer). */
typedef struct st_report_env {
    char label[48];
    char value[128];
} st_report_env;

#define ST_RM_MAX_ENV 40

/* The machine's RAM and swap size (meta mem_total, swap_total, when
 * known), the job's exit status (its last exit event with a value), then
 * every field of the start record's meta.extra in order (strings, numbers,
 * booleans; a stageload trace's pipeline, torch, diffusers, size, steps,
 * seed...; not its utc, which is the start time).  Returns the rows written to rows[0 .. max). */
size_t st_report_environment(const st_trace *t, st_report_env *rows, size_t max);

/* Values from numbers. */
st_report_value st_report_bytes(int has, uint64_t v);
st_report_value st_report_seconds(int has, double s);

#endif
