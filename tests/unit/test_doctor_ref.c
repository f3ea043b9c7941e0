/* test_doctor_ref: the macOS references of `stagetop doctor` run end to end on
 * any system: stand-ins for footprint, vmmap, sysctl, memory_pressure and ps,
 * put first on PATH, print the captured real outputs of
 * tests/fixtures/macos; st_doctor_reference on a table whose doctor_refs is
 * ST_DOCTOR_REFS_MACOS must run them through
 * the runner, parse them and set the reference, its source and tolerance
 * (docs/doctor.md).  The stand-ins fail when given arguments the real tools
 * must not get (memory_pressure with any argument applies pressure). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stagetop/doctor.h"
#include "testutil.h"
#include "tmpdir.h"
#include "sizes.h"


/* The capability chooses the references, not the table's name. */
static const st_platform darwin_refs = { .name = "some-kernel", .doctor_refs = ST_DOCTOR_REFS_MACOS };

/* Stand-ins on PATH; with_footprint 0 leaves `footprint` out (vmmap is the fallback). */
static void stand_ins(const char *dir, int with_footprint)
{
    char fx[700], body[1024];
    snprintf(fx, sizeof fx, "%s/tests/fixtures/macos", test_root());
    snprintf(body, sizeof body, "[ \"$1 $2\" = \"-p 4242\" ] || exit 9\ncat '%s/footprint-webkit.txt'", fx);
    if (with_footprint)
        stand_in(dir, "footprint", body);
    else {
        snprintf(body, sizeof body, "%s/footprint", dir);
        unlink(body);
    }
    snprintf(body, sizeof body, "[ \"$1 $2\" = \"--summary 4242\" ] || exit 9\ncat '%s/vmmap-gopls-macos13.txt'", fx);
    stand_in(dir, "vmmap", body);
    snprintf(body, sizeof body,
             "[ \"$1\" = -n ] || exit 9\n"
             "case $2 in\n"
             "vm.swapusage) sed 's/^vm.swapusage: //' '%s/swapusage-a11wa11.txt' ;;\n"
             "kern.memorystatus_vm_pressure_level) echo 2 ;;\n"
             "*) exit 9 ;;\nesac", fx);
    stand_in(dir, "sysctl", body);
    snprintf(body, sizeof body, "[ $# -eq 0 ] || exit 9\ncat '%s/memory_pressure-macmini.txt'", fx);
    stand_in(dir, "memory_pressure", body);
    stand_in(dir, "ps", "[ \"$1 $2 $3 $4\" = \"-o rss= -p 4242\" ] || exit 9\necho '  123456'");
}

static st_doctor_check lane(const char *name, uint64_t value)
{
    st_doctor_check c;
    memset(&c, 0, sizeof c);
    snprintf(c.lane, sizeof c.lane, "%s", name);
    c.has_value = 1;
    c.value = value;
    return c;
}

static void darwin_references(void **state)
{
    const char *dir = *state;
    st_doctor_check c;
    stand_ins(dir, 1);
    char *saved = path_first(dir);

    c = lane("footprint", 140 * MIB);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_true(c.has_ref);
    assert_int_equal(c.ref, 142 * MIB);               /* phys_footprint: 142 MB */
    assert_int_equal(c.tol, 4 * MIB + MIB);           /* max(1 %, 4 MiB) + the printed resolution */
    assert_non_null(strstr(c.source, "footprint -p PID"));
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_AGREES);

    c = lane("kernel peak", 424 * MIB);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_true(c.has_ref);
    assert_int_equal(c.ref, 424 * MIB);               /* phys_footprint_peak: 424 MB */
    assert_non_null(strstr(c.source, "phys_footprint_peak"));

    c = lane("rss", 120 * MIB);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_int_equal(c.ref, 123456 * 1024ull);        /* ps prints KiB */

    c = lane("swap used", 0);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_int_equal(c.ref, 146250 * MIB / 100);      /* used = 1462.50M */
    assert_int_equal(c.tol, 2048 * MIB / 100 + MIB / 100); /* max(1 % of 2048 MiB, 16 MiB) + 0.01M */

    c = lane("level", 8600);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_int_equal(c.ref, 8600);                    /* 86 %, in hundredths */
    assert_non_null(strstr(c.source, "memory_pressure"));

    c = lane("pressure", 200);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_int_equal(c.ref, 200);                     /* 2, stored as 200 like the backend */
    assert_int_equal(c.tol, 0);

    c = lane("gpu", 0);                               /* none on macOS */
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_false(c.has_ref);
    assert_non_null(strstr(c.note, "no reference"));

    /* no footprint tool: vmmap --summary is the fallback */
    stand_ins(dir, 0);
    c = lane("footprint", 12 * GIB / 10);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_true(c.has_ref);
    assert_int_equal(c.ref, 12 * GIB / 10);           /* Physical footprint: 1.2G */
    assert_int_equal(c.tol, 12 * GIB / 10 / 100 + GIB / 10);
    assert_non_null(strstr(c.source, "vmmap --summary PID"));

    /* a tool that fails: no reference, the reason in the note, not a failure */
    stand_in(dir, "memory_pressure", "exit 1");
    c = lane("level", 5000);
    st_doctor_reference(&darwin_refs, 4242, &c);
    assert_false(c.has_ref);
    assert_non_null(strstr(c.note, "memory_pressure failed"));
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_NOT_CHECKED);

    path_restore(saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(darwin_references, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
