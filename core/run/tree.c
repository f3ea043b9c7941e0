/* tree.c: a watched process tree (see tree.h).
 *
 * Each sample reads every known member through the backend; membership is
 * refreshed by the backend's descendants() at most every discover_s seconds,
 * and on the sample after a member vanished.  Membership is by identity: a
 * process once seen in the tree stays a member, with its own descendants,
 * until it exits, whatever its parent becomes (a middle shell that exits
 * leaves its worker in the tree; a root that exits leaves its job).  With
 * a reaper (st_tree_adopt_orphans_of: stagetop, the launched job's child
 * subreaper) every child of the reaper, and what lies under it, is a
 * member too: an orphan that re-parented to it before it was ever seen.
 * Memory is proportional to the tree: nothing here looks at other processes. */
#include "stagetop/grow.h"
#include "stagetop/lanes.h"
#include "stagetop/tree.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Times are sums of floating intervals (0.7 - 0.2 < 0.5): a discovery due
 * within a millisecond counts as due. */
#define ST_TREE_SLACK_S 1e-3

static int same_id(st_proc_id a, st_proc_id b) { return a.pid == b.pid && a.start == b.start; }

static int reserve(st_tree *t, size_t n, st_error *err)
{
    if (st_grow(&t->members, &t->cap, n, sizeof *t->members, 16) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu processes", n);
    return ST_OK;
}

int st_tree_init(st_tree *t, const st_platform *plat, st_backend *b, int32_t pid,
                 double discover_s, st_error *err)
{
    int rc;
    memset(t, 0, sizeof *t);
    t->plat = plat;
    t->b = b;
    t->discover_s = (isnan(discover_s) || discover_s < 0) ? 0.5 : discover_s;
    t->last_discover = -1;
    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
    rc = plat->identify(b, pid, &t->root, err);
    if (rc != ST_OK)
        return rc;
    if ((rc = reserve(t, 16, err)) != ST_OK)
        return rc;
    memset(&t->members[0], 0, sizeof t->members[0]);
    t->members[0].id = t->root;
    t->n_members = 1;
    t->root_alive = 1;
    st_tree_share_probe(&t->share, plat, b, t->root);
    return ST_OK;
}

void st_tree_free(st_tree *t)
{
    if (t->plat && t->plat->release)
        for (size_t i = 0; i < t->n_members; i++)
            t->plat->release(t->b, t->members[i].id);
    free(t->members);
    st_proc_vec_free(&t->scratch);
    st_tree_rates_free(&t->rates);
    st_tree_share_free(&t->share);
    free(t->cg_pids);
    free(t->outside);
    t->cg_pids = NULL;
    t->outside = NULL;
    t->members = NULL;
    t->n_members = t->cap = 0;
}

void st_tree_rediscover(st_tree *t) { t->last_discover = -1; }

static int is_member(const st_tree *t, st_proc_id id)
{
    for (size_t i = 0; i < t->n_members; i++)
        if (same_id(t->members[i].id, id))
            return 1;
    return 0;
}

size_t st_tree_unseen(st_tree *t)
{
    st_proc_vec v = {0};
    size_t n = 0;
    if (t->has_reaper && t->plat->descendants(t->b, t->reaper, &v, NULL) == ST_OK)
        for (size_t k = 0; k < v.len; k++)
            n += !same_id(v.v[k].id, t->reaper) && !same_id(v.v[k].id, t->root) &&
                 !is_member(t, v.v[k].id);
    if (t->group > 0 && t->plat->group_members &&
        t->plat->group_members(t->b, t->group, &v, NULL) == ST_OK)
        for (size_t k = 0; k < v.len; k++)
            n += v.v[k].id.start >= t->root.start && !same_id(v.v[k].id, t->root) &&
                 !is_member(t, v.v[k].id);
    st_proc_vec_free(&v);
    return n;
}

int st_tree_use_cgroup(st_tree *t, const st_job_group *g)
{
    uint64_t v;
    t->cgroup = NULL;
    if (g && g->active && t->plat->group_footprint &&
        t->plat->group_footprint(t->b, g, &v, NULL) == ST_OK)
        t->cgroup = g;
    return t->cgroup != NULL;
}

const char *st_tree_metric(const st_tree *t, const char *plain)
{
    return t->cgroup ? ST_GROUP_METRIC : st_tree_share_metric(&t->share, plain);
}

static int vec_has_pid(const st_proc_vec *v, int32_t pid)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->v[i].id.pid == pid)
            return 1;
    return 0;
}

static int vec_has(const st_proc_vec *v, st_proc_id id)
{
    for (size_t i = 0; i < v->len; i++)
        if (same_id(v->v[i].id, id))
            return 1;
    return 0;
}

/* Add to scratch the surviving members it lacks (orphans, re-parented to
 * init or a subreaper, and what lies under them): all of them once the
 * root is gone (scratch cleared first); otherwise those the root no longer
 * reaches because their parent is gone (a middle process exited, or the
 * root is a zombie not reaped yet).  Each survivor not already found under
 * an earlier one is looked up itself, by identity (its cached reading, then
 * pid + start), so one whose parent died too is not lost.  A member missing
 * under a parent that is still listed is looked up too when that parent is
 * (or may be) a zombie: the kernel hands children to init or a subreaper
 * when their parent exits, not when it is reaped (XNU proc_exit, Linux
 * exit_notify), so a zombie parent stays listed while its children are
 * already elsewhere; under a live parent it exited.  The dead root is never looked
 * up again: its pid may already be someone else's. */
static int discover_orphans(st_tree *t, int clear, st_error *err)
{
    st_proc_vec part = {0};
    int rc = ST_OK;
    if (clear)
        st_proc_vec_clear(&t->scratch);
    for (size_t i = 0; i < t->n_members && rc == ST_OK; i++) {
        const st_proc_mem *m = &t->members[i];
        if (same_id(m->id, t->root) || vec_has(&t->scratch, m->id))
            continue;
        /* Its parent is listed and alive (not a zombie): it would have been
         * found under it, so it exited, and its pid may already be a
         * stranger's with the same start tick (a lookup could take it). */
        if (!clear && m->ppid > 0 && vec_has_pid(&t->scratch, m->ppid) && t->plat->is_zombie &&
            t->plat->is_zombie(t->b, m->ppid) == 0)
            continue;
        st_proc_mem probe; /* the cached reading proves it is the same process */
        if (!clear && t->plat->read_proc(t->b, m->id, &probe, NULL) != ST_OK)
            continue; /* exited (its pid may already be a stranger's, same start tick) */
        if (t->plat->descendants(t->b, m->id, &part, NULL) != ST_OK)
            continue; /* gone too */
        for (size_t k = 0; k < part.len && rc == ST_OK; k++)
            if (!vec_has(&t->scratch, part.v[k].id))
                rc = st_proc_vec_push(&t->scratch, &part.v[k], err);
    }
    st_proc_vec_free(&part);
    return rc;
}

/* The reaper's children (other than the reaper itself) and what lies under
 * them: the job's orphans, also those never seen under the root. */
static int discover_adopted(st_tree *t, st_error *err)
{
    st_proc_vec part = {0};
    int rc = ST_OK;
    if (t->plat->descendants(t->b, t->reaper, &part, NULL) == ST_OK)
        for (size_t k = 0; k < part.len && rc == ST_OK; k++)
            if (!same_id(part.v[k].id, t->reaper) && !vec_has(&t->scratch, part.v[k].id))
                rc = st_proc_vec_push(&t->scratch, &part.v[k], err);
    st_proc_vec_free(&part);
    return rc;
}

/* The launched job's process group, where no subreaper adopts its orphans
 * (macOS): each process of the group that started no earlier than the
 * root (the usual `cmd &` orphan, re-parented to launchd) and what lies
 * under it.  A start token older than the root's is not the job's. */
static int discover_group(st_tree *t, st_error *err)
{
    st_proc_vec grp = {0}, part = {0};
    int rc = ST_OK;
    if (t->plat->group_members(t->b, t->group, &grp, NULL) == ST_OK)
        for (size_t k = 0; k < grp.len && rc == ST_OK; k++) {
            st_proc_id id = grp.v[k].id;
            if (id.start < t->root.start || vec_has(&t->scratch, id) ||
                t->plat->descendants(t->b, id, &part, NULL) != ST_OK)
                continue;
            for (size_t j = 0; j < part.len && rc == ST_OK; j++)
                if (!vec_has(&t->scratch, part.v[j].id))
                    rc = st_proc_vec_push(&t->scratch, &part.v[j], err);
        }
    st_proc_vec_free(&part);
    st_proc_vec_free(&grp);
    return rc;
}

int st_tree_adopt_group(st_tree *t, int32_t pgid)
{
    if (!t->plat->group_members || pgid <= 0)
        return ST_ENOTSUP;
    t->group = pgid;
    return ST_OK;
}

int st_tree_adopt_orphans_of(st_tree *t, int32_t pid, st_error *err)
{
    int rc = t->plat->identify(t->b, pid, &t->reaper, err);
    t->has_reaper = rc == ST_OK;
    return rc;
}

/* Replace the member list with a fresh discovery (readings follow). */
static int discover_all(st_tree *t, double now_s, st_error *err);

static int discover(st_tree *t, double now_s, st_error *err)
{
    if (t->plat->discovery)
        t->plat->discovery(t->b, 1);
    int rc = discover_all(t, now_s, err);
    if (t->plat->discovery)
        t->plat->discovery(t->b, 0);
    return rc;
}

static int discover_all(st_tree *t, double now_s, st_error *err)
{
    int rc = ST_ESRCH;
    if (t->root_alive) {
        rc = t->plat->descendants(t->b, t->root, &t->scratch, err);
        if (rc == ST_ESRCH)
            t->root_alive = 0;
        else if (rc != ST_OK)
            return rc;
        else if (t->n_members > 1 && (rc = discover_orphans(t, 0, err)) != ST_OK)
            return rc;
    }
    if (!t->root_alive && (rc = discover_orphans(t, 1, err)) != ST_OK)
        return rc;
    if (t->has_reaper && (rc = discover_adopted(t, err)) != ST_OK)
        return rc;
    if (t->group > 0 && (rc = discover_group(t, err)) != ST_OK)
        return rc;
    if ((rc = reserve(t, t->scratch.len, err)) != ST_OK)
        return rc;
    if (t->plat->release)
        for (size_t i = 0; i < t->n_members; i++)
            if (!vec_has(&t->scratch, t->members[i].id))
                t->plat->release(t->b, t->members[i].id);
    for (size_t i = 0; i < t->scratch.len; i++) {
        memset(&t->members[i], 0, sizeof t->members[i]);
        t->members[i].id = t->scratch.v[i].id;
        t->members[i].ppid = t->scratch.v[i].ppid;
    }
    t->n_members = t->scratch.len;
    t->last_discover = now_s;
    return ST_OK;
}

/* The lanes the tree reads itself: the sums over its processes
 * (ST_LS_PROC) and what it computes from them (ST_LS_TREE). */
static int tree_lane(const st_lane *l) { return l->source == ST_LS_PROC || l->source == ST_LS_TREE; }

/* Add process m's fields to the sums of the ST_LS_PROC lanes (read: m was
 * readable).  has: the lanes' bits that hold a sum so far. */
static void add_proc(const st_proc_mem *m, int read, uint64_t sum[ST_LANE_COUNT], uint32_t *has)
{
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *l = &st_lanes[i];
        if (l->source != ST_LS_PROC)
            continue;
        if (read && l->sum == ST_LSUM_READ) /* a zombie has no memory lines and counts 0 */
            *has |= st_lane_bit(i);
        if (m->valid & l->pm_bit) {
            sum[i] += *(const uint64_t *)(const void *)((const unsigned char *)m + l->pm_offset);
            *has |= st_lane_bit(i);
        }
    }
}

static int cmp_pid(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Add to *v the members m[0..n) that are not in the job's cgroup (moved
 * out: the cgroup no longer charges what they allocate), counted by the
 * proportional path over them alone. */
static int count_outside(st_tree *t, size_t n, double now_s, const st_sample *out, uint64_t *v,
                         st_error *err)
{
    size_t np = 0;
    st_sample o;
    int rc;
    if (!t->plat->group_pids ||
        t->plat->group_pids(t->b, t->cgroup, &t->cg_pids, &t->cg_cap, &np, NULL) != ST_OK)
        return ST_OK; /* not known: every member counts as inside */
    o = *out;
    o.footprint = 0;
    for (size_t i = 0; i < n; i++) {
        const st_proc_mem *m = &t->members[i];
        if (!(m->valid & ST_PM_FOOTPRINT) || ((m->valid & ST_PM_STATE) && m->state == 'Z') ||
            (np > 0 && bsearch(&m->id.pid, t->cg_pids, np, sizeof *t->cg_pids, cmp_pid)))
            continue;
        if (st_grow(&t->outside, &t->out_cap, t->n_outside + 1, sizeof *t->outside, 8) != 0)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu processes", n);
        t->outside[t->n_outside++] = *m;
        o.footprint += m->footprint;
    }
    if (t->n_outside == 0)
        return ST_OK;
    if ((rc = st_tree_share_apply(&t->share, t->plat, t->b, t->outside, t->n_outside, now_s, &o,
                                  err)) != ST_OK)
        return rc;
    *v += o.footprint;
    return ST_OK;
}

int st_tree_sample(st_tree *t, double now_s, st_sample *out, st_error *err)
{
    uint64_t sum[ST_LANE_COUNT] = {0};
    uint32_t has = 0;
    int vanished = 0;
    size_t w = 0, dead = 0;
    int rc;

    for (int i = 0; i < ST_LANE_COUNT; i++)
        if (tree_lane(&st_lanes[i])) {
            st_lane_set_raw(&st_lanes[i], out, 0);
            out->valid &= ~st_lane_bit(i);
        }
    /* With no member left, a reaper's or a group's processes may still be
     * the job's: an orphan forked and re-parented between two discoveries,
     * never seen under the root, is found by the next one. */
    if ((t->n_members > 0 || t->has_reaper || t->group > 0) &&
        (t->last_discover < 0 || now_s - t->last_discover + ST_TREE_SLACK_S >= t->discover_s ||
         now_s < t->last_discover)) {
        rc = discover(t, now_s, err);
        if (rc != ST_OK)
            return rc;
    }
    t->eperm_count = 0;
    for (size_t i = 0; i < t->n_members; i++) {
        st_proc_mem m;
        st_proc_id id = t->members[i].id;
        rc = t->plat->read_proc(t->b, id, &m, NULL);
        if (rc == ST_ESRCH) { /* gone: drop it, look for changes next time */
            if (t->plat->release)
                t->plat->release(t->b, id);
            if (same_id(id, t->root))
                t->root_alive = 0;
            vanished = 1;
            continue;
        }
        if (rc == ST_ENOMEM)
            return st_error_set(err, rc, ENOMEM, "out of memory reading process %d", (int)id.pid);
        if (rc != ST_OK) { /* refused or unreadable: a member without numbers */
            int32_t ppid = t->members[i].ppid;
            memset(&m, 0, sizeof m);
            m.id = id;
            m.ppid = ppid;
            if (rc == ST_EPERM)
                t->eperm_count++;
        }
        add_proc(&m, rc == ST_OK, sum, &has);
        if ((m.valid & ST_PM_PEAK) && (!t->has_kernel_peak || m.peak > t->kernel_peak)) {
            t->kernel_peak = m.peak;
            t->has_kernel_peak = 1;
        }
        if (m.ppid == 0)
            m.ppid = t->members[i].ppid;
        if ((m.valid & ST_PM_STATE) && m.state == 'Z')
            dead++; /* exited, not yet reaped (by stagetop, the subreaper, or its parent) */
        t->members[w++] = m;
    }
    t->n_members = w;
    if (vanished)
        t->last_discover = -1;
    out->procs = (uint32_t)(w - dead); /* live members: a zombie is listed, not counted */
    out->valid |= ST_F_PROCS;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *l = &st_lanes[i];
        /* the whole tree has gone: it holds nothing */
        if (l->source == ST_LS_PROC && ((has & st_lane_bit(i)) || (w == 0 && l->sum == ST_LSUM_READ)))
            st_lane_set_raw(l, out, sum[i]);
    }
    if (t->cgroup) { /* one read of the job's cgroup counts the tree once */
        uint64_t v;
        t->share.in_force = 0;
        t->n_outside = 0;
        if (w > 0 && (out->valid & ST_F_FOOTPRINT) &&
            t->plat->group_footprint(t->b, t->cgroup, &v, NULL) == ST_OK) {
            if ((rc = count_outside(t, w, now_s, out, &v, err)) != ST_OK)
                return rc;
            out->footprint = v; /* gone (removed at the end): the members' sum */
        }
    } else if ((rc = st_tree_share_apply(&t->share, t->plat, t->b, t->members, w, now_s, out,
                                         err)) != ST_OK)
        return rc;
    return st_tree_rates_update(&t->rates, t->members, w, now_s, out, err);
}
