/* test_darwin_mps.c: the REAL core/platform/darwin_mps.c (the MPS cap's
 * machine numbers) over the fake Metal of fake_metal.c (no Apple source:
 * Apple's Metal documentation, unverified until a Mac confirms it).  The
 * probe really forks: the child answers from the knobs it inherits, and
 * the parent reads its line, kills it when it hangs, and reaps it every
 * time.  Expected values come from the knobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include "../../core/platform/darwin_internal.h"
#include "fake_darwin.h"
#include "fake_metal.h"
#include "stagetop/platform.h"

static int setup(void **state)
{
    (void)state;
    fake_darwin_reset();
    return 0;
}

/* No child of the test is left: every probe was reaped. */
static void assert_no_child(void)
{
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static void read_it(st_mps_device *d, int timeout_ms)
{
    memset(d, 0x55, sizeof *d);
    st_dw_mps_recommended(d, timeout_ms);
    assert_no_child();
}

static void test_recommended_read(void **state)
{
    (void)state;
    st_mps_device d;
    fake_metal_knobs_get()->recommended = 40200896512ull;
    read_it(&d, 5000);
    assert_int_equal(d.has_recommended, 1);
    assert_true(d.recommended_max == 40200896512ull);
    assert_string_equal(d.why, "");
    /* the table's entry is the one the start record asks */
    assert_ptr_equal(st_platform_native.mps_device, st_dw_mps_device);
}

static void test_no_metal_no_device(void **state)
{
    (void)state;
    st_mps_device d;
    fake_metal_knobs_get()->metal_missing = 1;
    read_it(&d, 5000);
    assert_int_equal(d.has_recommended, 0);
    assert_non_null(strstr(d.why, "Metal.framework could not be loaded"));

    fake_metal_reset();
    fake_metal_knobs_get()->objc_missing = 1;
    read_it(&d, 5000);
    assert_int_equal(d.has_recommended, 0);
    assert_non_null(strstr(d.why, "Objective-C runtime"));

    fake_metal_reset();
    fake_metal_knobs_get()->no_device = 1; /* an ssh login without the GPU */
    read_it(&d, 5000);
    assert_int_equal(d.has_recommended, 0);
    assert_non_null(strstr(d.why, "no Metal device"));

    fake_metal_reset();
    fake_metal_knobs_get()->recommended = 0;
    read_it(&d, 5000);
    assert_int_equal(d.has_recommended, 0);
    assert_non_null(strstr(d.why, "no recommendedMaxWorkingSetSize"));
}

static void test_hang_is_killed(void **state)
{
    (void)state;
    st_mps_device d;
    fake_metal_knobs_get()->hang = 1;
    read_it(&d, 200);
    assert_int_equal(d.has_recommended, 0);
    assert_string_equal(d.why, "the Metal probe gave no answer in 200 ms");
}

static void test_crash_is_said(void **state)
{
    (void)state;
    st_mps_device d;
    fake_metal_knobs_get()->crash = 1;
    read_it(&d, 5000);
    assert_int_equal(d.has_recommended, 0);
    assert_non_null(strstr(d.why, "died of signal 11"));
}

static void test_wired_limit(void **state)
{
    (void)state;
    st_mps_device d;
    fake_metal_knobs *k = fake_metal_knobs_get();
    memset(&d, 0x55, sizeof d);
    st_dw_mps_wired(&d); /* 0: the default, not set */
    assert_int_equal(d.has_wired_limit, 0);
    assert_true(d.wired_limit == 0);
    k->wired_mb = 40960;
    st_dw_mps_wired(&d);
    assert_int_equal(d.has_wired_limit, 1);
    assert_true(d.wired_limit == 40960ull << 20);
    k->wired_ok = 0; /* an Intel Mac: no such name */
    st_dw_mps_wired(&d);
    assert_int_equal(d.has_wired_limit, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_recommended_read, setup),
        cmocka_unit_test_setup(test_no_metal_no_device, setup),
        cmocka_unit_test_setup(test_hang_is_killed, setup),
        cmocka_unit_test_setup(test_crash_is_said, setup),
        cmocka_unit_test_setup(test_wired_limit, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
