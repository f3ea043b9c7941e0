/* trace_import.c: read stagetop JSON documents, stagetop JSONL and
 * stageload traces.  Every input is untrusted: a strict streaming
 * tokenizer (json_read.c) walks the document without building a tree, so
 * a million samples load in one linear pass; JSONL lines are bounded
 * (ST_TRACE_MAX_LINE); every error names its line. */
#include "stagetop/grow.h"
#include "stagetop/trace.h"
#include "stagetop/trace_stream.h"
#include "trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ST_TRACE_MAX_SAMPLES (1u << 28)    /* samples in one trace */

/* State kept between st_trace_feed_line calls (t->priv). */
typedef struct reader {
    int seen_start;
    uint32_t last_stage_ms; int has_stage; /* the last stage event's time */
    size_t fold_at;         /* summary-only: fold once n_samples reaches it */
} reader;

void st_trace_init(st_trace *t)
{
    memset(t, 0, sizeof *t);
    st_event_list_init(&t->events, 0);
    st_summary_init(&t->summary);
}

void st_trace_free(st_trace *t)
{
    st_trace_meta_free(&t->meta);
    free(t->samples);
    st_event_list_free(&t->events);
    st_summary_free(&t->summary);
    free(t->priv);
    st_trace_init(t);
}

st_samples_view st_trace_view(const st_trace *t)
{
    st_samples_view v = { t->samples, t->n_samples, NULL, 0 };
    return v;
}

static reader *get_reader(st_trace *t)
{
    if (!t->priv)
        t->priv = calloc(1, sizeof(reader));
    return t->priv;
}

/* Room for cap samples (best effort: growth continues in add_sample). */
static void reserve_samples(st_trace *t, size_t cap)
{
    if (cap > ST_TRACE_MAX_SAMPLES)
        cap = ST_TRACE_MAX_SAMPLES;
    if (cap <= t->cap_samples)
        return;
    st_sample *v = realloc(t->samples, cap * sizeof *v);
    if (v) {
        t->samples = v;
        t->cap_samples = cap;
#if defined(MADV_HUGEPAGE)
        /* Far fewer page faults while a big array fills (Linux, best
         * effort): 1M samples, 11800 faults -> 600, CPU time halved. */
        uintptr_t lo = ((uintptr_t)v + 4095) & ~(uintptr_t)4095;
        uintptr_t hi = ((uintptr_t)v + cap * sizeof *v) & ~(uintptr_t)4095;
        if (hi > lo + (2u << 20))
            (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
    }
}

static int add_sample(st_trace *t, const st_sample *s, st_jr *r)
{
    /* stagetop writes its samples in time order (deadlines on one clock):
     * one going back in time is a damaged record, refused with its line.
     * stageload's traces may be out of order: sorted at the end. */
    if (t->meta.stagetop[0] && t->n_samples > 0 && s->t_ms < t->samples[t->n_samples - 1].t_ms)
        return st_jr_fail(r, "time goes backwards: a sample at %.3f s after one at %.3f s",
                          s->t_ms / 1000.0, t->samples[t->n_samples - 1].t_ms / 1000.0);
    if (t->n_samples == t->cap_samples) {
        if (t->cap_samples >= ST_TRACE_MAX_SAMPLES)
            return st_jr_fail(r, "more than %u samples", ST_TRACE_MAX_SAMPLES);
        if (st_grow(&t->samples, &t->cap_samples, t->n_samples + 1, sizeof *t->samples, 1024) != 0)
            return st_error_set(r->err, ST_ENOMEM, ENOMEM, "out of memory for %zu samples",
                                t->n_samples + 1);
    }
    t->samples[t->n_samples++] = *s;
    if (t->pass && t->pass->sample) {
        int rc = t->pass->sample(t->pass->ctx, s, r->err);
        if (rc != ST_OK)
            return rc;
        if (t->pass->drop) { /* passed on: only the last is kept (the order check's) */
            t->samples[0] = *s;
            t->n_samples = 1;
            return ST_OK;
        }
    }
    reader *rd = get_reader(t);
    if (t->fold && t->meta.stagetop[0] && rd && t->n_samples >= rd->fold_at + t->fold) {
        /* summary-only: the summed samples go.  The next fold comes fold
         * samples later, even when this one could sum nothing (all of them
         * in one millisecond): a hostile record stays linear. */
        st_trace_fold(t);
        rd->fold_at = t->n_samples;
    }
    return ST_OK;
}

/* The members of a JSONL record of the given type, after *n read. */
static int parse_record(st_trace *t, reader *rd, st_jr *r, const char *type, int n)
{
    int rc;
    if (strcmp(type, "sample") == 0) {
        st_sample s;
        if ((rc = st_trace_parse_sample(r, n, &s)))
            return rc;
        return add_sample(t, &s, r);
    }
    if (strcmp(type, "event") == 0) {
        st_event ev;
        if ((rc = st_trace_parse_event(r, n, &ev)))
            return rc;
        if (ev.kind == ST_EV_STAGE && t->meta.stagetop[0]) {
            /* stagetop writes stage events in time order: one before the
             * previous stage is a damaged record (its window would last
             * less than nothing), refused with its line */
            if (rd->has_stage && ev.t_ms < rd->last_stage_ms)
                return st_jr_fail(r, "time goes backwards: a stage at %.3f s after one at %.3f s",
                                  ev.t_ms / 1000.0, rd->last_stage_ms / 1000.0);
            rd->last_stage_ms = ev.t_ms;
            rd->has_stage = 1;
        }
        return st_event_list_add(&t->events, &ev, r->err);
    }
    if (strcmp(type, "start") == 0 && !rd->seen_start) {
        int sl = 0;
        rd->seen_start = 1;
        if ((rc = st_trace_parse_meta(r, n, &t->meta, &sl)))
            return rc;
        if (t->format == ST_FMT_UNKNOWN)
            t->format = (sl && !t->meta.stagetop[0]) ? ST_FMT_STAGELOAD : ST_FMT_JSONL;
        return ST_OK;
    }
    char key[32];
    int k;
    if (strcmp(type, "end") == 0)
        t->has_end = 1;
    while ((k = st_jr_obj_next(r, &n, key, sizeof key, NULL)) == 1) {
        if (strcmp(type, "end") == 0 && strcmp(key, "summary") == 0 && st_jr_peek(r) == ST_J_OBJ)
            rc = st_trace_parse_summary(r, &t->summary);
        else if (strcmp(type, "end") == 0 && strcmp(key, "dropped_samples") == 0)
            rc = st_trace_want_bytes(r, "end", key, &t->dropped_samples);
        else if (strcmp(type, "end") == 0 && strcmp(key, "command") == 0) { /* -p followed exec */
            int set = 0;
            rc = st_trace_want_str(r, "end", key, t->meta.command, sizeof t->meta.command, &set);
        }
        else
            rc = st_jr_skip(r); /* a later start record, or a type we do not know */
        if (rc)
            return rc;
    }
    return k < 0 ? k : ST_OK;
}

int st_trace_feed_line(st_trace *t, const char *line, size_t len, size_t lineno, st_error *err)
{
    st_jr r;
    char key[32], type[16];
    int n = 0, k, rc, trunc = 0;
    reader *rd = get_reader(t);
    if (!rd)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    if (lineno > t->lines)
        t->lines = lineno;
    st_jr_init(&r, line, len, lineno, err);
    if (len > ST_TRACE_MAX_LINE)
        return st_jr_fail(&r, "line longer than %d bytes", ST_TRACE_MAX_LINE);
    if (st_jr_ws(&r) == -1)
        return ST_OK; /* blank line */
    if ((rc = st_jr_obj_begin(&r)))
        return rc;
    st_jr rec = r; /* just after '{' */
    type[0] = '\0';
    /* stageload and stagetop write "type" first; otherwise look for it. */
    while ((k = st_jr_obj_next(&r, &n, key, sizeof key, NULL)) == 1) {
        if (strcmp(key, "type") == 0) {
            if (st_jr_peek(&r) != ST_J_STR)
                return st_jr_fail(&r, "record \"type\" must be a string, found %s", st_jr_type_name(st_jr_peek(&r)));
            if ((rc = st_jr_str(&r, type, sizeof type, &trunc)))
                return rc;
            break;
        }
        if ((rc = st_jr_skip(&r)))
            return rc;
    }
    if (k < 0)
        return k;
    if (k == 0)
        return st_jr_fail(&r, "record has no \"type\"");
    if (trunc)
        type[0] = '\0'; /* an unknown type */
    if (n > 1) { /* "type" was not first: parse again from the start */
        r = rec;
        n = 0;
    }
    if ((rc = parse_record(t, rd, &r, type, n)))
        return rc;
    if (st_jr_ws(&r) != -1)
        return st_jr_fail(&r, "unexpected data after the record");
    if (t->format == ST_FMT_UNKNOWN)
        t->format = ST_FMT_JSONL;
    return ST_OK;
}

/* ---- the JSON document ---- */

static int parse_items(st_trace *t, st_jr *r, const char *what, int samples)
{
    int n = 0, k, rc;
    if (st_jr_peek(r) != ST_J_ARR)
        return st_jr_fail(r, "\"%s\" must be an array, found %s", what, st_jr_type_name(st_jr_peek(r)));
    if ((rc = st_jr_arr_begin(r)))
        return rc;
    /* A sample as we write it takes 60-110 bytes: reserving for the rest of
     * the input at 64 bytes each avoids copying a growing array (memory
     * that is reserved but never touched costs nothing). */
    if (samples)
        reserve_samples(t, t->n_samples + (size_t)(r->end - r->p) / 64 + 16);
    while ((k = st_jr_arr_next(r, &n)) == 1) {
        if (st_jr_peek(r) != ST_J_OBJ)
            return st_jr_fail(r, "%s[%d] must be an object, found %s", what, n - 1, st_jr_type_name(st_jr_peek(r)));
        if ((rc = st_jr_obj_begin(r)))
            return rc;
        if (samples) {
            st_sample s;
            if ((rc = st_trace_parse_sample(r, 0, &s)) || (rc = add_sample(t, &s, r)))
                return rc;
        } else {
            st_event ev;
            if ((rc = st_trace_parse_event(r, 0, &ev)) || (rc = st_event_list_add(&t->events, &ev, r->err)))
                return rc;
        }
    }
    return k < 0 ? k : ST_OK;
}

static int parse_doc(st_trace *t, st_jr *r)
{
    char key[32], fmt[32];
    int n = 0, k, rc, trunc, seen_format = 0, sl = 0;
    if ((rc = st_jr_obj_begin(r)))
        return rc;
    while ((k = st_jr_obj_next(r, &n, key, sizeof key, NULL)) == 1) {
        int ty = st_jr_peek(r);
        if (strcmp(key, "format") == 0) {
            if (ty != ST_J_STR)
                return st_jr_fail(r, "\"format\" must be a string, found %s", st_jr_type_name(ty));
            if ((rc = st_jr_str(r, fmt, sizeof fmt, &trunc)))
                return rc;
            if (trunc || strcmp(fmt, "stagetop-trace") != 0)
                return st_jr_fail(r, "not a stagetop trace (\"format\" is not \"stagetop-trace\")");
            seen_format = 1;
        } else if (strcmp(key, "version") == 0) {
            const char *tok;
            size_t tn;
            uint64_t v;
            if ((rc = st_trace_want_num(r, "trace", key, &tok, &tn)))
                return rc;
            if (st_jnum_u53(tok, tn, &v) || v != 1)
                return st_jr_fail(r, "unsupported trace version %.*s (this stagetop reads version 1)",
                                  (int)(tn > 24 ? 24 : tn), tok);
        } else if (strcmp(key, "meta") == 0) {
            if (ty != ST_J_OBJ)
                return st_jr_fail(r, "\"meta\" must be an object, found %s", st_jr_type_name(ty));
            if ((rc = st_jr_obj_begin(r)) || (rc = st_trace_parse_meta(r, 0, &t->meta, &sl)))
                return rc;
        } else if (strcmp(key, "samples") == 0 || strcmp(key, "events") == 0) {
            if ((rc = parse_items(t, r, key, key[0] == 's')))
                return rc;
        } else if (strcmp(key, "summary") == 0 && ty == ST_J_OBJ) {
            if ((rc = st_trace_parse_summary(r, &t->summary)))
                return rc;
        } else if (strcmp(key, "dropped_samples") == 0 && ty != ST_J_NULL) {
            if ((rc = st_trace_want_bytes(r, "trace", key, &t->dropped_samples)))
                return rc;
        } else if ((rc = st_jr_skip(r))) {
            return rc;
        }
    }
    if (k < 0)
        return k;
    if (!seen_format)
        return st_jr_fail(r, "not a stagetop trace (no \"format\" key)");
    if (st_jr_ws(r) != -1)
        return st_jr_fail(r, "unexpected data after the document");
    t->has_end = 1;
    t->format = ST_FMT_JSON;
    return ST_OK;
}

/* Is the first object a document (a "format" key) rather than a JSONL
 * record (a "type" key)?  Both start with '{'. */
static int looks_like_doc(const st_jr *start)
{
    st_jr r = *start;
    char key[32];
    int n = 0, k;
    r.err = NULL;
    if (st_jr_obj_begin(&r))
        return 0;
    while ((k = st_jr_obj_next(&r, &n, key, sizeof key, NULL)) == 1) {
        if (strcmp(key, "format") == 0)
            return 1;
        if (strcmp(key, "type") == 0 || st_jr_skip(&r))
            return 0;
    }
    return 0;
}

int st_trace_detect(const char *buf, size_t len, int eof)
{
    size_t i = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (!eof && i == 0 && len < 3 && len > 0 && memcmp(buf, "\xEF\xBB\xBF", len) == 0)
        return ST_TRACE_MORE; /* the start of a byte order mark */
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    if (i == len) /* only whitespace so far (16 MiB of it: read on as JSONL) */
        return eof || len >= (16u << 20) ? ST_TRACE_LINES : ST_TRACE_MORE;
    if (buf[i] != '{')
        return ST_TRACE_LINES;
    st_jr r;
    char key[32];
    int n = 0, k = -1;
    st_jr_init(&r, buf + i, len - i, 1, NULL);
    if (st_jr_obj_begin(&r) == ST_OK) {
        while ((k = st_jr_obj_next(&r, &n, key, sizeof key, NULL)) == 1) {
            if (strcmp(key, "format") == 0)
                return ST_TRACE_DOC;
            if (strcmp(key, "type") == 0)
                return ST_TRACE_LINES;
            if (st_jr_skip(&r) != ST_OK) {
                k = -1;
                break;
            }
        }
        if (k == 0)
            return ST_TRACE_LINES; /* an object with neither key */
    }
    /* The first object is cut short or malformed: more may decide it,
     * unless the error lies inside a complete first line or 64 KiB came. */
    const char *nl = memchr(buf + i, '\n', len - i);
    if (eof || len - i >= ST_TRACE_MAX_LINE || (nl && r.p < nl))
        return ST_TRACE_LINES;
    return ST_TRACE_MORE;
}

static int load_lines(st_trace *t, const char *buf, size_t len, st_error *err)
{
    const char *p = buf, *e = buf + len;
    size_t lineno = 1;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *le = nl ? nl : e;
        st_error le_err;
        st_error_clear(&le_err);
        int rc = st_trace_feed_line(t, p, (size_t)(le - p), lineno, &le_err);
        if (rc != ST_OK && rc != ST_ENOMEM && !nl && lineno > 1) {
            /* The last line, without its newline, is not a record: kept out
             * and said, as the stream reader does (trace_stream.c). */
            t->torn_line = lineno;
            snprintf(t->torn_msg, sizeof t->torn_msg, "%.199s", le_err.msg);
            rc = ST_OK;
        }
        if (rc) {
            if (err)
                *err = le_err;
            return rc;
        }
        p = nl ? nl + 1 : e;
        lineno++;
    }
    if (t->format == ST_FMT_UNKNOWN)
        t->format = ST_FMT_JSONL;
    return ST_OK;
}

int st_trace_load_mem(const char *buf, size_t len, st_trace *out, st_error *err)
{
    st_jr r;
    int rc;
    st_trace_init(out);
    if (!buf)
        len = 0;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte order mark */
        buf += 3;
        len -= 3;
    }
    st_jr_init(&r, buf, len, 1, err);
    int c = st_jr_ws(&r);
    if (c == -1)
        return st_jr_fail(&r, "empty trace (no records)");
    if (c != '{') {
        char b[16];
        return st_jr_fail(&r, "not a trace: expected '{', found %s", st_jr_what(&r, b));
    }
    if (looks_like_doc(&r))
        rc = parse_doc(out, &r);
    else
        rc = load_lines(out, buf, len, err);
    if (rc) {
        st_trace_free(out);
        return rc;
    }
    st_trace_finish(out);
    return ST_OK;
}

int st_trace_load_doc_fd(int fd, const char *prefix, size_t plen, st_trace *out, st_error *err)
{
    st_trace_init(out);
    struct stat st;
    size_t cap = 65536 > plen + 1 ? 65536 : plen + 1, map_len = 0;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < ST_TRACE_MAX_INPUT && (size_t)st.st_size + 1 > cap) {
        cap = (size_t)st.st_size + 1;
#if defined(MAP_POPULATE) && defined(MAP_ANONYMOUS)
        /* Big files: memory faulted in at once costs far less than
         * page by page (a 100 MB trace: 0.33 s -> 0.17 s here). */
        if (cap >= (1u << 20)) {
#if defined(MADV_HUGEPAGE)
            void *m = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m != MAP_FAILED)
                (void)madvise(m, cap, MADV_HUGEPAGE);
#else
            void *m = mmap(NULL, cap, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
#endif
            if (m != MAP_FAILED) {
                buf = m;
                map_len = cap;
            }
        }
#endif
    }
    if (!buf)
        buf = malloc(cap);
    size_t len = 0;
    int rc = ST_OK;
    if (!buf)
        rc = st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu bytes", cap);
    else if (plen) {
        memcpy(buf, prefix, plen);
        len = plen;
    }
    while (rc == ST_OK) {
        if (len == cap) {
            if (cap >= ST_TRACE_MAX_INPUT) {
                rc = st_error_set(err, ST_EINVAL, EFBIG, "larger than %llu GiB", ST_TRACE_MAX_INPUT >> 30);
                break;
            }
            char *nb = map_len ? malloc(cap * 2) : realloc(buf, cap * 2);
            if (!nb) {
                rc = st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu bytes", cap * 2);
                break;
            }
            if (map_len) { /* the file grew while we read it */
                memcpy(nb, buf, len);
                munmap(buf, map_len);
                map_len = 0;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + len, cap - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            rc = st_error_set(err, ST_EIO, e, "read error: %s", strerror(e));
        } else if (k == 0) {
            break;
        } else {
            len += (size_t)k;
        }
    }
    if (rc == ST_OK)
        rc = st_trace_load_mem(buf, len, out, err);
    if (map_len)
        munmap(buf, map_len);
    else
        free(buf);
    return rc;
}
