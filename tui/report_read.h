/* report_read.h: what `stagetop report` reads of its files in bounded
 * memory (tui/report_read.c, docs/report.md "Memory"): the text chart's
 * columns made sample by sample while plot's read (plot.h, st_plot_also)
 * folds the numbers. */
#ifndef STAGETOP_TUI_REPORT_READ_H
#define STAGETOP_TUI_REPORT_READ_H

#include <stddef.h>
#include <stdint.h>

#include "stagetop/error.h"
#include "stagetop/trace.h"

#define CLI_REPORT_COLS 64 /* the text chart's columns */

/* The text chart's time frame: columns of col_ms from col0 (t / col_ms -
 * col0, as tui_bucket), x0 the axis' start (ms), last its end. */
typedef struct cli_report_frame {
    uint32_t col_ms, last;
    uint64_t col0;
    double x0;
} cli_report_frame;

/* The frame of a trace whose samples run from first to last (ms; last the
 * later end of both traces compared). */
void cli_report_frame_of(uint32_t first, uint32_t last, cli_report_frame *f);

enum { CLI_RC_FOOTPRINT, CLI_RC_SWAP, CLI_RC_LEVEL, CLI_RC_ROWS };

/* The chart's columns of one trace: per column the footprint's and swap's
 * maximum and the level's minimum (NAN: no value), for frame f (col_ms 0:
 * none, the samples only counted). */
typedef struct cli_report_cols {
    cli_report_frame f;
    double v[CLI_RC_ROWS][CLI_REPORT_COLS];
    size_t n, max_n; /* samples seen; a read again takes max_n at most */
} cli_report_cols;

/* Empty columns for f (NULL: none). */
void cli_report_cols_begin(cli_report_cols *c, const cli_report_frame *f);
/* A st_plot_also / st_trace_pass callback: adds s (ctx: the columns). */
int cli_report_cols_sample(void *ctx, const st_sample *s, st_error *err);
/* The first and last sample times of a regular file, guessed from its
 * first and last 64 KiB: 1, or 0 when there is no guess. */
int cli_report_guess(const char *path, uint32_t *first, uint32_t *last);
/* Read path again for c's frame (its first max_n samples): ST_OK, or the
 * reader's error (ST_EIO when the file holds fewer samples than before). */
int cli_report_cols_read(const char *path, cli_report_cols *c, st_error *err);

#endif
