/* grow.h: the one growable-array step of stagetop's core and screen
 * (internal; header only, so every build that compiles a user of it has it).
 *
 *   if (st_grow(&v->items, &v->cap, v->len + 1, sizeof *v->items, 16) != 0)
 *       return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory ...");
 *
 * Makes room for `need` elements of `size` bytes: when need > *cap the
 * capacity doubles (starting from `first`) until it holds them, and the
 * array is reallocated.  Returns 0, or -1 when out of memory or when the
 * size would overflow; then the array and *cap are left as they were. */
#ifndef STAGETOP_GROW_H
#define STAGETOP_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* pp: the address of any object pointer (T **), passed as void * so that
 * one function serves every element type; it is read and written with
 * memcpy, not through a void ** (which would alias a T *). */
static inline int st_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
    void *old, *p;
    size_t ncap;
    if (need <= *cap)
        return 0;
    ncap = *cap ? *cap : (first ? first : 1);
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (size && ncap > SIZE_MAX / size)
        return -1;
    memcpy(&old, pp, sizeof old);
    if (!(p = realloc(old, ncap * size)))
        return -1;
    memcpy(pp, &p, sizeof p);
    *cap = ncap;
    return 0;
}

#endif
