/* trace_load.c: reading a JSON document whole (trace_stream.c streams
 * JSONL and hands documents here), and the summary of a trace's records:
 * st_trace_finish (the stable time sort and the recomputed summary) and
 * st_trace_refresh (the same, added to as records come in order). */
#include "stagetop/trace.h"
#include "stagetop/trace_stream.h"
#include "trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


static uint32_t t_of(const char *base, size_t size, size_t off, size_t i)
{
    uint32_t t;
    memcpy(&t, base + i * size + off, sizeof t);
    return t;
}

/* Stable in-place insertion sort of a[lo..hi) (small runs, or no memory). */
static void insertion(char *a, size_t lo, size_t hi, size_t size, size_t off, char *one)
{
    for (size_t i = lo + 1; i < hi; i++) {
        uint32_t t = t_of(a, size, off, i);
        size_t j = i;
        if (t_of(a, size, off, j - 1) <= t)
            continue;
        memcpy(one, a + i * size, size);
        while (j > lo && t_of(a, size, off, j - 1) > t)
            j--;
        memmove(a + (j + 1) * size, a + j * size, (i - j) * size);
        memcpy(a + j * size, one, size);
    }
}

/* Stable sort by the uint32 t at byte offset off; does nothing when sorted. */
static void sort_by_t(void *base, size_t n, size_t size, size_t off)
{
    char *a = base, one[512];
    size_t i;
    if (size > sizeof one)
        return;
    for (i = 1; i < n && t_of(a, size, off, i - 1) <= t_of(a, size, off, i); i++)
        ;
    if (i >= n)
        return;
    char *tmp = malloc(n * size);
    if (!tmp) {
        insertion(a, 0, n, size, off, one);
        return;
    }
    const size_t run = 32;
    for (size_t lo = 0; lo < n; lo += run)
        insertion(a, lo, lo + run < n ? lo + run : n, size, off, one);
    char *src = a, *dst = tmp;
    for (size_t w = run; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t l = lo, r = mid, d = lo;
            while (l < mid && r < hi) {
                size_t pick = t_of(src, size, off, r) < t_of(src, size, off, l) ? r++ : l++;
                memcpy(dst + d++ * size, src + pick * size, size);
            }
            memcpy(dst + d * size, src + l * size, (mid - l) * size);
            d += mid - l;
            memcpy(dst + d * size, src + r * size, (hi - r) * size);
        }
        char *x = src;
        src = dst;
        dst = x;
    }
    if (src != a)
        memcpy(a, src, n * size);
    free(tmp);
}

/* Do the records read since the last sum extend the summed ones in time?
 * (An event at the same t as a summed sample would have gone before it.) */
static int extends_summed(const st_trace *t)
{
    size_t fs = t->summed_samples, fe = t->summed_events, ns = t->n_samples, ne = t->events.len;
    uint32_t ls = fs ? t->samples[fs - 1].t_ms : 0;
    uint32_t le = fe ? t->events.v[fe - 1].t_ms : 0;
    int ordered = 1;
    for (size_t i = fs; i < ns && ordered; i++)
        ordered = !(i > 0 && t->samples[i].t_ms < t->samples[i - 1].t_ms) &&
                  !(fe && !st_stage_event_first(le, t->samples[i].t_ms));
    for (size_t j = fe; j < ne && ordered; j++)
        ordered = !(j > 0 && t->events.v[j].t_ms < t->events.v[j - 1].t_ms) &&
                  !(fs && st_stage_event_first(t->events.v[j].t_ms, ls));
    return ordered;
}

/* Add samples [i, t->n_samples) and events [j, t->events.len) to the
 * summary in time order, by the stage rule's order (st_stage_event_first:
 * an event at the same t as a sample goes first); the caller finishes it. */
static void sum_range(st_trace *t, size_t i, size_t ni, size_t j, size_t nj)
{
    while (i < ni || j < nj) {
        if (j < nj && (i >= ni || st_stage_event_first(t->events.v[j].t_ms, t->samples[i].t_ms)))
            (void)st_summary_add_event(&t->summary, &t->events.v[j++], NULL);
        else
            (void)st_summary_add_sample(&t->summary, &t->samples[i++], NULL);
    }
    t->summed_samples = ni;
    t->summed_events = nj;
}

static void sum_from(st_trace *t, size_t i, size_t j)
{
    sum_range(t, i, t->n_samples, j, t->events.len);
}

void st_trace_fold(st_trace *t)
{
    size_t fs = t->summed_samples, fe = t->summed_events, n = t->n_samples;
    if (fs > n || fe > t->events.len || n == 0)
        return;
    if (!extends_summed(t)) {
        /* Out of time order: st_trace_finish sorts them, which needs every
         * sample; if some were let go already, that is no longer possible. */
        if (t->folded)
            t->fold_failed = 1;
        t->fold = 0;
        return;
    }
    /* The samples of the latest millisecond wait: an event read next at
     * that same t goes before them.  So do the events from that t on. */
    uint32_t hold = t->samples[n - 1].t_ms;
    size_t k = n, e = fe;
    while (k > fs && t->samples[k - 1].t_ms == hold)
        k--;
    if (k == fs)
        return;
    while (e < t->events.len && !st_stage_event_first(hold, t->events.v[e].t_ms))
        e++;
    sum_range(t, fs, k, fe, e);
    /* Keep the last summed sample (the next order check's) and the rest. */
    size_t drop = k - 1;
    if (drop > 0) {
        memmove(t->samples, t->samples + drop, (n - drop) * sizeof *t->samples);
        t->n_samples = n - drop;
        t->summed_samples = 1;
        t->folded += drop;
    }
}

void st_trace_fold_end(st_trace *t)
{
    if (t->summed_samples > t->n_samples || t->summed_events > t->events.len || !extends_summed(t)) {
        t->fold_failed = 1;
        return;
    }
    sum_from(t, t->summed_samples, t->summed_events);
    st_summary_finish(&t->summary);
    /* The fold's buffer (ST_TRACE_FOLD samples) goes back: what is read
     * next, a second record of `diff`, starts from the few kept. */
    if (t->n_samples < t->cap_samples) {
        size_t cap = t->n_samples ? t->n_samples : 1;
        st_sample *p = realloc(t->samples, cap * sizeof *p);
        if (p) {
            t->samples = p;
            t->cap_samples = cap;
        }
    }
}

void st_trace_finish(st_trace *t)
{
    sort_by_t(t->samples, t->n_samples, sizeof(st_sample), offsetof(st_sample, t_ms));
    sort_by_t(t->events.v, t->events.len, sizeof(st_event), offsetof(st_event, t_ms));
    /* A kernel high-water mark read from the file cannot be recomputed. */
    int has_kp = t->summary.has_kernel_peak;
    uint64_t kp = t->summary.kernel_peak;
    char kp_src[sizeof t->summary.kernel_peak_source];
    memcpy(kp_src, t->summary.kernel_peak_source, sizeof kp_src);
    st_summary_free(&t->summary);
    sum_from(t, 0, 0);
    if (has_kp)
        st_summary_add_kernel_peak_from(&t->summary, kp, kp_src);
    st_summary_finish(&t->summary);
}

int st_trace_refresh(st_trace *t)
{
    size_t fs = t->summed_samples, fe = t->summed_events, ns = t->n_samples, ne = t->events.len;
    if (fs > ns || fe > ne) { /* records were taken away: start again */
        st_trace_finish(t);
        return 1;
    }
    if (ns == fs && ne == fe)
        return 0;
    /* Incremental only when the new records extend the summed ones in time. */
    if (!extends_summed(t)) {
        st_trace_finish(t);
        return 1;
    }
    sum_from(t, fs, fe);
    st_summary_finish(&t->summary);
    return 0;
}
