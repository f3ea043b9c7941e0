/* test_doctor_mac: doctor's checks of the Mac's GPU and MPS numbers
 * (core/doctor/doctor_mac.c, docs/doctor.md "The Mac's GPU and MPS
 * numbers") run on any system.  The parsers read ioreg's output (the
 * IOAccelerator line of tests/fixtures/macos/ioreg-accelerator-m4.txt:
 * unverified, see its README) and ps -E's line (as adv_cmds-237 ps/print.c
 * getproclline makes it: arguments, then the environment, joined by
 * spaces).  The checks run end to end through the runner with stand-ins
 * for ioreg, sysctl and ps first on PATH, each failing on arguments the
 * real check must not give; the backend's side (mps_device, environ_var)
 * is a table of stubs standing in for the Darwin backend, whose own reads
 * are tests/darwin's.  Off a Mac the rows say they are macOS only. */
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

#include "stagetop/doctor.h"
#include "testutil.h"
#include "tmpdir.h"

#define MIB (1024ull * 1024ull)

static const char ps_line[] =
    "/usr/bin/python3 train.py --lr 0.1 TERM=xterm-256color "
    "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.8 HOME=/Users/u PYTORCH_MPS_LOW_WATERMARK_RATIO=0.6\n";

static void parse_ioreg(void **state)
{
    (void)state;
    size_t n;
    char *text = fixture_load("macos", "ioreg-accelerator-m4.txt", &n);
    uint64_t b = 0;
    int k = 0;
    st_error e;
    /* "In use system memory"=351141888; the "(driver)"=0 key is another */
    assert_int_equal(st_doctor_parse_ioreg_in_use(text, n, &b, &k, &e), ST_OK);
    assert_int_equal(b, 351141888ull);
    assert_int_equal(k, 1);
    /* two accelerators: summed, as the lane sums the services */
    char two[9000];
    int m = snprintf(two, sizeof two, "%s%s", text, text);
    assert_int_equal(st_doctor_parse_ioreg_in_use(two, (size_t)m, &b, &k, &e), ST_OK);
    assert_int_equal(b, 2 * 351141888ull);
    assert_int_equal(k, 2);
    const char none[] = "+-o IntelAccelerator  <class IntelAccelerator>\n";
    assert_int_equal(st_doctor_parse_ioreg_in_use(none, strlen(none), &b, &k, &e), ST_EPARSE);
    const char bad[] = "{\"In use system memory\"=\"x\"}";
    assert_int_equal(st_doctor_parse_ioreg_in_use(bad, strlen(bad), &b, &k, &e), ST_EPARSE);
    free(text);
}

static void parse_ps_env(void **state)
{
    (void)state;
    char v[64];
    int found = -1;
    st_error e;
    assert_int_equal(st_doctor_parse_ps_env(ps_line, strlen(ps_line), "PYTORCH_MPS_HIGH_WATERMARK_RATIO",
                                            v, sizeof v, &found, &e), ST_OK);
    assert_true(found);
    assert_string_equal(v, "0.8");
    assert_int_equal(st_doctor_parse_ps_env(ps_line, strlen(ps_line), "PYTORCH_MPS_LOW_WATERMARK_RATIO",
                                            v, sizeof v, &found, &e), ST_OK);
    assert_string_equal(v, "0.6"); /* the last on the line, no newline kept */
    assert_int_equal(st_doctor_parse_ps_env(ps_line, strlen(ps_line), "PYTORCH_MPS_RATIO", v, sizeof v,
                                            &found, &e), ST_OK);
    assert_false(found);
    /* an argument that looks like it comes first: the environment's (the last) wins */
    const char both[] = "python3 x.py PYTORCH_MPS_HIGH_WATERMARK_RATIO=9 PYTORCH_MPS_HIGH_WATERMARK_RATIO=1.2\n";
    assert_int_equal(st_doctor_parse_ps_env(both, strlen(both), "PYTORCH_MPS_HIGH_WATERMARK_RATIO", v,
                                            sizeof v, &found, &e), ST_OK);
    assert_string_equal(v, "1.2");
    assert_int_equal(st_doctor_parse_ps_env("", 0, "X", v, sizeof v, &found, &e), ST_EPARSE);
}

/* ---- end to end, stand-ins on PATH ---- */

static uint64_t stub_wired = 0, stub_rec = 0;
static const char *stub_high = "0.8", *stub_low = "";

static void stub_mps(st_mps_device *d)
{
    memset(d, 0, sizeof *d);
    d->has_wired_limit = stub_wired != 0;
    d->wired_limit = stub_wired;
    d->has_recommended = stub_rec != 0;
    d->recommended_max = stub_rec;
}

/* the 48 GiB Mac of the figures */
static int stub_sys(st_backend *b, st_sys_mem *out, st_error *err)
{
    (void)b, (void)err;
    memset(out, 0, sizeof *out);
    out->valid = ST_SYS_MEMTOTAL;
    out->mem_total = 48ull << 30;
    return ST_OK;
}

static int stub_env(st_backend *b, st_proc_id id, const char *name, char *buf, size_t len, st_error *err)
{
    (void)b, (void)err;
    assert_int_equal(id.pid, 4242);
    snprintf(buf, len, "%s", strstr(name, "HIGH") ? stub_high : stub_low);
    return ST_OK;
}

static const st_platform mac = {.name = "darwin", .doctor_refs = ST_DOCTOR_REFS_MACOS,
                                .mps_device = stub_mps, .environ_var = stub_env,
                                .read_system = stub_sys};
static const st_platform lin = {.name = "linux", .doctor_refs = ST_DOCTOR_REFS_PROC};

static void end_to_end(void **state)
{
    const char *dir = *state;
    char body[1024];
    snprintf(body, sizeof body, "[ \"$*\" = \"-r -d 1 -w 0 -c IOAccelerator\" ] || exit 9\n"
             "cat '%s/tests/fixtures/macos/ioreg-accelerator-m4.txt'", test_root());
    stand_in(dir, "ioreg", body);
    stand_in(dir, "sysctl", "[ \"$*\" = \"-n iogpu.wired_limit_mb\" ] || exit 9\necho 30720");
    snprintf(body, sizeof body, "[ \"$*\" = \"-E -ww -o command= -p 4242\" ] || exit 9\nprintf '%%s' '%s'",
             ps_line);
    stand_in(dir, "ps", body);
    char *saved = path_first(dir);

    /* the gpu system lane: within max(1 %, 16 MiB) of ioreg's 351141888 */
    st_doctor_check c;
    memset(&c, 0, sizeof c);
    snprintf(c.lane, sizeof c.lane, "gpu system");
    c.has_value = 1;
    c.value = 351141888ull + 8 * MIB;
    st_doctor_reference(&mac, 4242, &c);
    assert_true(c.has_ref);
    assert_int_equal(c.ref, 351141888ull);
    assert_int_equal(c.tol, 16 * MIB);
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    c.value = 351141888ull + 17 * MIB; /* off by more than the tolerance */
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);

    /* wired limit 30720 MiB, high 0.8, low unset in the backend but 0.6 in ps: */
    st_doctor_report r;
    memset(&r, 0, sizeof r);
    stub_wired = 30720 * MIB;
    st_proc_id id = {4242, 1};
    st_doctor_mac_checks(&mac, NULL, id, &r);
    assert_int_equal(r.n, 3);
    for (size_t i = 0; i < r.n; i++)
        st_doctor_judge(&r.checks[i]);
    assert_string_equal(r.checks[0].lane, "wired limit");
    assert_int_equal(r.checks[0].ref, 30720 * MIB);
    assert_int_equal(r.checks[0].ok, ST_DOC_AGREES);
    assert_string_equal(r.checks[1].lane, "mps high");
    assert_int_equal(r.checks[1].unit, ST_DOC_RATIO);
    assert_int_equal(r.checks[1].value, 800);
    assert_int_equal(r.checks[1].ref, 800);
    assert_int_equal(r.checks[1].ok, ST_DOC_AGREES);
    assert_string_equal(r.checks[2].lane, "mps low");
    assert_int_equal(r.checks[2].value, ST_DOC_UNSET);
    assert_int_equal(r.checks[2].ref, 600);
    assert_int_equal(r.checks[2].ok, ST_DOC_MISMATCH); /* the backend missed a variable ps sees */

    /* the default (wired 0, backend) against a set limit (sysctl): caught */
    memset(&r, 0, sizeof r);
    stub_wired = 0;
    stub_low = "0.6";
    st_doctor_mac_checks(&mac, NULL, id, &r);
    for (size_t i = 0; i < r.n; i++)
        st_doctor_judge(&r.checks[i]);
    assert_int_equal(r.checks[0].ok, ST_DOC_MISMATCH);
    assert_int_equal(r.checks[2].ok, ST_DOC_AGREES);

    /* no sysctl key (an Intel Mac): no reference, said, not a failure */
    stand_in(dir, "sysctl", "echo 'sysctl: unknown oid' >&2; exit 1");
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(&mac, NULL, id, &r);
    st_doctor_judge(&r.checks[0]);
    assert_int_equal(r.checks[0].ok, ST_DOC_NOT_CHECKED);
    assert_non_null(strstr(r.checks[0].note, "no reference"));

    /* Linux: three rows, none checked, each saying why; no tool is run */
    stand_in(dir, "ps", "exit 9");
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(&lin, NULL, id, &r);
    assert_int_equal(r.n, 3);
    for (size_t i = 0; i < r.n; i++) {
        st_doctor_judge(&r.checks[i]);
        assert_int_equal(r.checks[i].ok, ST_DOC_NOT_CHECKED);
        assert_false(r.checks[i].has_value);
        assert_non_null(strstr(r.checks[i].note, "macOS only"));
    }
    path_restore(saved);
}

/* doctor says what the MPS cap means (core/model/mps_advice.c's rules,
 * tested there): the 48 GiB Mac, recommended 37.44 GiB
 * (40200896512 bytes, the MPS fixtures' mps_recommended_max). */
static void mps_meaning(void **state)
{
    const char *dir = *state;
    char body[1024];
    st_proc_id id = {4242, 1};
    st_doctor_report r;
    stand_in(dir, "sysctl", "echo 0");
    snprintf(body, sizeof body, "printf '%%s' '%s'", ps_line);
    stand_in(dir, "ps", body);
    char *saved = path_first(dir);
    stub_wired = 0;
    stub_rec = 40200896512ull;

    /* 0.8 and 0.8: 0.8 x 37.44 = 29.95 GiB, under the RAM */
    stub_high = "0.8", stub_low = "0.8";
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(&mac, NULL, id, &r);
    assert_int_equal(r.mps.kind, ST_MPS_UNDER);
    assert_int_equal(r.mps.cap, (uint64_t)(0.8 * 40200896512.0));
    assert_non_null(strstr(r.mps.line, "29.95 GiB"));
    assert_non_null(strstr(r.mps.line, "under the RAM"));
    /* 0.8 alone: refused at the first MPS call (low 1.4 > high 0.8) */
    stub_low = "";
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(&mac, NULL, id, &r);
    assert_int_equal(r.mps.kind, ST_MPS_REFUSED);
    assert_non_null(strstr(r.mps.line, "low 1.4 > high 0.8; set both"));
    /* 0.0: no limit */
    stub_high = "0.0";
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(&mac, NULL, id, &r);
    assert_int_equal(r.mps.kind, ST_MPS_NO_LIMIT);
    /* unset, but the process holds Metal memory (its metal row): 1.7 x 37.44 = 63.65 GiB > 48 GiB */
    stub_high = "";
    memset(&r, 0, sizeof r);
    r.n = 1;
    snprintf(r.checks[0].lane, sizeof r.checks[0].lane, "metal");
    r.checks[0].has_value = 1;
    r.checks[0].value = 566 * MIB;
    st_doctor_mac_checks(&mac, NULL, id, &r);
    assert_int_equal(r.mps.kind, ST_MPS_SWAP);
    assert_non_null(strstr(r.mps.line, "63.65 GiB"));
    assert_non_null(strstr(r.mps.line, "expect swap"));
    /* unset and no Metal memory: not a Metal job, nothing to say */
    r.checks[0].value = 0;
    r.n = 1;
    st_doctor_mac_checks(&mac, NULL, id, &r);
    assert_int_equal(r.mps.kind, ST_MPS_NONE);
    assert_string_equal(r.mps.line, "");
    /* Linux: nothing, even with the variables set */
    stub_high = "0.8";
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(&lin, NULL, id, &r);
    assert_int_equal(r.mps.kind, ST_MPS_NONE);
    stub_rec = 0;
    stub_high = "0.8", stub_low = "";
    path_restore(saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_ioreg),
        cmocka_unit_test(parse_ps_env),
        cmocka_unit_test_setup_teardown(end_to_end, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(mps_meaning, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
