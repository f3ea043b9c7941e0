/* proc_vec.c: the growable array of process references. */
#include "stagetop/grow.h"
#include "stagetop/platform.h"

#include <errno.h>
#include <stdlib.h>

int st_proc_vec_push(st_proc_vec *vec, const st_proc_ref *ref, st_error *err)
{
    if (st_grow(&vec->v, &vec->cap, vec->len + 1, sizeof *vec->v, 16) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu processes", vec->len + 1);
    vec->v[vec->len++] = *ref;
    return ST_OK;
}

void st_proc_vec_clear(st_proc_vec *vec) { vec->len = 0; }

void st_proc_vec_free(st_proc_vec *vec)
{
    free(vec->v);
    vec->v = NULL;
    vec->len = vec->cap = 0;
}
