/* trace_meta.c: the walk over meta.extra (trace.h) that the screen's
 * header, the SVG chart's title and `stagetop diff` share, and what ran
 * (st_trace_what), the line that names a trace in reports and charts. */
#include "stagetop/trace.h"
#include "stagetop/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void st_meta_iter_init(st_meta_iter *it, const st_trace_meta *m)
{
    memset(it, 0, sizeof *it);
    it->extra = m ? m->extra : NULL;
    it->line = 1;
    it->done = !it->extra;
}

/* The reader at the iterator's place: inside the object after n members. */
static int resume(st_meta_iter *it, st_jr *r)
{
    size_t len = strlen(it->extra);
    st_jr_init(r, it->extra, len, 1, NULL);
    if (it->pos == 0) {
        if (st_jr_peek(r) != ST_J_OBJ || st_jr_obj_begin(r) != ST_OK)
            return -1;
    } else {
        r->p = it->extra + it->pos;
        r->line = it->line;
        r->depth = 1;
    }
    return 0;
}

int st_meta_iter_next(st_meta_iter *it, st_meta_item *item, size_t strsz)
{
    st_jr r;
    if (it->done || resume(it, &r) != 0) {
        it->done = 1;
        return 0;
    }
    if (strsz == 0 || strsz > sizeof item->str)
        strsz = sizeof item->str;
    for (;;) {
        memset(item, 0, sizeof *item);
        int ok = 0;
        if (st_jr_obj_next(&r, &it->n, item->key, sizeof item->key, NULL) != 1)
            break;
        int ty = st_jr_peek(&r);
        if (ty == ST_J_STR) {
            item->type = ST_META_STR;
            ok = st_jr_str(&r, item->str, strsz, &item->truncated) == ST_OK;
        } else if (ty == ST_J_NUM) {
            item->type = ST_META_NUM;
            ok = st_jr_num(&r, &item->num, &item->num_len) == ST_OK;
        } else if (ty == ST_J_BOOL) {
            item->type = ST_META_BOOL;
            ok = st_jr_bool(&r, &item->b) == ST_OK;
        } else {
            if (st_jr_skip(&r) != ST_OK)
                break;
            continue;
        }
        if (!ok)
            break;
        it->pos = (size_t)(r.p - it->extra);
        it->line = r.line;
        return 1;
    }
    it->done = 1;
    return 0;
}

/* ---- what ran ---- */

static void append(char *buf, size_t size, const char *s)
{
    size_t len = strlen(buf);
    if (len + 1 < size)
        snprintf(buf + len, size - len, "%s%s", len ? " \xC2\xB7 " : "", s);
}

void st_trace_what(const st_trace_meta *m, char *buf, size_t size)
{
    char pipeline[96] = "", mode[96] = "", steps[48] = "", item[128];
    if (!size)
        return;
    buf[0] = '\0';
    if (m->command[0]) {
        snprintf(buf, size, "%s", m->command);
        return;
    }
    st_meta_iter it;
    st_meta_item e;
    st_meta_iter_init(&it, m);
    while (st_meta_iter_next(&it, &e, sizeof mode)) {
        if (e.type == ST_META_STR && (!strcmp(e.key, "pipeline") || !strcmp(e.key, "mode")))
            snprintf(!strcmp(e.key, "mode") ? mode : pipeline, sizeof mode, "%s", e.str);
        else if (e.type == ST_META_NUM && !strcmp(e.key, "steps"))
            snprintf(steps, sizeof steps, "%.*s", (int)(e.num_len < 24 ? e.num_len : 24), e.num);
    }
    if (pipeline[0])
        append(buf, size, pipeline);
    if (mode[0]) {
        snprintf(item, sizeof item, "mode %s", mode);
        append(buf, size, item);
    }
    if (steps[0]) {
        snprintf(item, sizeof item, "steps %s", steps);
        append(buf, size, item);
    }
}

void st_trace_limit_of(const st_trace_meta *m, st_trace_limit *out)
{
    st_meta_iter it;
    st_meta_item e;
    memset(out, 0, sizeof *out);
    st_meta_iter_init(&it, m);
    while (st_meta_iter_next(&it, &e, sizeof out->cgroup)) {
        if (e.type == ST_META_STR && !strcmp(e.key, "cgroup")) {
            out->has_cgroup = 1;
            snprintf(out->cgroup, sizeof out->cgroup, "%s", e.str);
        } else if (e.type == ST_META_STR && !strcmp(e.key, "memory_limit_cgroup")) {
            snprintf(out->limit_cgroup, sizeof out->limit_cgroup, "%s", e.str);
        } else if (e.type == ST_META_STR && !strcmp(e.key, "memory_limit_file")) {
            snprintf(out->limit_file, sizeof out->limit_file, "%.31s", e.str);
        } else if (e.type == ST_META_NUM && !strcmp(e.key, "memory_limit")) {
            uint64_t v = 0;
            size_t i = 0;
            for (; i < e.num_len && e.num[i] >= '0' && e.num[i] <= '9'; i++) {
                unsigned d = (unsigned)(e.num[i] - '0');
                if (v > (UINT64_MAX - d) / 10)
                    break;
                v = v * 10 + d;
            }
            out->has_limit = i > 0 && i == e.num_len;
            out->limit = out->has_limit ? v : 0;
        }
    }
}

void st_trace_meta_free(st_trace_meta *m)
{
    free(m->extra);
    m->extra = NULL;
}
