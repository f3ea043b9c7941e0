/* test_lanes_real: the tree's cpu and pageins lanes (core/run/tree_rates.c
 * over the Linux backend) against REAL processes that the test forks.  The
 * expected numbers are the processes' own readings (getrusage in the child,
 * sent through a pipe), never the output.  The test samples at real times
 * (the lanes are rates), waiting on the children's pipe messages. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/lanes.h"
#include "stagetop/platform.h"
#include "stagetop/tree.h"

#define P (&st_platform_native)

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double own_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static void pause_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Sample t at now; the CPU and page-ins it adds (rate x interval). */
typedef struct acc {
    double last, cpu_s, faults;
    st_sample s;
} acc;

static void sample(st_tree *t, acc *a)
{
    double now = mono();
    memset(&a->s, 0, sizeof a->s);
    assert_int_equal(st_tree_sample(t, now, &a->s, NULL), ST_OK);
    if (st_sample_has(&a->s, ST_F_CPU | ST_F_PAGEINS)) {
        a->cpu_s += a->s.cpu_c / 10000.0 * (now - a->last);
        a->faults += a->s.pageins_c / 100.0 * (now - a->last);
    }
    a->last = now;
}

/* Sample every usec microseconds until the child's answer is on fd. */
static void sample_until_readable(st_tree *t, acc *a, int fd, long usec)
{
    for (;;) {
        struct timeval tv = {0, usec};
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(fd, &rd);
        if (select(fd + 1, &rd, NULL, NULL, &tv) > 0)
            return;
        sample(t, a);
    }
}

/* Watch the child pid as a tree of its own: sample until its answer (n
 * bytes) is on fd, read it into out, then sample once more.  go (-1: none)
 * gets a byte once the first sample is taken: a child that waits for it
 * does nothing the base reading could already hold. */
static void watch_child(st_tree *t, st_backend **b, acc *a, pid_t pid, int fd, int go, long usec,
                        void *out, size_t n)
{
    assert_int_equal(P->open(b, NULL), ST_OK);
    assert_int_equal(st_tree_init(t, P, *b, pid, 0, NULL), ST_OK);
    a->last = mono();
    sample(t, a);
    if (go >= 0)
        assert_int_equal(write(go, "g", 1), 1);
    sample_until_readable(t, a, fd, usec);
    assert_int_equal(read(fd, out, n), (ssize_t)n);
    sample(t, a);
}

/* Busy on one core for 1.5 s of CPU, then asleep: the lane reads the
 * child's own CPU while busy (100 on an idle core; less when the machine is
 * shared, and then exactly what the child got) and ~0 asleep. */
static void cpu_busy_then_asleep(void **state)
{
    int fd[2];
    pid_t pid;
    st_backend *b;
    st_tree t;
    acc a = {0};
    double got = 0, asleep_max = 0;
    (void)state;
    assert_int_equal(pipe(fd), 0);
    if ((pid = fork()) == 0) {
        /* busy until it has had 1.5 s of CPU (3 s on an idle core would
         * give a loaded machine's child too little to measure), 60 s at most */
        double end = mono() + 60.0, used;
        close(fd[0]);
        while (own_cpu_s() < 1.5 && mono() < end)
            ;
        used = own_cpu_s();
        if (write(fd[1], &used, sizeof used) != (ssize_t)sizeof used)
            _exit(1);
        for (;;)
            pause();
    }
    close(fd[1]);
    assert_int_equal(P->open(&b, NULL), ST_OK);
    assert_int_equal(st_tree_init(&t, P, b, pid, 0, NULL), ST_OK);
    a.last = mono();
    sample(&t, &a); /* the base: no rate yet */
    assert_false(st_sample_has(&a.s, ST_F_CPU));
    for (;;) { /* until the child says it is done */
        struct timeval tv = {0, 250000};
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(fd[0], &rd);
        if (select(fd[0] + 1, &rd, NULL, NULL, &tv) > 0)
            break;
        sample(&t, &a);
        printf("# busy: cpu %.2f\n", a.s.cpu_c / 100.0);
    }
    assert_int_equal(read(fd[0], &got, sizeof got), (ssize_t)sizeof got);
    sample(&t, &a); /* the rest of the busy time */
    /* All of the child's CPU is counted (the lane's integral), within 5%. */
    printf("# lane integral %.3f s, child's own %.3f s\n", a.cpu_s, got);
    assert_true(got > 0.5);
    assert_true(a.cpu_s > got * 0.95 && a.cpu_s < got * 1.05 + 0.02);
    for (int i = 0; i < 6; i++) { /* asleep */
        pause_s(0.25);
        sample(&t, &a);
        printf("# asleep: cpu %.2f\n", a.s.cpu_c / 100.0);
        if (a.s.cpu_c / 100.0 > asleep_max)
            asleep_max = a.s.cpu_c / 100.0;
    }
    assert_true(asleep_max < 2.0);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    st_tree_free(&t);
    P->close(b);
    close(fd[0]);
}

/* A child that burns CPU and is reaped by the root between two samples
 * (never seen itself), and one that is seen and then reaped: both counted
 * once, through the root's reaped-children counters. */
static void reaped_children_counted_once(void **state)
{
    int fd[2];
    pid_t pid;
    st_backend *b;
    st_tree t;
    acc a = {0};
    double got = 0;
    (void)state;
    assert_int_equal(pipe(fd), 0);
    if ((pid = fork()) == 0) {
        struct rusage ru;
        double used;
        close(fd[0]);
        for (int k = 0; k < 2; k++) {
            pid_t c = fork();
            if (c == 0) {
                /* CPU time, not wall time: on a loaded machine 1.8 s of
                 * wall clock gave the children 0.33 s of CPU */
                double end = own_cpu_s() + (k == 0 ? 0.3 : 1.5);
                while (own_cpu_s() < end)
                    ;
                _exit(0);
            }
            waitpid(c, NULL, 0);
        }
        getrusage(RUSAGE_CHILDREN, &ru);
        used = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec / 1e6 + own_cpu_s();
        if (write(fd[1], &used, sizeof used) != (ssize_t)sizeof used)
            _exit(1);
        for (;;)
            pause();
    }
    close(fd[1]);
    watch_child(&t, &b, &a, pid, fd[0], -1, 500000, &got, sizeof got);
    printf("# lane integral %.3f s, the tree's own %.3f s\n", a.cpu_s, got);
    assert_true(got > 0.5);
    assert_true(a.cpu_s > got * 0.95 && a.cpu_s < got * 1.05 + 0.02);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    st_tree_free(&t);
    P->close(b);
    close(fd[0]);
}

#define FILE_MIB 128

/* A child faults in a 128 MiB file of random bytes page by page, its page
 * cache dropped (posix_fadvise DONTNEED after fsync) and MADV_RANDOM (no
 * read-ahead): the lane counts its own ru_majflt within 3%. */
static void pageins_match_majflt(void **state)
{
    char path[] = "/tmp/st-lanes-XXXXXX";
    int fd[2], gofd[2], f;
    pid_t pid;
    st_backend *b;
    st_tree t;
    acc a = {0};
    long got = 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    static uint64_t buf[1 << 16];
    (void)state;
    f = mkstemp(path);
    assert_true(f >= 0);
    for (int i = 0; i < FILE_MIB * 2; i++) { /* random bytes, not zeros */
        for (size_t k = 0; k < sizeof buf / sizeof buf[0]; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[k] = x;
        }
        assert_int_equal(write(f, buf, sizeof buf), (ssize_t)sizeof buf);
    }
    assert_int_equal(fsync(f), 0);
    assert_int_equal(posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED), 0);
    assert_int_equal(pipe(fd), 0);
    assert_int_equal(pipe(gofd), 0);
    if ((pid = fork()) == 0) {
        struct rusage r0, r1;
        char g;
        size_t len = (size_t)FILE_MIB << 20;
        long ps = sysconf(_SC_PAGESIZE), faults;
        volatile unsigned char sum = 0;
        unsigned char *m = mmap(NULL, len, PROT_READ, MAP_SHARED, f, 0);
        close(fd[0]);
        close(gofd[1]);
        if (m == MAP_FAILED || madvise(m, len, MADV_RANDOM) != 0)
            _exit(1);
        /* no fault before the tree's base reading: the total counts from it
         * (under load a fault before it was once missing from the total) */
        if (read(gofd[0], &g, 1) != 1)
            _exit(1);
        getrusage(RUSAGE_SELF, &r0);
        for (size_t off = 0; off < len; off += (size_t)ps)
            sum += m[off];
        getrusage(RUSAGE_SELF, &r1);
        faults = r1.ru_majflt - r0.ru_majflt; /* all of its own since the go */
        if (write(fd[1], &faults, sizeof faults) != (ssize_t)sizeof faults)
            _exit(1);
        for (;;)
            pause();
    }
    close(fd[1]);
    close(gofd[0]);
    watch_child(&t, &b, &a, pid, fd[0], gofd[1], 200000, &got, sizeof got);
    close(gofd[1]);
    printf("# lane integral %.0f page-ins, the child's own majflt %ld, pages %d\n", a.faults, got,
           FILE_MIB * 256);
    assert_true(got > FILE_MIB * 256 / 2); /* the cache was dropped: most pages came from disk */
    assert_true(a.faults > got * 0.97 && a.faults < got * 1.03);
    assert_int_equal(t.rates.total_majflt, (uint64_t)got); /* the counter itself, exactly */
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    st_tree_free(&t);
    P->close(b);
    close(fd[0]);
    close(f);
    unlink(path);
}

/* The Mac's system lanes are not faked here: Linux's reading of this
 * machine holds no gpu_system (the lane is absent), whatever the GPU. */
static void no_gpu_system_on_linux(void **state)
{
    st_backend *b = NULL;
    st_sys_mem m;
    (void)state;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    assert_int_equal(P->read_system(b, &m, NULL), ST_OK);
    assert_true(m.valid & ST_SYS_MEMTOTAL); /* a real reading */
    assert_false(m.valid & ST_SYS_GPU_SYSTEM);
    assert_true(m.gpu_system == 0);
    st_sample s;
    memset(&s, 0, sizeof s);
    st_lanes_from_sys(&s, &m);
    assert_false(s.valid & ST_F_GPU_SYSTEM);
    P->close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_busy_then_asleep),
        cmocka_unit_test(reaped_children_counted_once),
        cmocka_unit_test(pageins_match_majflt),
        cmocka_unit_test(no_gpu_system_on_linux),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
