/* SVG plot (core/plot_*.c), the files it writes: the empty-trace error,
 * write failures that leave nothing behind, atomic replacement of a file
 * or a symlink (the drawing itself: test_plot.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stagetop/plot.h"
#include "plotcheck.h"

static void plot_empty_trace_is_an_error(void **state)
{
    (void)state;
    char path[512];
    st_error err;
    struct stat sb;
    st_trace *t = trace_new(0);
    stage_add(t, 1, "encode");
    snprintf(path, sizeof path, "%s/empty.svg", g_dir);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_EINVAL);
    assert_non_null(strstr(err.msg, "no samples"));
    assert_int_equal(stat(path, &sb), -1);
    assert_int_equal(stray_temps(), 0);
    /* samples that hold none of the drawn fields count as none */
    trace_del(t);
    t = trace_new(3);
    t->samples[1].valid = ST_F_PROCS;
    t->samples[1].procs = 3;
    assert_int_equal(st_plot_svg(t, NULL, stderr, &err), ST_EINVAL);
    assert_int_equal(st_plot_svg(NULL, NULL, stderr, &err), ST_EINVAL);
    trace_del(t);
}

static void plot_write_failures_leave_nothing(void **state)
{
    (void)state;
    char path[512];
    st_error err;
    struct stat sb;
    st_trace *t = trace_typical();
    /* the target is a directory: the rename fails, the temp file goes */
    snprintf(path, sizeof path, "%s/adir", g_dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_EIO);
    assert_non_null(strstr(err.msg, "adir"));
    assert_int_equal(stat(path, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(stray_temps(), 0);
    /* no such directory */
    snprintf(path, sizeof path, "%s/nodir/x.svg", g_dir);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_EIO);
    assert_int_equal(err.sys_errno, ENOENT);
    /* the disk fills up mid-write (a file size limit in a child) */
    snprintf(path, sizeof path, "%s/big.svg", g_dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {2000, 2000};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(90);
        int rc = st_plot_svg_file(t, NULL, path, &err);
        _exit(rc == ST_EIO && err.sys_errno == EFBIG ? 0 : 91);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(stat(path, &sb), -1);
    assert_int_equal(stray_temps(), 0);
    /* a stream that cannot be written */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        assert_int_equal(st_plot_svg(t, NULL, full, &err), ST_EIO);
        assert_int_equal(err.sys_errno, ENOSPC);
        fclose(full);
    }
    trace_del(t);
}

static void plot_replaces_atomically(void **state)
{
    (void)state;
    char path[512], target[512];
    st_error err;
    struct stat sb;
    st_trace *t = trace_typical();
    snprintf(path, sizeof path, "%s/old.svg", g_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old contents that are much longer than nothing at all", f);
    fclose(f);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_OK);
    char *svg = slurp(path, NULL);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
    assert_null(strstr(svg, "old contents"));
    free(svg);
    /* a symlink at the path is replaced, its target untouched */
    snprintf(target, sizeof target, "%s/target.txt", g_dir);
    f = fopen(target, "w");
    assert_non_null(f);
    fputs("keep", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/link.svg", g_dir);
    assert_int_equal(symlink(target, path), 0);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_OK);
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    svg = slurp(target, NULL);
    assert_string_equal(svg, "keep");
    free(svg);
    assert_int_equal(stray_temps(), 0);
    trace_del(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plot_empty_trace_is_an_error),
        cmocka_unit_test(plot_write_failures_leave_nothing),
        cmocka_unit_test(plot_replaces_atomically),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
