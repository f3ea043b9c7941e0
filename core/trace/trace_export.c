/* trace_export.c: the JSON document of docs/trace-format.md, streamed in
 * chunks to a temporary file beside the target, fsync'd and renamed into
 * place (atomic_file.h); plus the JSON pieces the recorder shares (samples, events, meta,
 * summary).  Format: docs/trace-format.md. */
#include "stagetop/trace.h"
#include "trace_internal.h"
#include "stagetop/atomic_file.h"
#include "stagetop/lanes.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- pieces ---- */

/* Decimal digits of v ending at end; returns the first. */
static char *put_u64(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

/* Hundredths as "92", "45.5", "45.25". */
static char *put_centi(char *d, uint32_t c)
{
    char tmp[24], *e = tmp + sizeof tmp, *p = e;
    unsigned frac = c % 100;
    if (frac) {
        if (frac % 10)
            *--p = (char)('0' + frac % 10);
        *--p = (char)('0' + frac / 10);
        *--p = '.';
    }
    p = put_u64(p, c / 100);
    memcpy(d, p, (size_t)(e - p));
    return d + (e - p);
}

void st_jw_sample_members(st_jw *w, const st_sample *s)
{
    /* Formatted on the stack, appended once: this is the hot loop.  A key
     * is at most 31 bytes (the reader's limit), a value 20 digits, and the
     * last key copied whole may reach 40 bytes past its start. */
    char buf[24 + ST_LANE_COUNT * 56 + 40], *d = buf;
    char tmp[24], *e = tmp + sizeof tmp, *p = e;
    uint32_t ms = s->t_ms;
    *--p = (char)('0' + ms % 10);
    *--p = (char)('0' + ms / 10 % 10);
    *--p = (char)('0' + ms / 100 % 10);
    *--p = '.';
    p = put_u64(p, ms / 1000);
    memcpy(d, "\"t\":", 4);
    d += 4;
    memcpy(d, p, (size_t)(e - p));
    d += e - p;
    /* the lanes it holds, in id order: the records' key order */
    for (unsigned left = s->valid & ((1u << ST_LANE_COUNT) - 1); left; left &= left - 1) {
        const st_lane *l = &st_lanes[__builtin_ctz(left)];
        memcpy(d, l->json_key, sizeof l->json_key); /* a fixed size: no call */
        d += l->key_len + 4;
        if (st_lane_centi(l)) {
            d = put_centi(d, (uint32_t)st_lane_raw(l, s));
        } else {
            p = put_u64(e, st_lane_raw(l, s));
            memcpy(d, p, (size_t)(e - p));
            d += e - p;
        }
    }
    st_jw_raw(w, buf, (size_t)(d - buf));
}

void st_jw_event_members(st_jw *w, const st_event *ev)
{
    const char *kind = st_event_kind_name(ev->kind);
    if (!kind)
        kind = ev->kind_name[0] ? ev->kind_name : "other";
    st_jw_lit(w, "\"kind\":");
    st_jw_str(w, kind);
    st_jw_lit(w, ",\"t\":");
    st_jw_ms(w, ev->t_ms);
    if (ev->has & ST_EVF_STAGE) {
        st_jw_lit(w, ",\"stage\":");
        st_jw_strn(w, ev->stage, strnlen(ev->stage, sizeof ev->stage));
    }
    if (ev->has & ST_EVF_NAME) {
        st_jw_lit(w, ",\"name\":");
        st_jw_strn(w, ev->name, strnlen(ev->name, sizeof ev->name));
    }
    if (ev->has & ST_EVF_NOTE) {
        st_jw_lit(w, ",\"note\":");
        st_jw_strn(w, ev->note, strnlen(ev->note, sizeof ev->note));
    }
    if (ev->has & ST_EVF_NBYTES) {
        st_jw_lit(w, ",\"nbytes\":");
        st_jw_u64(w, ev->nbytes);
    }
    if (ev->has & ST_EVF_SECONDS) {
        st_jw_lit(w, ",\"seconds\":");
        st_jw_double(w, ev->seconds);
    }
    if (ev->has & ST_EVF_VALUE) {
        st_jw_lit(w, ",\"value\":");
        st_jw_i64(w, ev->value);
    }
    if (ev->has & ST_EVF_LIMIT) {
        st_jw_lit(w, ",\"limit\":");
        st_jw_i64(w, ev->limit);
    }
}

/* Known meta keys, in the order they are written. */
static const char *const meta_keys[] = { "stagetop", "platform", "os", "host", "pid", "command",
                                         "start_utc", "interval", "mem_total", "swap_total",
                                         "footprint_metric" };
#define N_META_KEYS (sizeof meta_keys / sizeof meta_keys[0])

/* Does extra hold "utc" equal to start_utc (a stageload start record that
 * the importer mirrored into start_utc)? */
static int extra_utc_is(const char *extra, const char *utc)
{
    st_jr r;
    char key[16], val[sizeof ((st_trace_meta *)0)->start_utc];
    int n = 0, k;
    st_jr_init(&r, extra, strlen(extra), 1, NULL);
    if (st_jr_obj_begin(&r))
        return 0;
    while ((k = st_jr_obj_next(&r, &n, key, sizeof key, NULL)) == 1) {
        if (strcmp(key, "utc") == 0 && st_jr_peek(&r) == ST_J_STR) {
            int trunc;
            if (st_jr_str(&r, val, sizeof val, &trunc))
                return 0;
            if (!trunc && strcmp(val, utc) == 0)
                return 1;
        } else if (st_jr_skip(&r))
            return 0;
    }
    return 0;
}

static void meta_sep(st_jw *w, int *n, const char *key)
{
    if ((*n)++)
        st_jw_char(w, ',');
    st_jw_str(w, key);
    st_jw_char(w, ':');
}

void st_jw_meta_members(st_jw *w, const st_trace_meta *m, int *n)
{
    int written[N_META_KEYS] = { 0 };
    int ours = m->stagetop[0] != '\0';
    const char *strs[N_META_KEYS] = { m->stagetop, m->platform, m->os, m->host, NULL, m->command,
                                      m->start_utc, NULL, NULL, NULL, m->footprint_metric };
    const size_t lens[N_META_KEYS] = { sizeof m->stagetop, sizeof m->platform, sizeof m->os,
                                       sizeof m->host, 0, sizeof m->command, sizeof m->start_utc,
                                       0, 0, 0, sizeof m->footprint_metric };
    int skip_start_utc = m->extra && m->start_utc[0] && extra_utc_is(m->extra, m->start_utc);
    for (size_t i = 0; i < N_META_KEYS; i++) {
        if (strs[i]) {
            size_t len = strnlen(strs[i], lens[i]);
            if (len == 0 || (i == 6 && skip_start_utc))
                continue;
            meta_sep(w, n, meta_keys[i]);
            st_jw_strn(w, strs[i], len);
        } else if (i == 4) {
            if (m->pid == 0)
                continue;
            meta_sep(w, n, meta_keys[i]);
            st_jw_i64(w, m->pid);
        } else if (i == 7) {
            if (!(m->interval > 0) || !isfinite(m->interval))
                continue;
            meta_sep(w, n, meta_keys[i]);
            st_jw_double(w, m->interval);
        } else {
            uint64_t v = i == 8 ? m->mem_total : m->swap_total;
            if (v == 0 && !ours)
                continue;
            meta_sep(w, n, meta_keys[i]);
            st_jw_u64(w, v);
        }
        written[i] = 1;
    }
    if (!m->extra)
        return;
    /* Extra keys: re-validated and re-escaped; all or nothing. */
    st_jw x;
    st_jr r;
    char key[32];
    const char *kraw;
    int xn = *n, k, rc = ST_OK, members = 0;
    st_jw_init(&x, -1);
    st_jr_init(&r, m->extra, strlen(m->extra), 1, NULL);
    if ((rc = st_jr_obj_begin(&r)) == ST_OK) {
        while ((k = st_jr_obj_next(&r, &members, key, sizeof key, &kraw)) == 1) {
            int dup = strcmp(key, "type") == 0;
            for (size_t i = 0; i < N_META_KEYS && !dup; i++)
                dup = written[i] && strcmp(key, meta_keys[i]) == 0;
            if (dup) {
                if ((rc = st_jr_skip(&r)))
                    break;
                continue;
            }
            st_jr kr = r;
            kr.p = kraw;
            if (xn++)
                st_jw_char(&x, ',');
            (void)st_jr_str_to(&kr, &x);
            st_jw_char(&x, ':');
            if ((rc = st_jr_copy(&r, &x)))
                break;
        }
        if (k < 0)
            rc = k;
        if (rc == ST_OK && st_jr_ws(&r) != -1)
            rc = ST_EPARSE;
    }
    if (rc == ST_OK && !x.err && x.len) {
        st_jw_raw(w, x.buf, x.len);
        *n = xn;
    }
    st_jw_free(&x);
}

void st_jw_summary(st_jw *w, const st_summary *s, const st_trace_meta *meta)
{
    st_trace_summary_max(w, s, meta, SIZE_MAX);
}

/* Room an item may take in a bounded summary: the writer (memory mode)
 * holds at most max bytes once the rest (reserve) is written too. */
static int fits(const st_jw *w, size_t max, size_t reserve)
{
    return w->fd >= 0 || max == SIZE_MAX || (w->len <= max && max - w->len >= reserve);
}

void st_trace_summary_max(st_jw *w, const st_summary *s, const st_trace_meta *meta, size_t max)
{
    size_t stages_left = 0, outside_left = 0;
    st_jw_char(w, '{');
    if (meta) {
        int n = 0;
        st_jw_lit(w, "\"meta\":{");
        st_jw_meta_members(w, meta, &n);
        st_jw_lit(w, "},");
    }
    st_jw_lit(w, "\"duration\":");
    st_jw_ms(w, s->n_samples ? (int64_t)s->last_t_ms - (int64_t)s->first_t_ms : 0);
    st_jw_lit(w, ",\"peak_footprint\":");
    st_jw_u64(w, s->peak_footprint);
    st_jw_lit(w, ",\"kernel_peak\":");
    if (s->has_kernel_peak)
        st_jw_u64(w, s->kernel_peak);
    else
        st_jw_lit(w, "null");
    if (s->has_kernel_peak && s->kernel_peak_source[0]) { /* docs/metrics.md */
        st_jw_lit(w, ",\"kernel_peak_source\":");
        st_jw_str(w, s->kernel_peak_source);
    }
    if (s->has_gpu) {
        st_jw_lit(w, ",\"peak_gpu\":");
        st_jw_u64(w, s->peak_gpu);
    }
    for (int i = 0; i < ST_LANE_COUNT; i++) { /* the lanes the table summarizes */
        const st_lane *l = &st_lanes[i];
        if (!l->summary_key || !(s->lanes.has & st_lane_bit(i)))
            continue;
        uint64_t v = l->rule == ST_LR_MIN ? s->lanes.min[i] : s->lanes.max[i];
        st_jw_lit(w, ",\"");
        st_jw_raw(w, l->summary_key, strlen(l->summary_key)); /* the table's: plain ASCII */
        st_jw_lit(w, "\":");
        if (st_lane_centi(l))
            st_jw_centi(w, (uint32_t)v);
        else
            st_jw_u64(w, v);
    }
    /* a definition that counts a shared page per process, over a tree that
     * had more than one (docs/trace-format.md): said where meta is known */
    if (meta && st_lanes_shared_per_process(meta->footprint_metric, (s->lanes.has & ST_F_PROCS)
                                                                     ? s->lanes.max[ST_LANE_PROCS] : 0))
        st_jw_lit(w, ",\"footprint_shared_per_process\":true");
    if (s->act.has & ST_F_CPU) { /* the rates' integrals: CPU seconds, page-ins (docs/trace-format.md) */
        char num[32];
        snprintf(num, sizeof num, ",\"cpu_seconds\":%.3f", s->act.cpu_s);
        st_jw_raw(w, num, strlen(num));
    }
    if (s->act.has & ST_F_PAGEINS) {
        char num[40];
        snprintf(num, sizeof num, ",\"pageins_total\":%.0f", s->act.pageins);
        st_jw_raw(w, num, strlen(num));
    }
    st_jw_lit(w, ",\"swap\":{");
    if (s->has_swap) {
        st_jw_lit(w, "\"start\":");
        st_jw_u64(w, s->swap_start);
        st_jw_lit(w, ",\"peak\":");
        st_jw_u64(w, s->swap_peak);
        st_jw_lit(w, ",\"end\":");
        st_jw_u64(w, s->swap_end);
    }
    st_jw_lit(w, "},\"min_level\":");
    if (s->has_level)
        st_jw_centi(w, s->min_level_c);
    else
        st_jw_lit(w, "null");
    if (s->n_pauses) { /* the guard's and the user's (docs/trace-format.md) */
        st_jw_lit(w, ",\"pauses\":{\"count\":");
        st_jw_u64(w, s->n_pauses);
        st_jw_lit(w, ",\"guard\":");
        st_jw_u64(w, s->n_guard_pauses);
        st_jw_lit(w, ",\"seconds\":");
        st_jw_ms(w, st_summary_paused_ms(s));
        st_jw_char(w, '}');
    }
    st_jw_lit(w, ",\"stages\":[");
    for (size_t i = 0; s->n_samples && i < s->n_stages; i++) {
        st_stage_row row;
        st_summary_stage(s, i, &row);
        int64_t secs = row.seconds_ms;
        uint64_t peak = row.peak_footprint;
        int has = row.has_peak;
        size_t mark = w->len;
        if (i)
            st_jw_char(w, ',');
        st_jw_lit(w, "{\"stage\":");
        st_jw_strn(w, s->stages[i].stage, strnlen(s->stages[i].stage, sizeof s->stages[i].stage));
        st_jw_lit(w, ",\"seconds\":");
        st_jw_ms(w, secs);
        st_jw_lit(w, ",\"peak_footprint\":");
        if (has)
            st_jw_u64(w, peak);
        else
            st_jw_lit(w, "null");
        if (row.paused_ms > 0) {
            st_jw_lit(w, ",\"paused_seconds\":");
            st_jw_ms(w, row.paused_ms);
        }
        st_jw_char(w, '}');
        if (!fits(w, max, 1024)) { /* the rest is left out, and said */
            w->len = mark;
            stages_left = s->n_stages - i;
            break;
        }
    }
    st_jw_lit(w, "],\"loads\":{\"count\":");
    st_jw_u64(w, s->loads_count);
    st_jw_lit(w, ",\"bytes\":");
    st_jw_u64(w, s->loads_bytes);
    st_jw_lit(w, ",\"seconds\":");
    st_jw_fixed3(w, s->loads_seconds); /* stageload: round(sum, 3) */
    st_jw_lit(w, "},\"releases\":{\"count\":");
    st_jw_u64(w, s->releases_count);
    st_jw_lit(w, ",\"bytes\":");
    st_jw_u64(w, s->releases_bytes);
    st_jw_char(w, '}');
    if (s->bytes_saturated) /* a sum held at 2^53 (summary.h) */
        st_jw_lit(w, ",\"bytes_saturated\":true");
    st_jw_lit(w, ",\"outside_stage\":[");
    char **names = s->outside_stage, **sorted = NULL;
    if (s->n_outside_sorted != s->n_outside_stage && (sorted = st_summary_outside_sorted(s)))
        names = sorted; /* fed since st_summary_finish: sort a copy */
    int first = 1;
    for (size_t i = 0; i < s->n_outside_stage; i++) {
        if (i && sorted && strcmp(names[i - 1], names[i]) == 0)
            continue;
        size_t mark = w->len;
        if (!first)
            st_jw_char(w, ',');
        st_jw_str(w, names[i]);
        if (!fits(w, max, 160)) {
            w->len = mark;
            outside_left = s->n_outside_stage - i; /* an upper bound when names repeat */
            break;
        }
        first = 0;
    }
    free(sorted);
    st_jw_char(w, ']');
    if (stages_left) { /* a bounded summary line (the JSONL end record) */
        st_jw_lit(w, ",\"stages_omitted\":");
        st_jw_u64(w, stages_left);
    }
    if (outside_left) {
        st_jw_lit(w, ",\"outside_stage_omitted\":");
        st_jw_u64(w, outside_left);
    }
    st_jw_char(w, '}');
}

char *st_summary_to_json(const st_summary *s, const st_trace_meta *meta)
{
    st_jw w;
    st_jw_init(&w, -1);
    st_jw_summary(&w, s, meta);
    char *out = st_jw_take(&w);
    st_jw_free(&w);
    return out;
}

void st_jw_trace_doc(st_jw *w, const st_trace_meta *meta, const st_sample *a, size_t a_len,
                     const st_sample *b, size_t b_len, const st_event_list *events,
                     const st_summary *summary, uint64_t dropped_samples)
{
    int n = 0;
    st_jw_lit(w, "{\"format\":\"stagetop-trace\",\"version\":1,\n\"meta\":{");
    if (meta)
        st_jw_meta_members(w, meta, &n);
    st_jw_lit(w, "},\n\"samples\":[");
    size_t k = 0;
    for (int span = 0; span < 2; span++) {
        const st_sample *v = span ? b : a;
        size_t len = span ? b_len : a_len;
        for (size_t i = 0; v && i < len && !w->err; i++) {
            if (k++)
                st_jw_char(w, ',');
            st_jw_lit(w, "\n{");
            st_jw_sample_members(w, &v[i]);
            st_jw_char(w, '}');
        }
    }
    if (k)
        st_jw_char(w, '\n');
    st_jw_lit(w, "],\n\"events\":[");
    for (size_t i = 0; events && i < events->len && !w->err; i++) {
        if (i)
            st_jw_char(w, ',');
        st_jw_lit(w, "\n{");
        st_jw_event_members(w, &events->v[i]);
        st_jw_char(w, '}');
    }
    if (events && events->len)
        st_jw_char(w, '\n');
    st_jw_lit(w, "],\n\"summary\":");
    if (summary) {
        st_jw_summary(w, summary, NULL);
    } else {
        st_summary empty;
        st_summary_init(&empty);
        st_jw_summary(w, &empty, NULL);
    }
    st_jw_lit(w, ",\n\"dropped_samples\":");
    st_jw_u64(w, dropped_samples);
    st_jw_lit(w, "}\n");
}

/* ---- atomic export ---- */

int st_trace_export(const char *path, const st_trace_meta *meta, st_samples_view samples,
                    const st_event_list *events, const st_summary *summary,
                    uint64_t dropped_samples, st_error *err)
{
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return st_error_set(err, ST_EINVAL, EINVAL, "export: bad file name '%s'", path ? path : "");
    st_atomic_file af;
    int rc = st_atomic_open(&af, path, ST_ATOMIC_SYNC, err);
    if (rc != ST_OK)
        return rc;
    st_jw w;
    st_jw_init(&w, af.fd);
    st_jw_trace_doc(&w, meta, samples.a, samples.a_len, samples.b, samples.b_len, events, summary,
                    dropped_samples);
    int e = st_jw_flush(&w);
    st_jw_free(&w);
    if (e) {
        st_atomic_abort(&af);
        return st_error_set(err, e == ENOMEM ? ST_ENOMEM : ST_EIO, e, "writing %s: %s", path, strerror(e));
    }
    return st_atomic_commit(&af, err);
}
