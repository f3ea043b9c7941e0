/* doctor_parse.c: parsers of the text the doctor's reference tools print
 * (include/stagetop/doctor.h).  Each works on (text, len) without needing
 * a NUL, never reads past len, and answers ST_EPARSE with a message that
 * names the tool and the line when the text is not what the tool prints.
 * The macOS formats are taken from captured real outputs
 * (tests/fixtures/macos/README.md). */
#include "stagetop/doctor.h"
#include "doctor_internal.h"

#include <ctype.h>
#include <string.h>

#define KIB 1024ull

/* A decimal number "123", "1,234", "12.50": *mant = all digits as one
 * integer, *dec = digits after the point.  Returns the bytes used, 0 when
 * no digit or too many. */
static size_t scan_decimal(const char *s, const char *e, uint64_t *mant, unsigned *dec)
{
    const char *p = s;
    uint64_t m = 0;
    unsigned d = 0, digits = 0;
    int point = 0;
    while (p < e) {
        if (isdigit((unsigned char)*p)) {
            if (m > (UINT64_MAX - 9) / 10 || (point && d >= 9))
                return 0;
            m = m * 10 + (uint64_t)(*p - '0');
            digits++;
            if (point)
                d++;
        } else if (*p == '.' && !point && p + 1 < e && isdigit((unsigned char)p[1])) {
            point = 1;
        } else if (*p == ',' && !point && digits > 0 && e - p > 3 && isdigit((unsigned char)p[1]) &&
                   isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3])) {
            /* a thousands separator */
        } else {
            break;
        }
        p++;
    }
    if (digits == 0)
        return 0;
    *mant = m;
    *dec = d;
    return (size_t)(p - s);
}

static uint64_t pow10u(unsigned d)
{
    uint64_t v = 1;
    while (d--)
        v *= 10;
    return v;
}

/* ---- sizes --------------------------------------------------------------- */

int st_doctor_parse_size(const char *s, size_t n, uint64_t *bytes, uint64_t *res, st_error *err)
{
    const char *p = s, *e = s + n;
    uint64_t mant, mult, div;
    unsigned dec;
    size_t used;
    skip_ws(&p, e);
    used = scan_decimal(p, e, &mant, &dec);
    if (!used)
        return st_error_set(err, ST_EPARSE, 0, "not a size: '%.*s'", (int)(n > 40 ? 40 : n), s);
    p += used;
    skip_ws(&p, e);
    mult = 1;
    if (p < e) {
        switch (toupper((unsigned char)*p)) {
        case 'B': mult = 1; break;
        case 'K': mult = KIB; break;
        case 'M': mult = KIB * KIB; break;
        case 'G': mult = KIB * KIB * KIB; break;
        case 'T': mult = KIB * KIB * KIB * KIB; break;
        case 'P': mult = KIB * KIB * KIB * KIB * KIB; break;
        default:
            return st_error_set(err, ST_EPARSE, 0, "unknown unit in size '%.*s'",
                                (int)(n > 40 ? 40 : n), s);
        }
    }
    div = pow10u(dec);
    if (mant > UINT64_MAX / mult)
        return st_error_set(err, ST_EPARSE, 0, "size out of range: '%.*s'", (int)(n > 40 ? 40 : n), s);
    *bytes = mant * mult / div;
    if (res)
        *res = mult / div > 0 ? mult / div : 1;
    return ST_OK;
}

/* ---- macOS tools --------------------------------------------------------- */

static int fp_lines(const char *text, size_t len, const char *now_key, const char *peak_key,
                    const char *tool, st_doctor_fp *out, st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *s, *rest;
    size_t n;
    int rc;
    st_error e;
    memset(out, 0, sizeof *out);
    while (next_line(&it, &s, &n)) {
        uint64_t *v = NULL, *r = NULL;
        unsigned bit = 0;
        if (starts(s, n, peak_key, &rest)) {
            v = &out->peak, r = &out->peak_res, bit = ST_DOC_FP_PEAK;
        } else if (starts(s, n, now_key, &rest)) {
            v = &out->now, r = &out->now_res, bit = ST_DOC_FP_NOW;
        }
        if (!v || (out->valid & bit))
            continue; /* the first report only */
        rc = st_doctor_parse_size(rest, (size_t)(s + n - rest), v, r, &e);
        if (rc != ST_OK)
            return st_error_set(err, rc, 0, "%s output, line %zu: %s", tool, it.no, e.msg);
        out->valid |= bit;
    }
    return ST_OK;
}

int st_doctor_parse_vmmap(const char *text, size_t len, st_doctor_fp *out, st_error *err)
{
    int rc = fp_lines(text, len, "Physical footprint:", "Physical footprint (peak):", "vmmap", out, err);
    if (rc == ST_OK && !(out->valid & ST_DOC_FP_NOW))
        return st_error_set(err, ST_EPARSE, 0, "vmmap output has no 'Physical footprint:' line");
    return rc;
}

int st_doctor_parse_footprint(const char *text, size_t len, st_doctor_fp *out, st_error *err)
{
    int rc = fp_lines(text, len, "phys_footprint:", "phys_footprint_peak:", "footprint", out, err);
    if (rc != ST_OK)
        return rc;
    if (!(out->valid & ST_DOC_FP_NOW)) {
        /* "Name [PID]: 64-bit    Footprint: 142 MB (16384 bytes per page)" */
        line_it it = {text, text + len, 0};
        const char *s, *f;
        size_t n;
        st_error e;
        while (next_line(&it, &s, &n)) {
            if (!find(s, n, "]: ") || !(f = find(s, n, "Footprint: ")))
                continue;
            f += strlen("Footprint: ");
            if ((rc = st_doctor_parse_size(f, (size_t)(s + n - f), &out->now, &out->now_res, &e)) != ST_OK)
                return st_error_set(err, rc, 0, "footprint output, line %zu: %s", it.no, e.msg);
            out->valid |= ST_DOC_FP_NOW;
            break;
        }
    }
    if (!(out->valid & ST_DOC_FP_NOW))
        return st_error_set(err, ST_EPARSE, 0, "footprint output has no 'phys_footprint:' or 'Footprint:'");
    return ST_OK;
}

int st_doctor_parse_swapusage(const char *text, size_t len, uint64_t *total, uint64_t *used,
                           uint64_t *res, st_error *err)
{
    const char *t = find(text, len, "total = "), *u = find(text, len, "used = ");
    const char *e = text + len;
    uint64_t r1 = 0, r2 = 0;
    st_error e2;
    if (!t || !u)
        return st_error_set(err, ST_EPARSE, 0, "vm.swapusage: no 'total = ' and 'used = ' in '%.*s'",
                            (int)(len > 80 ? 80 : len), text);
    t += strlen("total = ");
    u += strlen("used = ");
    /* each value ends at the next blank: "2048.00M  used = ..." */
    {
        const char *te = t, *ue = u;
        while (te < e && *te != ' ' && *te != '\n')
            te++;
        while (ue < e && *ue != ' ' && *ue != '\n')
            ue++;
        if (st_doctor_parse_size(t, (size_t)(te - t), total, &r1, &e2) != ST_OK ||
            st_doctor_parse_size(u, (size_t)(ue - u), used, &r2, &e2) != ST_OK)
            return st_error_set(err, ST_EPARSE, 0, "vm.swapusage: %s", e2.msg);
    }
    if (res)
        *res = r2 > r1 ? r2 : r1;
    return ST_OK;
}

int st_doctor_parse_memory_pressure(const char *text, size_t len, uint16_t *free_c, st_error *err)
{
    static const char key[] = "System-wide memory free percentage:";
    line_it it = {text, text + len, 0};
    const char *s, *rest;
    size_t n;
    while (next_line(&it, &s, &n)) {
        const char *e = s + n;
        uint64_t mant;
        unsigned dec;
        size_t used;
        if (!starts(s, n, key, &rest))
            continue;
        skip_ws(&rest, e);
        used = scan_decimal(rest, e, &mant, &dec);
        if (!used || rest + used >= e || rest[used] != '%')
            return st_error_set(err, ST_EPARSE, 0, "memory_pressure output, line %zu: no 'N%%' after '%s'",
                                it.no, key);
        /* to hundredths: N, N.N or N.NN */
        uint64_t c = dec >= 2 ? mant / pow10u(dec - 2) : mant * pow10u(2 - dec);
        if (c > 10000)
            return st_error_set(err, ST_EPARSE, 0, "memory_pressure output, line %zu: %.*s is over 100%%",
                                it.no, (int)used, rest);
        *free_c = (uint16_t)c;
        return ST_OK;
    }
    return st_error_set(err, ST_EPARSE, 0, "memory_pressure output has no '%s' line", key);
}

int st_doctor_parse_uint(const char *text, size_t len, uint64_t *v, st_error *err)
{
    const char *p = text, *e = text + len;
    size_t used;
    while (p < e && isspace((unsigned char)*p))
        p++;
    used = scan_uint(p, e, v);
    if (!used)
        return st_error_set(err, ST_EPARSE, 0, "expected a number, got '%.*s'",
                            (int)(len > 40 ? 40 : len), text);
    p += used;
    while (p < e && isspace((unsigned char)*p))
        p++;
    if (p != e)
        return st_error_set(err, ST_EPARSE, 0, "expected one number, got '%.*s'",
                            (int)(len > 40 ? 40 : len), text);
    return ST_OK;
}

/* Apple's top in logging mode (top-144 logging.c log_print_all, 198-227):
 * the global lines, a blank line, the columns' headers (each padded to its
 * column's width, one blank between: log_print_header_iter, 79-117), then
 * one line a process, its cells padded the same way (log_print_cell,
 * 143-190).  The pageins column's header is "PAGEINS" (statistic.c:92;
 * narrowed on an interactive screen, so any header starting "PAGE"); its
 * cell the counter in decimal, "+" or "-" after it on a later sample
 * (uinteger.c top_uinteger_format_result, 147-177; memstats.c:236-247).
 * A cell with a blank in it (COMMAND) would shift the columns: doctor asks
 * for pid and pageins only. */
int st_doctor_parse_top_pageins(const char *text, size_t len, int32_t pid, uint64_t *v,
                                st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *s, *tok[64];
    size_t n, tl[64], col = 0;
    while (next_line(&it, &s, &n)) {
        size_t nt = split_ws(s, n, tok, tl, 64);
        uint64_t p;
        if (!col) {
            if (nt < 2 || tl[0] != 3 || memcmp(tok[0], "PID", 3) != 0)
                continue;
            for (size_t i = 1; i < nt && !col; i++)
                if (tl[i] >= 4 && memcmp(tok[i], "PAGE", 4) == 0)
                    col = i;
            if (!col)
                return st_error_set(err, ST_EPARSE, 0, "top output, line %zu: no PAGEINS column", it.no);
            continue;
        }
        if (nt <= col || scan_uint(tok[0], tok[0] + tl[0], &p) != tl[0] || p != (uint64_t)(uint32_t)pid)
            continue;
        size_t u = scan_uint(tok[col], tok[col] + tl[col], v);
        if (!u || (u != tl[col] && !(u + 1 == tl[col] && (tok[col][u] == '+' || tok[col][u] == '-'))))
            return st_error_set(err, ST_EPARSE, 0, "top output, line %zu: pageins '%.*s' is not a count",
                                it.no, (int)(tl[col] > 20 ? 20 : tl[col]), tok[col]);
        return ST_OK;
    }
    if (!col)
        return st_error_set(err, ST_EPARSE, 0, "top output has no 'PID ... PAGEINS' header");
    return st_error_set(err, ST_EPARSE, 0,
                        "top printed no row for pid %ld (it could not read the process)", (long)pid);
}

int st_doctor_parse_cputime(const char *text, size_t len, uint64_t *ms, st_error *err)
{
    const char *p = text, *e = text + len;
    uint64_t part[4] = {0}, days = 0, v, frac = 0;
    int n = 0, fdig = 0;
    size_t used;
    while (p < e && isspace((unsigned char)*p))
        p++;
    for (;;) {
        if (!(used = scan_uint(p, e, &v)) || n == 3)
            return st_error_set(err, ST_EPARSE, 0, "not a CPU time: '%.*s'", (int)(len > 40 ? 40 : len), text);
        p += used;
        if (p < e && *p == '-' && n == 0 && days == 0) { /* DD- */
            days = v;
            p++;
            continue;
        }
        part[n++] = v;
        if (p < e && *p == ':') {
            p++;
            continue;
        }
        break;
    }
    if (p < e && *p == '.') { /* hundredths (macOS) */
        p++;
        while (p < e && *p >= '0' && *p <= '9') {
            if (fdig < 3) {
                frac = frac * 10 + (uint64_t)(*p - '0');
                fdig++;
            }
            p++;
        }
        while (fdig < 3) {
            frac *= 10;
            fdig++;
        }
    }
    while (p < e && isspace((unsigned char)*p))
        p++;
    if (p != e || n < 2)
        return st_error_set(err, ST_EPARSE, 0, "not a CPU time: '%.*s'", (int)(len > 40 ? 40 : len), text);
    uint64_t t = 0; /* MM:SS or HH:MM:SS */
    for (int i = 0; i < n; i++)
        t = t * 60 + part[i];
    *ms = (days * 86400 + t) * 1000 + frac;
    return ST_OK;
}

/* ---- nvidia-smi ---------------------------------------------------------- */

int st_doctor_parse_nvsmi(const char *text, size_t len, int32_t pid, uint64_t *bytes, int *lines,
                       st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *s;
    size_t n;
    *bytes = 0;
    *lines = 0;
    while (next_line(&it, &s, &n)) {
        const char *p = s, *e = s + n;
        uint64_t lp, mib;
        size_t used;
        skip_ws(&p, e);
        if (p == e || !isdigit((unsigned char)*p))
            continue; /* a blank line or a message such as "No running processes found" */
        used = scan_uint(p, e, &lp);
        p += used;
        skip_ws(&p, e);
        if (!used || p >= e || *p != ',')
            return st_error_set(err, ST_EPARSE, 0, "nvidia-smi output, line %zu: expected 'PID, MiB'", it.no);
        p++;
        skip_ws(&p, e);
        if (lp != (uint64_t)(uint32_t)pid)
            continue;
        (*lines)++;
        if (p < e && *p == '[')
            continue; /* [N/A], [Not Supported] */
        used = scan_uint(p, e, &mib);
        if (!used || mib > (UINT64_MAX >> 20) - (*bytes >> 20))
            return st_error_set(err, ST_EPARSE, 0, "nvidia-smi output, line %zu: bad used_memory", it.no);
        *bytes += mib << 20;
    }
    return ST_OK;
}

/* ---- Linux files and tools ---------------------------------------------- */

/* "Key:   N kB" -> bytes.  1 when the line is key's, ST_EPARSE when malformed. */
static int kb_line(const char *s, size_t n, const char *key, uint64_t *out)
{
    const char *rest, *e = s + n;
    uint64_t v;
    size_t used;
    if (!starts(s, n, key, &rest))
        return 0;
    skip_ws(&rest, e);
    used = scan_uint(rest, e, &v);
    if (!used || v > UINT64_MAX / KIB)
        return ST_EPARSE;
    *out = v * KIB;
    return 1;
}

int st_doctor_parse_smaps_rollup(const char *text, size_t len, st_doctor_smaps *out, st_error *err)
{
    static const char *const keys[] = {"Rss:", "Anonymous:", "Swap:", "Pss_Shmem:", "Pss_Anon:",
                                       "SwapPss:"};
    line_it it = {text, text + len, 0};
    const char *s;
    size_t n;
    memset(out, 0, sizeof *out);
    while (next_line(&it, &s, &n)) {
        uint64_t *dst[] = {&out->rss, &out->anonymous, &out->swap, &out->pss_shmem, &out->pss_anon,
                           &out->swap_pss};
        for (unsigned k = 0; k < 6; k++) {
            int r = kb_line(s, n, keys[k], dst[k]);
            if (r == ST_EPARSE)
                return st_error_set(err, ST_EPARSE, 0, "smaps_rollup, line %zu: bad '%s'", it.no, keys[k]);
            if (r == 1)
                out->valid |= 1u << k;
        }
    }
    if ((out->valid & 3u) != 3u)
        return st_error_set(err, ST_EPARSE, 0, "smaps_rollup has no 'Rss:' and 'Anonymous:' lines");
    return ST_OK;
}

/* Split a line into blank-separated fields (at most max). */
static size_t fields(const char *s, size_t n, const char **f, size_t *fl, size_t max)
{
    const char *p = s, *e = s + n;
    size_t k = 0;
    while (k < max) {
        while (p < e && isspace((unsigned char)*p))
            p++;
        if (p >= e)
            break;
        f[k] = p;
        while (p < e && !isspace((unsigned char)*p))
            p++;
        fl[k] = (size_t)(p - f[k]);
        k++;
    }
    return k;
}

int st_doctor_parse_proc_swaps(const char *text, size_t len, uint64_t *used, uint64_t *total,
                            st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *s;
    size_t n;
    *used = *total = 0;
    while (next_line(&it, &s, &n)) {
        const char *f[6];
        size_t fl[6], k = fields(s, n, f, fl, 6);
        uint64_t sz, us;
        if (k == 0 || (it.no == 1 && fl[0] == 8 && memcmp(f[0], "Filename", 8) == 0))
            continue;
        if (k != 5 || scan_uint(f[2], f[2] + fl[2], &sz) != fl[2] ||
            scan_uint(f[3], f[3] + fl[3], &us) != fl[3] || sz > UINT64_MAX / KIB / 2)
            return st_error_set(err, ST_EPARSE, 0, "/proc/swaps, line %zu: expected 'name type size used prio'",
                                it.no);
        *total += sz * KIB;
        *used += us * KIB;
    }
    return ST_OK;
}

int st_doctor_parse_free(const char *text, size_t len, st_doctor_free *out, st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *s;
    size_t n;
    int got = 0;
    memset(out, 0, sizeof *out);
    while (next_line(&it, &s, &n)) {
        const char *f[8];
        size_t fl[8], k = fields(s, n, f, fl, 8);
        uint64_t v[7] = {0};
        int mem = k > 0 && fl[0] == 4 && memcmp(f[0], "Mem:", 4) == 0;
        int swp = k > 0 && fl[0] == 5 && memcmp(f[0], "Swap:", 5) == 0;
        if (!mem && !swp)
            continue;
        if ((mem && k < 7) || (swp && k < 3))
            return st_error_set(err, ST_EPARSE, 0, "free output, line %zu: too few columns%s", it.no,
                                mem ? " (no 'available': procps older than 3.3.10)" : "");
        for (size_t i = 1; i < k && i < 7; i++)
            if (scan_uint(f[i], f[i] + fl[i], &v[i]) != fl[i])
                return st_error_set(err, ST_EPARSE, 0, "free output, line %zu: column %zu is not a number",
                                    it.no, i + 1);
        if (mem) {
            out->mem_total = v[1];
            out->mem_available = v[6];
            got |= 1;
        } else {
            out->swap_total = v[1];
            out->swap_used = v[2];
            got |= 2;
        }
    }
    if (got != 3)
        return st_error_set(err, ST_EPARSE, 0, "free output has no %s line", (got & 1) ? "'Swap:'" : "'Mem:'");
    return ST_OK;
}

int st_doctor_parse_psi_some(const char *text, size_t len, uint16_t *avg10_c, st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *s, *rest;
    size_t n;
    while (next_line(&it, &s, &n)) {
        const char *a, *e = s + n;
        uint64_t mant;
        unsigned dec;
        size_t used;
        if (!starts(s, n, "some ", &rest))
            continue;
        if (!(a = find(rest, (size_t)(e - rest), "avg10=")))
            break;
        a += 6;
        used = scan_decimal(a, e, &mant, &dec);
        if (!used || dec > 2)
            break;
        mant *= pow10u(2 - dec);
        if (mant > 10000)
            break;
        *avg10_c = (uint16_t)mant;
        return ST_OK;
    }
    return st_error_set(err, ST_EPARSE, 0, "/proc/pressure/memory: no 'some avg10=N.NN' line");
}
