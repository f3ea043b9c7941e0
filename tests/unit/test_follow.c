/* test_follow.c: following --events (core/run/follow.c) on hostile files: a
 * device is refused, a FIFO is read, a poll takes at most 1 MiB of an
 * endless file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stagetop/follow.h"
#include "tmpdir.h"

static void count_ev(void *ctx, const st_event *ev)
{
    (void)ev;
    (*(size_t *)ctx)++;
}

static void follow_refuses_devices(void **state)
{
    (void)state;
    st_follow f;
    st_error e;
    assert_int_equal(st_follow_open(&f, "/dev/zero", &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "character device"));
    assert_int_equal(st_follow_open(&f, "/tmp", &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "directory"));
}

static void follow_reads_a_fifo(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/events.fifo", (char *)*state);
    assert_int_equal(mkfifo(path, 0600), 0);
    st_follow f;
    st_error e;
    size_t n = 0;
    assert_int_equal(st_follow_open(&f, path, &e), ST_OK);
    assert_int_equal(st_follow_poll(&f, 1.0, count_ev, &n, &e), 0); /* no writer yet */
    int w = open(path, O_WRONLY | O_NONBLOCK);
    assert_true(w >= 0);
    const char *lines = "{\"type\":\"event\",\"kind\":\"mark\",\"t\":0.5,\"note\":\"a\"}\n"
                        "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"b\",\"t\":0.7}\n";
    assert_int_equal(write(w, lines, strlen(lines)), (ssize_t)strlen(lines));
    int rc = st_follow_poll(&f, 2.0, count_ev, &n, &e);
    if (rc < 0)
        fail_msg("poll: %s", e.msg);
    assert_int_equal(n, 2);
    close(w);
    assert_int_equal(st_follow_poll(&f, 3.0, count_ev, &n, &e), 0); /* writer gone: EOF, no error */
    st_follow_close(&f);
}

static void follow_poll_is_bounded(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/big.jsonl", (char *)*state);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    size_t lines = 0, bytes = 0;
    while (bytes < (5u << 20)) { /* 5 MiB of marks */
        int k = fprintf(fp, "{\"type\":\"event\",\"kind\":\"mark\",\"t\":%zu.000,\"note\":\"m%zu\"}\n",
                        lines, lines);
        bytes += (size_t)k;
        lines++;
    }
    fclose(fp);
    st_follow f;
    st_error e;
    size_t n = 0;
    int polls = 0;
    assert_int_equal(st_follow_open(&f, path, &e), ST_OK);
    while (n < lines) {
        off_t before = f.off;
        assert_true(st_follow_poll(&f, 1e6, count_ev, &n, &e) >= 0);
        assert_true(f.off - before <= (2 << 20)); /* 1 MiB and the last read's chunk */
        assert_true(f.off > before);
        assert_true(++polls < 100);
    }
    assert_true(polls >= 4);
    assert_int_equal(n, lines);
    st_follow_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(follow_refuses_devices),
        cmocka_unit_test_setup_teardown(follow_reads_a_fifo, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(follow_poll_is_bounded, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
