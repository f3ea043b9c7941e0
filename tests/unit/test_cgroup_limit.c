/* test_cgroup_limit.c: memory.max and memory.events as the kernel writes
 * them (Documentation/admin-guide/cgroup-v2.rst: memory.max is "max" or a
 * byte count; memory.events is a flat keyed file "low", "high", "max",
 * "oom", "oom_kill", "oom_group_kill"), the limit that binds along a path,
 * and the words for it and for a member the OOM killer ended. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stagetop/cgroup_limit.h"

#define TXT(s) (s), sizeof(s) - 1

/* memory.events of a cgroup whose job was OOM-killed twice (a 6.x kernel) */
static const char events_6x[] = "low 0\nhigh 0\nmax 1422\noom 2\noom_kill 2\noom_group_kill 0\n";
/* of a 5.4 kernel: no oom_group_kill line */
static const char events_54[] = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n";

static void test_max(void **state)
{
    (void)state;
    uint64_t b = 7;
    assert_int_equal(st_cg_parse_max(TXT("max\n"), &b), 0);
    assert_int_equal(st_cg_parse_max(TXT("8589934592\n"), &b), 1);
    assert_int_equal(b, 8589934592ull);
    assert_int_equal(st_cg_parse_max(TXT("0\n"), &b), 1); /* a limit of 0 is a limit */
    assert_int_equal(b, 0);
    assert_int_equal(st_cg_parse_max(TXT("18446744073709551615\n"), &b), 1);
    assert_int_equal(st_cg_parse_max(TXT("18446744073709551616\n"), &b), -1); /* overflow */
    assert_int_equal(st_cg_parse_max(TXT("8G\n"), &b), -1); /* never guessed */
    assert_int_equal(st_cg_parse_max(TXT("-1\n"), &b), -1);
    assert_int_equal(st_cg_parse_max(TXT("\n"), &b), -1);
    assert_int_equal(st_cg_parse_max(TXT("maximum\n"), &b), -1);
    assert_int_equal(st_cg_parse_max(NULL, 0, &b), -1);
}

static void test_events(void **state)
{
    (void)state;
    uint64_t v = 9;
    assert_int_equal(st_cg_parse_key(TXT(events_6x), "oom_kill", &v), 1);
    assert_int_equal(v, 2);
    assert_int_equal(st_cg_parse_key(TXT(events_6x), "max", &v), 1);
    assert_int_equal(v, 1422);
    assert_int_equal(st_cg_parse_key(TXT(events_6x), "oom", &v), 1); /* not oom_kill's */
    assert_int_equal(v, 2);
    assert_int_equal(st_cg_parse_key(TXT(events_54), "oom_kill", &v), 1);
    assert_int_equal(v, 0);
    assert_int_equal(st_cg_parse_key(TXT(events_54), "oom_group_kill", &v), 0);
    assert_int_equal(st_cg_parse_key(TXT("oom_kill x\n"), "oom_kill", &v), -1);
    assert_int_equal(st_cg_parse_key(TXT("oom_kill 3"), "oom_kill", &v), 1); /* no last newline */
    assert_int_equal(v, 3);
    assert_int_equal(st_cg_parse_key(TXT(events_6x), "", &v), 0);
}

static void test_binding(void **state)
{
    (void)state;
    const uint64_t G = 1ull << 30;
    st_cg_level lv[] = {
        { "/slurm/uid_1000/job_42/step_0", 0, 0, 3 * G },     /* no limit of its own */
        { "/slurm/uid_1000/job_42", 1, 8 * G, 7 * G },        /* 1 GiB left: binds */
        { "/slurm/uid_1000", 1, 64 * G, 20 * G },              /* 44 GiB left */
    };
    uint64_t room = 0;
    assert_int_equal(st_cg_binding(lv, 3, &room), 1);
    assert_int_equal(room, G);
    char buf[160];
    st_cg_headroom_text(lv, 3, buf, sizeof buf);
    assert_string_equal(buf, "limit 8.00 GiB (/slurm/uid_1000/job_42): 1.00 GiB left");
    lv[1].current = 9 * G; /* over (memory.current can pass max briefly) */
    assert_int_equal(st_cg_binding(lv, 3, &room), 1);
    assert_int_equal(room, 0);
    st_cg_headroom_text(lv, 3, buf, sizeof buf);
    assert_string_equal(buf, "limit 8.00 GiB (/slurm/uid_1000/job_42): none left");
    assert_int_equal(st_cg_binding(lv, 1, &room), -1); /* no level with a limit */
    st_cg_headroom_text(lv, 1, buf, sizeof buf);
    assert_string_equal(buf, "");
    st_cg_level tie[] = { { "/a/b", 1, 2 * G, G }, { "/a", 1, 3 * G, 2 * G } };
    assert_int_equal(st_cg_binding(tie, 2, &room), 0); /* the lower level on a tie */
}

static void test_oom_words(void **state)
{
    (void)state;
    char buf[160];
    assert_true(st_cg_oom_killed(SIGKILL, 0, 1));
    assert_false(st_cg_oom_killed(SIGKILL, 1, 1)); /* someone's kill -9 */
    assert_false(st_cg_oom_killed(SIGTERM, 0, 1)); /* the OOM killer sends SIGKILL only */
    st_cg_end_text(SIGKILL, 0, 1, buf, sizeof buf);
    assert_string_equal(buf, "killed by the kernel's OOM killer (memory.events oom_kill 0 -> 1)");
    st_cg_end_text(SIGKILL, 2, 2, buf, sizeof buf);
    assert_string_equal(buf, "killed (SIGKILL)");
    st_cg_end_text(SIGTERM, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "ended by signal 15");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_binding),
        cmocka_unit_test(test_oom_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
