/* doctor_internal.h: what doctor's files share, internal to core/doctor:
 * the "macOS only" note, and the small scanners of its parsers
 * (doctor_parse.c, doctor_parse_mac.c, doctor_mac.c), each working on
 * (text, len) without needing a NUL and never reading past len. */
#ifndef STAGETOP_DOCTOR_INTERNAL_H
#define STAGETOP_DOCTOR_INTERNAL_H

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stagetop/doctor.h"

/* A row of a number this system does not have: "macOS only (what): not
 * checked on linux" (doctor.c's lanes, doctor_mac.c's rows). */
static inline void mac_only(st_doctor_check *c, const char *what, const st_platform *plat)
{
    snprintf(c->note, sizeof c->note, "macOS only (%s): not checked on %s", what,
             plat->name ? plat->name : "this system");
}

typedef struct line_it {
    const char *p, *end;
    size_t no; /* 1-based number of the line last returned */
} line_it;

/* Next line (without its '\n') in *s, *n; 0 at the end. */
static inline int next_line(line_it *it, const char **s, size_t *n)
{
    const char *nl;
    if (it->p >= it->end)
        return 0;
    nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
    *s = it->p;
    *n = (size_t)((nl ? nl : it->end) - it->p);
    it->p = nl ? nl + 1 : it->end;
    it->no++;
    return 1;
}

static inline void skip_ws(const char **s, const char *e)
{
    while (*s < e && (**s == ' ' || **s == '\t' || **s == '\r'))
        (*s)++;
}

/* Does the line (leading blanks skipped) start with key?  *rest gets what
 * follows the key. */
static inline int starts(const char *s, size_t n, const char *key, const char **rest)
{
    const char *e = s + n;
    size_t k = strlen(key);
    skip_ws(&s, e);
    if ((size_t)(e - s) < k || memcmp(s, key, k) != 0)
        return 0;
    *rest = s + k;
    return 1;
}

/* First occurrence of key in [s, s+n). */
static inline const char *find(const char *s, size_t n, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; k <= n && i <= n - k; i++)
        if (memcmp(s + i, key, k) == 0)
            return s + i;
    return NULL;
}

/* An unsigned integer token; bytes used, 0 when none or too large. */
static inline size_t scan_uint(const char *s, const char *e, uint64_t *v)
{
    const char *p = s;
    uint64_t x = 0;
    *v = 0;
    while (p < e && isdigit((unsigned char)*p)) {
        if (x > (UINT64_MAX - 9) / 10)
            return 0;
        x = x * 10 + (uint64_t)(*p - '0');
        p++;
    }
    *v = x;
    return (size_t)(p - s);
}

/* Up to max blank-separated tokens of [s, s+n): their starts and lengths;
 * returns how many. */
static inline size_t split_ws(const char *s, size_t n, const char **tok, size_t *tl, size_t max)
{
    const char *p = s, *e = s + n;
    size_t k = 0;
    for (;;) {
        skip_ws(&p, e);
        if (p >= e || k == max)
            return k;
        tok[k] = p;
        while (p < e && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        tl[k] = (size_t)(p - tok[k]);
        k++;
    }
}

#endif
