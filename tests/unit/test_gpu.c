/* test_gpu.c: core/platform/gpu_nvml.c through its real dlopen path, against the fake
 * libnvidia-ml.so.1 of tests/fakenvml (built by mk/gpu.mk).  Each test writes
 * the fake's script (devices, processes, failures), opens it with
 * st_gpu_open and checks sums that were worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/gpu.h"
#include "sizes.h"

#if defined(__APPLE__)
/* macOS has no NVML: the lane is simply not available. */
static void test_macos_enotsup(void **state)
{
    st_gpu *g = (st_gpu *)&g;
    st_error err;
    (void)state;
    assert_int_equal(st_gpu_open(&g, NULL, &err), ST_ENOTSUP);
    assert_null(g);
    assert_non_null(strstr(err.msg, "macOS"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_macos_enotsup)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#else


typedef struct fixture {
    char dir[64];
    char script[96];
    char log[96];
    char lib[3][512]; /* api3 (default), api2, api1 */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    const char *fd;
    char buf[480];
    if (!f)
        return -1;
    strcpy(f->dir, "/tmp/st-test-gpu-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->script, sizeof f->script, "%s/script", f->dir);
    snprintf(f->log, sizeof f->log, "%s/log", f->dir);
#ifdef FAKE_NVML_DIR
    fd = FAKE_NVML_DIR;
#else
    snprintf(buf, sizeof buf, "%s/%s/fakenvml", getcwd(buf, 200) ? buf : ".",
             getenv("ST_BUILD") ? getenv("ST_BUILD") : "build");
    fd = buf;
#endif
    snprintf(f->lib[0], sizeof f->lib[0], "%s/libnvidia-ml.so.1", fd);
    snprintf(f->lib[1], sizeof f->lib[1], "%s/api2/libnvidia-ml.so.1", fd);
    snprintf(f->lib[2], sizeof f->lib[2], "%s/api1/libnvidia-ml.so.1", fd);
    setenv("FAKE_NVML_SCRIPT", f->script, 1);
    setenv("FAKE_NVML_LOG", f->log, 1);
    unsetenv("ST_NVML_LIB");
    *state = f;
    (void)buf;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    unlink(f->script);
    unlink(f->log);
    rmdir(f->dir);
    free(f);
    return 0;
}

static void write_script(fixture *f, const char *text)
{
    FILE *fp = fopen(f->script, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
    unlink(f->log);
}

static void read_log(fixture *f, char *buf, size_t len)
{
    FILE *fp = fopen(f->log, "r");
    size_t n = fp ? fread(buf, 1, len - 1, fp) : 0;
    buf[n] = '\0';
    if (fp)
        fclose(fp);
}

static st_gpu *open_ok(const char *lib)
{
    st_gpu *g = NULL;
    st_error err;
    st_error_clear(&err);
    int rc = st_gpu_open(&g, lib, &err);
    if (rc != ST_OK)
        print_error("st_gpu_open(%s): %s\n", lib, err.msg);
    assert_int_equal(rc, ST_OK);
    assert_non_null(g);
    return g;
}

/* Two devices; pid 1001 on both, 1002 compute and graphics on device 0,
 * 1003 not watched, 1004 graphics only, 1005 watched but on no GPU. */
static const char main_script[] =
    "device 20G 141G NVIDIA H200 (fake 0)\n"
    "device 3G 80G NVIDIA A100 (fake 1)\n"
    "proc 0 1001 1G c\n"
    "proc 1 1001 512M c\n"
    "proc 0 1002 300M c\n"
    "proc 0 1002 300M g\n"
    "proc 0 1003 5G c\n"
    "proc 1 1004 7M g\n"
    "proc 1 1003 2G c\n";
static const int32_t main_pids[] = {1001, 1002, 1004, 1005};

static void check_main_sums(const char *lib)
{
    st_gpu *g = open_ok(lib);
    uint64_t total = 1, per[4] = {9, 9, 9, 9};
    st_error err;
    const st_gpu_device *d = NULL;

    assert_int_equal(st_gpu_read(g, main_pids, 4, &total, per, &err), ST_OK);
    assert_int_equal(per[0], 1 * GIB + 512 * MIB);
    assert_int_equal(per[1], 300 * MIB);
    assert_int_equal(per[2], 7 * MIB);
    assert_int_equal(per[3], 0);
    assert_int_equal(total, 1 * GIB + 512 * MIB + 300 * MIB + 7 * MIB);

    assert_int_equal(st_gpu_devices(g, &d), 2);
    assert_string_equal(d[0].name, "NVIDIA H200 (fake 0)");
    assert_string_equal(d[1].name, "NVIDIA A100 (fake 1)");
    assert_int_equal(d[0].used, 20 * GIB);
    assert_int_equal(d[0].total, 141 * GIB);
    assert_int_equal(d[1].used, 3 * GIB);
    assert_int_equal(d[1].total, 80 * GIB);

    /* a second read reuses the buffer and gives the same; per_pid optional */
    assert_int_equal(st_gpu_read(g, main_pids, 4, &total, NULL, &err), ST_OK);
    assert_int_equal(total, 1 * GIB + 812 * MIB + 7 * MIB);
    /* only pids in the set count */
    assert_int_equal(st_gpu_read(g, main_pids + 2, 2, &total, per, &err), ST_OK);
    assert_int_equal(total, 7 * MIB);
    st_gpu_close(g);
}

static void test_sums(void **state)
{
    fixture *f = *state;
    write_script(f, main_script);
    check_main_sums(f->lib[0]);
}

static void test_sums_32_byte_layout(void **state)
{
    fixture *f = *state;
    char s[1024];
    snprintf(s, sizeof s, "%slayout 32\n", main_script);
    write_script(f, s);
    check_main_sums(f->lib[0]); /* _v3 with R535's 32-byte entries */
    check_main_sums(f->lib[1]); /* and through _v2 */
}

static void test_sums_older_apis(void **state)
{
    fixture *f = *state;
    write_script(f, main_script);
    check_main_sums(f->lib[1]); /* nvmlInit, _v2 lists (24 bytes) */
    check_main_sums(f->lib[2]); /* unversioned lists (16 bytes) */
}

static void test_not_available_skipped(void **state)
{
    fixture *f = *state;
    static const int32_t pids[] = {2001, 2002, 2003};
    uint64_t total, per[3];
    st_error err;
    write_script(f, "device 1G 10G X\ndevice 1G 10G Y\n"
                    "proc 0 2001 na c\nproc 1 2001 64M c\n"
                    "proc 0 2002 na c\nproc 0 2002 na g\n"
                    "proc 1 2003 100M c\nproc 1 2003 120M g\n");
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, pids, 3, &total, per, &err), ST_OK);
    assert_int_equal(per[0], 64 * MIB);
    assert_int_equal(per[1], 0);
    assert_int_equal(per[2], 120 * MIB); /* once per device: the larger */
    assert_int_equal(total, 184 * MIB);
    st_gpu_close(g);
}

static void test_many_processes(void **state)
{
    fixture *f = *state;
    char *s = malloc(300 * 40 + 64);
    int32_t pids[150];
    uint64_t total;
    st_error err;
    size_t off;
    assert_non_null(s);
    off = (size_t)sprintf(s, "device 1G 100G Big\n");
    for (int i = 0; i < 300; i++)
        off += (size_t)sprintf(s + off, "proc 0 %d %dM c\n", 3000 + i, i + 1);
    for (int i = 0; i < 150; i++)
        pids[i] = 3000 + 2 * i; /* (i+1) MiB for even i: 1 + 3 + ... + 299 */
    write_script(f, s);
    free(s);
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, pids, 150, &total, NULL, &err), ST_OK);
    assert_int_equal(total, 150ull * 150ull * MIB);
    st_gpu_close(g);
}

static void test_insufficient_size_retry(void **state)
{
    fixture *f = *state;
    uint64_t total;
    st_error err;
    char s[1024];
    snprintf(s, sizeof s, "%sinsufficient 2\n", main_script);
    write_script(f, s);
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, main_pids, 4, &total, NULL, &err), ST_OK);
    assert_int_equal(total, 1 * GIB + 812 * MIB + 7 * MIB);
    st_gpu_close(g);

    /* a list that never fits gives an error, not a hang */
    snprintf(s, sizeof s, "%sinsufficient 1000\n", main_script);
    write_script(f, s);
    g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, main_pids, 4, &total, NULL, &err), ST_EAGAIN);
    assert_int_equal(total, 0);
    assert_non_null(strstr(err.msg, "kept growing"));
    st_gpu_close(g);
}

struct read_fail_case {
    const char *knob;
    int status;
    const char *msg;
};

static void test_read_errors(void **state)
{
    fixture *f = *state;
    static const struct read_fail_case cases[] = {
        {"fail compute 15\n", ST_EIO, "compute processes on GPU 0 (NVIDIA H200 (fake 0)): GPU is lost (15)"},
        {"fail graphics 15\n", ST_EIO, "graphics processes on GPU 0"},
        {"fail compute 4\n", ST_EPERM, "Insufficient Permissions (4)"},
        {"fail memory 15\n", ST_EIO, "memory of GPU 0 (NVIDIA H200 (fake 0)): GPU is lost (15)"},
        {"fail compute 3\nfail graphics 3\n", ST_ENOTSUP, "not supported"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char s[1024];
        uint64_t total = 5, per[4] = {5, 5, 5, 5};
        st_error err;
        snprintf(s, sizeof s, "%s%s", main_script, cases[i].knob);
        write_script(f, s);
        st_gpu *g = open_ok(f->lib[0]);
        st_error_clear(&err);
        int rc = st_gpu_read(g, main_pids, 4, &total, per, &err);
        if (rc != cases[i].status || !strstr(err.msg, cases[i].msg))
            print_error("case %zu: rc %d msg '%s'\n", i, rc, err.msg);
        assert_int_equal(rc, cases[i].status);
        assert_int_equal(err.code, cases[i].status);
        assert_non_null(strstr(err.msg, cases[i].msg));
        assert_int_equal(total, 0);
        assert_int_equal(per[0] + per[1] + per[2] + per[3], 0);
        /* and again: still an error, still no crash */
        assert_int_equal(st_gpu_read(g, main_pids, 4, &total, per, &err), cases[i].status);
        st_gpu_close(g);
    }
}

static void test_compute_not_supported_uses_graphics(void **state)
{
    fixture *f = *state;
    char s[1024];
    uint64_t total, per[4];
    st_error err;
    snprintf(s, sizeof s, "%sfail compute 3\n", main_script);
    write_script(f, s);
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, main_pids, 4, &total, per, &err), ST_OK);
    assert_int_equal(per[1], 300 * MIB); /* 1002's graphics entry */
    assert_int_equal(per[2], 7 * MIB);
    assert_int_equal(per[0], 0);         /* 1001 is compute only */
    assert_int_equal(total, 307 * MIB);
    st_gpu_close(g);
}

static void test_gpu_lost_mid_run(void **state)
{
    fixture *f = *state;
    uint64_t total;
    st_error err;
    write_script(f, "device 1G 10G Only\nproc 0 42 10M c\nfail memory 15 after 1\n");
    static const int32_t pid = 42;
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, &pid, 1, &total, NULL, &err), ST_OK);
    assert_int_equal(total, 10 * MIB);
    assert_int_equal(st_gpu_read(g, &pid, 1, &total, NULL, &err), ST_EIO);
    assert_non_null(strstr(err.msg, "GPU is lost (15)"));
    st_gpu_close(g);
}

static void test_no_pids(void **state)
{
    fixture *f = *state;
    uint64_t total = 7;
    st_error err;
    const st_gpu_device *d;
    write_script(f, main_script);
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, NULL, 0, &total, NULL, &err), ST_OK);
    assert_int_equal(total, 0);
    assert_int_equal(st_gpu_devices(g, &d), 2);
    assert_int_equal(d[1].total, 80 * GIB);
    st_gpu_close(g);
}

static void test_close_shuts_down(void **state)
{
    fixture *f = *state;
    char log[256];
    uint64_t total;
    write_script(f, main_script);
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_read(g, main_pids, 4, &total, NULL, NULL), ST_OK);
    st_gpu_close(g);
    read_log(f, log, sizeof log);
    assert_string_equal(log, "init 0\nshutdown 0\n");
    st_gpu_close(NULL);
}

struct open_fail_case {
    const char *script;
    const char *msg;
    const char *log;
};

static void test_open_failures(void **state)
{
    fixture *f = *state;
    static const struct open_fail_case cases[] = {
        {"fail init 9\n", "NVML init failed: Driver Not Loaded (9): no GPU lane", "init 9\n"},
        {"", "NVML: no NVIDIA GPU", "init 0\nshutdown 0\n"},
        {"device 1G 2G A\nfail count 15\n", "NVML: cannot count GPUs: GPU is lost (15): no GPU lane",
         "init 0\nshutdown 0\n"},
        {"device 1G 2G A\nfail handle 4\n",
         "NVML: no accessible NVIDIA GPU: Insufficient Permissions (4): no GPU lane",
         "init 0\nshutdown 0\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st_gpu *g = (st_gpu *)&g;
        st_error err;
        char log[256];
        write_script(f, cases[i].script);
        assert_int_equal(st_gpu_open(&g, f->lib[0], &err), ST_ENOTSUP);
        assert_null(g);
        assert_int_equal(err.code, ST_ENOTSUP);
        assert_string_equal(err.msg, cases[i].msg);
        read_log(f, log, sizeof log);
        assert_string_equal(log, cases[i].log);
    }
}

static void test_name_fallback(void **state)
{
    fixture *f = *state;
    const st_gpu_device *d;
    write_script(f, "device 1G 2G A\nfail name 3\n");
    st_gpu *g = open_ok(f->lib[0]);
    assert_int_equal(st_gpu_devices(g, &d), 1);
    assert_string_equal(d[0].name, "GPU 0");
    st_gpu_close(g);
}

static void test_missing_library(void **state)
{
    st_gpu *g = (st_gpu *)&g;
    st_error err;
    (void)state;
    assert_int_equal(st_gpu_open(&g, "/nonexistent/libnvidia-ml.so.1", &err), ST_ENOTSUP);
    assert_null(g);
    assert_string_equal(err.msg, "NVML not found (/nonexistent/libnvidia-ml.so.1): no GPU lane");

    /* a library that is not NVML */
    assert_int_equal(st_gpu_open(&g, "libm.so.6", &err), ST_ENOTSUP);
    assert_string_equal(err.msg, "NVML (libm.so.6) lacks nvmlInit: no GPU lane");

    /* the default search, where this machine has no NVIDIA driver */
    void *real = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!real)
        real = dlopen("libnvidia-ml.so", RTLD_NOW | RTLD_LOCAL);
    if (real) {
        dlclose(real);
        print_message("SKIP: no NVML: a real NVML is installed (the default search finds it)\n");
        skip();
    }
    assert_int_equal(st_gpu_open(&g, NULL, &err), ST_ENOTSUP);
    assert_string_equal(err.msg, "NVML not found (libnvidia-ml.so.1): no GPU lane");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sums),
        cmocka_unit_test(test_sums_32_byte_layout),
        cmocka_unit_test(test_sums_older_apis),
        cmocka_unit_test(test_not_available_skipped),
        cmocka_unit_test(test_many_processes),
        cmocka_unit_test(test_insufficient_size_retry),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_compute_not_supported_uses_graphics),
        cmocka_unit_test(test_gpu_lost_mid_run),
        cmocka_unit_test(test_no_pids),
        cmocka_unit_test(test_close_shuts_down),
        cmocka_unit_test(test_open_failures),
        cmocka_unit_test(test_name_fallback),
        cmocka_unit_test(test_missing_library),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
#endif
