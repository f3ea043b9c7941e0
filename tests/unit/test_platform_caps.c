/* test_platform_caps: what the core used to decide by #if or by reading
 * /proc itself now comes from the platform table (platform.h): the Linux
 * backend's proc_name and thread_group on real processes and threads, and
 * the wait4 unit (maxrss_in_bytes) that core/run/peak.c applies, and the
 * subreaper that st_job_spawn asks of it (become_subreaper). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "stagetop/peak.h"
#include "stagetop/platform.h"

#include "sizes.h"

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static void names_come_from_the_backend(void **state)
{
    (void)state;
    const st_platform *p = &st_platform_native;
    st_backend *b = NULL;
    char name[64];
    st_error e;
    assert_non_null(p->proc_name);
    assert_int_equal(p->open(&b, &e), ST_OK);
    assert_int_equal(prctl(PR_SET_NAME, "caps-name-42", 0, 0, 0), 0);
    assert_int_equal(p->proc_name(b, (int32_t)getpid(), name, sizeof name, &e), ST_OK);
    assert_string_equal(name, "caps-name-42");
    /* a reaped child's pid names nothing */
    pid_t c = fork();
    if (c == 0)
        _exit(0);
    assert_int_equal(waitpid(c, NULL, 0), c);
    assert_int_equal(p->proc_name(b, (int32_t)c, name, sizeof name, &e), ST_ESRCH);
    assert_string_equal(name, "");
    p->close(b);
}

static void *thread_tid(void *arg)
{
    volatile int32_t *tid = arg;
    *tid = (int32_t)syscall(SYS_gettid);
    while (*tid != 0)
        sleep_ms(5);
    return NULL;
}

static void a_thread_belongs_to_its_process(void **state)
{
    (void)state;
    const st_platform *p = &st_platform_native;
    st_backend *b = NULL;
    st_error e;
    int32_t g = 0;
    assert_non_null(p->thread_group);
    assert_int_equal(p->open(&b, &e), ST_OK);
    assert_int_equal(p->thread_group(b, (int32_t)getpid(), &g, &e), ST_OK);
    assert_int_equal(g, (int32_t)getpid());
    volatile int32_t tid = 0;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, thread_tid, (void *)&tid), 0);
    for (int i = 0; i < 500 && tid == 0; i++)
        sleep_ms(10);
    int32_t t = tid;
    int rc = p->thread_group(b, t, &g, &e);
    tid = 0;
    pthread_join(th, NULL);
    assert_true(t > 0 && t != (int32_t)getpid());
    assert_int_equal(rc, ST_OK);
    assert_int_equal(g, (int32_t)getpid());
    p->close(b);
}

/* A child that touches 64 MiB of random bytes, reaped through peak.c with
 * plat; returns the wait4 mark. */
static uint64_t wait4_mark(const st_platform *plat)
{
    pid_t c = fork();
    assert_true(c >= 0);
    if (c == 0) {
        size_t n = (size_t)(64 * MIB);
        unsigned char *m = malloc(n);
        unsigned x = (unsigned)getpid() * 2654435761u;
        if (!m)
            _exit(1);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            m[i] = (unsigned char)(x >> 16);
        }
        _exit(m[n / 2] == 7 ? 3 : 0);
    }
    st_job_peak pk;
    memset(&pk, 0, sizeof pk);
    st_peak_bind(&pk, plat, NULL);
    int status = 0;
    pid_t w = 0;
    for (int i = 0; i < 3000 && w == 0; i++) {
        w = st_peak_reap(&pk, c, &status);
        if (w == 0)
            sleep_ms(10);
    }
    assert_int_equal(w, c);
    assert_true(pk.has_wait4);
    return pk.wait4;
}

static void the_wait4_unit_is_the_tables(void **state)
{
    (void)state;
    static const st_platform kib = { .name = "kib" };
    static const st_platform bytes = { .name = "bytes", .maxrss_in_bytes = 1 };
    assert_int_equal(st_platform_native.maxrss_in_bytes, 0); /* Linux: KiB */
    uint64_t as_kib = wait4_mark(&kib), as_bytes = wait4_mark(&bytes);
    assert_true(as_kib >= 64 * MIB);
    /* the same kernel number, taken as bytes: a KiB count, 1/1024 of it */
    assert_true(as_bytes >= 64 * 1024 && as_bytes < 64 * MIB / 16);
}

/* Linux's table makes the caller a child subreaper (in a child of the
 * test, which is not one before): prctl(PR_GET_CHILD_SUBREAPER) says so,
 * and an orphan of its own child re-parents to it. */
static void the_subreaper_is_the_backends(void **state)
{
    (void)state;
    assert_non_null(st_platform_native.become_subreaper);
    pid_t c = fork();
    assert_true(c >= 0);
    if (c == 0) {
        int was = -1, now = -1;
        if (prctl(PR_GET_CHILD_SUBREAPER, &was) != 0 || was != 0)
            _exit(10);
        if (st_platform_native.become_subreaper() != 1)
            _exit(11);
        if (prctl(PR_GET_CHILD_SUBREAPER, &now) != 0 || now != 1)
            _exit(12);
        int fds[2];
        if (pipe(fds) != 0)
            _exit(13);
        pid_t mid = fork();
        if (mid == 0) { /* leaves an orphan behind, then exits */
            pid_t g = fork();
            if (g == 0) {
                char b;
                close(fds[1]);
                _exit(read(fds[0], &b, 1) == 0 ? 0 : 1);
            }
            _exit(g > 0 ? 0 : 1);
        }
        close(fds[0]);
        int st = 0;
        if (mid < 0 || waitpid(mid, &st, 0) != mid || st != 0)
            _exit(14);
        close(fds[1]); /* the orphan ends: it must be ours to reap */
        _exit(waitpid(-1, &st, 0) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 15);
    }
    int st = 0;
    assert_int_equal(waitpid(c, &st, 0), c);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_come_from_the_backend),
        cmocka_unit_test(a_thread_belongs_to_its_process),
        cmocka_unit_test(the_wait4_unit_is_the_tables),
        cmocka_unit_test(the_subreaper_is_the_backends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
