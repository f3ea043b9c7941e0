/* test_doctor_mac_vm: doctor's references for the Mac's metal and
 * tree_compressed lanes (core/doctor/doctor_parse_mac.c, doctor_ref.c's
 * macOS table; docs/doctor.md "The Mac's GPU and MPS numbers") run on any
 * system.  The parsers read published captures of the tools
 * (tests/fixtures/macos/README.md says where each came from): footprint of
 * a 16 KiB-page Mac with an "Owned physical footprint (unmapped)
 * (graphics)" and an "IOAccelerator (graphics)" row, vmmap --summary of
 * macOS 10.14 (a SWAPPED column) and of 10.12 (none).  The expected values
 * are the captures' own printed numbers, added by hand here.  The
 * references then run end to end through the runner with stand-ins for
 * footprint and vmmap first on PATH that print those captures and fail on
 * arguments the check must not give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sizes.h"
#include "stagetop/doctor.h"
#include "testutil.h"
#include "tmpdir.h"

static void parse_footprint_graphics(void **state)
{
    (void)state;
    size_t n;
    char *text = fixture_load("macos", "footprint-agentstudio-graphics.txt", &n);
    uint64_t b = 0, res = 0;
    int rows = -1;
    st_error e;
    /* 358 MB (owned unmapped) + 208 MB (IOAccelerator); not IOSurface's 1102 MB */
    assert_int_equal(st_doctor_parse_footprint_graphics(text, n, &b, &res, &rows, &e), ST_OK);
    assert_int_equal(rows, 2);
    assert_int_equal(b, (358 + 208) * MIB);
    assert_int_equal(res, 2 * MIB); /* whole MB each */
    /* the same capture's phys_footprint, through the footprint parser: the TOTAL the rows are part of */
    st_doctor_fp fp;
    assert_int_equal(st_doctor_parse_footprint(text, n, &fp, &e), ST_OK);
    assert_int_equal(fp.now, 2177 * MIB);

    /* without its (graphics) rows: a process without Metal memory reads 0 */
    char plain[8192];
    size_t o = 0;
    for (const char *l = text; *l;) {
        size_t len = strcspn(l, "\n");
        if (!strstr(l, "(graphics)") || (size_t)(strstr(l, "(graphics)") - l) > len)
            o += (size_t)snprintf(plain + o, sizeof plain - o, "%.*s\n", (int)len, l);
        l += len + (l[len] == '\n');
    }
    assert_int_equal(st_doctor_parse_footprint_graphics(plain, o, &b, &res, &rows, &e), ST_OK);
    assert_int_equal(rows, 0);
    assert_int_equal(b, 0);

    /* not footprint's table: an error, not 0 */
    const char refused[] = "footprint: Unable to get task for pid 123 (are you root?)\n";
    assert_int_equal(st_doctor_parse_footprint_graphics(refused, strlen(refused), &b, &res, &rows, &e),
                     ST_EPARSE);
    assert_non_null(strstr(e.msg, "no category table"));
    /* a row cut short (the WebKit capture's "..." elision): said, not skipped */
    free(text);
    text = fixture_load("macos", "footprint-webkit.txt", &n);
    assert_int_equal(st_doctor_parse_footprint_graphics(text, n, &b, &res, &rows, &e), ST_EPARSE);
    free(text);
    assert_non_null(strstr(e.msg, "category row"));
    /* a size that is not one */
    const char bad[] = "  Dirty      Clean  Reclaimable    Regions    Category\n"
                       "    ---        ---          ---        ---    ---\n"
                       "  12 XB        0 B          0 B          1    IOAccelerator (graphics)\n";
    assert_int_equal(st_doctor_parse_footprint_graphics(bad, strlen(bad), &b, &res, &rows, &e), ST_EPARSE);
}

static void parse_vmmap_swapped(void **state)
{
    (void)state;
    size_t n;
    char *text = fixture_load("macos", "vmmap-summary-hyperkit-10.14.txt", &n);
    uint64_t b = 0, res = 0;
    st_error e;
    /* TOTAL's SWAPPED SIZE 96K (its Writable regions line says swapped_out=96K too), not the
     * MALLOC ZONE table's 52K below it */
    assert_int_equal(st_doctor_parse_vmmap_swapped(text, n, &b, &res, &e), ST_OK);
    assert_int_equal(b, 96 * KIB);
    assert_int_equal(res, KIB);
    st_doctor_fp fp;
    assert_int_equal(st_doctor_parse_vmmap(text, n, &fp, &e), ST_OK); /* the same capture's footprint */
    assert_true(fp.now >= 3 * 1024 * MIB);

    /* macOS 10.12's vmmap has no SWAPPED column: an error, not 0 */
    free(text);
    text = fixture_load("macos", "vmmap-summary-hyperkit-10.12.txt", &n);
    assert_int_equal(st_doctor_parse_vmmap_swapped(text, n, &b, &res, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "no SWAPPED column"));
    /* the header of a non-summary capture without the table */
    free(text);
    text = fixture_load("macos", "vmmap-gopls-macos13.txt", &n);
    assert_int_equal(st_doctor_parse_vmmap_swapped(text, n, &b, &res, &e), ST_EPARSE);
    free(text);
    /* a table whose TOTAL row stops before SWAPPED */
    const char cut[] = "                                VIRTUAL RESIDENT    DIRTY  SWAPPED\n"
                       "REGION TYPE                        SIZE     SIZE     SIZE     SIZE\n"
                       "TOTAL                              2.6G     2.3G\n";
    assert_int_equal(st_doctor_parse_vmmap_swapped(cut, strlen(cut), &b, &res, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "TOTAL row"));
}

static const st_platform mac = {.name = "darwin", .doctor_refs = ST_DOCTOR_REFS_MACOS};

static void check(const char *lane, uint64_t value, st_doctor_check *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->lane, sizeof c->lane, "%s", lane);
    c->has_value = 1;
    c->value = value;
    st_doctor_reference(&mac, 4242, c);
    st_doctor_judge(c);
}

static void references(void **state)
{
    const char *dir = *state;
    char body[1024];
    snprintf(body, sizeof body, "[ \"$*\" = \"-p 4242\" ] || exit 9\n"
             "cat '%s/tests/fixtures/macos/footprint-agentstudio-graphics.txt'", test_root());
    stand_in(dir, "footprint", body);
    snprintf(body, sizeof body, "[ \"$*\" = \"--summary 4242\" ] || exit 9\n"
             "cat '%s/tests/fixtures/macos/vmmap-summary-hyperkit-10.14.txt'", test_root());
    stand_in(dir, "vmmap", body);
    char *saved = path_first(dir);

    /* metal: 566 MiB, within max(1 %, 4 MiB) + the 2 MiB of the two rows' printing */
    st_doctor_check c;
    check("metal", 566 * MIB + 7 * MIB, &c);
    assert_true(c.has_ref);
    assert_int_equal(c.ref, 566 * MIB);
    assert_int_equal(c.tol, 573 * MIB / 100 + 2 * MIB);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    assert_non_null(strstr(c.source, "2 (graphics) categories"));
    check("metal", 566 * MIB + 10 * MIB, &c); /* a backend off by 10 MiB: caught */
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    check("metal", 0, &c); /* a backend that reads no Metal memory of a Metal process */
    assert_int_equal(c.ok, ST_DOC_MISMATCH);

    /* compressed: 96 KiB, within 4 MiB + 1 KiB */
    check("compressed", 96 * KIB, &c);
    assert_int_equal(c.ref, 96 * KIB);
    assert_int_equal(c.tol, 4 * MIB + KIB);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    assert_non_null(strstr(c.source, "TOTAL SWAPPED SIZE"));
    check("compressed", 96 * KIB + 5 * MIB, &c);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);

    /* a tool that cannot read the process: no reference, said, not a failure */
    stand_in(dir, "footprint", "echo 'footprint: Unable to get task for pid 4242' >&2; exit 1");
    check("metal", 566 * MIB, &c);
    assert_false(c.has_ref);
    assert_int_equal(c.ok, ST_DOC_NOT_CHECKED);
    assert_non_null(strstr(c.note, "no reference"));
    snprintf(body, sizeof body, "cat '%s/tests/fixtures/macos/vmmap-summary-hyperkit-10.12.txt'", test_root());
    stand_in(dir, "vmmap", body);
    check("compressed", 0, &c);
    assert_int_equal(c.ok, ST_DOC_NOT_CHECKED);
    assert_non_null(strstr(c.note, "no SWAPPED column"));
    path_restore(saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_footprint_graphics),
        cmocka_unit_test(parse_vmmap_swapped),
        cmocka_unit_test_setup_teardown(references, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
