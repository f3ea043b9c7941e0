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

#include <stdio.h>
#include <sys/stat.h>

#include "stagetop/cgroup_limit.h"
#include "tmpdir.h"

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

/* ---- the walk, over a cgroup tree made under a temporary directory ---- */

/* Write text to root/rel/name, making the directories. */
static void put(const char *root, const char *rel, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s%s/%s", root, rel, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The mountinfo lines of this machine's kind (cgroup v1 memory beside a
 * cgroup2 without it), the mount points under dir. */
static void mounts_at(st_cg_mounts *m, const char *dir, const char *v1_root)
{
    char mi[2048];
    snprintf(mi, sizeof mi,
             "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
             "32 31 0:29 / %s/cpu rw,relatime - cgroup cgroup rw,cpu\n"
             "35 31 0:32 %s %s/mem\\040v1 rw,relatime shared:9 - cgroup cgroup rw,memory\n"
             "41 31 0:38 / %s/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate\n",
             dir, v1_root, dir, dir);
    st_cg_parse_mounts(mi, strlen(mi), m);
}

static void test_mounts(void **state)
{
    (void)state;
    st_cg_mounts m;
    mounts_at(&m, "/x", "/");
    assert_string_equal(m.v1, "/x/mem v1"); /* \040 is a space */
    assert_string_equal(m.v1_root, "/");
    assert_string_equal(m.v2, "/x/unified");
    assert_string_equal(m.v2_root, "/");
    static const char v2only[] = "29 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,memory_recursiveprot\n";
    st_cg_parse_mounts(v2only, sizeof v2only - 1, &m);
    assert_string_equal(m.v2, "/sys/fs/cgroup");
    assert_string_equal(m.v1, "");
    st_cg_parse_mounts("garbage\n\n - \n", 14, &m); /* nothing guessed */
    assert_string_equal(m.v2, "");
    assert_string_equal(m.v1, "");
}

/* A v1 memory hierarchy: the job two levels under a cgroup with a 96 MiB
 * limit, under one with 1 GiB, under the root's "unlimited". */
static void test_walk_v1(void **state)
{
    const char *dir = *state;
    char v1[600];
    snprintf(v1, sizeof v1, "%s/mem v1", dir);
    put(v1, "", "memory.limit_in_bytes", "9223372036854771712\n"); /* v1's none */
    put(v1, "", "memory.usage_in_bytes", "5000000000\n");
    put(v1, "/api", "memory.limit_in_bytes", "1073741824\n");
    put(v1, "/api", "memory.usage_in_bytes", "209715200\n");          /* 824 MiB left */
    put(v1, "/api/box", "memory.limit_in_bytes", "100663296\n");       /* 96 MiB ... */
    put(v1, "/api/box", "memory.usage_in_bytes", "83886080\n");        /* ... 16 MiB left: binds */
    put(v1, "/api/box", "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
    put(v1, "/api/box/job", "memory.limit_in_bytes", "9223372036854771712\n");
    put(v1, "/api/box/job", "memory.usage_in_bytes", "80000000\n");
    put(v1, "/api/box/job", "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
    static const char cg[] = "9:name=systemd:/\n4:memory:/api/box/job\n1:cpu:/\n0::/\n";
    st_cg_watch w;
    st_cg_watch_init(&w);
    mounts_at(&w.mounts, dir, "/");
    assert_int_equal(st_cg_walk(&w, cg, sizeof cg - 1), 1);
    assert_int_equal(w.version, 1);
    assert_string_equal(w.job_cgroup, "/api/box/job");
    assert_int_equal(w.levels, 4); /* job, box, api, the root */
    assert_true(w.has_limit);
    assert_string_equal(w.cgroup, "/api/box");
    assert_string_equal(w.limit_file, "memory.limit_in_bytes");
    assert_int_equal(w.limit, 100663296);
    assert_int_equal(st_cg_room(&w), 100663296 - 83886080);
    /* a sample: one read of the binding level's usage */
    put(v1, "/api/box", "memory.usage_in_bytes", "99614720\n");
    assert_int_equal(st_cg_read_usage(&w), 1);
    assert_int_equal(st_cg_room(&w), 100663296 - 99614720);
    put(v1, "/api/box", "memory.usage_in_bytes", "104857600\n"); /* over: none left */
    assert_int_equal(st_cg_read_usage(&w), 1);
    assert_int_equal(st_cg_room(&w), 0);
    /* the OOM killer: counted where the victim was (v1), from the walk on */
    assert_int_equal(st_cg_oom_kills(&w), 0);
    put(v1, "/api/box/job", "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
    assert_int_equal(st_cg_oom_kills(&w), 1);
    put(v1, "/api/box", "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 5\n");
    assert_int_equal(st_cg_oom_kills(&w), 2); /* the larger rise */
    /* walked again (the job moved up into box): the kills seen are kept */
    static const char moved[] = "4:memory:/api/box\n0::/\n";
    assert_int_equal(st_cg_walk(&w, moved, sizeof moved - 1), 1);
    assert_string_equal(w.job_cgroup, "/api/box");
    assert_int_equal(w.levels, 3);
    assert_int_equal(st_cg_oom_kills(&w), 2);
    put(v1, "/api/box", "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 6\n");
    assert_int_equal(st_cg_oom_kills(&w), 3);
    st_cg_watch_free(&w);
    /* no limit anywhere: found, with none */
    put(v1, "/api/box", "memory.limit_in_bytes", "9223372036854771712\n");
    put(v1, "/api", "memory.limit_in_bytes", "9223372036854771712\n");
    st_cg_watch_init(&w);
    mounts_at(&w.mounts, dir, "/");
    assert_int_equal(st_cg_walk(&w, cg, sizeof cg - 1), 1);
    assert_false(w.has_limit);
    assert_int_equal(st_cg_read_usage(&w), 0);
    assert_int_equal(st_cg_room(&w), 0);
    st_cg_watch_free(&w);
}

/* cgroup2, a mount that shows a subtree (a container without its own
 * cgroup namespace): the path /proc gives starts with the mount's root. */
static void test_walk_v2(void **state)
{
    const char *dir = *state;
    char v2[600];
    snprintf(v2, sizeof v2, "%s/unified", dir);
    put(v2, "", "memory.max", "536870912\n");              /* the container's 512 MiB */
    put(v2, "", "memory.current", "100000000\n");
    put(v2, "/job", "memory.max", "max\n");
    put(v2, "/job", "memory.current", "90000000\n");
    put(v2, "/job", "memory.events", "low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\n");
    static const char cg[] = "0::/docker/abc/job\n";
    st_cg_watch w;
    st_cg_watch_init(&w);
    char mi[1200];
    snprintf(mi, sizeof mi, "41 31 0:38 /docker/abc %s rw - cgroup2 cgroup2 rw\n", v2);
    st_cg_parse_mounts(mi, strlen(mi), &w.mounts);
    assert_string_equal(w.mounts.v2_root, "/docker/abc");
    assert_int_equal(st_cg_walk(&w, cg, sizeof cg - 1), 1);
    assert_int_equal(w.version, 2);
    assert_int_equal(w.levels, 2); /* job, then the mount's root: not above it */
    assert_true(w.has_limit);
    assert_string_equal(w.cgroup, "/docker/abc");
    assert_string_equal(w.limit_file, "memory.max");
    assert_int_equal(st_cg_room(&w), 536870912 - 100000000);
    put(v2, "/job", "memory.events", "low 0\nhigh 0\nmax 40\noom 2\noom_kill 1\n");
    assert_int_equal(st_cg_oom_kills(&w), 1);
    st_cg_watch_free(&w);
    /* a path outside what the mount shows, a text with no memory line */
    static const char outside[] = "0::/other/job\n", none[] = "1:cpu:/\n";
    st_cg_watch_init(&w);
    st_cg_parse_mounts(mi, strlen(mi), &w.mounts);
    assert_int_equal(st_cg_walk(&w, outside, sizeof outside - 1), 0);
    assert_int_equal(st_cg_walk(&w, none, sizeof none - 1), 0);
    assert_false(w.walked);
    st_cg_watch_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_binding),
        cmocka_unit_test(test_oom_words),
        cmocka_unit_test(test_mounts),
        cmocka_unit_test_setup_teardown(test_walk_v1, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_walk_v2, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
