/* sb.c: the growable text string (sb.h). */
#include "stagetop/sb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void st_sb_init(st_sb *b)
{
    b->buf = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

void st_sb_free(st_sb *b)
{
    free(b->buf);
    st_sb_init(b);
}

/* Room for n more bytes and the NUL; 0 when there is none. */
static int room(st_sb *b, size_t n)
{
    if (b->oom)
        return 0;
    if (n > (size_t)-1 / 2 - b->len) {
        b->oom = 1;
        return 0;
    }
    if (b->len + n + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *p = realloc(b->buf, cap);
    if (!p) {
        b->oom = 1;
        return 0;
    }
    b->buf = p;
    b->cap = cap;
    return 1;
}

void st_sb_add(st_sb *b, const char *s, size_t n)
{
    if (!room(b, n))
        return;
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

void st_sb_str(st_sb *b, const char *s)
{
    st_sb_add(b, s, strlen(s));
}

void st_sb_char(st_sb *b, char c)
{
    st_sb_add(b, &c, 1);
}

void st_sb_fill(st_sb *b, char c, size_t n)
{
    if (!room(b, n))
        return;
    memset(b->buf + b->len, c, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

void st_sb_printf(st_sb *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        st_sb_add(b, small, (size_t)n);
        return;
    }
    if (!room(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *st_sb_take(st_sb *b)
{
    char *out = NULL;
    if (!b->oom)
        out = b->buf ? b->buf : calloc(1, 1);
    else
        free(b->buf);
    st_sb_init(b);
    return out;
}
