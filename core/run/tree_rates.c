/* tree_rates.c: the tree's CPU and page-in rates from the members'
 * counters (see tree.h, st_tree_rates).
 *
 * Each sample keeps, per member, its counters: own CPU time and major
 * faults, and the part of its reaped children (Linux cutime + cstime and
 * cmajflt; macOS ri_child_*).  A rate is the sum of the members' growth
 * since the last sample over the time between the two:
 *   - a member at both samples adds its growth;
 *   - a member that appears (forked since the last sample, or found by a
 *     later discovery: it started inside the tree) adds its counters from
 *     zero, so a short child is not lost;
 *   - a member that leaves has added up to its last reading.  When its
 *     parent is a member, the kernel folds the child's final counters into
 *     the parent's children part when the parent reaps it: the part already
 *     counted is kept as a credit on the parent and taken from the growth
 *     of that children part, so it is not counted twice and the last bit
 *     (between the last reading and the exit) is not lost.  A member that
 *     stagetop itself reaps gives its final counters through wait4's rusage
 *     (st_tree_note_exit): the rest after its last reading is added.
 * Memory: two arrays of the tree's size. */
#include "stagetop/grow.h"
#include "stagetop/tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_pid(const void *a, const void *b)
{
    const st_tree_ctr *x = a, *y = b;
    return (x->id.pid > y->id.pid) - (x->id.pid < y->id.pid);
}

static st_tree_ctr *find(st_tree_ctr *v, size_t n, int32_t pid)
{
    st_tree_ctr key;
    key.id.pid = pid;
    return bsearch(&key, v, n, sizeof *v, by_pid);
}

void st_tree_rates_free(st_tree_rates *r)
{
    free(r->prev);
    free(r->cur);
    memset(r, 0, sizeof *r);
}

void st_tree_note_exit(st_tree_rates *r, int32_t pid, uint64_t cpu_ns, uint64_t majflt)
{
    st_tree_ctr *p = r->has_prev ? find(r->prev, r->n_prev, pid) : NULL;
    if (!p)
        return; /* never read: nothing of it was counted, nor can be placed */
    p->exit_cpu_ns = cpu_ns;
    p->exit_majflt = majflt;
    p->exited = 1;
}

static uint64_t sub0(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* What a departed member d adds now: the rest that wait4 gave. */
static void departed(st_tree_rates *r, st_tree_ctr *d, uint64_t *cpu, uint64_t *flt)
{
    st_tree_ctr *parent = find(r->cur, r->n_cur, d->ppid);
    if (d->exited) { /* stagetop reaped it: the rusage holds everything */
        *cpu += sub0(d->exit_cpu_ns, d->cpu_ns + d->child_cpu_ns + d->credit_cpu_ns);
        *flt += sub0(d->exit_majflt, d->majflt + d->child_majflt + d->credit_majflt);
        return;
    }
    if (parent && parent->id.start <= d->id.start) { /* its parent reaps it */
        parent->credit_cpu_ns += d->cpu_ns + d->child_cpu_ns + d->credit_cpu_ns;
        parent->credit_majflt += d->majflt + d->child_majflt + d->credit_majflt;
    }
}

/* Growth of a children part, less the credit it pays back. */
static uint64_t child_growth(uint64_t now, uint64_t before, uint64_t *credit)
{
    uint64_t g = sub0(now, before), take = g < *credit ? g : *credit;
    *credit -= take;
    return g - take;
}

int st_tree_rates_update(st_tree_rates *r, st_proc_mem *m, size_t n, double now_s, st_sample *out,
                         st_error *err)
{
    uint64_t cpu = 0, flt = 0;
    double dt = now_s - r->prev_s;
    int rate;

    if (st_grow(&r->cur, &r->cap_cur, n ? n : 1, sizeof *r->cur, 16) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu processes", n);
    r->n_cur = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(m[i].valid & ST_PM_COUNTERS))
            continue;
        st_tree_ctr *c = &r->cur[r->n_cur++];
        memset(c, 0, sizeof *c);
        c->id = m[i].id;
        c->ppid = m[i].ppid;
        c->cpu_ns = m[i].cpu_ns;
        c->child_cpu_ns = m[i].child_cpu_ns;
        c->majflt = m[i].pageins;
        c->child_majflt = m[i].child_pageins;
        c->member = i;
    }
    qsort(r->cur, r->n_cur, sizeof *r->cur, by_pid);
    /* No counters at either sample (a backend without them): no rate. */
    rate = r->has_prev && dt > 1e-6 && (r->n_prev > 0 || r->n_cur > 0);
    /* Carry the credits over, then hand the departed members' to parents. */
    for (size_t i = 0; r->has_prev && i < r->n_cur; i++) {
        st_tree_ctr *c = &r->cur[i], *p = find(r->prev, r->n_prev, c->id.pid);
        if (p && p->id.start == c->id.start) {
            c->credit_cpu_ns = p->credit_cpu_ns;
            c->credit_majflt = p->credit_majflt;
        }
    }
    for (size_t i = 0; r->has_prev && i < r->n_prev; i++) {
        st_tree_ctr *p = &r->prev[i], *c = find(r->cur, r->n_cur, p->id.pid);
        if (!c || c->id.start != p->id.start)
            departed(r, p, &cpu, &flt);
    }
    for (size_t i = 0; r->has_prev && i < r->n_cur; i++) {
        st_tree_ctr *c = &r->cur[i], *p = find(r->prev, r->n_prev, c->id.pid);
        uint64_t dc, df;
        if (p && p->id.start == c->id.start) {
            dc = sub0(c->cpu_ns, p->cpu_ns) + child_growth(c->child_cpu_ns, p->child_cpu_ns, &c->credit_cpu_ns);
            df = sub0(c->majflt, p->majflt) + child_growth(c->child_majflt, p->child_majflt, &c->credit_majflt);
        } else { /* started inside the tree since the last sample */
            dc = c->cpu_ns + c->child_cpu_ns;
            df = c->majflt + c->child_majflt;
        }
        cpu += dc;
        flt += df;
        if (rate) {
            st_proc_mem *pm = &m[c->member];
            double pc = (double)dc / (dt * 1e5), pf = (double)df * 100.0 / dt;
            pm->cpu_c = pc > 4e9 ? 4000000000u : (uint32_t)(pc + 0.5);
            pm->pageins_c = pf > 4e9 ? 4000000000u : (uint32_t)(pf + 0.5);
            pm->valid |= ST_PM_RATES;
        }
    }
    if (rate) {
        double pc = (double)cpu / (dt * 1e5), pf = (double)flt * 100.0 / dt;
        out->cpu_c = pc > 4e9 ? 4000000000u : (uint32_t)(pc + 0.5);
        out->pageins_c = pf > 4e9 ? 4000000000u : (uint32_t)(pf + 0.5);
        out->valid |= ST_F_CPU | ST_F_PAGEINS;
    }
    if (r->has_prev) { /* the counters since watching began need no time step */
        r->total_cpu_ns += cpu;
        r->total_majflt += flt;
    }
    if (r->has_prev || r->n_cur > 0) {
        st_tree_ctr *t = r->prev;
        size_t tc = r->cap_prev;
        r->prev = r->cur;
        r->cap_prev = r->cap_cur;
        r->n_prev = r->n_cur;
        r->cur = t;
        r->cap_cur = tc;
        r->prev_s = now_s;
        r->has_prev = 1;
    }
    return ST_OK;
}
