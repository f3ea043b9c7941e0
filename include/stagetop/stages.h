/* stages.h: a summary's per-stage table (`stagetop report`, docs/report.md).
 *
 * One row per stage window of the trace's summary: its time and peak
 * footprint (summary.h: the summary's own windows), and the numbers the
 * summary keeps per window as samples and events are fed (summary.h,
 * st_stage_stat):
 *   swap growth  swap_used of the window's last sample minus the reading
 *                before the window opened (or the window's first sample for
 *                the first window), so the rows add up to the run's
 *                end - start;
 *   min level    the lowest memory level in the window;
 *   loads        load/reload events fed while the window was open: how many,
 *                and their bytes.
 * The screen's stage table (key s) shows the same fields. */
#ifndef STAGETOP_STAGES_H
#define STAGETOP_STAGES_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/summary.h"

/* st_stage_row: summary.h (st_summary_stage). */

/* The rows of summary s (finished: st_trace_load_* leaves a trace's so).
 * *rows is malloc'd (NULL when there are no stages); ST_ENOMEM. */
int st_stage_rows(const st_summary *s, st_stage_row **rows, size_t *n, st_error *err);

#endif
