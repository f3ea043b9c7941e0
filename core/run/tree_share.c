/* tree_share.c: the tree's footprint with each page counted once
 * (tree.h, st_tree_share; docs/metrics.md, "Counted once").
 *
 * Each sample reads every member's status (cheap: RssAnon + RssShmem +
 * VmSwap); a page shared by k members is in each of their sums.  The
 * proportional reading (platform read_share: Linux smaps_rollup's
 * Pss_Anon + Pss_Shmem + SwapPss) counts it once, but costs the kernel a
 * walk of the member's page tables (about 11 ms per GiB mapped), so it is
 * read within a CPU budget: a credit of ST_SHARE_CPU (2 %) of one core
 * over the time between samples, capped at ST_SHARE_CREDIT_MAX, spent on
 * one member after another (those never read first, then the oldest; none
 * read again within ST_SHARE_FRESH_S).
 * What a read finds, the member's status sum minus its proportional sum,
 * is carried as its correction until its next read, and the sample's
 * footprint is the status sum minus the corrections.  A carried correction
 * is stale when copy-on-write pages break after it (a worker writes its
 * copy): its age is the oldest correction in force (a member never read
 * counts from when it joined), bounded by the budget's round of the tree;
 * each sample so corrected carries it (its footprint_age lane). */
#include "stagetop/clock.h"
#include "stagetop/grow.h"
#include "stagetop/lanes.h"
#include "stagetop/tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int same_id(st_proc_id a, st_proc_id b) { return a.pid == b.pid && a.start == b.start; }

void st_tree_share_free(st_tree_share *sh)
{
    free(sh->e);
    free(sh->scratch);
    sh->e = sh->scratch = NULL;
    sh->n = sh->cap = sh->scap = 0;
}

const char *st_tree_share_metric(const st_tree_share *sh, const char *plain)
{
    return sh->split == 1 ? ST_SHARE_METRIC : plain;
}

void st_tree_share_probe(st_tree_share *sh, const st_platform *plat, st_backend *b,
                         st_proc_id root)
{
    st_proc_share ps;
    sh->split = 0;
    sh->last_s = -1;
    sh->credit_s = ST_SHARE_CREDIT_MAX;
    if (plat->read_share && plat->read_share(b, root, &ps, NULL) == ST_OK)
        sh->split = ps.split ? 1 : 0;
}

/* The entry of member id in the table (a new one, first seen now: never
 * read, its age counted from now), kept in the order of the members. */
static int sync_table(st_tree_share *sh, const st_proc_mem *m, size_t n, double now_s,
                      st_error *err)
{
    size_t w = 0, h = 0; /* h: where the next member's entry likely is (the order holds) */
    if (st_grow(&sh->scratch, &sh->scap, n, sizeof *sh->scratch, 16) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu processes", n);
    for (size_t i = 0; i < n; i++) {
        st_share_ent e = {.id = m[i].id, .t = now_s, .tried_s = -1};
        if (!(m[i].valid & ST_PM_FOOTPRINT) || ((m[i].valid & ST_PM_STATE) && m[i].state == 'Z'))
            continue; /* nothing to count: a zombie, a member the kernel refused */
        for (size_t j = 0; j < sh->n; j++) {
            size_t k = (h + j) % sh->n;
            if (same_id(sh->e[k].id, m[i].id)) {
                e = sh->e[k];
                h = k + 1;
                break;
            }
        }
        e.fp = m[i].footprint;
        sh->scratch[w++] = e;
    }
    st_share_ent *t = sh->e;
    size_t tc = sh->cap;
    sh->e = sh->scratch, sh->cap = sh->scap;
    sh->scratch = t, sh->scap = tc;
    sh->n = w;
    return ST_OK;
}

/* The entry to read next: one never read (the longest known), else the
 * oldest correction; none when each was tried at this sample or is fresh. */
static st_share_ent *next_due(st_tree_share *sh, double now_s)
{
    st_share_ent *best = NULL;
    for (size_t k = 0; k < sh->n; k++) {
        st_share_ent *e = &sh->e[k];
        if (e->tried_s == now_s || (e->has && now_s - e->t < ST_SHARE_FRESH_S))
            continue; /* tried at this sample, or read less than a second ago */
        if (!best || (!e->has && best->has) || (e->has == best->has && e->t < best->t))
            best = e;
    }
    return best;
}

int st_tree_share_of(const st_tree_share *sh, st_proc_id id, uint64_t *alone, uint64_t *shared)
{
    for (size_t k = 0; sh->split == 1 && k < sh->n; k++)
        if (same_id(sh->e[k].id, id) && sh->e[k].has) {
            *alone = sh->e[k].alone;
            *shared = sh->e[k].shared;
            return 1;
        }
    return 0;
}

int st_tree_share_apply(st_tree_share *sh, const st_platform *plat, st_backend *b,
                        const st_proc_mem *m, size_t n, double now_s, st_sample *out,
                        st_error *err)
{
    uint64_t shmem = 0, delta = 0;
    double age = 0;
    int rc;
    sh->in_force = 0;
    if (sh->split != 1 || !plat->read_share || !(out->valid & ST_F_FOOTPRINT))
        return ST_OK;
    for (size_t i = 0; i < n; i++)
        if (m[i].valid & ST_PM_SHMEM)
            shmem += m[i].shmem;
    if (n < 2 && shmem == 0) { /* nothing can be shared: the status sum is exact */
        sh->n = 0;
        sh->last_s = now_s;
        return ST_OK;
    }
    if ((rc = sync_table(sh, m, n, now_s, err)) != ST_OK)
        return rc;
    if (sh->last_s >= 0 && now_s > sh->last_s)
        sh->credit_s += ST_SHARE_CPU * (now_s - sh->last_s);
    if (sh->credit_s > ST_SHARE_CREDIT_MAX)
        sh->credit_s = ST_SHARE_CREDIT_MAX;
    sh->last_s = now_s;
    while (sh->credit_s > 0) {
        st_share_ent *e = next_due(sh, now_s);
        st_proc_share ps;
        double c0, c1;
        if (!e)
            break;
        e->tried_s = now_s;
        c0 = st_cpu_self();
        rc = plat->read_share(b, e->id, &ps, NULL);
        c1 = st_cpu_self();
        if (c0 >= 0 && c1 >= c0) {
            sh->credit_s -= c1 - c0;
            sh->cost_s += c1 - c0;
        }
        sh->reads++;
        if (rc != ST_OK)
            continue; /* gone or refused: carried as it was (the tree drops the gone) */
        e->delta = ps.counted < e->fp ? e->fp - ps.counted : 0;
        e->alone = ps.alone;
        e->shared = ps.shared;
        e->has = 1;
        e->t = now_s;
    }
    for (size_t k = 0; k < sh->n; k++) {
        if (sh->e[k].has)
            delta += sh->e[k].delta < sh->e[k].fp ? sh->e[k].delta : sh->e[k].fp;
        if (now_s - sh->e[k].t > age)
            age = now_s - sh->e[k].t;
    }
    out->footprint -= delta < out->footprint ? delta : out->footprint;
    sh->in_force = 1;
    sh->age_s = age;
    /* the sample says it carries the proportional reading, and how old
     * (hundredths of a second, rounded; the lane's range caps it) */
    st_lane_set_raw(&st_lanes[ST_LANE_FOOTPRINT_AGE], out,
                    age * 100 + 0.5 < (double)UINT32_MAX ? (uint64_t)(age * 100 + 0.5) : UINT32_MAX);
    return ST_OK;
}
