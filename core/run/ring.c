/* ring.c: fixed-capacity ring of samples. */
#include "stagetop/ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ST_RING_MAX_CAP ((size_t)16 * 1024 * 1024)

int st_ring_init(st_ring *r, size_t cap, st_error *err)
{
    memset(r, 0, sizeof *r);
    if (cap == 0 || cap > ST_RING_MAX_CAP)
        return st_error_set(err, ST_EINVAL, 0, "ring capacity %zu out of range 1..%zu", cap,
                            ST_RING_MAX_CAP);
    /* calloc: pages not yet written are not resident, so a long history
     * costs memory only as it fills. */
    r->buf = calloc(cap, sizeof *r->buf);
    if (!r->buf)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu samples", cap);
    r->cap = cap;
    return ST_OK;
}

void st_ring_free(st_ring *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

void st_ring_push(st_ring *r, const st_sample *s)
{
    if (r->len < r->cap) {
        r->buf[(r->head + r->len) % r->cap] = *s;
        r->len++;
    } else {
        r->buf[r->head] = *s;
        r->head = (r->head + 1) % r->cap;
    }
    r->total++;
}

size_t st_ring_len(const st_ring *r) { return r->len; }

const st_sample *st_ring_get(const st_ring *r, size_t i)
{
    if (i >= r->len)
        return NULL;
    return &r->buf[(r->head + i) % r->cap];
}

const st_sample *st_ring_last(const st_ring *r)
{
    return r->len ? st_ring_get(r, r->len - 1) : NULL;
}

uint64_t st_ring_overwritten(const st_ring *r) { return r->total - r->len; }

st_samples_view st_ring_view(const st_ring *r)
{
    st_samples_view v = {0};
    if (r->len == 0)
        return v;
    size_t first = r->cap - r->head; /* from head to the end of buf */
    v.a = r->buf + r->head;
    if (r->len <= first) {
        v.a_len = r->len;
    } else {
        v.a_len = first;
        v.b = r->buf;
        v.b_len = r->len - first;
    }
    return v;
}

size_t st_ring_capacity_for(double history_s, double interval_s)
{
    if (!(interval_s > 0) || !(history_s > 0))
        return 1;
    double n = history_s / interval_s + 1.0;
    if (n >= (double)ST_RING_MAX_CAP)
        return ST_RING_MAX_CAP;
    return n < 1.0 ? 1 : (size_t)n;
}
