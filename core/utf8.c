/* utf8.c: the one UTF-8 decoder and the one unsafe-character classifier
 * (utf8.h). */
#include "stagetop/utf8.h"

size_t st_utf8_lead_len(unsigned char c)
{
    if (c >= 0xF0 && c <= 0xF4)
        return 4;
    if (c >= 0xE0 && c <= 0xEF)
        return 3;
    if (c >= 0xC2 && c <= 0xDF)
        return 2;
    return 1;
}

int st_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    static const uint32_t min_of[5] = {0, 0, 0x80, 0x800, 0x10000};
    static const unsigned char mask_of[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len = st_utf8_lead_len((unsigned char)c);
    if (len == 1 || len > n)
        return 0; /* continuation byte, C0/C1 overlong lead, F5..FF, truncated */
    uint32_t v = c & mask_of[len];
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    if (v < min_of[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return (int)len;
}

size_t st_utf8_seq(const unsigned char *p, const unsigned char *e)
{
    uint32_t cp;
    return p < e ? (size_t)st_utf8_decode(p, (size_t)(e - p), &cp) : 0;
}

size_t st_utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

int st_utf8_unsafe(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C ||
           cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}
