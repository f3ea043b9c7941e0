/* runseries.c: a whole run in a fixed number of columns
 * (include/stagetop/runseries.h): every lane of the lane table, from its
 * row alone. */
#include "stagetop/runseries.h"
#include "stagetop/lanes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int st_runseries_init(st_runseries *rs, size_t cols, uint32_t origin_ms, st_error *err)
{
    memset(rs, 0, sizeof *rs);
    if (!cols)
        cols = ST_RUNSERIES_COLS;
    if (cols < 2 || cols % 2)
        return st_error_set(err, ST_EINVAL, 0, "a run's series needs an even number of columns, not %zu", cols);
    rs->col = calloc(cols, sizeof *rs->col); /* pages become resident as columns fill */
    if (!rs->col)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the run's series");
    rs->cap = cols;
    rs->width_ms = 1;
    rs->origin_ms = origin_ms;
    return ST_OK;
}

void st_runseries_free(st_runseries *rs)
{
    free(rs->col);
    memset(rs, 0, sizeof *rs);
}

size_t st_runseries_bytes(const st_runseries *rs)
{
    return sizeof *rs + rs->cap * sizeof *rs->col;
}

/* b, which comes after a, into a. */
static void merge_lane(st_runseries_lane *a, const st_runseries_lane *b)
{
    if (!b->n)
        return;
    if (!a->n) {
        *a = *b;
        return;
    }
    int min_b = b->min < a->min, max_b = b->max > a->max; /* ties: the earlier, a's */
    if (min_b != max_b)
        a->max_later = (uint8_t)max_b; /* one from each side: b's is later */
    else if (min_b)
        a->max_later = b->max_later;
    if (min_b)
        a->min = b->min;
    if (max_b)
        a->max = b->max;
    a->last = b->last;
    a->sum += b->sum;
    a->n += b->n;
}

static void merge_col(st_runseries_col *a, const st_runseries_col *b)
{
    if (!b->n)
        return;
    if (!a->n) {
        *a = *b;
        return;
    }
    a->t_last = b->t_last;
    a->n += b->n;
    a->has |= b->has;
    a->last_valid = b->last_valid;
    for (int i = 0; i < ST_LANE_COUNT; i++)
        merge_lane(&a->lane[i], &b->lane[i]);
}

/* Neighbour pairs into one column each; the width doubles. */
static void halve(st_runseries *rs)
{
    size_t half = rs->cap / 2;
    for (size_t i = 0; i < half; i++) {
        st_runseries_col pair = rs->col[2 * i];
        merge_col(&pair, &rs->col[2 * i + 1]);
        rs->col[i] = pair;
    }
    memset(rs->col + half, 0, half * sizeof *rs->col);
    rs->used = (rs->used + 1) / 2;
    rs->width_ms *= 2;
    rs->merges++;
}

void st_runseries_add(st_runseries *rs, const st_sample *s)
{
    if (!rs->col)
        return;
    uint64_t t = s->t_ms > rs->origin_ms ? s->t_ms - rs->origin_ms : 0;
    while (t / rs->width_ms >= rs->cap)
        halve(rs);
    size_t k = (size_t)(t / rs->width_ms);
    st_runseries_col *c = &rs->col[k];
    if (!c->n) {
        c->t_first = s->t_ms;
        c->first_valid = s->valid;
    }
    c->t_last = s->t_ms;
    c->last_valid = s->valid;
    c->n++;
    c->has |= s->valid;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        if (!(s->valid & st_lane_bit(i)))
            continue;
        uint64_t v = st_lane_raw(&st_lanes[i], s);
        st_runseries_lane *l = &c->lane[i];
        if (!l->n) {
            l->min = l->max = l->first = v;
            l->max_later = 0;
        } else if (v < l->min) {
            l->min = v;
            l->max_later = 0;
        } else if (v > l->max) {
            l->max = v;
            l->max_later = 1;
        }
        l->last = v;
        l->sum += (double)v;
        l->n++;
    }
    if (k + 1 > rs->used)
        rs->used = k + 1;
    rs->n_samples++;
}

size_t st_runseries_points_max(const st_runseries *rs)
{
    return 4 * rs->used;
}

int st_runseries_exact(const st_runseries *rs)
{
    for (size_t k = 0; k < rs->used; k++)
        if (rs->col[k].n > 2)
            return 0;
    return 1;
}

enum which { FIRST, EARLIER, LATER, LAST };

/* One point of column c at t: each lane of mask, its value of the kind asked. */
static void point(const st_runseries_col *c, uint32_t t, uint32_t mask, int which, st_sample *out)
{
    memset(out, 0, sizeof *out);
    out->t_ms = t;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_runseries_lane *l = &c->lane[i];
        if (!(mask & st_lane_bit(i)) || !l->n)
            continue;
        uint64_t v = which == FIRST ? l->first : which == LAST ? l->last
                   : (which == EARLIER) == !l->max_later ? l->max : l->min;
        st_lane_set_raw(&st_lanes[i], out, v);
    }
}

size_t st_runseries_points(const st_runseries *rs, st_sample *out)
{
    size_t n = 0;
    for (size_t k = 0; k < rs->used; k++) {
        const st_runseries_col *c = &rs->col[k];
        if (!c->n)
            continue;
        point(c, c->t_first, c->first_valid, FIRST, &out[n++]);
        if (c->n == 1)
            continue;
        if (c->n > 2) { /* the extremes between, in the order they came */
            uint32_t span = c->t_last > c->t_first ? c->t_last - c->t_first : 0;
            point(c, c->t_first + span / 3, c->has, EARLIER, &out[n++]);
            point(c, c->t_first + span - span / 3, c->has, LATER, &out[n++]);
        }
        point(c, c->t_last, c->last_valid, LAST, &out[n++]);
    }
    return n;
}
