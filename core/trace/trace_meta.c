/* trace_meta.c: the walk over meta.extra (trace.h) that the screen's
 * header, the SVG chart's title and `stagetop diff` share. */
#include "stagetop/trace.h"
#include "stagetop/json.h"

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
