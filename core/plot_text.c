/* plot_text.c: UTF-8 cleaning, XML escaping and locale-free numbers for the
 * SVG plotter. */
#include "plot_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stagetop/utf8.h"

#define REPLACEMENT 0xFFFDu

/* Decode one code point from s[0..n); invalid input consumes one byte and
 * yields U+FFFD.  Returns the number of bytes consumed (>= 1). */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    int len = st_utf8_decode(s, n, cp);
    if (len == 0) {
        *cp = REPLACEMENT;
        return 1;
    }
    return (size_t)len;
}

/* Code points that XML 1.0 refuses, or that would hide in a label. */
static uint32_t visible(uint32_t cp)
{
    if (cp == '\t' || cp == '\n' || cp == '\r')
        return ' ';
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF)
        return REPLACEMENT;
    return cp;
}

size_t st_plot_text_clean(const char *s, size_t n, char *out, size_t outsz, size_t max_cps)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t total = 0, keep, o = 0, cps = 0, i = 0;
    uint32_t cp;
    int ellipsis = 0;
    if (outsz < 8) {
        if (outsz)
            out[0] = '\0';
        return 0;
    }
    if (!s)
        n = 0;
    while (i < n && u[i]) {
        i += utf8_next(u + i, n - i, &cp);
        total++;
    }
    keep = total;
    if (max_cps && total > max_cps) {
        keep = max_cps - 1;
        ellipsis = 1;
    }
    for (i = 0; i < n && u[i] && cps < keep;) {
        char enc[4];
        i += utf8_next(u + i, n - i, &cp);
        size_t len = st_utf8_encode(visible(cp), enc);
        if (o + len + 4 > outsz) { /* keep room for "…" and the NUL */
            ellipsis = 1;
            break;
        }
        memcpy(out + o, enc, len);
        o += len;
        cps++;
    }
    if (ellipsis) {
        memcpy(out + o, "\xE2\x80\xA6", 3);
        o += 3;
        cps++;
    }
    out[o] = '\0';
    return cps;
}

void st_plot_xml_puts(FILE *f, const char *clean)
{
    for (const char *p = clean; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*p, f);
        }
    }
}

char *st_plot_fmt_num(char *buf, size_t len, double v, int decimals, int trim)
{
    long long scale = 1;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 6)
        decimals = 6;
    for (int i = 0; i < decimals; i++)
        scale *= 10;
    if (!isfinite(v))
        v = 0;
    double r = round(fabs(v) * (double)scale);
    if (r > 9e17)
        r = 9e17;
    long long q = (long long)r;
    const char *sign = (v < 0 && q != 0) ? "-" : "";
    if (decimals == 0) {
        snprintf(buf, len, "%s%lld", sign, q);
        return buf;
    }
    snprintf(buf, len, "%s%lld.%0*lld", sign, q / scale, decimals, q % scale);
    if (trim) {
        char *dot = strchr(buf, '.');
        if (dot) {
            char *e = buf + strlen(buf);
            while (e > dot + 1 && e[-1] == '0')
                *--e = '\0';
            if (e == dot + 1)
                *dot = '\0';
        }
    }
    return buf;
}

char *st_plot_fmt_bytes(char *buf, size_t len, double bytes)
{
    static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes > 0 ? bytes : 0;
    int u = 0;
    char num[32];
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    st_plot_fmt_num(num, sizeof num, v, u == 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0, 0);
    snprintf(buf, len, "%s %s", num, names[u]);
    return buf;
}

char *st_plot_fmt_secs(char *buf, size_t len, double seconds)
{
    char num[32];
    if (!(seconds >= 0))
        seconds = 0;
    if (seconds > 1e9)
        seconds = 1e9;
    if (seconds < 59.95) {
        snprintf(buf, len, "%s s", st_plot_fmt_num(num, sizeof num, seconds, 1, 0));
    } else if (seconds < 3599.5) {
        unsigned s = (unsigned)(seconds + 0.5);
        snprintf(buf, len, "%um%02us", s / 60, s % 60);
    } else {
        unsigned long m = (unsigned long)(seconds / 60 + 0.5);
        snprintf(buf, len, "%luh%02lum", m / 60, m % 60);
    }
    return buf;
}
