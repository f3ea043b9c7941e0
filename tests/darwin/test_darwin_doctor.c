/* test_darwin_doctor.c: doctor's Mac rows (core/doctor/doctor_mac.c) with
 * the REAL macOS backend on the scripted kernel of fake_darwin.c: the
 * wired limit through the backend's mps_device (sysctlbyname of
 * iogpu.wired_limit_mb on fake_metal.c's knob) and the ratios through its
 * environ_var (KERN_PROCARGS2 of the scripted job), each against a
 * stand-in first on PATH for the tool a Mac has: `sysctl -n
 * iogpu.wired_limit_mb` printing one integer, and `ps -E -ww -o command=
 * -p 100` printing the job's arguments and then its environment joined by
 * spaces, as adv_cmds-237 ps/print.c getproclline (lines 256-282) makes
 * the line from the same KERN_PROCARGS2 area.  The stand-ins fail on any
 * other arguments.  Expected values come from the script.
 *
 * test_mac_vm_rows: the metal and compressed rows, the backend's
 * TASK_VM_INFO (fake_taskinfo.c) against stand-ins for `footprint -p 100`
 * and `vmmap --summary 100` printing the published captures of
 * tests/fixtures/macos (footprint-agentstudio-graphics.txt: 358 + 208 MB of
 * "(graphics)" rows; vmmap-summary-hyperkit-10.14.txt: 96K SWAPPED), the
 * scripted job given those numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "darwin_check.h"
#include "fake_metal.h"
#include "fake_taskinfo.h"
#include "stagetop/doctor.h"
#include "../testutil.h"

static const char JOB_ENV[] = "HOME=/Users/ann\0"
                              "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.8\0"
                              "PYTORCH_MPS_LOW_WATERMARK_RATIO=0.8\0";
static const char *const ARGV[] = {"python3", "train.py"};

static char dir[] = "/tmp/st-dwdoc-XXXXXX";

/* ps -E's line of the script: the arguments, then the environment strings */
static void ps_line(char *out, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < sizeof ARGV / sizeof ARGV[0]; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", i ? " " : "", ARGV[i]);
    for (const char *e = JOB_ENV; e < JOB_ENV + sizeof JOB_ENV - 1; e += strlen(e) + 1)
        o += (size_t)snprintf(out + o, len - o, " %s", e);
}

static void test_mac_rows(void **state)
{
    st_backend *b = *state;
    char line[512], body[1024], path[600];
    fake_proc *p = fake_darwin_find(100);
    fake_darwin_set_argv(p, "/opt/homebrew/bin/python3", 2, ARGV);
    p->env = JOB_ENV;
    p->env_len = sizeof JOB_ENV - 1;
    fake_metal_knobs_get()->wired_mb = 40960;
    assert_non_null(mkdtemp(dir));
    ps_line(line, sizeof line);
    snprintf(body, sizeof body, "[ \"$*\" = \"-E -ww -o command= -p 100\" ] || exit 9\necho '%s'", line);
    stand_in(dir, "ps", body);
    stand_in(dir, "sysctl", "[ \"$*\" = \"-n iogpu.wired_limit_mb\" ] || exit 9\necho 40960");
    char *saved = path_first(dir);

    st_doctor_report r;
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(P, b, id_of(100), &r);
    assert_int_equal(r.n, 3);
    for (size_t i = 0; i < r.n; i++)
        st_doctor_judge(&r.checks[i]);
    assert_string_equal(r.checks[0].lane, "wired limit");
    assert_true(r.checks[0].value == 40960ull << 20);
    assert_true(r.checks[0].ref == 40960ull << 20);
    assert_int_equal(r.checks[0].ok, ST_DOC_AGREES);
    for (size_t i = 1; i < 3; i++) {
        assert_true(r.checks[i].value == 800);
        assert_true(r.checks[i].ref == 800);
        assert_int_equal(r.checks[i].ok, ST_DOC_AGREES);
    }
    /* the wired limit set after stagetop read it: the next check sees both */
    fake_metal_knobs_get()->wired_mb = 0;
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(P, b, id_of(100), &r);
    st_doctor_judge(&r.checks[0]);
    assert_true(r.checks[0].value == 0);
    assert_int_equal(r.checks[0].ok, ST_DOC_MISMATCH);
    /* a job without the variables: unset on both sides */
    stand_in(dir, "ps", "[ \"$*\" = \"-E -ww -o command= -p 101\" ] || exit 9\necho 'worker HOME=/Users/ann'");
    static const char plain[] = "HOME=/Users/ann\0";
    fake_proc *w = fake_darwin_find(101);
    w->env = plain;
    w->env_len = sizeof plain - 1;
    memset(&r, 0, sizeof r);
    st_doctor_mac_checks(P, b, id_of(101), &r);
    for (size_t i = 1; i < 3; i++) {
        st_doctor_judge(&r.checks[i]);
        assert_true(r.checks[i].value == ST_DOC_UNSET);
        assert_int_equal(r.checks[i].ok, ST_DOC_AGREES);
        assert_non_null(strstr(r.checks[i].note, "unset as launched"));
    }
    path_restore(saved);
    snprintf(path, sizeof path, "%s/ps", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/sysctl", dir);
    unlink(path);
    rmdir(dir);
}

static void test_mac_vm_rows(void **state)
{
    st_backend *b = *state;
    char body[1024], path[600];
    /* the owned unmapped part resident, the IOAccelerator part in the compressor */
    fake_taskinfo_set(100, 96 * 1024, (int64_t)(358 * MIB), (int64_t)(208 * MIB));
    st_proc_mem m;
    assert_int_equal(P->read_proc(b, id_of(100), &m, NULL), ST_OK);
    assert_true(m.valid & ST_PM_METAL);
    assert_true(m.valid & ST_PM_COMPRESSED);

    snprintf(dir, sizeof dir, "/tmp/st-dwdoc-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(body, sizeof body, "[ \"$*\" = \"-p 100\" ] || exit 9\n"
             "cat '%s/tests/fixtures/macos/footprint-agentstudio-graphics.txt'", test_root());
    stand_in(dir, "footprint", body);
    snprintf(body, sizeof body, "[ \"$*\" = \"--summary 100\" ] || exit 9\n"
             "cat '%s/tests/fixtures/macos/vmmap-summary-hyperkit-10.14.txt'", test_root());
    stand_in(dir, "vmmap", body);
    char *saved = path_first(dir);

    const char *lanes[] = {"metal", "compressed"};
    const uint64_t values[] = {m.metal, m.compressed};
    const uint64_t refs[] = {566 * MIB, 96 * 1024};
    for (size_t i = 0; i < 2; i++) {
        st_doctor_check c;
        memset(&c, 0, sizeof c);
        snprintf(c.lane, sizeof c.lane, "%s", lanes[i]);
        c.has_value = 1;
        c.value = values[i];
        st_doctor_reference(P, 100, &c);
        st_doctor_judge(&c);
        assert_true(c.has_ref);
        assert_true(c.value == refs[i]);
        assert_true(c.ref == refs[i]);
        assert_int_equal(c.ok, ST_DOC_AGREES);
    }
    /* the graphics ledger without its compressed part: 208 MiB short, caught */
    fake_taskinfo_set(100, 96 * 1024, (int64_t)(358 * MIB), 0);
    assert_int_equal(P->read_proc(b, id_of(100), &m, NULL), ST_OK);
    st_doctor_check c;
    memset(&c, 0, sizeof c);
    snprintf(c.lane, sizeof c.lane, "metal");
    c.has_value = 1;
    c.value = m.metal;
    st_doctor_reference(P, 100, &c);
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    path_restore(saved);
    snprintf(path, sizeof path, "%s/footprint", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/vmmap", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_mac_rows),
        T(test_mac_vm_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
