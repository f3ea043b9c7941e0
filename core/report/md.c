/* md.c: cleaning and Markdown escaping of trace text (md.h). */
#include "stagetop/md.h"
#include "stagetop/sb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/utf8.h"

/* U+2060 WORD JOINER: invisible, and no renderer reads "@\u2060name" as a
 * mention, "#\u2060123" as an issue, "https:\u2060//" or "www\u2060." as a
 * link, "a@\u2060b.c" as an address (GitHub's mentions and references need
 * a letter or digit right after @ or #; GFM's autolinks need "://" or
 * "www." whole).  Text pasted into an issue pings and links nobody. */
#define WJ "\xE2\x81\xA0"

/* After c (Markdown): the next bytes p..e would make a mention, an issue
 * reference, an address or a URL. */
static int inert_after(uint32_t c, const unsigned char *p, const unsigned char *e)
{
    if (p >= e)
        return 0;
    int digit = *p >= '0' && *p <= '9', letter = (*p | 0x20) >= 'a' && (*p | 0x20) <= 'z';
    if (c == '@')
        return digit || letter;
    if (c == '#')
        return digit;
    if (c == ':')
        return e - p >= 2 && p[0] == '/' && p[1] == '/';
    return 0;
}

static int is_www(const char *p)
{
    return (p[0] | 0x20) == 'w' && (p[1] | 0x20) == 'w' && (p[2] | 0x20) == 'w';
}

/* Write (w non-NULL) or count the code points of the cleaned text, writing
 * at most `limit` of them (0 = all).  Returns the code points kept. */
static size_t clean(st_sb *w, const char *s, size_t n, size_t limit, int md)
{
    const unsigned char *p = (const unsigned char *)s, *e;
    size_t cps = 0, len = s ? strnlen(s, n) : 0;
    e = p + len;
    while (p < e) {
        uint32_t c = 0;
        size_t k = (size_t)st_utf8_decode(p, (size_t)(e - p), &c);
        if (w && limit && cps == limit)
            break;
        if (k == 0) {
            if (w)
                st_sb_str(w, "\xEF\xBF\xBD");
            p++;
            cps++;
            continue;
        }
        const char *p0 = (const char *)p;
        p += k;
        if (st_utf8_unsafe(c) && c != '\t' && c != '\n' && c != '\r')
            continue; /* utf8.h: dropped; a tab or line break becomes a space */
        cps++;
        if (!w)
            continue;
        if (c < 0x20)
            st_sb_char(w, ' ');
        else if (md && c == '<')
            st_sb_str(w, "&lt;");
        else if (md && c == '>')
            st_sb_str(w, "&gt;");
        else if (md && c == '&')
            st_sb_str(w, "&amp;");
        else if (md && c == '~') /* GFM strikethrough; no backslash escape in every renderer */
            st_sb_str(w, "&#126;");
        else if (md && c == '$') /* GitHub's math */
            st_sb_str(w, "&#36;");
        else {
            if (md && k == 1 && strchr("\\`*_[]|", (int)c))
                st_sb_char(w, '\\');
            if (md && c == '.' && p0 - s >= 3 && is_www(p0 - 3))
                st_sb_str(w, WJ); /* www.x: no autolink */
            st_sb_add(w, p0, k);
            if (md && inert_after(c, p, e))
                st_sb_str(w, WJ);
        }
    }
    return cps;
}

static void clean_to(st_sb *w, const char *s, size_t n, size_t max_cps, int md)
{
    if (max_cps && clean(NULL, s, n, 0, md) > max_cps) {
        clean(w, s, n, max_cps - 1, md);
        st_sb_str(w, "\xE2\x80\xA6");
    } else {
        clean(w, s, n, 0, md);
    }
}

void st_text_clean_to(st_sb *w, const char *s, size_t n, size_t max_cps)
{
    clean_to(w, s, n, max_cps, 0);
}

void st_text_clean_lines_to(st_sb *w, const char *s)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        clean_to(w, s, n, 0, 0);
        st_sb_char(w, '\n');
        s += n + (nl ? 1 : 0);
    }
}

void st_md_escape_to(st_sb *w, const char *s, size_t n, size_t max_cps)
{
    clean_to(w, s, n, max_cps, 1);
}

size_t st_md_fence(const char *text, char *buf, size_t size)
{
    size_t run = 0, longest = 0;
    for (const char *p = text ? text : ""; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t n = longest + 1 < 3 ? 3 : longest + 1;
    if (n > size - 1)
        n = size - 1;
    memset(buf, '`', n);
    buf[n] = '\0';
    return n;
}

char *st_text_clean(const char *s, size_t n, size_t max_cps)
{
    st_sb w;
    st_sb_init(&w);
    clean_to(&w, s, n, max_cps, 0);
    return st_sb_take(&w);
}
