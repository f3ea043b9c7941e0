/* test_utf8.c: the one UTF-8 decoder (core/utf8.c) against the rules of
 * RFC 3629 written out here independently: a byte sequence is valid when
 * it is exactly the shortest encoding of a code point <= U+10FFFF that is
 * not a surrogate.  Every 1-, 2- and 3-byte sequence is tried, and the
 * 4-byte ones around every boundary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stagetop/utf8.h"

/* The shortest encoding of cp by the table of RFC 3629 section 3. */
static size_t ref_encode(uint32_t cp, unsigned char *o)
{
    if (cp <= 0x7F) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp <= 0x7FF) {
        o[0] = (unsigned char)(0xC0 + cp / 64);
        o[1] = (unsigned char)(0x80 + cp % 64);
        return 2;
    }
    if (cp <= 0xFFFF) {
        o[0] = (unsigned char)(0xE0 + cp / 4096);
        o[1] = (unsigned char)(0x80 + cp / 64 % 64);
        o[2] = (unsigned char)(0x80 + cp % 64);
        return 3;
    }
    o[0] = (unsigned char)(0xF0 + cp / 262144);
    o[1] = (unsigned char)(0x80 + cp / 4096 % 64);
    o[2] = (unsigned char)(0x80 + cp / 64 % 64);
    o[3] = (unsigned char)(0x80 + cp % 64);
    return 4;
}

static int ref_valid_cp(uint32_t cp)
{
    return cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

/* The code point that s[0..n) would be if its bits were read naively
 * (n = 1..4), whatever its validity. */
static uint32_t naive_bits(const unsigned char *s, size_t n)
{
    static const unsigned lead_bits[5] = {0, 7, 5, 4, 3};
    uint32_t v = s[0] & ((1u << lead_bits[n]) - 1);
    for (size_t i = 1; i < n; i++)
        v = v * 64 + (s[i] & 63u);
    return v;
}

/* Is s[0..n) exactly one valid character? */
static int ref_valid(const unsigned char *s, size_t n)
{
    unsigned char enc[4];
    uint32_t cp = naive_bits(s, n);
    return ref_valid_cp(cp) && ref_encode(cp, enc) == n && memcmp(enc, s, n) == 0;
}

/* s[0..n): the decoder reads the one valid character that starts it
 * (the shortest prefix that is valid; the lead byte fixes its length, so
 * there is at most one), or refuses. */
static void check_seq(const unsigned char *s, size_t n)
{
    size_t want = 0;
    for (size_t l = 1; l <= n && !want; l++)
        if (ref_valid(s, l))
            want = l;
    uint32_t cp = 0xDEADBEEF;
    int got = st_utf8_decode(s, n, &cp);
    if (got != (int)want)
        fail_msg("%02x %02x %02x %02x (n %zu): decoded %d byte(s), the rules say %zu", s[0],
                 n > 1 ? s[1] : 0, n > 2 ? s[2] : 0, n > 3 ? s[3] : 0, n, got, want);
    if (want)
        assert_int_equal(cp, naive_bits(s, want));
    else
        assert_int_equal(cp, 0xDEADBEEF); /* left alone */
    assert_int_equal(st_utf8_seq(s, s + n), want);
}

static void every_short_sequence(void **state)
{
    unsigned char s[3] = {0, 0, 0};
    (void)state;
    assert_int_equal(st_utf8_decode(s, 0, NULL), 0);
    for (unsigned a = 0; a < 256; a++) {
        s[0] = (unsigned char)a;
        check_seq(s, 1);
        for (unsigned b = 0; b < 256; b++) {
            s[1] = (unsigned char)b;
            check_seq(s, 2);
            for (unsigned c = 0; c < 256; c++) {
                s[2] = (unsigned char)c;
                check_seq(s, 3);
            }
        }
    }
}

static void four_byte_boundaries(void **state)
{
    static const unsigned char edge[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};
    unsigned char s[4];
    (void)state;
    for (unsigned a = 0xF0; a < 256; a++)
        for (size_t i = 0; i < sizeof edge; i++)
            for (size_t j = 0; j < sizeof edge; j++)
                for (size_t k = 0; k < sizeof edge; k++) {
                    s[0] = (unsigned char)a;
                    s[1] = edge[i];
                    s[2] = edge[j];
                    s[3] = edge[k];
                    check_seq(s, 4);
                    check_seq(s, 3); /* truncated */
                }
}

/* Every code point: st_utf8_encode writes the reference bytes, the decoder
 * reads them back, the lead's length is claimed, and a cut is refused. */
static void every_code_point_round_trips(void **state)
{
    (void)state;
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (!ref_valid_cp(cp))
            continue;
        unsigned char want[4];
        char got[4];
        size_t n = ref_encode(cp, want);
        assert_int_equal(st_utf8_encode(cp, got), n);
        assert_memory_equal(got, want, n);
        uint32_t back = 0;
        assert_int_equal(st_utf8_decode(want, n, &back), (int)n);
        assert_int_equal(back, cp);
        assert_int_equal(st_utf8_lead_len(want[0]), n);
        if (n > 1)
            assert_int_equal(st_utf8_decode(want, n - 1, &back), 0);
    }
    for (unsigned c = 0x80; c < 0xC2; c++) /* continuation bytes, overlong leads */
        assert_int_equal(st_utf8_lead_len((unsigned char)c), 1);
    for (unsigned c = 0xF5; c < 256; c++)
        assert_int_equal(st_utf8_lead_len((unsigned char)c), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_short_sequence),
        cmocka_unit_test(four_byte_boundaries),
        cmocka_unit_test(every_code_point_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
