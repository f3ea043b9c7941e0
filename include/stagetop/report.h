/* report.h: a trace, or two compared, as Markdown to paste into an issue
 * (`stagetop report`, docs/report.md).
 *
 * One trace: what ran (the meta), a summary table, the per-stage table
 * (stages.h), the chart, and the events.  Two traces: what ran on each
 * side, the per-stage comparison, the summary rows with their changes
 * (diff.h), and the chart.  Every text from a trace is cleaned and escaped
 * (md.h): a stage named "a|b" or holding backticks cannot break a table.
 *
 * The chart section holds, when given, a link to the SVG chart (an image,
 * written beside the report by the caller: `report -o r.md` writes r.svg)
 * and the text chart(s) for terminals, each an indented code block (four
 * spaces): a block in CommonMark, GFM and python-markdown without
 * extensions alike, and no fence that trace text could close.  The text
 * charts are drawn by the caller (core has no sparkline renderer): plain
 * text, one line per row, cleaned here too. */
#ifndef STAGETOP_REPORT_H
#define STAGETOP_REPORT_H

#include "stagetop/diff.h"
#include "stagetop/error.h"
#include "stagetop/sb.h"
#include "stagetop/trace.h"

#define ST_REPORT_MAX_EVENTS 500 /* events listed; the rest are counted */

/* What goes in the chart section (every field may be NULL: no chart). */
typedef struct st_report_charts {
    const char *text[2];  /* the text chart of A (or the one trace) and of B */
    const char *image;    /* the SVG chart's link, relative to the report
                             ("r.svg"); percent-encoded here */
} st_report_charts;

/* The report of t (label: its file name; chart: NULL for none).  Malloc'd
 * text, or NULL with err set (ST_ENOMEM). */
char *st_report_md(const st_trace *t, const char *label, const char *chart, st_error *err);
/* The same with an SVG link (c NULL: no chart section). */
char *st_report_md_charts(const st_trace *t, const char *label, const st_report_charts *c,
                          st_error *err);
/* The comparison d as Markdown (no chart). */
char *st_report_diff_md(const st_diff *d, const char *label_a, const char *label_b, st_error *err);
/* The same with a chart section (c NULL: none). */
char *st_report_diff_md_charts(const st_diff *d, const char *label_a, const char *label_b,
                               const st_report_charts *c, st_error *err);

/* The summary of t for a terminal (`stagetop summary --text`; meant for the
 * closing summary of a run too), one measure a line, then the stages:
 *
 *   exit status     0                      (its last exit event; "–" none)
 *   duration        1m58s, 235 samples
 *   peak footprint  43.6 GiB
 *   kernel peak     44.0 GiB (source: wait4)   ("–" when not recorded)
 *   swap            11.5 GiB start → 19.5 GiB peak, growth +7.97 GiB
 *   min level       6%
 *   stage            n     time     mean      peak swap growth min level
 *   setup            1    19.9s    19.9s  31.4 GiB   +4.16 GiB       29%
 *
 * Swap growth is docs/metrics.md's one definition (swap at the last sample
 * minus at the first); a stage's is summary.h's st_stage_row's.  The stage
 * table is stage_table.h's (repeated stages grouped; the closing summary
 * prints the same).  A trace without stage events says "no stages".
 * width: the terminal's columns (0: 80); the stage names get what the
 * numbers leave, 8 to 24 columns (cleaned by md.h's rules, shortened with
 * "…"), so a stage line is at most max(width, 64) columns.  No colour, no escape sequences; appended to w
 * (an allocation failure is the builder's: sb.h).  t's summary finished
 * (st_trace_load* leaves it so). */
void st_report_summary_text(const st_trace *t, st_sb *w, int width);

#endif
