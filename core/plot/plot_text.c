/* plot_text.c: UTF-8 cleaning, XML escaping and locale-free numbers for the
 * SVG plotter. */
#include "plot_internal.h"

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

/* Unsafe code points (utf8.h: controls, bidi controls, separators) and
 * those XML 1.0 refuses become U+FFFD; a tab or line break a space. */
static uint32_t visible(uint32_t cp)
{
    if (cp == '\t' || cp == '\n' || cp == '\r')
        return ' ';
    if (st_utf8_unsafe(cp) || cp == 0xFFFE || cp == 0xFFFF)
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

void st_plot_num(st_plot_ctx *p, double v)
{
    char b[40];
    fputs(st_format_decimal(v, 1, 1, b, sizeof b), p->f);
}

/* Clean, shorten to max_cps and escape raw text (n bytes at most). */
void st_plot_put_raw(st_plot_ctx *p, const char *s, size_t n, size_t max_cps)
{
    char clean[1024];
    st_plot_text_clean(s, n, clean, sizeof clean, max_cps);
    st_plot_xml_puts(p->f, clean);
}
