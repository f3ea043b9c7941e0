/* linux_parse.c: parsers for /proc text, fed from memory (see linux_parse.h).
 *
 * The text is never trusted: every number is range-checked, every field
 * that stagetop uses must be well formed, and nothing is read past len. */
#include "stagetop/linux_parse.h"

#include <stdint.h>
#include <string.h>

/* Parse an unsigned decimal in [p, end): at least one digit, no overflow.
 * *next is set after the last digit.  Returns 0 or -1. */
static int parse_u64(const char *p, const char *end, uint64_t *v, const char **next)
{
    uint64_t acc = 0;
    const char *s = p;
    while (p < end && *p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p - '0');
        if (acc > (UINT64_MAX - d) / 10)
            return -1;
        acc = acc * 10 + d;
        p++;
    }
    if (p == s)
        return -1;
    *v = acc;
    *next = p;
    return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Parse the value of a "Key:   N kB" line (the text after the colon, up to
 * the end of the line).  With kb != 0 the " kB" unit is required and the
 * result is in bytes; else a bare number is required. */
static int parse_kv_value(const char *p, const char *eol, int kb, uint64_t *out)
{
    uint64_t v;
    while (p < eol && is_blank(*p))
        p++;
    if (parse_u64(p, eol, &v, &p) != 0)
        return -1;
    while (p < eol && is_blank(*p))
        p++;
    if (kb) {
        if (eol - p < 2 || p[0] != 'k' || p[1] != 'B')
            return -1;
        p += 2;
        if (v > UINT64_MAX / 1024)
            return -1;
        v *= 1024;
    }
    while (p < eol && is_blank(*p))
        p++;
    if (p != eol)
        return -1;
    *out = v;
    return 0;
}

/* A key of a "Key: value" file that a parser wants. */
typedef struct kv_key {
    const char *name;
    unsigned bit;
    int kb; /* value in kB (converted to bytes) */
} kv_key;

/* Walk "Key: value" lines; for each wanted key store the value in
 * vals[index of key] and set its bit in *valid. */
static int parse_kv_file(const char *text, size_t len, const kv_key *keys, size_t nkeys,
                         uint64_t *vals, unsigned *valid, const char *what, st_error *err)
{
    const char *p = text, *end = text + len;
    unsigned line = 0, all = 0;
    size_t klens[16];
    *valid = 0;
    for (size_t i = 0; i < nkeys && i < 16; i++) { /* once per file, not per line */
        klens[i] = strlen(keys[i].name);
        all |= keys[i].bit;
    }
    while (p < end && *valid != all) { /* stops once every wanted key is read */
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *colon;
        if (!eol)
            eol = end;
        line++;
        colon = memchr(p, ':', (size_t)(eol - p));
        if (colon) {
            size_t klen = (size_t)(colon - p);
            for (size_t i = 0; i < nkeys && i < 16; i++) {
                if (klens[i] == klen && memcmp(keys[i].name, p, klen) == 0) {
                    if (parse_kv_value(colon + 1, eol, keys[i].kb, &vals[i]) != 0)
                        return st_error_set(err, ST_EPARSE, 0, "%s line %u: bad value for %s",
                                            what, line, keys[i].name);
                    *valid |= keys[i].bit;
                    break;
                }
            }
        }
        p = eol + 1;
    }
    return ST_OK;
}

int st_lx_parse_status(const char *text, size_t len, st_lx_status *out, st_error *err)
{
    static const kv_key keys[] = {
        {"RssAnon", ST_LX_RSSANON, 1}, {"RssShmem", ST_LX_RSSSHMEM, 1},
        {"RssFile", ST_LX_RSSFILE, 1}, {"VmRSS", ST_LX_VMRSS, 1},
        {"VmSwap", ST_LX_VMSWAP, 1},   {"VmHWM", ST_LX_VMHWM, 1},
        {"PPid", ST_LX_PPID, 0},       {"Threads", ST_LX_THREADS, 0},
    };
    uint64_t v[8] = {0};
    unsigned valid;
    int rc = parse_kv_file(text, len, keys, 8, v, &valid, "status", err);
    memset(out, 0, sizeof *out);
    if (rc != ST_OK)
        return rc;
    if ((valid & ST_LX_PPID) && v[6] > INT32_MAX)
        return st_error_set(err, ST_EPARSE, 0, "status: PPid out of range");
    if ((valid & ST_LX_THREADS) && v[7] > INT32_MAX)
        return st_error_set(err, ST_EPARSE, 0, "status: Threads out of range");
    out->rss_anon = v[0];
    out->rss_shmem = v[1];
    out->rss_file = v[2];
    out->vm_rss = v[3];
    out->vm_swap = v[4];
    out->vm_hwm = v[5];
    out->ppid = (int32_t)v[6];
    out->threads = (int32_t)v[7];
    out->valid = valid;
    return ST_OK;
}

int st_lx_parse_meminfo(const char *text, size_t len, st_lx_meminfo *out, st_error *err)
{
    static const kv_key keys[] = {
        {"MemTotal", ST_LX_MEMTOTAL, 1}, {"MemAvailable", ST_LX_MEMAVAILABLE, 1},
        {"SwapTotal", ST_LX_SWAPTOTAL, 1}, {"SwapFree", ST_LX_SWAPFREE, 1},
        {"Zswap", ST_LX_ZSWAP, 1},
    };
    uint64_t v[5] = {0};
    unsigned valid;
    int rc = parse_kv_file(text, len, keys, 5, v, &valid, "meminfo", err);
    memset(out, 0, sizeof *out);
    if (rc != ST_OK)
        return rc;
    out->mem_total = v[0];
    out->mem_available = v[1];
    out->swap_total = v[2];
    out->swap_free = v[3];
    out->zswap = v[4];
    out->valid = valid;
    return ST_OK;
}

/* Find the last c in [p, p+n). */
static const char *last_char(const char *p, size_t n, char c)
{
    while (n > 0) {
        n--;
        if (p[n] == c)
            return p + n;
    }
    return NULL;
}

int st_lx_parse_stat(const char *text, size_t len, st_lx_stat *out, st_error *err)
{
    const char *end = text + len, *open, *close, *p;
    uint64_t v;
    unsigned tok = 0;
    memset(out, 0, sizeof *out);
    open = memchr(text, '(', len);
    close = last_char(text, len, ')');
    if (!open || !close || close < open)
        return st_error_set(err, ST_EPARSE, 0, "stat line 1: no (name)");
    p = text;
    if (parse_u64(p, open, &v, &p) != 0 || v == 0 || v > INT32_MAX || p + 1 != open || *p != ' ')
        return st_error_set(err, ST_EPARSE, 0, "stat line 1: bad pid");
    out->pid = (int32_t)v;
    {
        size_t n = (size_t)(close - open - 1);
        if (n >= sizeof out->comm)
            n = sizeof out->comm - 1;
        memcpy(out->comm, open + 1, n);
        out->comm[n] = '\0';
    }
    /* Fields after ')': token 0 is field 3 (state), token k is field k + 3;
     * the last one used is field 22 (token 19): the rest is not looked at. */
    p = close + 1;
    while (p < end && *p != '\n' && tok < 20) {
        const char *s;
        if (*p != ' ')
            return st_error_set(err, ST_EPARSE, 0, "stat line 1: bad separator after field %u", tok + 2);
        p++;
        s = p;
        while (p < end && *p != ' ' && *p != '\n')
            p++;
        if (p == s)
            return st_error_set(err, ST_EPARSE, 0, "stat line 1: empty field %u", tok + 3);
        switch (tok) {
        case 0:
            if (p - s != 1)
                return st_error_set(err, ST_EPARSE, 0, "stat line 1: bad state");
            out->state = *s;
            break;
        case 1: /* ppid (field 4) */
        case 9: case 10: /* majflt, cmajflt (fields 12, 13) */
        case 11: case 12: case 13: case 14: /* utime, stime, cutime, cstime (14..17) */
        case 17: /* num_threads (field 20) */
        case 19: { /* starttime (field 22) */
            const char *q;
            if (parse_u64(s, p, &v, &q) != 0 || q != p)
                return st_error_set(err, ST_EPARSE, 0, "stat line 1: bad field %u", tok + 3);
            if (tok == 19) {
                out->start = v;
            } else if (tok >= 9 && tok <= 14) {
                uint64_t *dst[] = {&out->majflt, &out->cmajflt, &out->utime,
                                   &out->stime, &out->cutime, &out->cstime};
                *dst[tok - 9] = v;
            } else {
                if (v > INT32_MAX)
                    return st_error_set(err, ST_EPARSE, 0, "stat line 1: field %u out of range", tok + 3);
                if (tok == 1)
                    out->ppid = (int32_t)v;
                else
                    out->num_threads = (int32_t)v;
            }
            break;
        }
        default:
            break;
        }
        tok++;
    }
    if (tok < 20)
        return st_error_set(err, ST_EPARSE, 0, "stat line 1: %u fields after the name, need 20", tok);
    return ST_OK;
}

int st_lx_parse_psi(const char *text, size_t len, uint16_t *some_avg10_c, st_error *err)
{
    const char *p = text, *end = text + len;
    unsigned line = 0;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        line++;
        if (eol - p >= 5 && memcmp(p, "some ", 5) == 0) {
            uint64_t whole, frac = 0;
            const char *q = p + 5;
            unsigned digits = 0;
            if (eol - q < 6 || memcmp(q, "avg10=", 6) != 0)
                return st_error_set(err, ST_EPARSE, 0, "pressure line %u: no avg10", line);
            q += 6;
            if (parse_u64(q, eol, &whole, &q) != 0 || whole > 100)
                return st_error_set(err, ST_EPARSE, 0, "pressure line %u: bad avg10", line);
            if (q < eol && *q == '.') {
                q++;
                while (q < eol && *q >= '0' && *q <= '9') {
                    if (digits < 2)
                        frac = frac * 10 + (uint64_t)(*q - '0');
                    digits++;
                    q++;
                }
                if (digits == 0)
                    return st_error_set(err, ST_EPARSE, 0, "pressure line %u: bad avg10", line);
                if (digits == 1)
                    frac *= 10;
            }
            if (q < eol && *q != ' ')
                return st_error_set(err, ST_EPARSE, 0, "pressure line %u: bad avg10", line);
            if (whole * 100 + frac > 10000)
                return st_error_set(err, ST_EPARSE, 0, "pressure line %u: avg10 over 100", line);
            *some_avg10_c = (uint16_t)(whole * 100 + frac);
            return ST_OK;
        }
        p = eol + 1;
    }
    return st_error_set(err, ST_EPARSE, 0, "pressure: no \"some\" line");
}

int st_lx_next_pid(const char *text, size_t len, size_t *pos, int32_t *pid, st_error *err)
{
    size_t i = *pos;
    uint64_t v;
    const char *q;
    while (i < len && (text[i] == ' ' || text[i] == '\n'))
        i++;
    if (i >= len) {
        *pos = len;
        return 0;
    }
    if (parse_u64(text + i, text + len, &v, &q) != 0 || v == 0 || v > INT32_MAX ||
        (q < text + len && *q != ' ' && *q != '\n'))
        return st_error_set(err, ST_EPARSE, 0, "children line 1: bad pid at byte %zu", i);
    *pid = (int32_t)v;
    *pos = (size_t)(q - text);
    return 1;
}

int st_lx_parse_rollup(const char *text, size_t len, st_lx_rollup *out, st_error *err)
{
    enum { PC = 1u << 7, PD = 1u << 8, SC = 1u << 9, SD = 1u << 10 };
    static const kv_key keys[] = {
        {"Pss", ST_LX_PSS, 1},         {"Pss_Anon", ST_LX_PSS_ANON, 1},
        {"Pss_Shmem", ST_LX_PSS_SHMEM, 1}, {"SwapPss", ST_LX_SWAPPSS, 1},
        {"Rss", ST_LX_R_RSS, 1},       {"Private_Clean", PC, 1},
        {"Private_Dirty", PD, 1},      {"Shared_Clean", SC, 1},
        {"Shared_Dirty", SD, 1},
    };
    uint64_t v[9] = {0};
    unsigned valid;
    int rc = parse_kv_file(text, len, keys, 9, v, &valid, "smaps_rollup", err);
    memset(out, 0, sizeof *out);
    if (rc != ST_OK)
        return rc;
    out->pss = v[0];
    out->pss_anon = v[1];
    out->pss_shmem = v[2];
    out->swap_pss = v[3];
    out->rss = v[4];
    out->valid = valid & (ST_LX_PSS | ST_LX_PSS_ANON | ST_LX_PSS_SHMEM | ST_LX_SWAPPSS | ST_LX_R_RSS);
    if ((valid & (PC | PD)) == (PC | PD)) {
        out->private_bytes = v[5] + v[6];
        out->valid |= ST_LX_PRIVATE;
    }
    if ((valid & (SC | SD)) == (SC | SD)) {
        out->shared_bytes = v[7] + v[8];
        out->valid |= ST_LX_SHARED;
    }
    return ST_OK;
}

int st_lx_parse_btime(const char *text, size_t len, uint64_t *out, st_error *err)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (eol - p >= 6 && memcmp(p, "btime ", 6) == 0) {
            const char *q = p + 6;
            while (q < eol && *q == ' ')
                q++;
            if (parse_u64(q, eol, out, &q) != 0 || q != eol)
                return st_error_set(err, ST_EPARSE, 0, "/proc/stat: a bad btime line");
            return ST_OK;
        }
        p = eol + 1;
    }
    return st_error_set(err, ST_EPARSE, 0, "/proc/stat: no btime line");
}
