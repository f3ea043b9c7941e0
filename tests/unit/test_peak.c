/* test_peak.c: kernel peaks kept when a launched job's processes are
 * reaped (core/run/peak.c), their names in the summary, and the trace reader's
 * kernel_peak_source.  Real processes: a grandchild maps and fills random
 * bytes, the child waits for it, the test reaps the child through
 * st_peak_reap. */
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
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/peak.h"
#include "stagetop/trace.h"
#include "sizes.h"


static void nap_ms(long ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

/* Reap `which` through st_peak_reap, polling (10 ms) for up to 60 s. */
static pid_t reap_poll(st_job_peak *pk, pid_t which, int *status)
{
    for (int i = 0; i < 6000; i++) {
        pid_t w = st_peak_reap(pk, which, status);
        if (w != 0)
            return w;
        nap_ms(10);
    }
    return 0;
}

/* Map and fill mib MiB with xorshift64 bytes; its getrusage maxrss (bytes). */
static uint64_t touch_random(size_t mib)
{
    size_t n = (mib * MIB) / 8;
    uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull | 1, *p;
    p = mmap(NULL, mib * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        _exit(3);
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = x;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
#if defined(__APPLE__)
    return (uint64_t)ru.ru_maxrss;
#else
    return (uint64_t)ru.ru_maxrss * 1024u;
#endif
}

static void summary_keeps_the_largest_and_its_source(void **state)
{
    (void)state;
    st_summary s;
    st_summary_init(&s);
    assert_false(s.has_kernel_peak);
    st_summary_add_kernel_peak_from(&s, 100, ST_PEAK_SAMPLED);
    assert_string_equal(s.kernel_peak_source, "sampled");
    st_summary_add_kernel_peak_from(&s, 200, ST_PEAK_WAIT4);
    st_summary_add_kernel_peak_from(&s, 150, ST_PEAK_CGROUP); /* smaller: ignored */
    st_summary_add_kernel_peak_from(&s, 200, ST_PEAK_CGROUP); /* equal: the first stays */
    assert_int_equal(s.kernel_peak, 200);
    assert_string_equal(s.kernel_peak_source, "wait4");
    st_summary_add_kernel_peak(&s, 300); /* no source: unknown */
    assert_int_equal(s.kernel_peak, 300);
    assert_string_equal(s.kernel_peak_source, "");
    st_summary_free(&s);

    st_job_peak pk;
    memset(&pk, 0, sizeof pk);
    pk.wait4 = 5 * MIB, pk.has_wait4 = 1;
    pk.cgroup = 9 * MIB, pk.has_cgroup = 1;
    st_summary_init(&s);
    st_summary_add_kernel_peak_from(&s, 7 * MIB, ST_PEAK_SAMPLED);
    st_peak_feed(&pk, &s);
    assert_int_equal(s.kernel_peak, 9 * MIB);
    assert_string_equal(s.kernel_peak_source, "cgroup");
    st_summary_free(&s);
    assert_true(st_peak_source_known("lifetime_max"));
    assert_false(st_peak_source_known("vmhwm"));
    assert_false(st_peak_source_known(NULL));
}

/* The child waits for a grandchild that peaks at 64 MiB: wait4 on the
 * child reports the grandchild's peak (Linux: signal->cmaxrss). */
static void wait4_holds_a_waited_grandchild(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(fds[0]);
        pid_t g = fork();
        if (g == 0) {
            uint64_t own = touch_random(64);
            _exit(write(fds[1], &own, sizeof own) == (ssize_t)sizeof own ? 0 : 4);
        }
        int st;
        _exit(g > 0 && waitpid(g, &st, 0) == g && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 5);
    }
    close(fds[1]);
    uint64_t grand = 0;
    assert_int_equal(read(fds[0], &grand, sizeof grand), (ssize_t)sizeof grand);
    close(fds[0]);
    st_job_peak pk;
    memset(&pk, 0, sizeof pk);
    int status = -1;
    assert_int_equal(reap_poll(&pk, child, &status), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(grand >= 64 * MIB);
    assert_true(pk.has_wait4);
    assert_true(pk.wait4 >= grand); /* the grandchild's own mark, through its parent */
    assert_false(pk.has_lifetime);
    errno = 0;
    assert_int_equal(st_peak_reap(&pk, child, &status), -1);
    assert_int_equal(errno, ECHILD);
}

/* Nothing exited yet: 0, and the child is left alone; a process group. */
static void reap_waits_for_an_exit_and_takes_a_group(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        char c;
        close(fds[1]);
        setpgid(0, 0);
        _exit(read(fds[0], &c, 1) == 0 ? 6 : 7);
    }
    close(fds[0]);
    setpgid(child, child);
    st_job_peak pk;
    memset(&pk, 0, sizeof pk);
    int status = -1;
    assert_int_equal(st_peak_reap(&pk, -child, &status), 0);
    assert_int_equal(kill(child, 0), 0); /* still there */
    close(fds[1]);                         /* EOF: it exits 6 */
    assert_int_equal(reap_poll(&pk, -child, &status), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 6);
    assert_true(pk.has_wait4);
}

/* zombie_peak is asked while the child is still a zombie, then it is reaped. */
typedef struct zfake {
    int calls, was_zombie;
    int32_t pid;
} zfake;
static zfake zf;

static int fake_zombie_peak(st_backend *b, int32_t pid, uint64_t *out, st_error *err)
{
    (void)b;
    (void)err;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    zf.calls++;
    zf.pid = pid;
    zf.was_zombie = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                    si.si_pid == pid;
    *out = 3000 * MIB;
    return ST_OK;
}

static void zombie_peak_is_read_before_reaping(void **state)
{
    (void)state;
    static const st_platform plat = { .name = "fake", .zombie_peak = fake_zombie_peak };
    memset(&zf, 0, sizeof zf);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        _exit(0);
    st_job_peak pk;
    memset(&pk, 0, sizeof pk);
    st_peak_bind(&pk, &plat, (st_backend *)&zf); /* any non-NULL backend */
    int status;
    assert_int_equal(reap_poll(&pk, child, &status), child);
    assert_int_equal(zf.calls, 1);
    assert_int_equal(zf.pid, child);
    assert_true(zf.was_zombie);
    assert_true(pk.has_lifetime);
    assert_int_equal(pk.lifetime, 3000 * MIB);
    assert_int_equal(waitpid(child, NULL, WNOHANG), -1); /* reaped */
}

/* STAGETOP_CGROUP=0 turns the cgroup off; otherwise either a cgroup
 * directory exists (and is removed again) or the reason is given. */
static void cgroup_prepare_is_clean(void **state)
{
    (void)state;
    st_job_peak pk;
    setenv("STAGETOP_CGROUP", "0", 1);
    st_peak_prepare(&pk);
    assert_false(pk.grp.active);
    assert_non_null(strstr(pk.grp.why, "STAGETOP_CGROUP=0"));
    unsetenv("STAGETOP_CGROUP");
    st_peak_prepare(&pk);
    if (pk.grp.active) {
        struct stat sb;
        assert_int_equal(stat(pk.grp.dir, &sb), 0);
        st_peak_discard(&pk);
        assert_int_not_equal(stat(pk.grp.dir, &sb), 0);
    } else {
        print_message("no cgroup: %s\n", pk.grp.why);
        assert_true(pk.grp.why[0] != '\0');
    }
    st_peak_finish(&pk); /* nothing left: a no-op */
    assert_false(pk.has_cgroup);
}

static int load_str(const char *s, st_trace *t, st_error *e)
{
    return st_trace_load_mem(s, strlen(s), t, e);
}

static void reader_takes_the_source_and_old_traces(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    assert_int_equal(load_str("{\"type\":\"start\"}\n{\"type\":\"sample\",\"t\":0,\"footprint\":5}\n"
                              "{\"type\":\"end\",\"summary\":{\"kernel_peak_source\":\"wait4\","
                              "\"kernel_peak\":1073741824}}\n",
                              &t, &e),
                     ST_OK);
    assert_int_equal(t.summary.kernel_peak, 1073741824);
    assert_string_equal(t.summary.kernel_peak_source, "wait4");
    st_trace_free(&t);
    assert_int_equal(load_str("{\"type\":\"start\"}\n{\"type\":\"end\",\"summary\":{\"kernel_peak\":7}}\n",
                              &t, &e),
                     ST_OK);
    assert_int_equal(t.summary.kernel_peak, 7);
    assert_string_equal(t.summary.kernel_peak_source, ""); /* an older trace: unknown */
    st_trace_free(&t);
    assert_int_equal(load_str("{\"type\":\"start\"}\n{\"type\":\"end\",\"summary\":"
                              "{\"kernel_peak\":null,\"kernel_peak_source\":null}}\n",
                              &t, &e),
                     ST_OK);
    assert_false(t.summary.has_kernel_peak);
    st_trace_free(&t);
    assert_int_equal(load_str("{\"type\":\"start\"}\n{\"type\":\"end\",\"summary\":"
                              "{\"kernel_peak\":7,\"kernel_peak_source\":3}}\n",
                              &t, &e),
                     ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 2"));
    assert_non_null(strstr(e.msg, "kernel_peak_source"));
    st_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_keeps_the_largest_and_its_source),
        cmocka_unit_test(wait4_holds_a_waited_grandchild),
        cmocka_unit_test(reap_waits_for_an_exit_and_takes_a_group),
        cmocka_unit_test(zombie_peak_is_read_before_reaping),
        cmocka_unit_test(cgroup_prepare_is_clean),
        cmocka_unit_test(reader_takes_the_source_and_old_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
