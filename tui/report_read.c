/* report_read.c: the text chart of `stagetop report` in bounded memory
 * (report_read.h): its frame, its columns filled sample by sample, a
 * guess of a file's time range from its ends, and a read again when the
 * guess was not the frame. */
#include "report_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/lanes.h"

void cli_report_frame_of(uint32_t first, uint32_t last, cli_report_frame *f)
{
    double span = last - (double)first;
    double x0 = first <= 0.1 * span ? 0 : first;
    uint32_t col_ms = (uint32_t)ceil((last - x0 + 1) / CLI_REPORT_COLS);
    if (col_ms < 1)
        col_ms = 1;
    while (last / col_ms - (uint32_t)x0 / col_ms >= CLI_REPORT_COLS)
        col_ms++; /* the last sample in the last column, whatever x0's phase */
    f->col_ms = col_ms;
    f->last = last;
    f->x0 = x0;
    f->col0 = (uint64_t)x0 / col_ms;
}

void cli_report_cols_begin(cli_report_cols *c, const cli_report_frame *f)
{
    memset(c, 0, sizeof *c);
    if (f)
        c->f = *f;
    for (int r = 0; r < CLI_RC_ROWS; r++)
        for (int j = 0; j < CLI_REPORT_COLS; j++)
            c->v[r][j] = NAN;
    c->max_n = (size_t)-1;
}

int cli_report_cols_sample(void *ctx, const st_sample *s, st_error *err)
{
    static const int lane[CLI_RC_ROWS] = {ST_LANE_FOOTPRINT, ST_LANE_SWAP, ST_LANE_LEVEL};
    cli_report_cols *c = ctx;
    (void)err;
    if (c->n >= c->max_n)
        return ST_OK; /* written since the first read: not in the report */
    c->n++;
    if (!c->f.col_ms)
        return ST_OK;
    uint64_t k = (uint64_t)s->t_ms / c->f.col_ms; /* tui_bucket's column */
    if (k < c->f.col0 || k - c->f.col0 >= CLI_REPORT_COLS)
        return ST_OK;
    for (int r = 0; r < CLI_RC_ROWS; r++) {
        double x = st_lane_value(lane[r], s);
        double *o = &c->v[r][k - c->f.col0];
        if (isnan(x))
            continue;
        if (isnan(*o) || (r == CLI_RC_LEVEL ? x < *o : x > *o))
            *o = x;
    }
    return ST_OK;
}

int cli_report_guess(const char *path, uint32_t *first, uint32_t *last)
{
    st_trace scratch;
    int ok = 0;
    st_trace_init(&scratch);
    if (st_trace_read_ends(path, &scratch, NULL) && scratch.summary.n_samples) {
        *first = scratch.summary.first_t_ms;
        *last = scratch.summary.last_t_ms;
        ok = 1;
    }
    st_trace_free(&scratch);
    return ok;
}

int cli_report_cols_read(const char *path, cli_report_cols *c, st_error *err)
{
    st_trace again;
    st_trace_pass pass = {cli_report_cols_sample, c, 1};
    cli_report_frame f = c->f;
    size_t max_n = c->n;
    cli_report_cols_begin(c, &f);
    c->max_n = max_n;
    int rc = st_trace_pass_file(path, &pass, &again, err);
    if (rc == ST_OK)
        st_trace_free(&again);
    if (rc == ST_OK && c->n < max_n)
        rc = st_error_set(err, ST_EIO, 0, "the file changed while it was read (%zu samples, then %zu)",
                          max_n, c->n);
    return rc;
}
