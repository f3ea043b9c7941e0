/* test_darwin_sync.c: --record-sync on macOS.  core/fd_sync.c is built here
 * with F_FULLFSYNC defined (51, Apple's <sys/fcntl.h>) and fcntl/fsync
 * turned into the recorders below (mk/darwin.mk), then a real recorder
 * (--record-sync always) writes a trace to a real file: each sync must ask
 * for F_FULLFSYNC on that file, and fall back to fsync where the file
 * system refuses it (fcntl(2): only HFS, FAT and UDF are named). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stagetop/sample.h"
#include "stagetop/trace.h"

int st_fake_fcntl(int fd, int cmd, ...);
int st_fake_fsync(int fd);

static struct {
    int full, full_fd, fsyncs, refuse; /* refuse: F_FULLFSYNC fails ENOTSUP */
} S;

int st_fake_fcntl(int fd, int cmd, ...)
{
    if (cmd != 51) {
        errno = EINVAL;
        return -1;
    }
    S.full++;
    S.full_fd = fd;
    if (S.refuse) {
        errno = ENOTSUP;
        return -1;
    }
    return fsync(fd); /* the real one: the data does go out */
}

int st_fake_fsync(int fd)
{
    S.fsyncs++;
    return fsync(fd);
}

static void record_two(const char *dir, int refuse)
{
    char path[512];
    st_recorder *r = NULL;
    st_error err;
    st_trace_meta meta;
    st_sample s;
    struct stat st;

    memset(&S, 0, sizeof S);
    S.refuse = refuse;
    snprintf(path, sizeof path, "%s/rec%d.jsonl", dir, refuse);
    memset(&meta, 0, sizeof meta);
    assert_int_equal(st_recorder_open(&r, path, -1, 0, &err), ST_OK);
    st_recorder_set_sync(r, ST_REC_SYNC_ALWAYS);
    assert_int_equal(st_recorder_start(r, &meta, &err), ST_OK);
    memset(&s, 0, sizeof s);
    s.t_ms = 500;
    s.footprint = 123456789;
    s.valid = ST_F_FOOTPRINT;
    assert_int_equal(st_recorder_sample(r, &s, &err), ST_OK);
    s.t_ms = 1000;
    assert_int_equal(st_recorder_sample(r, &s, &err), ST_OK);
    assert_true(st_recorder_syncs(r) >= 2);
    assert_true(S.full >= 2);               /* asked for every sync */
    assert_true(S.full_fd > 2);             /* on the trace's own descriptor */
    if (refuse)
        assert_true(S.fsyncs >= S.full);    /* then fsync, each time */
    else
        assert_int_equal(S.fsyncs, 0);      /* F_FULLFSYNC alone */
    st_recorder_close(r);
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size > 0);
}

static void fullfsync_each_sync(void **state)
{
    (void)state;
    char dir[] = "/tmp/st-sync-XXXXXX";
    assert_non_null(mkdtemp(dir));
    record_two(dir, 0);
    record_two(dir, 1);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(fullfsync_each_sync)};
    return cmocka_run_group_tests_name("--record-sync on macOS (F_FULLFSYNC)", tests, NULL, NULL);
}
