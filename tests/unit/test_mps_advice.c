/* test_mps_advice.c: PyTorch's MPS cap in words (core/model/mps_advice.c)
 * with issue 27's numbers: a 48 GiB Mac whose Metal device recommends
 * 37.44 GiB (40200896512 bytes).  Expected values are worked by hand from
 * PyTorch's rules (MPSAllocator.mm, cited in mps_advice.c): unset, 1.7 x
 * 37.44 = 63.65 GiB > 48 GiB; 0.8 alone, low 1.4 > high 0.8; 0.8 + 0.8,
 * 29.95 GiB; 0.0, no limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "stagetop/mps_advice.h"

#define REC 40200896512ull /* 37.44 GiB */
#define RAM (48ull << 30)

static int advise(const char *high, const char *low, st_mps_advice *a)
{
    st_mps_in in = {.uses_metal = 1, .has_recommended = 1, .recommended = REC,
                    .high = high, .low = low, .mem_total = RAM};
    return st_mps_advise(&in, a);
}

static void unset_is_above_the_ram(void **state)
{
    (void)state;
    st_mps_advice a;
    assert_int_equal(advise(NULL, NULL, &a), ST_MPS_SWAP);
    assert_string_equal(a.line, "MPS cap 63.65 GiB per process (1.7 x 37.44 GiB) above the RAM "
                                "(48.00 GiB): expect swap before PyTorch's out-of-memory error");
    assert_true(a.cap > RAM);
    assert_string_equal(a.word, "mps>ram");
}

static void high_alone_below_the_default_low_is_refused(void **state)
{
    (void)state;
    st_mps_advice a;
    assert_int_equal(advise("0.8", NULL, &a), ST_MPS_REFUSED);
    assert_string_equal(a.line, "PyTorch will refuse it: low 1.4 > high 0.8; set both");
    assert_string_equal(a.word, "mps refused");
    /* a low set above the high one: no "set both", it is set */
    assert_int_equal(advise("0.8", "0.9", &a), ST_MPS_REFUSED);
    assert_string_equal(a.line, "PyTorch will refuse it: low 0.9 > high 0.8");
    /* a high alone at or above 1.4 passes (1.5 x 37.44 = 56.16 GiB) */
    assert_int_equal(advise("1.5", NULL, &a), ST_MPS_SWAP);
}

static void both_set_is_under_the_ram(void **state)
{
    (void)state;
    st_mps_advice a;
    assert_int_equal(advise("0.8", "0.8", &a), ST_MPS_UNDER);
    assert_string_equal(a.line, "MPS cap 29.95 GiB per process (0.8 x 37.44 GiB) under the RAM "
                                "(48.00 GiB): PyTorch's out-of-memory error comes before swap");
    assert_string_equal(a.word, "mps capped");
    /* the out-of-memory message's "max allowed" of the issue: 0.5 x 37.44 */
    assert_int_equal(advise("0.5", "0.4", &a), ST_MPS_UNDER);
    assert_non_null(strstr(a.line, "MPS cap 18.72 GiB"));
}

static void zero_is_no_limit(void **state)
{
    (void)state;
    st_mps_advice a;
    assert_int_equal(advise("0.0", NULL, &a), ST_MPS_NO_LIMIT); /* low 1.4 <= 2.0: accepted */
    assert_string_equal(a.line, "no MPS limit (high 0.0): PyTorch never refuses an MPS "
                                "allocation; a job that does not fit swaps");
    assert_string_equal(a.word, "mps no limit");
    assert_int_equal(advise("0", "2.5", &a), ST_MPS_REFUSED);
    assert_string_equal(a.line, "PyTorch will refuse it: low 2.5 > 2.0, its bound with high 0.0");
}

static void ratios_pytorch_rejects(void **state)
{
    (void)state;
    st_mps_advice a;
    assert_int_equal(advise("2.5", NULL, &a), ST_MPS_REFUSED);
    assert_string_equal(a.line, "PyTorch will refuse it: high 2.5 is outside 0.0 to 2.0 "
                                "(\"invalid high watermark ratio\")");
    assert_int_equal(advise("-1", NULL, &a), ST_MPS_REFUSED);
    assert_int_equal(advise("2.0", "1.4", &a), ST_MPS_SWAP); /* the bound itself is accepted */
    assert_int_equal(advise("0.8", "-0.1", &a), ST_MPS_REFUSED);
    assert_string_equal(a.line, "PyTorch will refuse it: low -0.1 is below 0.0");
    assert_int_equal(advise("lots", NULL, &a), ST_MPS_REFUSED);
    assert_non_null(strstr(a.line, "\"lots\" is not a number"));
}

static void not_a_metal_job_or_no_recommended(void **state)
{
    (void)state;
    st_mps_advice a;
    st_mps_in in = {.uses_metal = 0, .has_recommended = 1, .recommended = REC, .mem_total = RAM};
    assert_int_equal(st_mps_advise(&in, &a), ST_MPS_NONE);
    assert_string_equal(a.line, "");
    assert_string_equal(a.word, "");
    in.uses_metal = 1;
    in.has_recommended = 0;
    assert_int_equal(st_mps_advise(&in, &a), ST_MPS_UNKNOWN);
    assert_string_equal(a.line, "MPS cap 1.7 x the recommended working set, which was not read");
    /* the refusals need no recommended working set */
    in.high = "0.8";
    assert_int_equal(st_mps_advise(&in, &a), ST_MPS_REFUSED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unset_is_above_the_ram),
        cmocka_unit_test(high_alone_below_the_default_low_is_refused),
        cmocka_unit_test(both_set_is_under_the_ram),
        cmocka_unit_test(zero_is_no_limit),
        cmocka_unit_test(ratios_pytorch_rejects),
        cmocka_unit_test(not_a_metal_job_or_no_recommended),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
