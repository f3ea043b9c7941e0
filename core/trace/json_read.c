/* json_read.c: st_jr, a strict, bounded pull tokenizer over a buffer
 * (see json.h).  It never reads past r->end, never allocates, recurses at
 * most ST_JR_MAX_DEPTH deep, and names the line in every error. */
#include "stagetop/json.h"
#include "stagetop/utf8.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

#define TWO53 9007199254740992ULL

void st_jr_init(st_jr *r, const char *buf, size_t len, size_t line, st_error *err)
{
    r->p = buf;
    r->end = buf + len;
    r->line = line;
    r->depth = 0;
    r->err = err;
}

int st_jr_fail(st_jr *r, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return st_error_set(r->err, ST_EPARSE, 0, "line %zu: %s", r->line, msg);
}

int st_jr_ws_slow(st_jr *r)
{
    const char *p = r->p, *e = r->end;
    while (p < e) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\r')
            p++;
        else if (c == '\n') {
            r->line++;
            p++;
        } else
            break;
    }
    r->p = p;
    return p < e ? (unsigned char)*p : -1;
}

int st_jr_peek(st_jr *r)
{
    int c = st_jr_ws(r);
    switch (c) {
    case '{': return ST_J_OBJ;
    case '[': return ST_J_ARR;
    case '"': return ST_J_STR;
    case 't': case 'f': return ST_J_BOOL;
    case 'n': return ST_J_NULL;
    default: return (c == '-' || (c >= '0' && c <= '9')) ? ST_J_NUM : ST_J_NONE;
    }
}

const char *st_jr_what(const st_jr *r, char *buf)
{
    if (r->p >= r->end)
        return "end of input";
    unsigned c = (unsigned char)*r->p;
    if (c > 0x20 && c < 0x7f)
        snprintf(buf, 16, "'%c'", (char)c);
    else
        snprintf(buf, 16, "byte 0x%02x", c);
    return buf;
}

/* Fail with "expected WHAT, found X". */
static int jr_expected(st_jr *r, const char *what)
{
    char b[16];
    return st_jr_fail(r, "expected %s, found %s", what, st_jr_what(r, b));
}

static int jr_open(st_jr *r, char c, const char *what)
{
    if (st_jr_ws(r) != c)
        return jr_expected(r, what);
    if (r->depth >= ST_JR_MAX_DEPTH)
        return st_jr_fail(r, "nested deeper than %d levels", ST_JR_MAX_DEPTH);
    r->depth++;
    r->p++;
    return ST_OK;
}

int st_jr_obj_begin(st_jr *r) { return jr_open(r, '{', "an object"); }
int st_jr_arr_begin(st_jr *r) { return jr_open(r, '[', "an array"); }

int st_jr_obj_next(st_jr *r, int *n, char *key, size_t keysz, const char **kraw)
{
    int c = st_jr_ws(r);
    if (c == '}') {
        r->p++;
        r->depth--;
        return 0;
    }
    if (*n > 0) {
        if (c != ',')
            return jr_expected(r, "',' or '}' in an object");
        r->p++;
        c = st_jr_ws(r);
    }
    if (c != '"')
        return jr_expected(r, "a key (string)");
    if (kraw)
        *kraw = r->p;
    /* Fast path: a plain ASCII key (all of ours) copied as it is. */
    const char *q = r->p + 1;
    while (q < r->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20 && (unsigned char)*q < 0x80)
        q++;
    if (q < r->end && *q == '"') {
        if (key && keysz) {
            size_t kl = (size_t)(q - r->p - 1);
            kl = kl < keysz - 1 ? kl : keysz - 1;
            memcpy(key, r->p + 1, kl);
            key[kl] = '\0';
        }
        r->p = q + 1;
    } else {
        int rc = st_jr_str(r, key, keysz, NULL);
        if (rc)
            return rc;
    }
    if (st_jr_ws(r) != ':')
        return jr_expected(r, "':' after a key");
    r->p++;
    (*n)++;
    return 1;
}

int st_jr_arr_next(st_jr *r, int *n)
{
    int c = st_jr_ws(r);
    if (c == ']') {
        r->p++;
        r->depth--;
        return 0;
    }
    if (*n > 0) {
        if (c != ',')
            return jr_expected(r, "',' or ']' in an array");
        r->p++;
        if (st_jr_ws(r) == ']')
            return jr_expected(r, "a value after ','");
    }
    (*n)++;
    return 1;
}

/* Where decoded string bytes go: a fixed buffer (truncating at a UTF-8
 * boundary), an escaping writer, or nowhere. */
typedef struct jsink {
    char *out;
    size_t sz, len;
    int trunc;
    st_jw *w;
} jsink;

/* Bytes that may be cut anywhere (ASCII). */
static void sink_run(jsink *s, const char *b, size_t n)
{
    if (s->w) {
        st_jw_esc(s->w, b, n);
        return;
    }
    if (!s->out || s->trunc)
        return;
    size_t room = s->sz - 1 - s->len;
    if (n > room) {
        n = room;
        s->trunc = 1;
    }
    memcpy(s->out + s->len, b, n);
    s->len += n;
}

/* One whole code point (all or nothing). */
static void sink_cp(jsink *s, const char *b, size_t n)
{
    if (s->w) {
        st_jw_esc(s->w, b, n);
        return;
    }
    if (!s->out || s->trunc)
        return;
    if (s->len + n > s->sz - 1) {
        s->trunc = 1;
        return;
    }
    memcpy(s->out + s->len, b, n);
    s->len += n;
}

static int hex4(const unsigned char *p, const unsigned char *e, unsigned *v)
{
    unsigned x = 0;
    if (e - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        x = x << 4 | d;
    }
    *v = x;
    return 0;
}

static size_t utf8_put(char *b, unsigned cp)
{
    if (cp < 0x80) { b[0] = (char)cp; return 1; }
    if (cp < 0x800) { b[0] = (char)(0xC0 | cp >> 6); b[1] = (char)(0x80 | (cp & 63)); return 2; }
    if (cp < 0x10000) {
        b[0] = (char)(0xE0 | cp >> 12); b[1] = (char)(0x80 | (cp >> 6 & 63));
        b[2] = (char)(0x80 | (cp & 63)); return 3;
    }
    b[0] = (char)(0xF0 | cp >> 18); b[1] = (char)(0x80 | (cp >> 12 & 63));
    b[2] = (char)(0x80 | (cp >> 6 & 63)); b[3] = (char)(0x80 | (cp & 63)); return 4;
}

static int jr_string(st_jr *r, jsink *s)
{
    static const char fffd[] = "\xEF\xBF\xBD";
    if (st_jr_ws(r) != '"')
        return jr_expected(r, "a string");
    const unsigned char *p = (const unsigned char *)r->p + 1, *e = (const unsigned char *)r->end;
    for (;;) {
        const unsigned char *q = p;
        while (q < e && *q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
            q++;
        if (q > p)
            sink_run(s, (const char *)p, (size_t)(q - p));
        p = q;
        if (p >= e) {
            r->p = (const char *)p;
            return st_jr_fail(r, "unterminated string (the input ends inside it)");
        }
        unsigned c = *p;
        if (c == '"')
            break;
        if (c < 0x20) {
            r->p = (const char *)p;
            return st_jr_fail(r, "control character (byte 0x%02x) inside a string", c);
        }
        if (c >= 0x80) {
            size_t k = st_utf8_seq(p, e);
            sink_cp(s, k ? (const char *)p : fffd, k ? k : 3);
            p += k ? k : 1;
            continue;
        }
        /* backslash */
        if (e - p < 2) {
            r->p = (const char *)p;
            return st_jr_fail(r, "unterminated string (the input ends inside it)");
        }
        char one;
        unsigned cp;
        switch (p[1]) {
        case '"': one = '"'; break;
        case '\\': one = '\\'; break;
        case '/': one = '/'; break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u':
            if (hex4(p + 2, e, &cp)) {
                r->p = (const char *)p;
                return st_jr_fail(r, "bad \\u escape in a string");
            }
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (e - p >= 6 && p[0] == '\\' && p[1] == 'u' && !hex4(p + 2, e, &lo) && lo >= 0xDC00 &&
                    lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                } else
                    cp = 0xFFFD; /* lone high surrogate */
            } else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0) {
                cp = 0xFFFD; /* lone low surrogate; NUL cannot live in a C string */
            }
            {
                char b[4];
                sink_cp(s, b, utf8_put(b, cp));
            }
            continue;
        default:
            r->p = (const char *)p;
            return st_jr_fail(r, "bad escape '\\%c' in a string", p[1] > 0x20 && p[1] < 0x7f ? p[1] : '?');
        }
        sink_cp(s, &one, 1);
        p += 2;
    }
    r->p = (const char *)p + 1;
    return ST_OK;
}

int st_jr_str(st_jr *r, char *out, size_t outsz, int *truncated)
{
    jsink s = { out, outsz, 0, 0, NULL };
    if (out && outsz == 0)
        s.out = NULL;
    int rc = jr_string(r, &s);
    if (s.out)
        s.out[s.len] = '\0';
    if (truncated)
        *truncated = s.trunc;
    return rc;
}

int st_jr_str_to(st_jr *r, st_jw *w)
{
    jsink s = { NULL, 0, 0, 0, w };
    st_jw_char(w, '"');
    int rc = jr_string(r, &s);
    st_jw_char(w, '"');
    return rc;
}

static int is_digit(const char *p, const char *e) { return p < e && *p >= '0' && *p <= '9'; }

/* A number, true, false or null must end at a delimiter. */
static int jr_delim_ok(const st_jr *r, const char *p)
{
    if (p >= r->end)
        return 1;
    char c = *p;
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int st_jr_num(st_jr *r, const char **tok, size_t *n)
{
    st_jr_ws(r);
    const char *s = r->p, *p = s, *e = r->end;
    if (p < e && *p == '-')
        p++;
    if (!is_digit(p, e))
        return jr_expected(r, "a number");
    if (*p == '0')
        p++;
    else
        while (is_digit(p, e))
            p++;
    if (p < e && *p == '.') {
        p++;
        if (!is_digit(p, e))
            return st_jr_fail(r, "malformed number (no digit after '.')");
        while (is_digit(p, e))
            p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if (!is_digit(p, e))
            return st_jr_fail(r, "malformed number (no digit in the exponent)");
        while (is_digit(p, e))
            p++;
    }
    if (!jr_delim_ok(r, p)) {
        r->p = p;
        return jr_expected(r, "',' or the end of a value after a number");
    }
    *tok = s;
    *n = (size_t)(p - s);
    r->p = p;
    return ST_OK;
}

static int jr_word(st_jr *r, const char *word, size_t n)
{
    st_jr_ws(r);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0 || !jr_delim_ok(r, r->p + n))
        return jr_expected(r, word);
    r->p += n;
    return ST_OK;
}

int st_jr_bool(st_jr *r, int *v)
{
    int c = st_jr_ws(r);
    *v = c == 't';
    return c == 't' ? jr_word(r, "true", 4) : jr_word(r, "false", 5);
}

int st_jr_null(st_jr *r) { return jr_word(r, "null", 4); }

/* Skip (w == NULL) or copy compactly (w != NULL) one value. */
static int jr_value(st_jr *r, st_jw *w)
{
    int rc, k, n = 0, v;
    const char *tok, *kraw;
    size_t tn;
    switch (st_jr_peek(r)) {
    case ST_J_OBJ:
        if ((rc = st_jr_obj_begin(r)))
            return rc;
        if (w)
            st_jw_char(w, '{');
        while ((k = st_jr_obj_next(r, &n, NULL, 0, &kraw)) == 1) {
            if (w) {
                st_jr sub = *r;
                sub.p = kraw;
                if (n > 1)
                    st_jw_char(w, ',');
                (void)st_jr_str_to(&sub, w);
                st_jw_char(w, ':');
            }
            if ((rc = jr_value(r, w)))
                return rc;
        }
        if (k < 0)
            return k;
        if (w)
            st_jw_char(w, '}');
        return ST_OK;
    case ST_J_ARR:
        if ((rc = st_jr_arr_begin(r)))
            return rc;
        if (w)
            st_jw_char(w, '[');
        while ((k = st_jr_arr_next(r, &n)) == 1) {
            if (w && n > 1)
                st_jw_char(w, ',');
            if ((rc = jr_value(r, w)))
                return rc;
        }
        if (k < 0)
            return k;
        if (w)
            st_jw_char(w, ']');
        return ST_OK;
    case ST_J_STR:
        return w ? st_jr_str_to(r, w) : st_jr_str(r, NULL, 0, NULL);
    case ST_J_NUM:
        if ((rc = st_jr_num(r, &tok, &tn)))
            return rc;
        if (w)
            st_jw_raw(w, tok, tn);
        return ST_OK;
    case ST_J_BOOL:
        if ((rc = st_jr_bool(r, &v)))
            return rc;
        if (w)
            st_jw_raw(w, v ? "true" : "false", v ? 4 : 5);
        return ST_OK;
    case ST_J_NULL:
        if ((rc = st_jr_null(r)))
            return rc;
        if (w)
            st_jw_lit(w, "null");
        return ST_OK;
    default:
        return jr_expected(r, "a value");
    }
}

int st_jr_skip(st_jr *r) { return jr_value(r, NULL); }
int st_jr_copy(st_jr *r, st_jw *w) { return jr_value(r, w); }

/* ---- number conversions ---- */

int st_jnum_double(const char *tok, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return ST_JN_RANGE;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!c)
        return ST_JN_RANGE;
    locale_t old = uselocale(c);
    char *end;
    double d = strtod(buf, &end);
    uselocale(old);
    freelocale(c);
    if (end != buf + n || !isfinite(d))
        return ST_JN_RANGE;
    *out = d;
    return ST_JN_OK;
}

/* All digits? */
static int all_digits(const char *tok, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tok[i] < '0' || tok[i] > '9')
            return 0;
    return n > 0;
}

int st_jnum_u53(const char *tok, size_t n, uint64_t *out)
{
    if (all_digits(tok, n)) {
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++) {
            v = v * 10 + (uint64_t)(tok[i] - '0');
            if (v > TWO53)
                return ST_JN_RANGE;
        }
        *out = v;
        return ST_JN_OK;
    }
    double d;
    if (st_jnum_double(tok, n, &d))
        return ST_JN_RANGE;
    if (d < 0)
        return ST_JN_NEG;
    if (d != floor(d))
        return ST_JN_FRAC;
    if (d > (double)TWO53)
        return ST_JN_RANGE;
    *out = (uint64_t)d;
    return ST_JN_OK;
}

int st_jnum_i53(const char *tok, size_t n, int64_t *out)
{
    int neg = n > 0 && tok[0] == '-';
    uint64_t m;
    int rc = st_jnum_u53(tok + neg, n - (size_t)neg, &m);
    if (rc)
        return rc == ST_JN_NEG ? ST_JN_FRAC : rc;
    *out = neg ? -(int64_t)m : (int64_t)m;
    return ST_JN_OK;
}

int st_jnum_scaled(const char *tok, size_t n, int digits, uint64_t max, uint64_t *out)
{
    static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
    if (digits < 0 || digits > 6)
        return ST_JN_RANGE;
    /* Exact fast path: DIGITS[.DIGITS], decimal rounding half up. */
    size_t i = 0;
    uint64_t ip = 0;
    while (i < n && i < 15 && tok[i] >= '0' && tok[i] <= '9')
        ip = ip * 10 + (uint64_t)(tok[i++] - '0');
    if (i > 0 && (i == n || tok[i] == '.') && i < 15) {
        uint64_t fr = 0;
        int nd = 0, up = 0;
        if (i < n) {
            size_t j = i + 1;
            for (; j < n && tok[j] >= '0' && tok[j] <= '9'; j++) {
                if (nd < digits) {
                    fr = fr * 10 + (uint64_t)(tok[j] - '0');
                    nd++;
                } else if (nd == digits) {
                    up = tok[j] >= '5';
                    nd++;
                }
            }
            if (j != n)
                goto slow; /* exponent */
            if (nd > digits)
                nd = digits;
        }
        uint64_t v = ip * pow10[digits] + fr * pow10[digits - nd] + (uint64_t)up;
        if (v > max)
            return ST_JN_RANGE;
        *out = v;
        return ST_JN_OK;
    }
slow:;
    double d;
    if (st_jnum_double(tok, n, &d))
        return ST_JN_RANGE;
    if (d < 0)
        return ST_JN_NEG;
    double v = d * (double)pow10[digits];
    if (!(v < (double)max + 0.5))
        return ST_JN_RANGE;
    uint64_t u = (uint64_t)(v + 0.5);
    if (u > max)
        return ST_JN_RANGE;
    *out = u;
    return ST_JN_OK;
}
