/* stages.c: the per-stage table (stages.h).  Every number comes from the
 * summary's own stage windows (core/model/summary.c keeps them as samples and
 * events are fed), so `report`, `diff` and the screen's stage table (key s)
 * show the same numbers. */
#include "stagetop/stages.h"

#include <stdlib.h>
#include <string.h>

int st_stage_rows(const st_summary *s, st_stage_row **rows, size_t *n, st_error *err)
{
    *rows = NULL;
    *n = 0;
    if (s->n_stages == 0)
        return ST_OK;
    st_stage_row *r = calloc(s->n_stages, sizeof *r);
    if (!r)
        return st_error_set(err, ST_ENOMEM, 0, "out of memory for %zu stages", s->n_stages);
    for (size_t i = 0; i < s->n_stages; i++)
        st_summary_stage(s, i, &r[i]);
    *rows = r;
    *n = s->n_stages;
    return ST_OK;
}
