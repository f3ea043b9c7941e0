/* test_darwin_gpu.c: the gpu_system lane over the REAL macOS backend
 * (core/platform/darwin_gpu.c through read_system) and the fake IOKit and
 * CoreFoundation of fake_iokit.c: the accelerators' "In use system memory"
 * read and summed, copied into a sample by the lane table; IOKit or
 * CoreFoundation missing, an entry point missing, no IOAccelerator service:
 * the lane absent, said once, not asked again; a dictionary without the key
 * (or of the wrong type) absent for that sample only; every object given
 * back.  Expected values come from the knobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "darwin_check.h"
#include "fake_iokit.h"
#include "fake_taskinfo.h"
#include "stagetop/lanes.h"
#include "stagetop/tree.h"

static st_sys_mem read_sys(st_backend *b)
{
    st_sys_mem m;
    memset(&m, 0xa5, sizeof m);
    assert_int_equal(P->read_system(b, &m, NULL), ST_OK);
    assert_true(m.valid & ST_SYS_SWAP); /* the rest is read as before */
    return m;
}

/* After close: every io object, CF object and library given back. */
static void all_given_back(unsigned libs)
{
    const fake_iokit_knobs *k = fake_iokit_knobs_get();
    assert_int_equal(k->objects_held, 0);
    assert_int_equal(k->cf_held, 0);
    assert_int_equal(k->bad_release, 0);
    assert_int_equal(k->misuse, 0);
    assert_int_equal(k->closed, (int)libs);
}

static void lane_present_with_a_value(void **state)
{
    st_backend *b = NULL;
    fake_iokit_knobs *k;
    (void)state;
    script_machine();
    k = fake_iokit_knobs_get();
    assert_int_equal(P->open(&b, NULL), ST_OK);
    assert_int_equal(k->iokit_dlopens, 0); /* loaded on the first reading, not at open */
    st_sys_mem m = read_sys(b);
    assert_true(m.valid & ST_SYS_GPU_SYSTEM);
    assert_true(m.gpu_system == (uint64_t)k->services[0].in_use);
    assert_true(m.gpu_system != (uint64_t)k->services[0].alloc); /* not nvtop's number */
    /* the table copies it into the sample */
    st_sample s;
    memset(&s, 0, sizeof s);
    st_lanes_from_sys(&s, &m);
    assert_true(st_sample_has(&s, ST_F_GPU_SYSTEM));
    assert_true(s.gpu_system == (uint64_t)k->services[0].in_use);
    assert_true(st_lane_value(ST_LANE_GPU_SYSTEM, &s) == (double)k->services[0].in_use);
    /* the next reading follows the number; the registry is searched once */
    k->services[0].in_use += 3 * (int64_t)MIB;
    m = read_sys(b);
    assert_true(m.gpu_system == (uint64_t)k->services[0].in_use);
    assert_int_equal(k->iokit_dlopens, 1);
    assert_int_equal(k->cf_dlopens, 1);
    assert_int_equal(k->matchings, 1);
    assert_int_equal(k->properties, 2);
    assert_int_equal(k->objects_held, 1); /* the service, kept; the iterator released */
    assert_int_equal(k->cf_held, 2);      /* the two keys; each dictionary released */
    assert_string_equal(P->lanes_note(b), "");
    P->close(b);
    all_given_back(2);
    fake_darwin_free();
}

/* Two accelerators with the key are summed; one whose statistics are not a
 * dictionary, one whose value is not a number and one without the key are
 * left out. */
static void accelerators_summed(void **state)
{
    st_backend *b = NULL;
    fake_iokit_knobs *k;
    (void)state;
    script_machine();
    k = fake_iokit_knobs_get();
    k->n_services = 5;
    k->services[1] = (fake_iokit_service){1, 0, 1, 0, 512 * (int64_t)MIB, 600 * (int64_t)MIB};
    k->services[2] = (fake_iokit_service){1, 1, 1, 0, 7 * (int64_t)MIB, 0};
    k->services[3] = (fake_iokit_service){1, 0, 1, 1, 9 * (int64_t)MIB, 0};
    k->services[4] = (fake_iokit_service){1, 0, 0, 0, 11 * (int64_t)MIB, 0};
    assert_int_equal(P->open(&b, NULL), ST_OK);
    st_sys_mem m = read_sys(b);
    assert_true(m.valid & ST_SYS_GPU_SYSTEM);
    assert_true(m.gpu_system == (uint64_t)(k->services[0].in_use + k->services[1].in_use));
    assert_string_equal(P->lanes_note(b), "");
    P->close(b);
    all_given_back(2);
    fake_darwin_free();
}

/* The key missing from every dictionary (a driver that has not filled it
 * yet): absent in that sample, nothing said, present again once it is there. */
static void key_missing_is_absent_for_that_sample(void **state)
{
    st_backend *b = NULL;
    fake_iokit_knobs *k;
    (void)state;
    script_machine();
    k = fake_iokit_knobs_get();
    k->services[0].has_in_use = 0;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    st_sys_mem m = read_sys(b);
    assert_false(m.valid & ST_SYS_GPU_SYSTEM);
    st_sample s;
    memset(&s, 0, sizeof s);
    st_lanes_from_sys(&s, &m);
    assert_false(s.valid & ST_F_GPU_SYSTEM);
    assert_string_equal(P->lanes_note(b), "");
    k->services[0].has_in_use = 1;
    m = read_sys(b);
    assert_true(m.valid & ST_SYS_GPU_SYSTEM);
    assert_true(m.gpu_system == (uint64_t)k->services[0].in_use);
    k->services[0].has_stats = 0; /* no PerformanceStatistics at all */
    m = read_sys(b);
    assert_false(m.valid & ST_SYS_GPU_SYSTEM);
    P->close(b);
    all_given_back(2);
    fake_darwin_free();
}

/* off_case: the knobs set by set, then: the lane absent from every
 * reading, the note holding want, the libraries and the registry asked
 * once, everything given back at close (libs: the libraries loaded). */
static void off_case(void (*set)(fake_iokit_knobs *), const char *want, unsigned libs)
{
    st_backend *b = NULL;
    fake_iokit_knobs *k;
    script_machine();
    k = fake_iokit_knobs_get();
    set(k);
    assert_int_equal(P->open(&b, NULL), ST_OK);
    for (int i = 0; i < 3; i++) {
        st_sys_mem m = read_sys(b);
        assert_false(m.valid & ST_SYS_GPU_SYSTEM);
        st_sample s;
        memset(&s, 0, sizeof s);
        st_lanes_from_sys(&s, &m);
        assert_false(s.valid & ST_F_GPU_SYSTEM);
        assert_true(isnan(st_lane_value(ST_LANE_GPU_SYSTEM, &s)));
        const char *note = P->lanes_note(b);
        if (!strstr(note, want) || !strstr(note, "no gpu_system lane"))
            fail_msg("note \"%s\" lacks \"%s\"", note, want);
    }
    assert_int_equal(k->iokit_dlopens, 1); /* said once: not tried again */
    assert_true(k->cf_dlopens <= 1);
    assert_true(k->matchings <= 1);
    assert_int_equal(k->properties, 0);
    P->close(b);
    all_given_back(libs);
    fake_darwin_free();
}

static void set_iokit_missing(fake_iokit_knobs *k) { k->iokit_missing = 1; }
static void set_cf_missing(fake_iokit_knobs *k) { k->cf_missing = 1; }
static void set_symbol_missing(fake_iokit_knobs *k) { k->missing_symbol = "IORegistryEntryCreateCFProperty"; }
static void set_no_service(fake_iokit_knobs *k) { k->n_services = 0; }
static void set_matching_fails(fake_iokit_knobs *k) { k->matching_fails = 1; }

static void iokit_missing(void **state)
{
    (void)state;
    off_case(set_iokit_missing, "IOKit could not be loaded", 0);
    assert_int_equal(fake_iokit_knobs_get()->cf_dlopens, 0);
}

static void corefoundation_missing(void **state)
{
    (void)state;
    off_case(set_cf_missing, "CoreFoundation could not be loaded", 1);
}

static void entry_point_missing(void **state)
{
    (void)state;
    off_case(set_symbol_missing, "no IORegistryEntryCreateCFProperty", 2);
}

static void no_accelerator(void **state)
{
    (void)state;
    off_case(set_no_service, "no IOAccelerator service", 2);
    assert_int_equal(fake_iokit_knobs_get()->matchings, 1);
}

static void matching_fails(void **state)
{
    (void)state;
    off_case(set_matching_fails, "no IOAccelerator service", 2);
}

/* Both of the backend's notes at once: joined, and short enough for the
 * run view's warning (run_view.c keeps 200 bytes of it). */
static void notes_joined(void **state)
{
    st_backend *b = NULL;
    st_sample s;
    st_tree t;
    (void)state;
    script_machine();
    fake_taskinfo_reset();
    fake_taskinfo_knobs_get()->name_refused = 1;
    fake_iokit_knobs_get()->iokit_missing = 1;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    read_sys(b);
    assert_int_equal(st_tree_init(&t, P, b, 100, 0, NULL), ST_OK);
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_sample(&t, 10.0, &s, NULL), ST_OK);
    st_tree_free(&t);
    const char *note = P->lanes_note(b);
    assert_non_null(strstr(note, "no metal or tree_compressed lane; IOKit could not be loaded"));
    assert_true(strlen(note) <= 200);
    P->close(b);
    fake_darwin_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lane_present_with_a_value),
        cmocka_unit_test(accelerators_summed),
        cmocka_unit_test(key_missing_is_absent_for_that_sample),
        cmocka_unit_test(iokit_missing),
        cmocka_unit_test(corefoundation_missing),
        cmocka_unit_test(entry_point_missing),
        cmocka_unit_test(no_accelerator),
        cmocka_unit_test(matching_fails),
        cmocka_unit_test(notes_joined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
