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
    g->page_size = 4096;
}

void st_guard_set_base(st_guard *g, uint64_t swap_used)
{
    g->swap_base = swap_used;
    g->has_base = 1;
    /* the job's share counts from here too */
    g->tree_swap_base = g->last_tree_swap;
    g->has_tree_swap_base = g->has_last_tree_swap;
    g->tree_cmp_base = g->last_tree_cmp;
    g->has_tree_cmp_base = g->has_last_tree_cmp;
    g->pageins_since = 0;
}

/* The job's share: its own swap at the base (the first reading when the
 * base came before any), its compressed memory likewise, and its page-ins
 * since (the rates integrated over the time between samples).
 *
 * On macOS the compressed memory, not the page-ins: XNU counts an anonymous
 * page that comes back from the compressor, or from swap through it, as a
 * decompression (xnu-11417.101.15 osfmk/vm/vm_fault.c:2566-2567,
 * DBG_COMPRESSOR_FAULT / DBG_COMPRESSOR_SWAPIN_FAULT -> VM_STAT_DECOMPRESSIONS,
 * :208-212), and only a page read from a pager (a file) as a page-in
 * (:2539-2540, DBG_PAGEIN_FAULT -> VM_PAGE_COUNT_AS_PAGEIN): a job being
 * squeezed shows in its compressed bytes, hardly in its page-ins.  Those
 * bytes are counted at their uncompressed size and part of them may sit in
 * RAM, so the growth is not a share of the swap: it says only that the job's
 * own memory was pushed out meanwhile. */
static void track_share(st_guard *g, const st_sample *s)
{
    if (st_sample_has(s, ST_F_TREE_COMPRESSED)) {
        if (!g->has_tree_cmp_base) {
            g->tree_cmp_base = s->tree_compressed;
            g->has_tree_cmp_base = 1;
        }
        g->last_tree_cmp = s->tree_compressed;
        g->has_last_tree_cmp = 1;
    }
    if (st_sample_has(s, ST_F_TREE_SWAP)) {
        if (!g->has_tree_swap_base) {
            g->tree_swap_base = s->tree_swap;
            g->has_tree_swap_base = 1;
        }
        g->last_tree_swap = s->tree_swap;
        g->has_last_tree_swap = 1;
    }
    if (st_sample_has(s, ST_F_PAGEINS) && g->has_share_t && s->t_ms > g->share_t_ms) {
        g->pageins_since += s->pageins_c / 100.0 * (double)(s->t_ms - g->share_t_ms) / 1000.0;
        g->has_pageins = 1;
    }
    g->share_t_ms = s->t_ms;
    g->has_share_t = 1;
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
    st_guard_verdict found = { ST_GUARD_NONE, g->o.action, 0, 0, ST_SHARE_NONE, 0, 0 };

    track_share(g, s);
    if (st_sample_has(s, ST_F_SWAP)) {
        if (!g->has_base)
            st_guard_set_base(g, s->swap_used);
        int64_t grown = growth(s->swap_used, g->swap_base);
        uint64_t budget = g->o.swap_budget;
        if (g->o.has_swap_budget && grown > 0 && (uint64_t)grown > budget) {
            found.reason = ST_GUARD_SWAP;
            found.value = grown;
            found.since_resume = g->base_at_resume;
            found.limit = budget > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)budget;
            if (g->has_tree_swap_base && st_sample_has(s, ST_F_TREE_SWAP)) {
                found.share_kind = ST_SHARE_TREE_SWAP;
                found.share = growth(s->tree_swap, g->tree_swap_base);
            } else if (g->has_tree_cmp_base && st_sample_has(s, ST_F_TREE_COMPRESSED)) {
                found.share_kind = ST_SHARE_TREE_COMPRESSED;
                found.share = growth(s->tree_compressed, g->tree_cmp_base);
            } else if (g->has_pageins) {
                found.share_kind = ST_SHARE_PAGEINS;
                found.share = (int64_t)(g->pageins_since * (double)g->page_size + 0.5);
            }
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
