/* stages.c: the per-stage table (stages.h). */
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
    uint32_t end = s->n_samples ? s->last_t_ms : 0;
    size_t si = 0, ei = 0;
    int have_prev = 0;
    uint64_t prev_swap = 0;
    for (size_t i = 0; i < s->n_stages; i++) {
        st_stage_row *row = &r[i];
        int last = i + 1 == s->n_stages;
        uint32_t t0 = s->stages[i].t0_ms, t1 = last ? end : s->stages[i + 1].t0_ms;
        memcpy(row->stage, s->stages[i].stage, sizeof row->stage);
        row->stage[sizeof row->stage - 1] = '\0';
        row->t0_ms = t0;
        st_summary_stage_final(s, i, &row->seconds_ms, &row->peak_footprint, &row->has_peak);
        /* samples before t0 (only before the first window) */
        while (si < t->n_samples && t->samples[si].t_ms < t0) {
            if (st_sample_has(&t->samples[si], ST_F_SWAP)) {
                prev_swap = t->samples[si].swap_used;
                have_prev = 1;
            }
            si++;
        }
        for (size_t k = si; k < t->n_samples; k++) {
            const st_sample *x = &t->samples[k];
            if (!(x->t_ms < t1 || (x->t_ms == t1 && t1 == end)))
                break;
            if (st_sample_has(x, ST_F_SWAP)) {
                if (!have_prev) {
                    prev_swap = x->swap_used;
                    have_prev = 1;
                }
                row->swap_growth = (int64_t)x->swap_used - (int64_t)prev_swap;
                row->has_swap = 1;
            }
            if (st_sample_has(x, ST_F_LEVEL) && (!row->has_level || x->level_c < row->min_level_c)) {
                row->min_level_c = x->level_c;
                row->has_level = 1;
            }
        }
        /* the next window starts after this one's samples (t < t1) */
        size_t k = si;
        while (k < t->n_samples && t->samples[k].t_ms < t1) {
            if (st_sample_has(&t->samples[k], ST_F_SWAP)) {
                prev_swap = t->samples[k].swap_used;
                have_prev = 1;
            }
            k++;
        }
        si = k;
        for (; ei < t->events.len; ei++) {
            const st_event *ev = &t->events.v[ei];
            if (ev->t_ms < t0)
                continue;
            if (!last && ev->t_ms >= t1)
                break;
            if (ev->kind == ST_EV_LOAD || ev->kind == ST_EV_RELOAD) {
                row->loads_count++;
                row->loads_bytes += ev->nbytes;
            }
        }
    }
    *rows = r;
    *n = s->n_stages;
    return ST_OK;
}
