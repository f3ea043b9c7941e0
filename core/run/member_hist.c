/* member_hist.c: each member's own footprint over its last samples
 * (member_hist_internal.h). */
#include "member_hist_internal.h"

#include <stdlib.h>
#include <string.h>

#include "stagetop/grow.h"

struct st_mh_entry {
    st_proc_id id;
    uint32_t head;   /* where the next value goes */
    uint32_t n;      /* values held, at most ST_MEMBER_HIST_N */
    uint8_t seen;    /* in the sample being added */
    uint32_t kib[ST_MEMBER_HIST_N];
};

void st_member_hist_free(st_member_hist *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->v[i]);
    free(h->v);
    memset(h, 0, sizeof *h);
}

size_t st_member_hist_entry_bytes(void)
{
    return sizeof(struct st_mh_entry) + sizeof(struct st_mh_entry *);
}

static int id_before(st_proc_id a, st_proc_id b)
{
    return a.pid < b.pid || (a.pid == b.pid && a.start < b.start);
}

/* The slot of id in h->v (sorted), or where it goes; *found. */
static size_t slot_of(const st_member_hist *h, st_proc_id id, int *found)
{
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (id_before(h->v[mid]->id, id))
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < h->n && h->v[lo]->id.pid == id.pid && h->v[lo]->id.start == id.start;
    return lo;
}

static uint32_t kib_of(const st_proc_mem *p)
{
    if (!(p->valid & ST_PM_FOOTPRINT))
        return ST_MEMBER_HIST_NONE;
    uint64_t k = p->footprint / 1024;
    return k >= ST_MEMBER_HIST_NONE ? ST_MEMBER_HIST_NONE - 1 : (uint32_t)k;
}

int st_member_hist_add(st_member_hist *h, const st_proc_mem *members, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < h->n; i++)
        h->v[i]->seen = 0;
    for (size_t i = 0; i < n; i++) {
        int found;
        size_t s = slot_of(h, members[i].id, &found);
        if (!found) {
            struct st_mh_entry *e = malloc(sizeof *e);
            if (!e || st_grow(&h->v, &h->cap, h->n + 1, sizeof *h->v, 16) != 0) {
                free(e);
                rc = -1;
                continue;
            }
            e->id = members[i].id;
            e->head = e->n = 0;
            e->seen = 0;
            memmove(&h->v[s + 1], &h->v[s], (h->n - s) * sizeof *h->v);
            h->v[s] = e;
            h->n++;
        }
        struct st_mh_entry *e = h->v[s];
        if (e->seen)
            continue; /* the same process twice in one reading: once */
        e->seen = 1;
        e->kib[e->head] = kib_of(&members[i]);
        e->head = (e->head + 1) % ST_MEMBER_HIST_N;
        if (e->n < ST_MEMBER_HIST_N)
            e->n++;
    }
    size_t o = 0; /* the members that left: forgotten */
    for (size_t i = 0; i < h->n; i++) {
        if (h->v[i]->seen)
            h->v[o++] = h->v[i];
        else
            free(h->v[i]);
    }
    h->n = o;
    return rc;
}

size_t st_member_hist_get(const st_member_hist *h, st_proc_id id, uint32_t *kib, size_t cap)
{
    int found;
    size_t s = h ? slot_of(h, id, &found) : 0;
    if (!h || !found)
        return 0;
    const struct st_mh_entry *e = h->v[s];
    size_t k = e->n < cap ? e->n : cap;
    /* the newest k: they end just before head */
    size_t from = (e->head + ST_MEMBER_HIST_N - k) % ST_MEMBER_HIST_N;
    for (size_t i = 0; i < k; i++)
        kib[i] = e->kib[(from + i) % ST_MEMBER_HIST_N];
    return k;
}
