/* test_atomic_targets.c: the atomic writer on targets that are not regular
 * files (issue 21 item 2; core/atomic_file.c).  A FIFO, a character device
 * (made with mknod in a temporary directory: the system's /dev/null and
 * /dev/full are never touched), a symlink to /proc/self/fd/N and "-" are
 * written in place and stay what they were; a device that refuses the
 * bytes (full) is an error; a directory is refused before anything is
 * made; a regular file (and a symlink to one) is still replaced by rename. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stagetop/atomic_file.h"
#include "tmpdir.h"

static const char *dir; /* this test's directory (tests/tmpdir.h) */

static int setup(void **state)
{
    if (setup_dir(state) != 0)
        return -1;
    dir = *state;
    return 0;
}

/* How many entries dir holds (a temporary file left would show). */
static int entries(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

/* A FIFO with a reader: the bytes reach the reader, the FIFO stays a FIFO. */
static void fifo_is_written_in_place(void **state)
{
    (void)state;
    char fifo[128], got[128];
    st_error e;
    struct stat sb;
    snprintf(fifo, sizeof fifo, "%s/f", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    /* nothing reads it: refused after a bounded wait, not blocked for ever */
    assert_int_not_equal(st_atomic_write(fifo, "x\n", 2, ST_ATOMIC_SYNC, &e), ST_OK);
    assert_non_null(strstr(e.msg, "nothing read within"));
    int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(rfd >= 0);
    assert_int_equal(st_atomic_write(fifo, "hello fifo\n", 11, ST_ATOMIC_SYNC, &e), ST_OK);
    ssize_t n = read(rfd, got, sizeof got - 1);
    assert_int_equal(n, 11);
    got[n] = '\0';
    assert_string_equal(got, "hello fifo\n");
    close(rfd);
    assert_int_equal(lstat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_int_equal(entries(), 1);
    assert_int_equal(st_atomic_check(fifo, &e), ST_OK);
}

/* Character devices (null and full, made here): null takes the bytes and
 * stays a device; full fails with ENOSPC and stays a device. */
static void devices_are_written_in_place(void **state)
{
    (void)state;
    char null[128], full[128];
    st_error e;
    struct stat sb;
    if (geteuid() != 0) {
        skip(); /* mknod of a character device needs root */
        return;
    }
    snprintf(null, sizeof null, "%s/null", dir);
    snprintf(full, sizeof full, "%s/full", dir);
    assert_int_equal(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
    assert_int_equal(mknod(full, S_IFCHR | 0666, makedev(1, 7)), 0);
    assert_int_equal(st_atomic_write(null, "abc\n", 4, ST_ATOMIC_SYNC, &e), ST_OK);
    assert_int_not_equal(st_atomic_write(full, "abc\n", 4, ST_ATOMIC_SYNC, &e), ST_OK);
    assert_int_equal(e.sys_errno, ENOSPC);
    assert_int_equal(lstat(null, &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    assert_int_equal(lstat(full, &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    assert_int_equal(entries(), 2);
}

/* A symlink to /proc/self/fd/N (a pipe here): written through, the link
 * stays; a symlink to a regular file is replaced, its target untouched. */
static void links_to_fds_are_written_through(void **state)
{
    (void)state;
    char link[128], target[128], other[128], got[64];
    int p[2];
    st_error e;
    struct stat sb;
    assert_int_equal(pipe(p), 0);
    snprintf(link, sizeof link, "%s/out", dir);
    snprintf(target, sizeof target, "/proc/self/fd/%d", p[1]);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(st_atomic_write(link, "piped\n", 6, 0, &e), ST_OK);
    close(p[1]);
    ssize_t n = read(p[0], got, sizeof got - 1);
    close(p[0]);
    assert_int_equal(n, 6);
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    unlink(link);

    snprintf(other, sizeof other, "%s/other", dir);
    FILE *f = fopen(other, "w");
    assert_non_null(f);
    fputs("keep\n", f);
    fclose(f);
    assert_int_equal(symlink(other, link), 0);
    assert_int_equal(st_atomic_write(link, "new\n", 4, 0, &e), ST_OK);
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISREG(sb.st_mode)); /* replaced by the new file */
    f = fopen(other, "r");
    assert_non_null(fgets(got, sizeof got, f));
    fclose(f);
    assert_string_equal(got, "keep\n");
    unlink(link);
    unlink(other);
}

/* "-": stdout, here a pipe put on fd 1 for the call. */
static void dash_is_stdout(void **state)
{
    (void)state;
    int p[2], saved = dup(STDOUT_FILENO);
    char got[32];
    st_error e;
    assert_int_equal(pipe(p), 0);
    fflush(stdout);
    dup2(p[1], STDOUT_FILENO);
    close(p[1]);
    int rc = st_atomic_write("-", "to stdout\n", 10, ST_ATOMIC_SYNC, &e);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    assert_int_equal(rc, ST_OK);
    ssize_t n = read(p[0], got, sizeof got);
    close(p[0]);
    assert_int_equal(n, 10);
    assert_int_equal(entries(), 0);
}

/* A directory: refused before anything is made, by the writer and the check. */
static void directory_is_refused(void **state)
{
    (void)state;
    char sub[128];
    st_error e;
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(st_atomic_write(sub, "x", 1, 0, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "is a directory"));
    assert_int_equal(st_atomic_check(sub, &e), ST_EIO);
    assert_int_equal(entries(), 1);
    rmdir(sub);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fifo_is_written_in_place, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(devices_are_written_in_place, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(links_to_fds_are_written_through, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(dash_is_stdout, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(directory_is_refused, setup, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
