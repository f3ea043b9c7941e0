/* trace_parse.c: the records of a trace (sample, event, start/meta,
 * summary) read from a st_jr tokenizer, with typed, range-checked values.
 * Shared by the JSONL reader and the document reader (trace_import.c).
 * Every error is ST_EPARSE "line N: <what> \"<key>\" <why>". */
#include "stagetop/trace.h"
#include "trace_internal.h"
#include "stagetop/lanes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ST_TRACE_MAX_EXTRA 65536 /* bytes of meta.extra text */

const char *st_jr_type_name(int ty)
{
    switch (ty) {
    case ST_J_OBJ: return "an object";
    case ST_J_ARR: return "an array";
    case ST_J_STR: return "a string";
    case ST_J_NUM: return "a number";
    case ST_J_BOOL: return "a boolean";
    case ST_J_NULL: return "null";
    default: return "no value";
    }
}

/* Read a number token for what/key, or fail naming what was there. */
int st_trace_want_num(st_jr *r, const char *what, const char *key, const char **tok, size_t *n)
{
    int ty = st_jr_peek(r);
    if (ty != ST_J_NUM) {
        char b[16];
        if (ty != ST_J_NONE)
            return st_jr_fail(r, "%s \"%s\" must be a number, found %s", what, key, st_jr_type_name(ty));
        if (r->p < r->end && (*r->p == 'N' || *r->p == 'I'))
            return st_jr_fail(r, "%s \"%s\": NaN and Infinity are not JSON numbers", what, key);
        return st_jr_fail(r, "%s \"%s\" must be a number, found %s", what, key, st_jr_what(r, b));
    }
    return st_jr_num(r, tok, n);
}

static int num_fail(st_jr *r, const char *what, const char *key, int why, const char *tok, size_t n,
                    const char *range)
{
    const char *reason = why == ST_JN_NEG ? "is negative" : why == ST_JN_FRAC ? "is not an integer"
                                                                              : "is out of range";
    return st_jr_fail(r, "%s \"%s\" %s (%.*s; allowed: %s)", what, key, reason, (int)(n > 24 ? 24 : n), tok,
                      range);
}

int st_trace_want_bytes(st_jr *r, const char *what, const char *key, uint64_t *out)
{
    const char *tok;
    size_t n;
    int rc = st_trace_want_num(r, what, key, &tok, &n);
    if (rc)
        return rc;
    int c = st_jnum_u53(tok, n, out);
    return c ? num_fail(r, what, key, c, tok, n, "integers 0..2^53") : ST_OK;
}

static int want_scaled(st_jr *r, const char *what, const char *key, int digits, uint64_t max,
                       const char *range, uint64_t *out)
{
    const char *tok;
    size_t n;
    int rc = st_trace_want_num(r, what, key, &tok, &n);
    if (rc)
        return rc;
    int c = st_jnum_scaled(tok, n, digits, max, out);
    return c ? num_fail(r, what, key, c, tok, n, range) : ST_OK;
}

static int want_t(st_jr *r, const char *what, uint32_t *t_ms)
{
    uint64_t v;
    int rc = want_scaled(r, what, "t", 3, UINT32_MAX, "0..4294967.295 seconds", &v);
    *t_ms = (uint32_t)v;
    return rc;
}

/* A string into a fixed field; null leaves it unset (returns 0, *set 0). */
int st_trace_want_str(st_jr *r, const char *what, const char *key, char *out, size_t size, int *set)
{
    int ty = st_jr_peek(r);
    *set = 0;
    if (ty == ST_J_NULL)
        return st_jr_null(r);
    if (ty != ST_J_STR)
        return st_jr_fail(r, "%s \"%s\" must be a string, found %s", what, key, st_jr_type_name(ty));
    *set = 1;
    return st_jr_str(r, out, size, NULL);
}

/* ---- records ---- */

/* Members of a sample object after *n already read. */
int st_trace_parse_sample(st_jr *r, int n, st_sample *s)
{
    static const char *what = "sample";
    char key[ST_LANE_KEY_MAX];
    int k, rc, has_t = 0, next = 0;
    memset(s, 0, sizeof *s);
    for (;;) {
        memset(key, 0, sizeof key); /* zero-filled: st_lane_by_padded_key */
        if ((k = st_jr_obj_next(r, &n, key, sizeof key, NULL)) != 1)
            break;
        uint64_t v;
        if (strcmp(key, "t") == 0) {
            if ((rc = want_t(r, what, &s->t_ms)))
                return rc;
            has_t = 1;
            continue;
        }
        const st_lane *l = st_lane_by_padded_key(key, &next);
        if (!l || st_jr_peek(r) == ST_J_NULL) { /* unknown key, or "not available" */
            if ((rc = st_jr_skip(r)))
                return rc;
            if (l)
                s->valid &= ~st_lane_bit(l->id);
            continue;
        }
        if (l->max == 0) /* bytes: JSON's exact integers */
            rc = st_trace_want_bytes(r, what, key, &v);
        else
            rc = want_scaled(r, what, key, st_lane_centi(l) ? 2 : 0, l->max, l->range, &v);
        if (rc)
            return rc;
        st_lane_set_raw(l, s, v);
    }
    if (k < 0)
        return k;
    return has_t ? ST_OK : st_jr_fail(r, "sample has no \"t\"");
}

/* Members of an event object after *n already read. */
int st_trace_parse_event(st_jr *r, int n, st_event *ev)
{
    static const char *what = "event";
    char key[32], kind[64];
    int k, rc, set, has_t = 0, has_kind = 0;
    memset(ev, 0, sizeof *ev);
    while ((k = st_jr_obj_next(r, &n, key, sizeof key, NULL)) == 1) {
        const char *tok;
        size_t tn;
        if (strcmp(key, "t") == 0) {
            rc = want_t(r, what, &ev->t_ms);
            has_t = 1;
        } else if (strcmp(key, "kind") == 0) {
            if (st_jr_peek(r) != ST_J_STR)
                return st_jr_fail(r, "event \"kind\" must be a string, found %s", st_jr_type_name(st_jr_peek(r)));
            if ((rc = st_jr_str(r, kind, sizeof kind, NULL)))
                return rc;
            if (!kind[0])
                return st_jr_fail(r, "event \"kind\" is empty");
            int kd = st_event_kind_from_name(kind);
            ev->kind = (uint8_t)kd;
            ev->kind_name[0] = '\0';
            if (kd == ST_EV_OTHER)
                st_event_set_str(ev->kind_name, sizeof ev->kind_name, kind);
            has_kind = 1;
        } else if (strcmp(key, "stage") == 0) {
            rc = st_trace_want_str(r, what, key, ev->stage, sizeof ev->stage, &set);
            ev->has = (uint16_t)(set ? ev->has | ST_EVF_STAGE : ev->has & ~ST_EVF_STAGE);
        } else if (strcmp(key, "name") == 0) {
            rc = st_trace_want_str(r, what, key, ev->name, sizeof ev->name, &set);
            ev->has = (uint16_t)(set ? ev->has | ST_EVF_NAME : ev->has & ~ST_EVF_NAME);
        } else if (strcmp(key, "note") == 0) {
            rc = st_trace_want_str(r, what, key, ev->note, sizeof ev->note, &set);
            ev->has = (uint16_t)(set ? ev->has | ST_EVF_NOTE : ev->has & ~ST_EVF_NOTE);
        } else if (strcmp(key, "nbytes") == 0 && st_jr_peek(r) != ST_J_NULL) {
            rc = st_trace_want_bytes(r, what, key, &ev->nbytes);
            ev->has |= ST_EVF_NBYTES;
        } else if (strcmp(key, "seconds") == 0 && st_jr_peek(r) != ST_J_NULL) {
            if ((rc = st_trace_want_num(r, what, key, &tok, &tn)))
                return rc;
            if (st_jnum_double(tok, tn, &ev->seconds))
                return num_fail(r, what, key, ST_JN_RANGE, tok, tn, "finite numbers");
            ev->has |= ST_EVF_SECONDS;
        } else if ((strcmp(key, "value") == 0 || strcmp(key, "limit") == 0) && st_jr_peek(r) != ST_J_NULL) {
            int is_value = key[0] == 'v';
            if ((rc = st_trace_want_num(r, what, key, &tok, &tn)))
                return rc;
            int c = st_jnum_i53(tok, tn, is_value ? &ev->value : &ev->limit);
            if (c)
                return num_fail(r, what, key, c, tok, tn, "integers -2^53..2^53");
            ev->has |= is_value ? ST_EVF_VALUE : ST_EVF_LIMIT;
        } else {
            rc = st_jr_skip(r);
        }
        if (rc)
            return rc;
    }
    if (k < 0)
        return k;
    if (!has_t)
        return st_jr_fail(r, "event has no \"t\"");
    return has_kind ? ST_OK : st_jr_fail(r, "event has no \"kind\"");
}

/* Append key (read again from its raw position) and the value to extra. */
static int extra_add(st_jr *r, st_jw *x, const char *kraw)
{
    st_jr kr = *r;
    kr.p = kraw;
    st_jw_char(x, x->len ? ',' : '{');
    (void)st_jr_str_to(&kr, x);
    st_jw_char(x, ':');
    int rc = st_jr_copy(r, x);
    if (!rc && x->len > ST_TRACE_MAX_EXTRA)
        return st_jr_fail(r, "start record: unknown keys take more than %d bytes", ST_TRACE_MAX_EXTRA);
    return rc;
}

/* Members of a start record / meta object after *n already read.  Known
 * keys with another type than theirs, and unknown keys, go to extra. */
int st_trace_parse_meta(st_jr *r, int n, st_trace_meta *m, int *is_stageload)
{
    char key[32];
    const char *kraw;
    int k, rc = ST_OK, got_start_utc = 0;
    st_jw x;
    st_jw_init(&x, -1);
    st_trace_meta_free(m);
    memset(m, 0, sizeof *m);
    while ((k = st_jr_obj_next(r, &n, key, sizeof key, &kraw)) == 1) {
        int ty = st_jr_peek(r);
        char *str = NULL;
        size_t size = 0;
        const char *tok;
        size_t tn;
        if (strcmp(key, "stagetop") == 0) str = m->stagetop, size = sizeof m->stagetop;
        else if (strcmp(key, "platform") == 0) str = m->platform, size = sizeof m->platform;
        else if (strcmp(key, "os") == 0) str = m->os, size = sizeof m->os;
        else if (strcmp(key, "host") == 0) str = m->host, size = sizeof m->host;
        else if (strcmp(key, "command") == 0) str = m->command, size = sizeof m->command;
        else if (strcmp(key, "start_utc") == 0) str = m->start_utc, size = sizeof m->start_utc;
        else if (strcmp(key, "footprint_metric") == 0) str = m->footprint_metric, size = sizeof m->footprint_metric;
        if (strcmp(key, "type") == 0) {
            rc = st_jr_skip(r);
        } else if (str && ty == ST_J_STR) {
            rc = st_jr_str(r, str, size, NULL);
            got_start_utc |= str == m->start_utc;
        } else if (strcmp(key, "utc") == 0 && ty == ST_J_STR && !got_start_utc) {
            /* stageload's name for the start time: mirrored, and kept. */
            st_jr copy = *r;
            if (!(rc = st_jr_str(&copy, m->start_utc, sizeof m->start_utc, NULL)))
                rc = extra_add(r, &x, kraw);
        } else if (!str && ty == ST_J_NUM &&
                   (strcmp(key, "pid") == 0 || strcmp(key, "interval") == 0 ||
                    strcmp(key, "mem_total") == 0 || strcmp(key, "swap_total") == 0)) {
            st_jr copy = *r;
            uint64_t v;
            double d;
            if ((rc = st_jr_num(&copy, &tok, &tn)))
                break;
            int ok = 0;
            if (key[0] == 'p')
                ok = st_jnum_u53(tok, tn, &v) == 0 && v <= INT32_MAX && (m->pid = (int32_t)v, 1);
            else if (key[0] == 'i')
                ok = st_jnum_double(tok, tn, &d) == 0 && d >= 0 && (m->interval = d, 1);
            else
                ok = st_jnum_u53(tok, tn, &v) == 0 && (*(key[0] == 'm' ? &m->mem_total : &m->swap_total) = v, 1);
            if (ok)
                *r = copy;
            else
                rc = extra_add(r, &x, kraw);
        } else {
            if (strcmp(key, "stageload") == 0 && is_stageload)
                *is_stageload = 1;
            rc = extra_add(r, &x, kraw);
        }
        if (rc)
            break;
    }
    if (k < 0)
        rc = k;
    if (!rc && x.len) {
        st_jw_char(&x, '}');
        m->extra = st_jw_take(&x);
        if (!m->extra)
            rc = st_error_set(r->err, ST_ENOMEM, ENOMEM, "out of memory");
    }
    st_jw_free(&x);
    return rc;
}

/* A summary object: only kernel_peak and its source are read (the rest is
 * recomputed).  The source is optional (traces before it have none). */
int st_trace_parse_summary(st_jr *r, st_summary *sum)
{
    char key[32], src[sizeof sum->kernel_peak_source] = "";
    uint64_t v = 0;
    int k, rc, n = 0, has_v = 0;
    if ((rc = st_jr_obj_begin(r)))
        return rc;
    while ((k = st_jr_obj_next(r, &n, key, sizeof key, NULL)) == 1) {
        if (strcmp(key, "kernel_peak") == 0 && st_jr_peek(r) != ST_J_NULL) {
            if ((rc = st_trace_want_bytes(r, "summary", key, &v)))
                return rc;
            has_v = 1;
        } else if (strcmp(key, "kernel_peak_source") == 0) {
            int set;
            if ((rc = st_trace_want_str(r, "summary", key, src, sizeof src, &set)))
                return rc;
        } else if ((rc = st_jr_skip(r))) {
            return rc;
        }
    }
    if (k < 0)
        return k;
    if (has_v) /* kept by st_trace_finish */
        st_summary_add_kernel_peak_from(sum, v, src);
    return ST_OK;
}

