/* test_cgroup_place.c: the launched job's cgroup is never made outside the
 * cgroup stagetop runs in (issue 21 item 1; core/platform/linux_cgroup.c).
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
#include <sys/stat.h>
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_beside_the_callers_cgroup),
        cmocka_unit_test(outside_the_mount_is_refused),
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
