/* prerun.c: the process trees to pick from and the memory level, before any
 * run exists (prerun.h). */
#include "stagetop/prerun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/ancestry.h"
#include "stagetop/peak.h"
#include "stagetop/sample.h"

typedef struct row {
    st_target t;
    int hidden;
} row;

struct st_prerun {
    const st_platform *plat;
    st_backend *b;
    row *rows;          /* every process of the last listing, by pid */
    size_t n, cap;
    size_t *order;      /* offered rows, largest tree first; 2 * cap (merge space) */
    size_t n_order;
};

int st_prerun_open(st_prerun **out, const st_platform *plat, st_error *err)
{
    st_prerun *p = calloc(1, sizeof *p);
    *out = NULL;
    if (!p)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    p->plat = plat;
    int rc = plat->open(&p->b, err);
    if (rc != ST_OK) {
        free(p);
        return rc;
    }
    *out = p;
    return ST_OK;
}

void st_prerun_close(st_prerun *p)
{
    if (!p)
        return;
    p->plat->close(p->b);
    free(p->rows);
    free(p->order);
    free(p);
}

static int by_pid(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return x->t.id.pid < y->t.id.pid ? -1 : x->t.id.pid > y->t.id.pid;
}

static row *find(st_prerun *p, int32_t pid)
{
    row key;
    key.t.id.pid = pid;
    return bsearch(&key, p->rows, p->n, sizeof *p->rows, by_pid);
}

/* Larger tree first, then smaller pid. */
static int before(const st_prerun *p, size_t a, size_t b)
{
    const st_target *x = &p->rows[a].t, *y = &p->rows[b].t;
    if (x->tree != y->tree)
        return x->tree > y->tree;
    return x->id.pid < y->id.pid;
}

/* Merge sort of the offered rows (qsort has no context). */
static void sort_order(const st_prerun *p, size_t *v, size_t n, size_t *tmp)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_order(p, v, h, tmp);
    sort_order(p, v + h, n - h, tmp);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = before(p, v[j], v[i]) ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

static int read_rows(st_prerun *p, st_error *err)
{
    st_proc_vec all = {NULL, 0, 0};
    int rc = p->plat->list_all(p->b, &all, err);
    if (rc != ST_OK) {
        st_proc_vec_free(&all);
        return rc;
    }
    if (all.len > p->cap) {
        row *r = realloc(p->rows, all.len * sizeof *r);
        if (r)
            p->rows = r;
        size_t *o = r ? realloc(p->order, 2 * all.len * sizeof *o) : NULL;
        if (o)
            p->order = o;
        if (!r || !o) {
            st_proc_vec_free(&all);
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
        }
        p->cap = all.len;
    }
    p->n = 0;
    for (size_t i = 0; i < all.len; i++) {
        st_proc_mem pm;
        row *r = &p->rows[p->n++];
        memset(r, 0, sizeof *r);
        r->t.id = all.v[i].id;
        r->t.ppid = all.v[i].ppid;
        if (p->plat->read_proc(p->b, r->t.id, &pm, NULL) == ST_OK && (pm.valid & ST_PM_FOOTPRINT))
            r->t.own = pm.footprint;
        r->t.tree = r->t.own;
        r->t.procs = 1;
    }
    st_proc_vec_free(&all);
    qsort(p->rows, p->n, sizeof *p->rows, by_pid);
    return ST_OK;
}

int st_prerun_list_targets(st_prerun *p, st_error *err)
{
    int rc = read_rows(p, err);
    if (rc != ST_OK)
        return rc;
    /* add each process to its ancestors (depth is bounded against loops) */
    for (size_t i = 0; i < p->n; i++) {
        int32_t pp = p->rows[i].t.ppid;
        for (int depth = 0; pp > 0 && depth < 256; depth++) {
            row *a = find(p, pp);
            if (!a)
                break;
            a->t.tree += p->rows[i].t.own;
            a->t.procs++;
            pp = a->t.ppid;
        }
    }
    /* a wrapper whose tree is one child's tree and little else: that child */
    for (size_t i = 0; i < p->n; i++) {
        row *a = find(p, p->rows[i].t.ppid);
        if (a && a->t.tree > 0 &&
            (double)p->rows[i].t.tree * 100.0 >= (double)ST_PRERUN_WRAPPER_PCT * (double)a->t.tree)
            a->hidden = 1;
    }
    /* pid 1, stagetop and its ancestors: jobctl's rule, through ancestry.c */
    st_ancestry anc;
    st_ancestry_build(&anc, p->plat, p->b, (int32_t)getpid(), (int32_t)getppid());
    p->n_order = 0;
    for (size_t i = 0; i < p->n; i++) {
        const row *r = &p->rows[i];
        if (!r->hidden && r->t.tree > 0 && !st_ancestry_why(&anc, r->t.id.pid))
            p->order[p->n_order++] = i;
    }
    sort_order(p, p->order, p->n_order, p->order + p->cap);
    return ST_OK;
}

size_t st_prerun_n_targets(const st_prerun *p)
{
    return p->n_order;
}

const st_target *st_prerun_target(const st_prerun *p, size_t i)
{
    return i < p->n_order ? &p->rows[p->order[i]].t : NULL;
}

int st_prerun_command(const st_prerun *p, st_proc_id id, char *buf, size_t len, st_error *err)
{
    return p->plat->command(p->b, id, buf, len, err);
}

int st_prerun_level(const st_prerun *p, double *pct, st_error *err)
{
    st_sys_mem sys;
    int rc = p->plat->read_system(p->b, &sys, err);
    if (rc != ST_OK)
        return rc;
    if (!(sys.valid & ST_SYS_LEVEL))
        return st_error_set(err, ST_ENOTSUP, 0, "the memory level is not readable here");
    *pct = sys.level_c / 100.0;
    return ST_OK;
}

int st_prerun_is_zombie(const st_platform *plat, int32_t pid)
{
    st_backend *b;
    if (!plat->is_zombie || plat->open(&b, NULL) != ST_OK)
        return -1;
    int z = plat->is_zombie(b, pid);
    plat->close(b);
    return z;
}

void st_prerun_job_group(char *where, size_t len)
{
    st_job_peak pk;
    st_peak_prepare(&pk);
    snprintf(where, len, "%s", pk.grp.where);
    st_peak_discard(&pk);
}
