/* summary.c: the incremental summary with stageload's summarize() semantics
 * (see summary.h for the rules).
 *
 * Stage windows: each stage event opens a window that the next one closes.
 * While a window is open, the footprint of every sample fed goes into its
 * open_peak.  stageload also counts the last sample(s) (t == end) in every
 * window whose t1 equals end; since "end" is only known when the run is
 * over, st_summary_finish applies that rule (stage_final) and
 * feeding more restores the open peaks first. */
#include "stagetop/grow.h"
#include "stagetop/summary.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void st_summary_init(st_summary *s)
{
    memset(s, 0, sizeof *s);
}

void st_summary_free(st_summary *s)
{
    for (size_t i = 0; i < s->n_outside_stage; i++)
        free(s->outside_stage[i]);
    free(s->outside_stage);
    free(s->stages);
    st_summary_init(s);
}

/* Undo st_summary_finish before feeding more. */
static void reopen(st_summary *s)
{
    for (size_t i = 0; i < s->n_stages; i++) {
        s->stages[i].peak_footprint = s->stages[i].open_peak;
        s->stages[i].has_peak = s->stages[i].has_open_peak;
    }
    s->finished = 0;
}

static int push_stage(st_summary *s, const char *name, uint32_t t0_ms, st_error *err)
{
    if (st_grow(&s->stages, &s->cap_stages, s->n_stages + 1, sizeof *s->stages, 16) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu stages", s->n_stages + 1);
    st_stage_stat *st = &s->stages[s->n_stages++];
    memset(st, 0, sizeof *st);
    st_event_set_str(st->stage, sizeof st->stage, name);
    st->t0_ms = t0_ms;
    if (s->has_swap) { /* growth counts from the last reading before it */
        st->swap_base = st->swap_last = s->swap_end;
        st->has_swap = 1;
    }
    return ST_OK;
}

int st_summary_add_sample(st_summary *s, const st_sample *smp, st_error *err)
{
    int rc = ST_OK;
    if (s->finished)
        reopen(s);
    if (s->n_stages == 0)
        rc = push_stage(s, "setup", 0, err);

    uint32_t t = smp->t_ms;
    /* A sample of a tree with no process left (the job has just gone:
     * procs 0, footprint 0) is the run's last word, not a reading of any
     * stage's peak: a stage with only that sample has none ("-"). */
    int has_fp = st_sample_has(smp, ST_F_FOOTPRINT) &&
                 !(st_sample_has(smp, ST_F_PROCS) && smp->procs == 0);
    uint32_t dt_ms = s->n_samples > 0 && t > s->last_t_ms ? t - s->last_t_ms : 0;
    st_lane_stats_add(&s->lanes, smp, dt_ms);
    st_activity_of(&s->act, &s->lanes);
    if (s->n_stages > 0) {
        st_stage_stat *open = &s->stages[s->n_stages - 1];
        st_lane_stats_add(&open->lanes, smp, dt_ms);
        st_activity_of(&open->act, &open->lanes);
    }
    if (s->n_samples == 0 || t > s->last_t_ms) {
        s->last_t_ms = t;
        s->has_end_peak = 0;
        s->end_peak = 0;
    }
    if (s->n_samples == 0)
        s->first_t_ms = t;
    s->n_samples++;
    if (has_fp && t == s->last_t_ms) {
        if (!s->has_end_peak || smp->footprint > s->end_peak)
            s->end_peak = smp->footprint;
        s->has_end_peak = 1;
    }
    if (has_fp && smp->footprint > s->peak_footprint)
        s->peak_footprint = smp->footprint;
    if (st_sample_has(smp, ST_F_RSS) && smp->rss > s->peak_rss)
        s->peak_rss = smp->rss;
    if (st_sample_has(smp, ST_F_GPU)) {
        if (!s->has_gpu || smp->gpu > s->peak_gpu)
            s->peak_gpu = smp->gpu;
        s->has_gpu = 1;
    }
    if (st_sample_has(smp, ST_F_SWAP)) {
        if (!s->has_swap) {
            s->swap_start = s->swap_peak = smp->swap_used;
            s->has_swap = 1;
        }
        if (smp->swap_used > s->swap_peak)
            s->swap_peak = smp->swap_used;
        s->swap_end = smp->swap_used;
    }
    if (st_sample_has(smp, ST_F_LEVEL)) {
        if (!s->has_level || smp->level_c < s->min_level_c)
            s->min_level_c = smp->level_c;
        s->has_level = 1;
    }
    if (s->n_stages > 0) {
        st_stage_stat *st = &s->stages[s->n_stages - 1];
        if (has_fp && (!st->has_open_peak || smp->footprint > st->open_peak)) {
            st->open_peak = smp->footprint;
            st->has_open_peak = 1;
            st->peak_footprint = st->open_peak;
            st->has_peak = 1;
        }
        st->seconds_ms = (int64_t)s->last_t_ms - (int64_t)st->t0_ms;
        if (st_sample_has(smp, ST_F_SWAP)) {
            if (!st->has_swap)
                st->swap_base = smp->swap_used;
            st->swap_last = smp->swap_used;
            st->has_swap = 1;
        }
        if (st_sample_has(smp, ST_F_LEVEL) && (!st->has_level || smp->level_c < st->min_level_c)) {
            st->min_level_c = smp->level_c;
            st->has_level = 1;
        }
    }
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort outside_stage and drop repeats, once for a batch (a sorted insert
 * per name was quadratic: 300,000 names took seconds, a million minutes). */
static void compact_outside(st_summary *s)
{
    if (s->n_outside_sorted == s->n_outside_stage)
        return;
    qsort(s->outside_stage, s->n_outside_stage, sizeof *s->outside_stage, cmp_names);
    size_t k = 0;
    for (size_t i = 0; i < s->n_outside_stage; i++) {
        if (k > 0 && strcmp(s->outside_stage[k - 1], s->outside_stage[i]) == 0)
            free(s->outside_stage[i]);
        else
            s->outside_stage[k++] = s->outside_stage[i];
    }
    s->n_outside_stage = s->n_outside_sorted = k;
}

char **st_summary_outside_sorted(const st_summary *s)
{
    char **v = malloc((s->n_outside_stage ? s->n_outside_stage : 1) * sizeof *v);
    if (!v)
        return NULL;
    if (s->n_outside_stage) {
        memcpy(v, s->outside_stage, s->n_outside_stage * sizeof *v);
        qsort(v, s->n_outside_stage, sizeof *v, cmp_names);
    }
    return v;
}

/* Append; the list is sorted and made unique when the unsorted tail
 * outgrows the sorted part (memory stays within about twice the distinct
 * names, the work O(n log n) overall) and at st_summary_finish. */
static int add_outside(st_summary *s, const char *name, st_error *err)
{
    if (st_grow(&s->outside_stage, &s->cap_outside_stage, s->n_outside_stage + 1,
                sizeof *s->outside_stage, 8) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    char *dup = strdup(name);
    if (!dup)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    s->outside_stage[s->n_outside_stage++] = dup;
    size_t tail = s->n_outside_stage - s->n_outside_sorted;
    if (tail >= 4096 && tail > s->n_outside_sorted)
        compact_outside(s);
    return ST_OK;
}

/* *sum += v, held at ST_SUMMARY_BYTES_MAX (2^53, the largest byte count a
 * trace may hold): 1 when it was held there. */
static int add_bytes(uint64_t *sum, uint64_t v)
{
    if (v > ST_SUMMARY_BYTES_MAX - *sum || *sum > ST_SUMMARY_BYTES_MAX) {
        *sum = ST_SUMMARY_BYTES_MAX;
        return 1;
    }
    *sum += v;
    return 0;
}

int st_stage_event_first(uint32_t event_t_ms, uint32_t sample_t_ms)
{
    return event_t_ms <= sample_t_ms;
}

uint32_t st_summary_event_floor(const st_summary *s, int kind, uint32_t last_event_t_ms)
{
    uint32_t floor = 0;
    if (s->n_samples > 0 && !(kind == ST_EV_STAGE && s->n_stage_events == 0 && s->last_t_ms == 0))
        floor = s->last_t_ms < UINT32_MAX ? s->last_t_ms + 1 : UINT32_MAX;
    return floor > last_event_t_ms ? floor : last_event_t_ms;
}

int st_summary_add_event(st_summary *s, const st_event *ev, st_error *err)
{
    if (s->finished)
        reopen(s);
    switch (ev->kind) {
    case ST_EV_STAGE: {
        const char *name = (ev->has & ST_EVF_STAGE) ? ev->stage : "";
        uint64_t first = s->n_stage_events == 0;
        s->n_stage_events++;
        if (first && s->n_stages == 1 && ev->t_ms == 0) {
            /* stageload drops "setup" when the first stage starts at t <= 0:
             * the samples fed so far (all at t = 0) belong to this stage. */
            st_event_set_str(s->stages[0].stage, sizeof s->stages[0].stage, name);
            return ST_OK;
        }
        if (s->n_stages == 0 && ev->t_ms > 0) {
            int rc = push_stage(s, "setup", 0, err);
            if (rc)
                return rc;
        }
        if (s->n_stages > 0) {
            st_stage_stat *prev = &s->stages[s->n_stages - 1];
            prev->seconds_ms = (int64_t)ev->t_ms - (int64_t)prev->t0_ms;
            if (s->paused && ev->t_ms > s->pause_mark_ms) /* its share of a pause going on */
                prev->paused_ms += (int64_t)ev->t_ms - (int64_t)s->pause_mark_ms;
        }
        if (s->paused && ev->t_ms > s->pause_mark_ms)
            s->pause_mark_ms = ev->t_ms;
        return push_stage(s, name, ev->t_ms, err);
    }
    case ST_EV_LOAD:
    case ST_EV_RELOAD:
        s->loads_count++;
        if (ev->has & ST_EVF_NBYTES)
            s->bytes_saturated |= add_bytes(&s->loads_bytes, ev->nbytes);
        if (s->n_stages > 0) { /* the stage window open at the load */
            st_stage_stat *st = &s->stages[s->n_stages - 1];
            st->loads_count++;
            if (ev->has & ST_EVF_NBYTES)
                s->bytes_saturated |= add_bytes(&st->loads_bytes, ev->nbytes);
        }
        if (ev->has & ST_EVF_SECONDS)
            s->loads_seconds += ev->seconds;
        if ((ev->has & ST_EVF_NOTE) && (ev->has & ST_EVF_NAME) && strcmp(ev->note, "outside_stage") == 0)
            return add_outside(s, ev->name, err);
        return ST_OK;
    case ST_EV_BUDGET:
        s->guard_pause_next = (ev->has & ST_EVF_NOTE) && strcmp(ev->note, "pause") == 0;
        return ST_OK;
    case ST_EV_PAUSE:
        if (!s->paused) {
            s->paused = 1;
            s->pause_t_ms = s->pause_mark_ms = ev->t_ms;
            s->n_pauses++;
            s->n_guard_pauses += s->guard_pause_next != 0;
        }
        s->guard_pause_next = 0;
        return ST_OK;
    case ST_EV_RESUME:
        if (s->paused) {
            if (ev->t_ms > s->pause_t_ms)
                s->paused_ms += (int64_t)ev->t_ms - (int64_t)s->pause_t_ms;
            if (s->n_stages > 0 && ev->t_ms > s->pause_mark_ms)
                s->stages[s->n_stages - 1].paused_ms += (int64_t)ev->t_ms - (int64_t)s->pause_mark_ms;
            s->paused = 0;
        }
        return ST_OK;
    case ST_EV_RELEASE:
        s->releases_count++;
        if (ev->has & ST_EVF_NBYTES)
            s->bytes_saturated |= add_bytes(&s->releases_bytes, ev->nbytes);
        return ST_OK;
    default:
        return ST_OK;
    }
}

void st_summary_add_kernel_peak_from(st_summary *s, uint64_t bytes, const char *source)
{
    if (!s->has_kernel_peak || bytes > s->kernel_peak) {
        s->kernel_peak = bytes;
        snprintf(s->kernel_peak_source, sizeof s->kernel_peak_source, "%s", source ? source : "");
    }
    s->has_kernel_peak = 1;
}

void st_summary_add_kernel_peak(st_summary *s, uint64_t bytes)
{
    st_summary_add_kernel_peak_from(s, bytes, NULL);
}

static void stage_final(const st_summary *s, size_t i, int64_t *seconds_ms, uint64_t *peak,
                        int *has_peak)
{
    const st_stage_stat *st = &s->stages[i];
    uint32_t end = s->n_samples ? s->last_t_ms : 0;
    uint32_t t1 = i + 1 < s->n_stages ? s->stages[i + 1].t0_ms : end;
    uint64_t p = st->open_peak;
    int has = st->has_open_peak;
    /* stageload: a sample with t == t1 == end is inside the window too. */
    if (s->n_samples && s->has_end_peak && t1 == end && (!has || s->end_peak > p)) {
        p = s->end_peak;
        has = 1;
    }
    *seconds_ms = (int64_t)t1 - (int64_t)st->t0_ms;
    *peak = p;
    *has_peak = has;
}

void st_summary_finish(st_summary *s)
{
    compact_outside(s);
    if (s->finished)
        return;
    for (size_t i = 0; i < s->n_stages; i++) {
        st_stage_stat *st = &s->stages[i];
        stage_final(s, i, &st->seconds_ms, &st->peak_footprint, &st->has_peak);
    }
    s->finished = 1;
}

int64_t st_stage_swap_growth(const st_stage_stat *st, int *has)
{
    *has = st->has_swap;
    if (!st->has_swap)
        return 0;
    return st->swap_last >= st->swap_base ? (int64_t)(st->swap_last - st->swap_base)
                                          : -(int64_t)(st->swap_base - st->swap_last);
}

void st_summary_stage(const st_summary *s, size_t i, st_stage_row *row)
{
    const st_stage_stat *st = &s->stages[i];
    memset(row, 0, sizeof *row);
    memcpy(row->stage, st->stage, sizeof row->stage);
    row->stage[sizeof row->stage - 1] = '\0';
    row->t0_ms = st->t0_ms;
    stage_final(s, i, &row->seconds_ms, &row->peak_footprint, &row->has_peak);
    row->swap_growth = st_stage_swap_growth(st, &row->has_swap);
    row->min_level_c = st->min_level_c;
    row->has_level = st->has_level;
    row->loads_count = st->loads_count;
    row->loads_bytes = st->loads_bytes;
    row->act = st->act;
    row->paused_ms = st->paused_ms;
    if (s->paused && i + 1 == s->n_stages && s->n_samples && s->last_t_ms > s->pause_mark_ms)
        row->paused_ms += (int64_t)s->last_t_ms - (int64_t)s->pause_mark_ms;
}

int64_t st_summary_paused_ms(const st_summary *s)
{
    int64_t ms = s->paused_ms;
    if (s->paused && s->n_samples && s->last_t_ms > s->pause_t_ms)
        ms += (int64_t)s->last_t_ms - (int64_t)s->pause_t_ms;
    return ms;
}
