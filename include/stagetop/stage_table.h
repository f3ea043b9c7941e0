/* stage_table.h: the one stage table of a terminal's text, for the closing
 * summary of a run and `stagetop summary --text` (core/report/stage_table.c;
 * docs/report.md, "summary --text").
 *
 * Repeated stages are grouped: the windows of one stage name (40 denoising
 * `step`s, a `setup` stage event after the implicit `setup` window) are one
 * row, in the order the names first appear, as `stagetop diff` matches
 * them (docs/report.md):
 *   n            the windows of that name
 *   time         their seconds added up (summary.h's st_stage_row)
 *   mean         time / n, the mean time per repetition
 *   peak         the highest window peak ("–": no sample fell inside any)
 *   swap growth  the windows' swap growths added up
 *   min level    the lowest memory level of the windows
 *   paused       the windows' paused time added up
 * A name that occurs once keeps its own row (n 1, mean its time). */
#ifndef STAGETOP_STAGE_TABLE_H
#define STAGETOP_STAGE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "stagetop/error.h"
#include "stagetop/sb.h"
#include "stagetop/summary.h"

typedef struct st_stage_group {
    char stage[64];          /* NUL-terminated, raw (not cleaned) */
    size_t n;                /* windows with this name */
    size_t first;            /* the first one's index in the summary */
    int64_t seconds_ms, paused_ms;
    uint64_t peak_footprint; int has_peak;
    int64_t swap_growth; int has_swap;
    uint16_t min_level_c; int has_level;
} st_stage_group;

/* The windows of s grouped by name (*g malloc'd, NULL when s has none):
 * O(n log n) in the windows.  ST_ENOMEM. */
int st_stage_groups(const st_summary *s, st_stage_group **g, size_t *n, st_error *err);

typedef struct st_stage_table_opts {
    int width;             /* the columns a line may take, indent in (<= 0: 80) */
    int indent;            /* spaces before every line */
    size_t max_lines;      /* lines below the header, the "more" line in (0: all) */
    const char *more_hint; /* after "... and N more stages" (NULL: nothing) */
} st_stage_table_opts;

/* The table appended to w: a header line, then a line per group
 *
 *   stage                   n     time     mean      peak swap growth min level
 *   step                   40   164.0s    4.10s  3.40 GiB     +12 MiB       35%
 *
 * and, under a group the job was paused in, "(12.3s without pauses)".
 * Names are cleaned (md.h's st_text_clean_to) and get what the numbers
 * leave, 8 to 24 columns, so a line is at most max(width, indent + 64)
 * columns.  A summary without stage events: "no stages (no stage events in
 * the trace)".  Past max_lines: "... and N more stages" and the hint.
 * ST_ENOMEM (nothing appended). */
int st_stage_table(const st_summary *s, st_sb *w, const st_stage_table_opts *o, st_error *err);

/* The repetitions of the run's current stage (its last window), for the
 * live screen's header ("step ×12 4.10s/rep"): nth, how many windows have
 * its name, the current one in; done and done_ms, how many of them are
 * closed (all but the current) and their seconds added up.  0 when s has
 * no stage events (the outputs zeroed). */
int st_stage_repeats(const st_summary *s, size_t *nth, size_t *done, int64_t *done_ms);

/* A mean time per repetition as the table and the header write it:
 * "4.10s" under 10 s, "41.2s" above. */
const char *st_stage_mean_text(double seconds, char *buf, size_t size);

#endif
