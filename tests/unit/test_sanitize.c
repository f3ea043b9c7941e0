/* test_sanitize.c: control characters made visible, widths, truncation.
 * Expected strings are written from the rules in tui/sanitize.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tui/sanitize.h"

static void check(const char *in, size_t inlen, int ascii, int max_cols, const char *want,
                  int want_cols)
{
    char out[256];
    int cols = tui_sanitize(in, inlen, ascii, max_cols, out, sizeof out);
    assert_string_equal(out, want);
    assert_int_equal(cols, want_cols);
}
#define CHECK(lit, ascii, max, want, w) check(lit, sizeof(lit) - 1, ascii, max, want, w)

static void test_plain(void **state)
{
    (void)state;
    CHECK("python generate.py --steps 30", 0, -1, "python generate.py --steps 30", 29);
    CHECK("", 0, -1, "", 0);
}

static void test_c0_and_del(void **state)
{
    (void)state;
    CHECK("\033]0;pwned\007\033[2J", 0, -1, "^[]0;pwned^G^[[2J", 17);
    CHECK("a\nb\tc\rd", 0, -1, "a^Jb^Ic^Md", 10);
    CHECK("x\x7fy", 0, -1, "x^?y", 4);
    CHECK("a\0b", 0, -1, "a^@b", 4);       /* an embedded NUL is shown, not an end */
    CHECK("\x1f", 0, -1, "^_", 2);
}

static void test_c1_and_bidi(void **state)
{
    (void)state;
    CHECK("\xc2\x9b" "31m", 0, -1, "\\u009b31m", 9);  /* CSI as a UTF-8 C1 */
    CHECK("\xc2\x85", 0, -1, "\\u0085", 6);           /* NEL */
    CHECK("ab\xe2\x80\xae" "cd", 0, -1, "ab\\u202ecd", 10); /* RIGHT-TO-LEFT OVERRIDE */
    CHECK("\xe2\x81\xa6", 0, -1, "\\u2066", 6);       /* LEFT-TO-RIGHT ISOLATE */
    CHECK("\xe2\x80\xa8", 0, -1, "\\u2028", 6);       /* LINE SEPARATOR */
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    CHECK("\xff", 0, -1, "\\xFF", 4);
    CHECK("a\x80" "b", 0, -1, "a\\x80b", 6);             /* lone continuation */
    CHECK("\xc0\xaf", 0, -1, "\\xC0\\xAF", 8);          /* overlong '/' */
    CHECK("\xe0\x80\xaf", 0, -1, "\\xE0\\x80\\xAF", 12); /* overlong, 3 bytes */
    CHECK("\xed\xa0\x80", 0, -1, "\\xED\\xA0\\x80", 12); /* surrogate */
    CHECK("\xf4\x90\x80\x80", 0, -1, "\\xF4\\x90\\x80\\x80", 16); /* > U+10FFFF */
    CHECK("ok\xe2\x82", 0, -1, "ok\\xE2\\x82", 10);     /* truncated at the end */
    CHECK("\xe2\x82" "A", 0, -1, "\\xE2\\x82A", 9);     /* truncated, then ASCII */
}

static void test_valid_utf8_kept(void **state)
{
    (void)state;
    CHECK("caf\xc3\xa9", 0, -1, "caf\xc3\xa9", 4);
    CHECK("\xe2\x82\xac" "5", 0, -1, "\xe2\x82\xac" "5", 2);      /* euro sign */
    CHECK("\xe6\x97\xa5\xe6\x9c\xac", 0, -1, "\xe6\x97\xa5\xe6\x9c\xac", 4); /* two wide */
    CHECK("\xf0\x9f\x98\x80", 0, -1, "\xf0\x9f\x98\x80", 2);     /* emoji, wide */
    CHECK("e\xcc\x81", 0, -1, "e\xcc\x81", 1);                   /* combining acute */
}

static void test_ascii_mode(void **state)
{
    (void)state;
    CHECK("caf\xc3\xa9", 1, -1, "caf\\xC3\\xA9", 11);
    CHECK("\033x", 1, -1, "^[x", 3);
}

static void test_truncation(void **state)
{
    (void)state;
    CHECK("abcdef", 0, 4, "abcd", 4);
    CHECK("a\033b", 0, 2, "a", 1);              /* "^[" is never cut in half */
    CHECK("a\033b", 0, 3, "a^[", 3);
    CHECK("\xe6\x97\xa5\xe6\x9c\xac", 0, 3, "\xe6\x97\xa5", 2); /* no half of a wide char */
    CHECK("x\xff", 0, 4, "x", 1);               /* "\xFF" takes 4 columns */
    CHECK("abc", 0, 0, "", 0);
    /* the buffer limit also stops at a whole unit */
    char out[4];
    assert_int_equal(tui_sanitize("\xff", 1, 0, -1, out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(tui_sanitize("ab\033", 3, 0, -1, out, sizeof out), 2);
    assert_string_equal(out, "ab");
}

static void test_width_and_fit(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(tui_text_width("abc"), 3);
    assert_int_equal(tui_text_width("\xe6\x97\xa5\xe6\x9c\xac" "a"), 5);
    assert_int_equal(tui_text_width("e\xcc\x81"), 1);
    assert_int_equal(tui_text_width("\xe2\x96\x81\xe2\x96\x88"), 2); /* ▁█ */
    assert_int_equal(tui_text_fit("e\xcc\x81xyz", 1, out, sizeof out), 1);
    assert_string_equal(out, "e\xcc\x81");   /* the accent stays with its base */
    assert_int_equal(tui_text_fit("\xe6\x97\xa5" "ab", 1, out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(tui_text_fit("hello", 10, out, sizeof out), 5);
    assert_string_equal(out, "hello");
}

static void test_decode(void **state)
{
    (void)state;
    uint32_t cp = 0;
    assert_int_equal(tui_utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(tui_utf8_decode((const unsigned char *)"\xf0\x9f\x98", 3, &cp), 0);
    assert_int_equal(tui_utf8_decode((const unsigned char *)"\xc2\xa0", 2, &cp), 2);
    assert_int_equal(cp, 0xA0);
    assert_int_equal(tui_cp_width(0x1F600), 2);
    assert_int_equal(tui_cp_width(0x0301), 0);
    assert_int_equal(tui_cp_width('a'), 1);
}

/* Every single byte and every two-byte string: the output holds no byte a
 * terminal acts on (C0, DEL, a C1 byte outside a character) and is valid
 * UTF-8. */
static void test_exhaustive_no_controls(void **state)
{
    (void)state;
    char in[2], out[64];
    for (int a = 0; a < 256; a++)
        for (int b = -1; b < 256; b++) {
            in[0] = (char)a;
            in[1] = (char)b;
            size_t n = b < 0 ? 1 : 2;
            tui_sanitize(in, n, 0, -1, out, sizeof out);
            const unsigned char *p = (const unsigned char *)out;
            size_t left = strlen(out);
            while (left > 0) {
                uint32_t cp;
                int l = tui_utf8_decode(p, left, &cp);
                assert_true(l > 0);
                assert_true(cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F));
                p += l;
                left -= (size_t)l;
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),          cmocka_unit_test(test_c0_and_del),
        cmocka_unit_test(test_c1_and_bidi),    cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_valid_utf8_kept), cmocka_unit_test(test_ascii_mode),
        cmocka_unit_test(test_truncation),     cmocka_unit_test(test_width_and_fit),
        cmocka_unit_test(test_decode),         cmocka_unit_test(test_exhaustive_no_controls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
