/* json.h: stagetop's JSON codec (core/trace/json_read.c, core/trace/json_write.c),
 * used inside core/ only: the front end (tui/) never includes it, it asks
 * core for what it needs (trace.h, doctor.h, md.h).  It knows nothing of
 * traces: their records' readers and writers are declared in
 * core/trace/trace_internal.h.
 *
 *  - st_jw: a writer that appends to a buffer and, when given a file
 *    descriptor, flushes it in chunks (so a million samples never sit in
 *    memory as text).  Whatever it is fed, it never emits invalid JSON:
 *    strings are escaped, invalid UTF-8 becomes U+FFFD, non-finite numbers
 *    become null.  Numbers never depend on the locale.  It writes JSON
 *    only: Markdown and terminal text are built with st_sb (sb.h).
 *  - st_jr: a strict pull tokenizer over a buffer in memory.  It counts
 *    lines (errors read "line N: ..."), bounds nesting depth, never reads
 *    past the end, allocates nothing, and is linear in the input. */
#ifndef STAGETOP_JSON_H
#define STAGETOP_JSON_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"

/* ---- writer ---- */

#define ST_JW_CHUNK 65536 /* fd mode: flush when this much is buffered */

typedef struct st_jw {
    char *buf;
    size_t len, cap;
    int fd;            /* >= 0: flush to fd in chunks; -1: grow in memory */
    int err;           /* first errno seen (ENOMEM, ENOSPC, ...); sticky */
    uint64_t flushed;  /* bytes written to fd so far */
} st_jw;

/* Start a writer; fd < 0 keeps everything in memory. */
void st_jw_init(st_jw *w, int fd);
/* Free the buffer (does not close fd). */
void st_jw_free(st_jw *w);
/* Forget buffered text and any error (memory mode: reuse for a new line). */
void st_jw_reset(st_jw *w);
/* fd mode: write everything buffered; returns 0 or the errno (sticky). */
int st_jw_flush(st_jw *w);
/* Memory mode: the text so far, NUL-terminated, handed to the caller
 * (malloc'd); the writer is left empty.  NULL after an error. */
char *st_jw_take(st_jw *w);

/* Append n raw bytes (trusted JSON text). */
void st_jw_raw(st_jw *w, const char *s, size_t n);
/* Append a string literal (trusted JSON text). */
#define st_jw_lit(w, s) st_jw_raw((w), "" s, sizeof("" s) - 1) /* literals only */
/* Append one raw character. */
void st_jw_char(st_jw *w, char c);
/* Append a quoted, escaped JSON string (C string / n bytes). */
void st_jw_str(st_jw *w, const char *s);
void st_jw_strn(st_jw *w, const char *s, size_t n);
/* Append escaped bytes without quotes (valid UTF-8 kept, invalid -> U+FFFD). */
void st_jw_esc(st_jw *w, const char *s, size_t n);
/* Integers. */
void st_jw_u64(st_jw *w, uint64_t v);
void st_jw_i64(st_jw *w, int64_t v);
/* Milliseconds as seconds with exactly 3 decimals ("1.940", "-0.500"). */
void st_jw_ms(st_jw *w, int64_t ms);
/* Hundredths as a number: integer when whole ("92"), else up to 2 decimals
 * ("45.5", "45.25"). */
void st_jw_centi(st_jw *w, uint32_t c);
/* A double rounded to 3 decimals as Python's round(v, 3) does (from its
 * exact binary value, ties to even), written "1.000"; NaN/inf as null. */
void st_jw_fixed3(st_jw *w, double v);
/* A double in its shortest round-trip form; NaN/inf as null. */
void st_jw_double(st_jw *w, double v);

/* ---- reader ---- */

#define ST_JR_MAX_DEPTH 32 /* objects/arrays nested deeper are an error */

enum st_jtype { ST_J_NONE = -1, ST_J_OBJ, ST_J_ARR, ST_J_STR, ST_J_NUM, ST_J_BOOL, ST_J_NULL };

typedef struct st_jr {
    const char *p, *end; /* cursor and end of input */
    size_t line;         /* 1-based line of the cursor */
    int depth;           /* open objects/arrays */
    st_error *err;       /* may be NULL */
} st_jr;

/* Read buf[0..len) whose first byte is on line `line`. */
void st_jr_init(st_jr *r, const char *buf, size_t len, size_t line, st_error *err);
/* Fail with ST_EPARSE "line N: <message>" (N: the reader's line). */
int st_jr_fail(st_jr *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Skip whitespace (counting newlines); the next byte or -1 at the end. */
int st_jr_ws_slow(st_jr *r);
static inline int st_jr_ws(st_jr *r)
{
    if (r->p < r->end && (unsigned char)*r->p > ' ')
        return (unsigned char)*r->p; /* the common case, inline */
    return st_jr_ws_slow(r);
}
/* Type of the value that starts at the cursor (after whitespace), or
 * ST_J_NONE when no value can start there. */
int st_jr_peek(st_jr *r);
/* Describe the byte at the cursor for an error message ("end of input",
 * "'x'", "byte 0x01"); buf needs 16 bytes. */
const char *st_jr_what(const st_jr *r, char *buf);

/* Objects: begin consumes '{'.  next reads the separator and the next key
 * into key (truncated, NUL-terminated; *kraw, when non-NULL, gets the
 * position of the key's opening quote) and the ':'.  It returns 1 for a
 * member (its value comes next), 0 at the closing '}' (consumed), or
 * ST_EPARSE.  *n counts members read so far (start it at 0). */
int st_jr_obj_begin(st_jr *r);
int st_jr_obj_next(st_jr *r, int *n, char *key, size_t keysz, const char **kraw);
/* Arrays: same protocol; 1 when an element follows, 0 at ']'. */
int st_jr_arr_begin(st_jr *r);
int st_jr_arr_next(st_jr *r, int *n);

/* Read a string value.  out (may be NULL) gets the decoded text truncated
 * at a UTF-8 boundary to outsz-1 bytes and NUL-terminated; invalid UTF-8,
 * lone surrogates and \u0000 become U+FFFD.  *truncated (may be NULL) says
 * whether it was cut. */
int st_jr_str(st_jr *r, char *out, size_t outsz, int *truncated);
/* Read a string value and append it, quoted and escaped, to w. */
int st_jr_str_to(st_jr *r, st_jw *w);
/* Read a number token (strict JSON grammar); *tok and *n get its text. */
int st_jr_num(st_jr *r, const char **tok, size_t *n);
/* Read true/false (*v = 1/0) or null. */
int st_jr_bool(st_jr *r, int *v);
int st_jr_null(st_jr *r);
/* Skip any value (validating it). */
int st_jr_skip(st_jr *r);
/* Copy any value to w in compact form (strings re-escaped). */
int st_jr_copy(st_jr *r, st_jw *w);

/* Number token conversions (tok from st_jr_num). */
enum st_jnum { ST_JN_OK = 0, ST_JN_NEG = -1, ST_JN_FRAC = -2, ST_JN_RANGE = -3 };
/* A non-negative integer <= 2^53 ("1e3" and "5.0" count as integers). */
int st_jnum_u53(const char *tok, size_t n, uint64_t *out);
/* An integer with |v| <= 2^53. */
int st_jnum_i53(const char *tok, size_t n, int64_t *out);
/* Any finite double (ST_JN_RANGE when it overflows). */
int st_jnum_double(const char *tok, size_t n, double *out);
/* Value * 10^digits rounded to an integer, which must be in [0, max]
 * (ST_JN_NEG below 0, ST_JN_RANGE above max or non-finite). */
int st_jnum_scaled(const char *tok, size_t n, int digits, uint64_t max, uint64_t *out);

#endif
