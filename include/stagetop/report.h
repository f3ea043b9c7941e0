/* report.h: a trace, or two compared, as Markdown to paste into an issue
 * (`stagetop report`, docs/report.md).
 *
 * One trace: what ran (the meta), a summary table, the per-stage table
 * (stages.h), a chart in a fenced code block, and the events.  Two traces:
 * what ran on each side, the per-stage comparison and the summary rows with
 * their changes (diff.h).  Every text from a trace is cleaned and escaped
 * (md.h): a stage named "a|b" or holding backticks cannot break a table or
 * a fence; the chart's fence is longer than any run of backticks in it.
 * The chart is drawn by the caller (core has no sparkline renderer): plain
 * text, one line per row, which is cleaned here too. */
#ifndef STAGETOP_REPORT_H
#define STAGETOP_REPORT_H

#include "stagetop/diff.h"
#include "stagetop/error.h"
#include "stagetop/trace.h"

#define ST_REPORT_MAX_EVENTS 500 /* events listed; the rest are counted */

/* The report of t (label: its file name; chart: NULL for none).  Malloc'd
 * text, or NULL with err set (ST_ENOMEM). */
char *st_report_md(const st_trace *t, const char *label, const char *chart, st_error *err);
/* The comparison d as Markdown. */
char *st_report_diff_md(const st_diff *d, const char *label_a, const char *label_b, st_error *err);

#endif
