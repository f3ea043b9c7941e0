/* sanitize.c: control characters made visible, width-aware truncation. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* wcwidth (the curses flags define it already) */
#endif
#include "sanitize.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "stagetop/utf8.h"

int tui_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    return st_utf8_decode(s, n, cp);
}

typedef struct cp_range { uint32_t lo, hi; } cp_range;

static const cp_range zero_width[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
    {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
    {0x0900, 0x0902}, {0x093A, 0x093A}, {0x093C, 0x093C}, {0x0941, 0x0948},
    {0x094D, 0x094D}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

static const cp_range wide[] = {
    {0x1100, 0x115F}, {0x231A, 0x231B}, {0x2E80, 0x303E}, {0x3041, 0x33FF},
    {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF}, {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF}, {0xFE30, 0xFE4F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6},
    {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static int in_ranges(uint32_t cp, const cp_range *r, size_t n)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < r[mid].lo)
            hi = mid;
        else if (cp > r[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

int tui_cp_width(uint32_t cp)
{
    if (cp < 0x300)
        return 1;
    if (in_ranges(cp, zero_width, sizeof zero_width / sizeof zero_width[0]))
        return 0;
    if (in_ranges(cp, wide, sizeof wide / sizeof wide[0]))
        return 2;
    return 1;
}

/* Does the C library's width (what curses draws with, in this locale)
 * agree with the table's?  Where the locale has no Unicode widths (the C
 * locale: wcwidth of U+00E9 is -1) the table stands alone.  A character
 * the two disagree on, or that the library calls unprintable, is drawn as
 * '?': it would move everything after it on the line, a box's right
 * border too (random UTF-8 in the `o` log box broke it). */
static int width_agreed(uint32_t cp)
{
    if (wcwidth((wchar_t)0xE9) != 1)
        return 1;
    return wcwidth((wchar_t)cp) == tui_cp_width(cp);
}

int tui_sanitize(const char *in, size_t inlen, int ascii, int max_cols, char *out, size_t outlen)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t i = 0, o = 0;
    int cols = 0;
    if (outlen == 0)
        return 0;
    while (i < inlen) {
        char unit[8];
        int ulen, uw, step;
        uint32_t cp = 0;
        unsigned c = s[i];
        if (c < 0x20 || c == 0x7F) {
            unit[0] = '^';
            unit[1] = (char)(c == 0x7F ? '?' : c + 0x40);
            ulen = 2; uw = 2; step = 1;
        } else if (c < 0x80) {
            unit[0] = (char)c;
            ulen = 1; uw = 1; step = 1;
        } else if (!ascii && (step = tui_utf8_decode(s + i, inlen - i, &cp)) > 0) {
            if (st_utf8_unsafe(cp)) { /* utf8.h: drawn as \uXXXX */
                ulen = snprintf(unit, sizeof unit, "\\u%04x", (unsigned)cp);
                uw = ulen;
            } else if (!width_agreed(cp)) {
                unit[0] = '?';
                ulen = 1; uw = 1;
            } else {
                memcpy(unit, s + i, (size_t)step);
                ulen = step;
                uw = tui_cp_width(cp);
            }
        } else {
            ulen = snprintf(unit, sizeof unit, "\\x%02X", c);
            uw = 4; step = 1;
        }
        if ((max_cols >= 0 && cols + uw > max_cols) || o + (size_t)ulen + 1 > outlen)
            break;
        memcpy(out + o, unit, (size_t)ulen);
        o += (size_t)ulen;
        cols += uw;
        i += (size_t)step;
    }
    out[o] = '\0';
    return cols;
}

int tui_text_width(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    int w = 0;
    while (n > 0) {
        uint32_t cp;
        int l = tui_utf8_decode(p, n, &cp);
        if (l == 0) {
            w++;
            l = 1;
        } else {
            w += tui_cp_width(cp);
        }
        p += l;
        n -= (size_t)l;
    }
    return w;
}

int tui_text_fit(const char *s, int max_cols, char *out, size_t outlen)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), o = 0;
    int w = 0;
    if (outlen == 0)
        return 0;
    while (n > 0) {
        uint32_t cp = 0;
        int l = tui_utf8_decode(p, n, &cp);
        int cw = l == 0 ? 1 : tui_cp_width(cp);
        if (l == 0)
            l = 1;
        if (w + cw > max_cols || o + (size_t)l + 1 > outlen)
            break;
        memcpy(out + o, p, (size_t)l);
        o += (size_t)l;
        w += cw;
        p += l;
        n -= (size_t)l;
    }
    out[o] = '\0';
    return w;
}
