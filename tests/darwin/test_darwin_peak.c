/* test_darwin_peak.c: the macOS zombie peak (platform zombie_peak, read by
 * core/run/peak.c between waitid(WNOWAIT) and wait4) in the REAL
 * core/platform/platform_darwin.c over the scripted kernel of fake_darwin.c.  The
 * last test reaps a real child through st_peak_reap, with the fake answering
 * for that pid only while the real child is an unreaped zombie (knob
 * real_zombies), so reading after reaping would fail the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_darwin.h"
#include "stagetop/peak.h"
#include "stagetop/platform.h"

#define T0 1700000000000000ull
#define SEC 1000000ull
#include "../sizes.h"

static const st_platform *const P = &st_platform_native;

static st_backend *open_backend(void)
{
    st_backend *b = NULL;
    st_error e;
    assert_int_equal(P->open(&b, &e), ST_OK);
    return b;
}

static void reads_a_zombie_lifetime_peak(void **state)
{
    (void)state;
    fake_darwin_reset();
    fake_proc *z = fake_darwin_add(700, 1, T0, "python3");
    z->footprint = 5 * GIB;
    z->peak = 3 * GIB + 4096;
    z->zombie = 1; /* exited, not reaped: its footprint reads 0 */
    st_backend *b = open_backend();
    uint64_t v = 0;
    st_error e;
    assert_non_null(P->zombie_peak);
    assert_int_equal(P->zombie_peak(b, 700, &v, &e), ST_OK);
    assert_int_equal(v, 3 * GIB + 4096);
    assert_int_equal(fake_darwin_knobs_get()->rusage_v4, 1);
    assert_int_equal(P->zombie_peak(b, 701, &v, &e), ST_ESRCH); /* no such pid */
    assert_int_equal(P->zombie_peak(b, 0, &v, &e), ST_ESRCH);
    P->close(b);
    fake_darwin_free();
}

/* A kernel without RUSAGE_INFO_V4 has no lifetime peak: ST_ENOTSUP, both
 * when V4 is refused by this call and after read_proc fell back to V2. */
static void no_v4_no_zombie_peak(void **state)
{
    (void)state;
    fake_darwin_reset();
    fake_darwin_knobs_get()->v4_refused = 1;
    fake_proc *z = fake_darwin_add(700, 1, T0, "python3");
    z->peak = GIB;
    z->zombie = 1;
    fake_proc *live = fake_darwin_add(710, 1, T0 + SEC, "worker");
    live->footprint = live->peak = GIB;
    st_backend *b = open_backend();
    uint64_t v = 0;
    st_error e;
    assert_int_equal(P->zombie_peak(b, 700, &v, &e), ST_ENOTSUP);
    st_proc_mem m;
    assert_int_equal(P->read_proc(b, (st_proc_id){710, T0 + SEC}, &m, &e), ST_OK);
    assert_false(m.valid & ST_PM_PEAK); /* V2 now */
    unsigned v4 = fake_darwin_knobs_get()->rusage_v4;
    assert_int_equal(P->zombie_peak(b, 700, &v, &e), ST_ENOTSUP);
    assert_int_equal(fake_darwin_knobs_get()->rusage_v4, v4); /* not even asked */
    P->close(b);
    fake_darwin_free();
}

/* core/run/peak.c reads the zombie's peak before it reaps it. */
static void reap_reads_the_zombie_first(void **state)
{
    (void)state;
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        _exit(0);
    fake_darwin_reset();
    fake_darwin_knobs_get()->real_zombies = 1;
    fake_proc *z = fake_darwin_add((int32_t)child, (int32_t)getpid(), T0, "job");
    z->peak = 7 * GIB;
    z->zombie = 1;
    st_backend *b = open_backend();
    st_job_peak pk;
    memset(&pk, 0, sizeof pk);
    st_peak_bind(&pk, P, b);
    int status = -1;
    pid_t w = 0;
    for (int i = 0; i < 6000 && w == 0; i++) { /* until it has exited: 60 s */
        w = st_peak_reap(&pk, child, &status);
        if (w == 0)
            usleep(10000);
    }
    assert_int_equal(w, child);
    assert_true(WIFEXITED(status));
    assert_true(pk.has_lifetime);
    assert_int_equal(pk.lifetime, 7 * GIB);
    assert_true(pk.has_wait4); /* the real wait4's ru_maxrss */
    uint64_t v;
    st_error e;
    assert_int_equal(P->zombie_peak(b, (int32_t)child, &v, &e), ST_ESRCH); /* reaped: gone */
    P->close(b);
    fake_darwin_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_a_zombie_lifetime_peak),
        cmocka_unit_test(no_v4_no_zombie_peak),
        cmocka_unit_test(reap_reads_the_zombie_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
