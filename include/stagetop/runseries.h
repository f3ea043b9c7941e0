/* runseries.h: a whole run in bounded memory, for its charts: a fixed
 * number of time columns, each holding per lane (every row of the lane
 * table, stagetop/lanes.h) the minimum, maximum, first and last value, their
 * sum and count, and the column's first and last sample time.  When a
 * sample falls past the last column, neighbour pairs are merged and the
 * column width doubles: memory does not grow with the run
 * (docs/performance.md, "The whole run's series").
 *
 * The statistics of a run (its summary, its peaks, its means) are not read
 * from here: they are folded exactly from every sample (st_summary); this
 * is what a chart of the run draws, decimated per column with each
 * column's minimum and maximum kept (a peak is never lost).
 * (core/model/runseries.c) */
#ifndef STAGETOP_RUNSERIES_H
#define STAGETOP_RUNSERIES_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/sample.h"

/* The columns a run keeps: between half of them and all of them are in
 * use once the run is longer than this many milliseconds, more than the
 * plot's pixel columns (plot.h ST_PLOT_WIDTH). */
#define ST_RUNSERIES_COLS 2048

/* One lane of one column, raw values (hundredths for ST_LT_CENTI). */
typedef struct st_runseries_lane {
    uint64_t min, max, first, last;
    double sum;        /* of the raw values: sum / n is the column's mean */
    uint32_t n;        /* samples of the column that hold the lane */
    uint8_t max_later; /* the maximum came after the minimum (the earliest of
                          equal values counts) */
} st_runseries_lane;

typedef struct st_runseries_col {
    uint32_t t_first, t_last; /* ms: the column's first and last sample */
    uint32_t n;               /* its samples; 0: an empty column */
    uint32_t has;             /* lanes held by any of them */
    uint32_t first_valid, last_valid; /* the valid bits of its first and last sample */
    st_runseries_lane lane[ST_LANE_COUNT];
} st_runseries_col;

typedef struct st_runseries {
    st_runseries_col *col; /* cap columns, allocated once */
    size_t cap;
    size_t used;           /* columns up to the last one holding a sample */
    uint64_t width_ms;     /* column i covers [origin + i*width, origin + (i+1)*width) */
    uint32_t origin_ms;
    uint64_t n_samples;    /* samples added */
    uint32_t merges;       /* times the width doubled */
} st_runseries;

/* cols columns (even, >= 2; 0: ST_RUNSERIES_COLS) of 1 ms from origin_ms
 * (a run: 0).  ST_ENOMEM, nothing allocated, on failure. */
int st_runseries_init(st_runseries *rs, size_t cols, uint32_t origin_ms, st_error *err);
void st_runseries_free(st_runseries *rs);
/* Add one sample (time order: one before origin_ms counts in column 0, one
 * before the previous in the column its time gives).  A series never
 * initialised (zeroed) or freed takes nothing. */
void st_runseries_add(st_runseries *rs, const st_sample *s);
/* The bytes the series holds (fixed at init). */
size_t st_runseries_bytes(const st_runseries *rs);

/* The columns as samples in time order, what a chart draws: a column of
 * one sample gives it, of two samples both, of more its first and last
 * values at its first and last times with, between them, each lane's
 * minimum and maximum in the order they came.  out: room for
 * 4 * rs->used samples (st_runseries_points_max); returns how many. */
size_t st_runseries_points_max(const st_runseries *rs);
/* 1 when no column holds more than two samples: the points are then the
 * samples themselves (but for a lane a column's first or last sample
 * lacks: that point carries it). */
int st_runseries_exact(const st_runseries *rs);
size_t st_runseries_points(const st_runseries *rs, st_sample *out);

#endif
