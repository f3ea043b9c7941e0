/* test_units_styles.c: the styles of the one byte formatter (units.h),
 * each checked against the plain style or against the number it must
 * stand for: COMPACT is the plain text with the unit cut to its letter,
 * SIGN the plain text of |v| after its sign, POINT a '.' number within
 * half a unit of its last digit whatever the locale, KIB_MIB one decimal
 * of KiB or MiB. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/units.h"

/* Values: the edges of every unit and pseudo-random ones (fixed seed). */
static size_t values(uint64_t *v, size_t max)
{
    size_t n = 0;
    uint64_t x = 88172645463325252ull;
    for (int u = 0; u <= 5 && n + 4 <= max; u++) {
        uint64_t p = 1ull << (10 * u);
        v[n++] = p;
        v[n++] = p * 10 - 1;
        v[n++] = p * 100;
        v[n++] = p * 1023;
    }
    v[n++] = 0;
    while (n < max) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v[n++] = x >> (x % 60); /* every magnitude */
    }
    return n;
}

static void compact_is_the_plain_text_cut(void **state)
{
    uint64_t v[400];
    size_t n = values(v, 400);
    (void)state;
    for (size_t i = 0; i < n; i++) {
        char plain[48], want[48], got[48];
        st_format_bytes(v[i], plain, sizeof plain);
        char *sp = strchr(plain, ' ');
        assert_non_null(sp);
        snprintf(want, sizeof want, "%.*s%c", (int)(sp - plain), plain, sp[1]);
        st_format_bytes_as((double)v[i], ST_UNITS_COMPACT, got, sizeof got);
        assert_string_equal(got, want);
    }
}

static void sign_is_the_plain_text_of_the_size(void **state)
{
    uint64_t v[400];
    size_t n = values(v, 400);
    (void)state;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > (uint64_t)INT64_MAX)
            continue;
        char plain[40], want[48], got[48];
        st_format_bytes(v[i], plain, sizeof plain);
        snprintf(want, sizeof want, "+%s", plain);
        st_format_bytes_as((double)(int64_t)v[i], ST_UNITS_SIGN, got, sizeof got);
        assert_string_equal(got, want);
        if (v[i] == 0)
            continue;
        snprintf(want, sizeof want, "-%s", plain);
        st_format_bytes_as(-(double)(int64_t)v[i], ST_UNITS_SIGN, got, sizeof got);
        assert_string_equal(got, want);
    }
    char b[48]; /* without SIGN a negative is 0 */
    assert_string_equal(st_format_bytes_as(-5e9, 0, b, sizeof b), "0 B");
}

/* The multiple of 1024 that the unit name stands for. */
static double unit_of(const char *name)
{
    static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    for (int u = 0; u < 7; u++)
        if (strcmp(name, names[u]) == 0)
            return ldexp(1.0, 10 * u);
    fail_msg("unknown unit '%s'", name);
    return 0;
}

/* "N.DD UNIT": the number read back with '.' as the point (never ','),
 * its decimals, and the bytes it stands for must be within half a unit
 * of its last digit. */
static void check_point_text(const char *s, double bytes)
{
    char num[32], unit[8];
    assert_int_equal(sscanf(s, "%31[0-9.] %7s", num, unit), 2);
    assert_null(strchr(s, ','));
    const char *dot = strchr(num, '.');
    int dec = dot ? (int)strlen(dot + 1) : 0;
    double x = strtod(num, NULL), u = unit_of(unit);
    assert_true(fabs(x * u - bytes) <= 0.5 * pow(10, -dec) * u + 1e-9 * bytes);
    double exact = bytes / u; /* 2 decimals under 10, 1 under 100 (before rounding) */
    if (u > 1)
        assert_int_equal(dec, exact < 10 ? 2 : exact < 100 ? 1 : 0);
}

static void point_ignores_the_locale(void **state)
{
    uint64_t v[400];
    size_t n = values(v, 400);
    char b[48];
    (void)state;
    /* a locale with a decimal comma, where the machine has one */
    const char *lc = setlocale(LC_NUMERIC, "de_DE.UTF-8");
    if (!lc)
        lc = setlocale(LC_NUMERIC, "fr_FR.UTF-8");
    for (size_t i = 0; i < n; i++) {
        check_point_text(st_format_bytes_as((double)v[i], ST_UNITS_POINT, b, sizeof b), (double)v[i]);
        check_point_text(st_format_bytes_as((double)v[i] + 0.25, ST_UNITS_POINT, b, sizeof b),
                         (double)v[i] + 0.25);
    }
    if (lc) /* the plain style follows the locale: the control */
        assert_non_null(strchr(st_format_bytes(1536, b, sizeof b), ','));
    setlocale(LC_NUMERIC, "C");
    /* durations: "12.3 s" with '.', rounded to the unit shown */
    assert_string_equal(st_format_duration_as(12.34, ST_UNITS_POINT, b, sizeof b), "12.3 s");
    assert_string_equal(st_format_duration_as(59.97, ST_UNITS_POINT, b, sizeof b), "1m00s");
    assert_string_equal(st_format_duration_as(184.6, ST_UNITS_POINT, b, sizeof b), "3m05s");
    assert_string_equal(st_format_duration_as(184.6, 0, b, sizeof b), "3m04s");
}

static void kib_mib_one_decimal(void **state)
{
    uint64_t v[400];
    size_t n = values(v, 400);
    (void)state;
    for (size_t i = 0; i < n; i++) {
        char b[48], unit[8];
        double x;
        st_format_bytes_as((double)v[i], ST_UNITS_KIB_MIB, b, sizeof b);
        assert_int_equal(sscanf(b, "%lf %7s", &x, unit), 2);
        const char *dot = strchr(b, '.');
        assert_non_null(dot);
        assert_true(dot[1] >= '0' && dot[1] <= '9' && dot[2] == ' ');
        int mib = v[i] >= 1024 * 1024;
        assert_string_equal(unit, mib ? "MiB" : "KiB");
        double u = mib ? 1048576.0 : 1024.0;
        assert_true(fabs(x * u - (double)v[i]) <= 0.05 * u + 1e-9 * (double)v[i]);
    }
}

int main(void)
{
    setlocale(LC_NUMERIC, "C");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compact_is_the_plain_text_cut),
        cmocka_unit_test(sign_is_the_plain_text_of_the_size),
        cmocka_unit_test(point_ignores_the_locale),
        cmocka_unit_test(kib_mib_one_decimal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
