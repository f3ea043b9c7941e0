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


#endif
