/* test_parse_number.c: numbers on the command line are decimal only
 * (issue 21 item 13): `--fail-peak 0x10` was taken as 16 (strtod reads
 * hexadecimal), and so were "inf"-like words and leading blanks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "stagetop/units.h"

static void decimal_only(void **state)
{
    (void)state;
    double v;
    st_error e;
    static const char *const bad[] = { "0x10", "0X1p4", " 5", "5 ", "infinity", "nan", "1,5", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = -1;
        assert_int_equal(st_parse_double(bad[i], -100, 1e9, &v, &e), ST_EINVAL);
        assert_true(v == -1);
    }
    assert_int_equal(st_parse_double("0x10", -100, 1e9, &v, &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "decimal"));
    static const struct { const char *s; double v; } good[] = {
        { "16", 16 }, { "12.5", 12.5 }, { "-3", -3 }, { ".5", 0.5 }, { "1e2", 100 }, { "+7", 7 },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(st_parse_double(good[i].s, -100, 1e9, &v, &e), ST_OK);
        assert_true(v == good[i].v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(decimal_only) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
