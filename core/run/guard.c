/* guard.c: the budget policy of guard.h (pure: samples in, decisions out).
 *
 * Semantics (those of `stageload guard`, see docs/guard.md):
 *  - swap: growth = swap_used - base, where base is the swap used when the
 *    job started (st_guard_set_base, else the first sample holding swap).
 *    The guard trips at the first sample whose growth is strictly above the
 *    budget; a crossing that happened between two samples is seen at the
 *    first sample above (no interpolation).  A shrinking swap does NOT lower
 *    the base: the limit is the fixed line base + budget, so swap that other
 *    processes (or the job itself, by swapping pages back in) give back while
 *    the job runs is headroom, not a new, lower starting point.
 *  - level: a sample whose level is strictly under kill_free counts; a
 *    sample at or above it resets the count; two counted samples in a row
 *    trip.  Samples without a level are skipped (neither count nor reset).
 *  - once tripped, nothing trips again until st_guard_rearm, which does not
 *    move the base (call st_guard_set_base to grant a fresh budget from the
 *    current swap).
 * The swap rate and the time to budget are the run view's (run_view.h). */
#include "stagetop/guard.h"

#include <string.h>

/* Level samples under the threshold, in a row, that trip the guard. */
#define ST_GUARD_LOW_SAMPLES 2

int st_guard_active(const st_guard_opts *o)
{
    return o && (o->has_swap_budget || o->has_kill_free);
}

void st_guard_init(st_guard *g, const st_guard_opts *o)
{
    memset(g, 0, sizeof *g);
    if (o)
        g->o = *o;
}

void st_guard_set_base(st_guard *g, uint64_t swap_used)
{
    g->swap_base = swap_used;
    g->has_base = 1;
}

/* now - base as a signed number, saturating. */
static int64_t growth(uint64_t now, uint64_t base)
{
    if (now >= base) {
        uint64_t d = now - base;
        return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
    }
    uint64_t d = base - now;
    return d > (uint64_t)INT64_MAX ? -INT64_MAX : -(int64_t)d;
}

int st_guard_check(st_guard *g, const st_sample *s, st_guard_verdict *v)
{
    st_guard_verdict found = { ST_GUARD_NONE, g->o.action, 0, 0 };

    if (st_sample_has(s, ST_F_SWAP)) {
        if (!g->has_base)
            st_guard_set_base(g, s->swap_used);
        int64_t grown = growth(s->swap_used, g->swap_base);
        uint64_t budget = g->o.swap_budget;
        if (g->o.has_swap_budget && grown > 0 && (uint64_t)grown > budget) {
            found.reason = ST_GUARD_SWAP;
            found.value = grown;
            found.limit = budget > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)budget;
        }
    }
    if (g->o.has_kill_free && st_sample_has(s, ST_F_LEVEL)) {
        if (s->level_c < g->o.kill_free_c) {
            if (g->low_count < ST_GUARD_LOW_SAMPLES)
                g->low_count++;
        } else {
            g->low_count = 0;
        }
        if (found.reason == ST_GUARD_NONE && g->low_count >= ST_GUARD_LOW_SAMPLES) {
            found.reason = ST_GUARD_LEVEL;
            found.value = s->level_c;
            found.limit = g->o.kill_free_c;
        }
    }
    if (found.reason == ST_GUARD_NONE || g->tripped)
        return 0;
    g->tripped = 1;
    if (v)
        *v = found;
    return 1;
}

void st_guard_rearm(st_guard *g)
{
    g->tripped = 0;
    g->low_count = 0;
}
