/* test_env_block.c: one variable of an environment block (env_block.h),
 * fed from memory: blocks as /proc/PID/environ gives them (NAME=VALUE,
 * each ended by a NUL), and the odd ones a reader meets: a block cut short
 * (no last NUL, or inside a name), entries without '=', an empty value,
 * a name that is the prefix of another, the first of two wins (getenv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stagetop/env_block.h"

#define BLK(s) (s), sizeof(s) - 1 /* the literal's bytes, its NULs included */

/* find NAME in buf: its value as a string, or NULL */
static const char *find(const char *buf, size_t len, const char *name)
{
    static char out[256];
    const char *v = NULL;
    size_t n = 0;
    if (!st_env_block_find(buf, len, name, &v, &n))
        return NULL;
    assert_true(v >= buf && v + n <= buf + len); /* a span of the block */
    assert_true(n < sizeof out);
    memcpy(out, v, n);
    out[n] = '\0';
    return out;
}

static void test_found(void **state)
{
    (void)state;
    static const char b[] = "HOME=/root\0STAGETOP_EVENTS=/tmp/st-1/events\0PATH=/bin\0";
    assert_string_equal(find(BLK(b), "STAGETOP_EVENTS"), "/tmp/st-1/events");
    assert_string_equal(find(BLK(b), "HOME"), "/root");
    assert_string_equal(find(BLK(b), "PATH"), "/bin");
    assert_null(find(BLK(b), "STAGELOAD_TRACE"));
}

static void test_prefixes_and_values(void **state)
{
    (void)state;
    static const char b[] = "STAGETOP_EVENTS_OLD=/a\0STAGETOP=/b\0STAGETOP_EVENTS=\0X=a=b\0";
    assert_string_equal(find(BLK(b), "STAGETOP_EVENTS"), ""); /* set, empty */
    assert_string_equal(find(BLK(b), "STAGETOP"), "/b");
    assert_string_equal(find(BLK(b), "X"), "a=b"); /* the first '=' ends the name */
    assert_null(find(BLK(b), "STAGETOP_EV"));
}

static void test_first_wins(void **state)
{
    (void)state;
    static const char b[] = "A=1\0A=2\0";
    assert_string_equal(find(BLK(b), "A"), "1");
}

static void test_odd_blocks(void **state)
{
    (void)state;
    static const char cut[] = "HOME=/root\0STAGELOAD_TRACE=/tmp/tr"; /* no last NUL */
    assert_string_equal(find(BLK(cut), "STAGELOAD_TRACE"), "/tmp/tr");
    static const char in_name[] = "HOME=/root\0STAGELOAD_TR"; /* cut inside the name */
    assert_null(find(BLK(in_name), "STAGELOAD_TRACE"));
    static const char no_eq[] = "STAGETOP_EVENTS\0junk\0\0STAGETOP_EVENTS=/ok\0";
    assert_string_equal(find(BLK(no_eq), "STAGETOP_EVENTS"), "/ok");
    assert_null(find("", 0, "A"));
    assert_null(find(NULL, 0, "A"));
    static const char b[] = "A=1\0";
    assert_null(find(BLK(b), "")); /* no name */
    assert_null(find(BLK(b), "A=1")); /* a name holds no '=' */
    assert_null(find(BLK(b), NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_found),
        cmocka_unit_test(test_prefixes_and_values),
        cmocka_unit_test(test_first_wins),
        cmocka_unit_test(test_odd_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
