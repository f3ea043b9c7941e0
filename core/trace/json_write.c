/* json_write.c: st_jw, a JSON writer that never emits invalid JSON and
 * streams to a file descriptor in chunks (see json.h). */
#include "stagetop/grow.h"
#include "stagetop/json.h"
#include "stagetop/utf8.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

void st_jw_init(st_jw *w, int fd)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
}

void st_jw_free(st_jw *w)
{
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
}

void st_jw_reset(st_jw *w)
{
    w->len = 0;
    w->err = 0;
}

int st_jw_flush(st_jw *w)
{
    size_t off = 0;
    if (w->fd < 0 || w->err)
        return w->err;
    while (off < w->len) {
        ssize_t k = write(w->fd, w->buf + off, w->len - off);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd pfd = { .fd = w->fd, .events = POLLOUT };
                (void)poll(&pfd, 1, 1000);
                continue;
            }
            w->err = errno;
            return w->err;
        }
        if (k == 0) { /* should not happen for a regular file; avoid a spin */
            w->err = EIO;
            return w->err;
        }
        off += (size_t)k;
    }
    w->flushed += w->len;
    w->len = 0;
    return 0;
}

/* Make room for n more bytes; NULL (and err set) when impossible. */
static char *jw_room(st_jw *w, size_t n)
{
    if (w->err)
        return NULL;
    if (w->len + n <= w->cap)
        return w->buf + w->len;
    if (w->fd >= 0 && w->len > 0) {
        if (st_jw_flush(w))
            return NULL;
        if (n <= w->cap)
            return w->buf;
    }
    if (n > SIZE_MAX - w->len ||
        st_grow(&w->buf, &w->cap, w->len + n, 1, w->fd >= 0 ? ST_JW_CHUNK : 256) != 0) {
        w->err = ENOMEM;
        return NULL;
    }
    return w->buf + w->len;
}

/* After appending: flush a full chunk in fd mode. */
static void jw_after(st_jw *w)
{
    if (w->fd >= 0 && w->len >= ST_JW_CHUNK)
        (void)st_jw_flush(w);
}

char *st_jw_take(st_jw *w)
{
    if (!jw_room(w, 1))
        return NULL;
    w->buf[w->len] = '\0';
    char *s = w->buf;
    w->buf = NULL;
    w->len = w->cap = 0;
    return s;
}

void st_jw_raw(st_jw *w, const char *s, size_t n)
{
    char *d = jw_room(w, n);
    if (!d)
        return;
    memcpy(d, s, n);
    w->len += n;
    jw_after(w);
}

void st_jw_char(st_jw *w, char c)
{
    char *d = jw_room(w, 1);
    if (!d)
        return;
    *d = c;
    w->len++;
    jw_after(w);
}

void st_jw_esc(st_jw *w, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    while (p < e) {
        const unsigned char *q = p;
        while (q < e && *q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\')
            q++;
        if (q > p)
            st_jw_raw(w, (const char *)p, (size_t)(q - p));
        p = q;
        if (p == e)
            break;
        unsigned c = *p;
        if (c >= 0x80) {
            uint32_t dec = 0;
            size_t k = (size_t)st_utf8_decode(p, (size_t)(e - p), &dec);
            unsigned cp = k && st_utf8_unsafe(dec) ? (unsigned)dec : 0;
            if (cp) { /* C1, bidi control, separator (utf8.h): escaped, never raw */
                char u[6] = { '\\', 'u', hex[cp >> 12], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
                              hex[cp & 15] };
                st_jw_raw(w, u, sizeof u);
                p += k;
            } else if (k) {
                st_jw_raw(w, (const char *)p, k);
                p += k;
            } else {
                st_jw_lit(w, "\\ufffd");
                p++;
            }
            continue;
        }
        char esc[6] = { '\\', 0, 0, 0, 0, 0 };
        size_t el = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            el = 6;
        }
        st_jw_raw(w, esc, el);
        p++;
    }
}

void st_jw_strn(st_jw *w, const char *s, size_t n)
{
    st_jw_char(w, '"');
    st_jw_esc(w, s, n);
    st_jw_char(w, '"');
}

void st_jw_str(st_jw *w, const char *s)
{
    st_jw_strn(w, s ? s : "", s ? strlen(s) : 0);
}

/* Digits of v, right-aligned in buf[24]; returns the first one. */
static char *u64_digits(char *end, uint64_t v)
{
    char *p = end;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void st_jw_u64(st_jw *w, uint64_t v)
{
    char buf[24], *e = buf + sizeof buf;
    char *p = u64_digits(e, v);
    st_jw_raw(w, p, (size_t)(e - p));
}

void st_jw_i64(st_jw *w, int64_t v)
{
    char buf[24], *e = buf + sizeof buf;
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *p = u64_digits(e, m);
    if (v < 0)
        *--p = '-';
    st_jw_raw(w, p, (size_t)(e - p));
}

void st_jw_ms(st_jw *w, int64_t ms)
{
    char buf[32], *e = buf + sizeof buf;
    uint64_t m = ms < 0 ? (uint64_t)0 - (uint64_t)ms : (uint64_t)ms;
    char *p = e;
    *--p = (char)('0' + m % 10);
    *--p = (char)('0' + m / 10 % 10);
    *--p = (char)('0' + m / 100 % 10);
    *--p = '.';
    p = u64_digits(p, m / 1000);
    if (ms < 0)
        *--p = '-';
    st_jw_raw(w, p, (size_t)(e - p));
}

void st_jw_centi(st_jw *w, uint32_t c)
{
    char buf[24], *e = buf + sizeof buf;
    char *p = e;
    unsigned frac = c % 100;
    if (frac) {
        if (frac % 10) {
            *--p = (char)('0' + frac % 10);
        }
        *--p = (char)('0' + frac / 10);
        *--p = '.';
    }
    p = u64_digits(p, c / 100);
    st_jw_raw(w, p, (size_t)(e - p));
}

/* The C locale for this thread around a printf of a number (a decimal
 * point whatever the user's locale): 0, or -1 with w->err set. */
static int c_locale_enter(st_jw *w, locale_t *c, locale_t *old)
{
    *c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!*c) {
        w->err = w->err ? w->err : ENOMEM;
        return -1;
    }
    *old = uselocale(*c);
    return 0;
}

static void c_locale_leave(locale_t c, locale_t old)
{
    uselocale(old);
    freelocale(c);
}

void st_jw_double(st_jw *w, double v)
{
    if (!(v == v) || v > 1.7976931348623157e308 || v < -1.7976931348623157e308) {
        st_jw_lit(w, "null");
        return;
    }
    /* Range first: converting an out-of-range double is undefined (found by
     * the fuzzer, tests/fixtures/traces/crash-double-to-int64.jsonl). */
    if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v) {
        st_jw_i64(w, (int64_t)v); /* whole numbers: no locale, no exponent */
        return;
    }
    locale_t c, old;
    if (c_locale_enter(w, &c, &old) != 0)
        return;
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    c_locale_leave(c, old);
    st_jw_raw(w, buf, strlen(buf));
}

void st_jw_fixed3(st_jw *w, double v)
{
    if (!isfinite(v) || fabs(v) >= 1e15) {
        st_jw_double(w, v);
        return;
    }
    locale_t c, old;
    if (c_locale_enter(w, &c, &old) != 0)
        return;
    char buf[48];
    snprintf(buf, sizeof buf, "%.3f", v);
    c_locale_leave(c, old);
    st_jw_raw(w, strcmp(buf, "-0.000") == 0 ? "0.000" : buf, strcmp(buf, "-0.000") == 0 ? 5 : strlen(buf));
}
