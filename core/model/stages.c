/* stages.c: the per-stage table (stages.h).  Every number comes from the
 * summary's own stage windows (core/model/summary.c keeps them as samples and
 * events are fed), so `report`, `diff` and the screen's stage table (key s)
 * show the same numbers. */
#include "stagetop/stages.h"

#include <stdlib.h>
#include <string.h>

int st_stage_rows(const st_trace *t, st_stage_row **rows, size_t *n, st_error *err)
{
    const st_summary *s = &t->summary;
    *rows = NULL;
    *n = 0;
    if (s->n_stages == 0)
        return ST_OK;
    st_stage_row *r = calloc(s->n_stages, sizeof *r);
    if (!r)
        return st_error_set(err, ST_ENOMEM, 0, "out of memory for %zu stages", s->n_stages);
    for (size_t i = 0; i < s->n_stages; i++) {
        const st_stage_stat *st = &s->stages[i];
        st_stage_row *row = &r[i];
        memcpy(row->stage, st->stage, sizeof row->stage);
        row->stage[sizeof row->stage - 1] = '\0';
        row->t0_ms = st->t0_ms;
        st_summary_stage_final(s, i, &row->seconds_ms, &row->peak_footprint, &row->has_peak);
        row->swap_growth = st_stage_swap_growth(st, &row->has_swap);
        row->min_level_c = st->min_level_c;
        row->has_level = st->has_level;
        row->loads_count = st->loads_count;
        row->loads_bytes = st->loads_bytes;
    }
    *rows = r;
    *n = s->n_stages;
    return ST_OK;
}
