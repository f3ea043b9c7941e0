/* test_cgroup_place.c: the launched job's cgroup is never made outside the
 * cgroup stagetop runs in (issue 21 item 1; core/platform/linux_cgroup.c),
 * on cgroup v2 and on a cgroup v1 memory hierarchy.
 *
 * The machine's cgroup v2 has no memory controller here (it is on v1), so
 * the placement runs against a cgroup tree laid out in a temporary
 * directory (cgroup.controllers, cgroup.subtree_control), with inotify on
 * the directories outside stagetop's cgroup: any directory created there
 * fails the test, even one removed again at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/inotify.h>

#include "../../core/platform/linux_cgroup.h"

static void put(const char *dir, const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Count directories created in dir since the watch was added. */
static int created_dirs(int ifd)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int n = 0;
    ssize_t len;
    while ((len = read(ifd, buf, sizeof buf)) > 0)
        for (char *p = buf; p < buf + len;) {
            struct inotify_event *ev = (struct inotify_event *)(void *)p;
            if ((ev->mask & IN_CREATE) && (ev->mask & IN_ISDIR))
                n++;
            p += sizeof *ev + ev->len;
        }
    return n;
}

/* A launcher's cgroup /a (memory.max set there, say) that holds processes
 * and so has no memory controller for its children; the root of the
 * hierarchy has it for its own children.  The job must stay inside /a: no
 * cgroup beside it (the old placement made /stagetop-PID-0 under the
 * parent, outside /a's limits). */
static void never_beside_the_callers_cgroup(void **state)
{
    (void)state;
    char tmp[] = "/tmp/st-cgplace-XXXXXX", a[600], ab[600];
    assert_non_null(mkdtemp(tmp));
    snprintf(a, sizeof a, "%s/a", tmp);
    snprintf(ab, sizeof ab, "%s/a/b", tmp);
    assert_int_equal(mkdir(a, 0755), 0);
    assert_int_equal(mkdir(ab, 0755), 0);
    put(tmp, "cgroup.controllers", "cpu memory pids\n");
    put(tmp, "cgroup.subtree_control", "cpu memory pids\n");
    put(a, "cgroup.controllers", "cpu memory pids\n");
    put(a, "cgroup.subtree_control", "memory pids\n"); /* a delegated parent */
    put(ab, "cgroup.controllers", "memory pids\n");
    put(ab, "cgroup.subtree_control", "\n"); /* stagetop's: holds processes */

    int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    assert_true(ifd >= 0);
    assert_true(inotify_add_watch(ifd, tmp, IN_CREATE) >= 0);
    assert_true(inotify_add_watch(ifd, a, IN_CREATE) >= 0);

    st_job_group g;
    memset(&g, 0, sizeof g);
    g.fd = -1;
    st_lx_group_prepare_at(&g, tmp, "/", "/a/b");
    int outside = created_dirs(ifd);
    close(ifd);
    print_message("why: %s\nwhere: %s\n", g.why, g.where);
    assert_int_equal(outside, 0);
    assert_false(g.active);
    /* it says where the job runs and why it has no cgroup of its own */
    assert_non_null(strstr(g.where, "/a/b"));
    assert_non_null(strstr(g.where, "stagetop's cgroup"));
    assert_non_null(strstr(g.where, g.why));
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

/* A mount whose root is not "/" (a container's cgroup namespace seen from
 * outside): stagetop's cgroup outside it is refused, and nothing made. */
static void outside_the_mount_is_refused(void **state)
{
    (void)state;
    st_job_group g;
    memset(&g, 0, sizeof g);
    g.fd = -1;
    st_lx_group_prepare_at(&g, "/nonexistent-mnt", "/ctr", "/other/x");
    assert_false(g.active);
    assert_non_null(strstr(g.why, "outside"));
    assert_true(g.where[0] != '\0');
}

/* v1: stagetop's memory cgroup whose hierarchy does not count its
 * children (memory.use_hierarchy 0, an old kernel's setting): a cgroup of
 * its own would escape its limits, so none is made, and it says why. */
static void v1_without_hierarchy_makes_none(void **state)
{
    (void)state;
    char tmp[] = "/tmp/st-cgplace1-XXXXXX", a[600];
    assert_non_null(mkdtemp(tmp));
    snprintf(a, sizeof a, "%s/a", tmp);
    assert_int_equal(mkdir(a, 0755), 0);
    put(a, "memory.use_hierarchy", "0\n");
    int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    assert_true(ifd >= 0);
    assert_true(inotify_add_watch(ifd, tmp, IN_CREATE) >= 0);
    assert_true(inotify_add_watch(ifd, a, IN_CREATE) >= 0);
    st_job_group g;
    memset(&g, 0, sizeof g);
    st_lx_group_prepare_v1_at(&g, tmp, "/", "/a");
    int made = created_dirs(ifd);
    close(ifd);
    print_message("why: %s\nwhere: %s\n", g.why, g.where);
    assert_int_equal(made, 0);
    assert_false(g.active);
    assert_non_null(strstr(g.why, "cgroup v1"));
    assert_non_null(strstr(g.why, "use_hierarchy is 0"));
    assert_non_null(strstr(g.where, "stagetop's cgroup /a"));
    assert_int_equal(g.stat_fd, -1);
    /* a directory that is no memory cgroup (no memory.stat in what it
     * makes): given up, and the directory it made removed again; on the
     * way, the empty cgroup a stagetop that is gone left (pid 99999999 is
     * above any pid_max) is removed, a live one's is kept */
    put(a, "memory.use_hierarchy", "1\n");
    char stale[700], live[700];
    snprintf(stale, sizeof stale, "%s/stagetop-99999999-0", a);
    snprintf(live, sizeof live, "%s/stagetop-%d-0", a, (int)getppid());
    assert_int_equal(mkdir(stale, 0755), 0);
    assert_int_equal(mkdir(live, 0755), 0);
    memset(&g, 0, sizeof g);
    st_lx_group_prepare_v1_at(&g, tmp, "/", "/a");
    assert_false(g.active);
    assert_non_null(strstr(g.why, "no memory.stat"));
    struct stat sb;
    assert_int_not_equal(stat(stale, &sb), 0);
    assert_int_equal(stat(live, &sb), 0);
    assert_int_equal(rmdir(live), 0);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "[ -z \"$(ls -A '%s/a' | grep -v memory.use_hierarchy)\" ]", tmp);
    assert_int_equal(system(cmd), 0);
    /* outside the v1 mount's root: refused */
    memset(&g, 0, sizeof g);
    st_lx_group_prepare_v1_at(&g, tmp, "/ctr", "/other/x");
    assert_false(g.active);
    assert_non_null(strstr(g.why, "outside the cgroup v1 memory mount"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

/* The machine's own hierarchy, where the job can have a cgroup of its own
 * (root: on cgroup v1, under this process's memory cgroup; on v2 where its
 * cgroup has the memory controller for children): a forked child joins it
 * before it fills 16 MiB with random bytes, group_footprint counts them,
 * and settling removes the cgroup. */
static void real_hierarchy_counts_the_child(void **state)
{
    (void)state;
    st_job_group g;
    st_backend *b = NULL;
    int go[2], ready[2];
    memset(&g, 0, sizeof g);
    st_lx_group_prepare(&g);
    print_message("where: %s\n", g.where);
    if (!g.active) {
        print_message("no cgroup of its own here: %s\n", g.why);
        skip();
    }
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char c;
        st_lx_group_enter(&g);
        size_t n = (size_t)16 << 20;
        unsigned char *p = malloc(n);
        uint64_t x = 88172645463325252ull;
        for (size_t i = 0; p && i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            p[i] = (unsigned char)x;
        }
        (void)!write(ready[1], "r", 1);
        (void)!read(go[0], &c, 1);
        _exit(p ? 0 : 1);
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    st_lx_group_spawned(&g, (int32_t)pid);
    assert_true(g.active); /* it joined */
    assert_true(g.stat_fd >= 0);
    assert_int_equal(st_platform_native.open(&b, NULL), ST_OK);
    uint64_t v = 0;
    assert_int_equal(st_platform_native.group_footprint(b, &g, &v, NULL), ST_OK);
    print_message("the cgroup counts %llu B\n", (unsigned long long)v);
    assert_true(v >= (uint64_t)16 << 20);
    assert_true(v < (uint64_t)40 << 20);
    assert_int_equal(write(go[1], "g", 1), 1);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    uint64_t peak = 0;
    (void)st_lx_group_settle(&g, 1, &peak);
    assert_false(g.active);
    struct stat sb;
    assert_int_not_equal(stat(g.dir, &sb), 0); /* removed */
    assert_int_equal(g.stat_fd, -1);
    st_platform_native.close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_beside_the_callers_cgroup),
        cmocka_unit_test(outside_the_mount_is_refused),
        cmocka_unit_test(v1_without_hierarchy_makes_none),
        cmocka_unit_test(real_hierarchy_counts_the_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void)
{
    printf("SKIP: test_cgroup_place: Linux cgroups only\n");
    return 0;
}
#endif
