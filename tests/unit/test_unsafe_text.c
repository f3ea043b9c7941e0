/* test_unsafe_text: one classifier (st_utf8_unsafe, utf8.h) decides what is
 * unsafe for the six cleaners of untrusted text; none of them lets one of
 * those characters through raw, each with its own policy (JSON escapes it,
 * the terminal notification and the metric label write '?', the screen
 * draws \uXXXX, Markdown drops it, the SVG writes U+FFFD). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stagetop/json.h"
#include "stagetop/md.h"
#include "stagetop/metrics.h"
#include "stagetop/notify.h"
#include "stagetop/utf8.h"
#include "../../core/plot/plot_internal.h"
#include "../../tui/sanitize.h"

/* Every unsafe code point named in utf8.h, and neighbours that are safe. */
static const uint32_t unsafe_cps[] = {
    0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C, 0x200E,
    0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
};
static const uint32_t safe_cps[] = {
    0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x061B, 0x061D, 0x200D, 0x2010, 0x2027, 0x202F, 0x2065, 0x206A,
    0x65E5, 0xFFFD, 0x1F600,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void the_classifier(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(unsafe_cps); i++)
        assert_true(st_utf8_unsafe(unsafe_cps[i]));
    for (size_t i = 0; i < N(safe_cps); i++)
        assert_false(st_utf8_unsafe(safe_cps[i]));
}

/* "ok" CP "ok" as UTF-8 (CP 0 is left out: C strings end there). */
static size_t sample_text(uint32_t cp, char *buf, char enc[4], size_t *enc_len)
{
    *enc_len = st_utf8_encode(cp, enc);
    size_t n = 0;
    memcpy(buf, "ok", 2);
    n = 2;
    memcpy(buf + n, enc, *enc_len);
    n += *enc_len;
    memcpy(buf + n, "ok", 3);
    return n + 2;
}

/* out holds no raw copy of the character, and both "ok"s survived. */
static void assert_clean(const char *who, const char *out, uint32_t cp, const char *enc,
                         size_t enc_len)
{
    const char *first = strstr(out, "ok");
    int raw = 0;
    for (size_t i = 0; out[i] && !raw; i++)
        raw = strncmp(out + i, enc, enc_len) == 0;
    if (raw || !first || !strstr(first + 2, "ok"))
        fail_msg("%s: U+%04X came through raw (or the text was lost): \"%s\"", who, (unsigned)cp, out);
}

static void six_cleaners_keep_none(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(unsafe_cps); i++) {
        uint32_t cp = unsafe_cps[i];
        if (cp == 0)
            continue;
        char in[16], enc[4], out[128];
        size_t el, n = sample_text(cp, in, enc, &el);

        st_jw w; /* JSON: escaped */
        st_jw_init(&w, -1);
        st_jw_strn(&w, in, n);
        char *j = st_jw_take(&w);
        st_jw_free(&w);
        assert_non_null(j);
        assert_clean("json", j, cp, enc, el);
        free(j);

        char *t = st_text_clean(in, n, 0); /* Markdown / text: dropped */
        assert_non_null(t);
        assert_clean("md text", t, cp, enc, el);
        free(t);
        st_sb sb;
        st_sb_init(&sb);
        st_md_escape_to(&sb, in, n, 0);
        char *m = st_sb_take(&sb);
        assert_non_null(m);
        assert_clean("md", m, cp, enc, el);
        free(m);

        st_notify_clean(in, 1, out, sizeof out); /* notification: '?' */
        assert_clean("notify", out, cp, enc, el);

        st_metrics_escape_label(in, 64, out, sizeof out); /* label: '?' */
        assert_clean("metrics label", out, cp, enc, el);

        st_plot_text_clean(in, n, out, sizeof out, 0); /* SVG: U+FFFD */
        assert_clean("svg", out, cp, enc, el);

        tui_sanitize(in, n, 0, -1, out, sizeof out); /* screen: ^X, \uXXXX */
        assert_clean("screen", out, cp, enc, el);
    }
}

/* The SVG and the metric label kept U+202E and the other bidi controls
 * before they asked the classifier: their replacement is stated here. */
static void svg_and_label_policies(void **state)
{
    (void)state;
    char out[64];
    st_plot_text_clean("a\xE2\x80\xAE" "b\xE2\x81\xA6" "c", 9, out, sizeof out, 0);
    assert_string_equal(out, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c");
    st_metrics_escape_label("a\xE2\x80\xAE" "b\xD8\x9C" "c\xE2\x80\x8F", 64, out, sizeof out);
    assert_string_equal(out, "a?b?c?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_classifier),
        cmocka_unit_test(six_cleaners_keep_none),
        cmocka_unit_test(svg_and_label_policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
