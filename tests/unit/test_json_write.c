/* test_json_write.c: the JSON writer (core/trace/json_write.c) escapes C1
 * controls and bidi controls, and cJSON, the independent reference parser,
 * reads the text back to the same bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/json.h"

/* UTF-8 of a code point < 0x10000. */
static size_t utf8(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

static void json_escapes_c1_and_bidi(void **state)
{
    (void)state;
    static const unsigned escaped[] = { 0x80, 0x85, 0x9B, 0x9D, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A,
                                        0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069 };
    static const unsigned kept[] = { 0xA0, 0xE9, 0x2010, 0x2030, 0x2065, 0x206A, 0x4E2D };
    for (size_t k = 0; k < 2; k++) {
        const unsigned *v = k ? kept : escaped;
        size_t n = k ? sizeof kept / sizeof *kept : sizeof escaped / sizeof *escaped;
        for (size_t i = 0; i < n; i++) {
            char in[16], want[8];
            size_t len = 0;
            in[len++] = 'a';
            len += utf8(v[i], in + len);
            in[len++] = 'b';
            in[len] = '\0';
            st_jw w;
            st_jw_init(&w, -1);
            st_jw_str(&w, in);
            char *out = st_jw_take(&w);
            assert_non_null(out);
            snprintf(want, sizeof want, "\\u%04x", v[i]);
            if (k == 0) {
                assert_non_null(strstr(out, want));
                for (const unsigned char *p = (const unsigned char *)out; *p; p++)
                    assert_true(*p < 0x80); /* nothing raw is left */
            } else {
                assert_null(strstr(out, "\\u"));
            }
            /* the reference parser reads back the very same bytes */
            cJSON *j = cJSON_Parse(out);
            assert_non_null(j);
            assert_true(cJSON_IsString(j));
            assert_string_equal(j->valuestring, in);
            cJSON_Delete(j);
            free(out);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_escapes_c1_and_bidi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
