/* test_darwin_sys.c: the REAL core/platform/platform_darwin.c over the scripted
 * kernel of fake_darwin.c, as test_darwin.c: the system's numbers, command
 * lines and the process list.  Expected values come from the script. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "darwin_check.h"
#include "fake_iokit.h"

static void test_system(void **state)
{
    st_backend *b = *state;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_sys_mem s;
    st_error err;
    static const int levels[] = {1, 2, 4};

    k->swap_total = 6ull << 30;
    k->swap_used = (3ull << 30) + 12345;
    k->swap_avail = k->swap_total - k->swap_used;
    k->level = 37;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_true(s.mem_total == 48ull << 30); /* read at open */
    assert_true(s.swap_total == 6ull << 30);
    assert_true(s.swap_used == (3ull << 30) + 12345);
    assert_int_equal(s.level_c, 3700);
    assert_int_equal(s.pressure_c, 100);
    assert_int_equal(s.valid, ST_SYS_SWAP | ST_SYS_LEVEL | ST_SYS_PRESSURE | ST_SYS_MEMTOTAL |
                                  ST_SYS_SWAPTOTAL | ST_SYS_COMPRESSED | ST_SYS_GPU_SYSTEM);
    /* the fake IOKit's one accelerator (test_darwin_gpu.c checks the lane) */
    assert_true(s.gpu_system == (uint64_t)fake_iokit_knobs_get()->services[0].in_use);
    for (size_t i = 0; i < 3; i++) {
        k->pressure = levels[i];
        assert_int_equal(P->read_system(b, &s, &err), ST_OK);
        assert_int_equal(s.pressure_c, levels[i] * 100);
    }
    k->level = 0;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_true(s.valid & ST_SYS_LEVEL);
    assert_int_equal(s.level_c, 0);
    k->level = 100;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_int_equal(s.level_c, 10000);

    /* Nonsense values and missing names are left invalid. */
    k->level = 250;
    k->pressure = 3;
    k->swap_ok = 0;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_int_equal(s.valid, ST_SYS_MEMTOTAL | ST_SYS_COMPRESSED | ST_SYS_GPU_SYSTEM);
    k->level = -1;
    k->pressure_ok = 0;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_false(s.valid & (ST_SYS_LEVEL | ST_SYS_PRESSURE | ST_SYS_SWAP));
}

static void test_system_unreadable(void **state)
{
    st_backend *b = NULL;
    fake_darwin_knobs *k = fake_darwin_knobs_get();
    st_sys_mem s;
    st_error err;

    (void)state;
    k->swap_ok = k->level_ok = k->pressure_ok = k->memsize_ok = k->vm_stats_ok = 0;
    fake_iokit_knobs_get()->iokit_missing = 1;
    assert_int_equal(P->open(&b, &err), ST_OK);
    assert_int_equal(P->read_system(b, &s, &err), ST_EIO);
    assert_int_equal(s.valid, 0);
    assert_non_null(strstr(err.msg, "vm.swapusage"));
    /* hw.memsize comes back later: picked up on the next read. */
    k->memsize_ok = 1;
    assert_int_equal(P->read_system(b, &s, &err), ST_OK);
    assert_true(s.mem_total == 48ull << 30);
    P->close(b);
}

static void test_command(void **state)
{
    st_backend *b = *state;
    char buf[64];
    st_error err;
    static const char *const argv[] = {"python3", "generate.py", "--steps", "30"};
    fake_proc *p = fake_darwin_find(100);

    fake_darwin_set_argv(p, "/opt/homebrew/bin/python3.12", 4, argv);
    assert_int_equal(P->command(b, id_of(100), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "python3 generate.py --steps 30");
    /* Truncated to len - 1. */
    assert_int_equal(P->command(b, id_of(100), buf, 12, &err), ST_OK);
    assert_string_equal(buf, "python3 gen");
    assert_int_equal(P->command(b, id_of(100), buf, 0, &err), ST_EINVAL);

    /* Another user's process: KERN_PROCARGS2 refused, the path is used. */
    fake_darwin_find(102)->other_user = 1;
    assert_int_equal(P->command(b, id_of(102), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    /* ... and without a path, p_comm. */
    fake_darwin_find(102)->path[0] = '\0';
    assert_int_equal(P->command(b, id_of(102), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "worker");
    /* A zombie has no arguments either. */
    fake_darwin_find(104)->zombie = 1;
    fake_darwin_find(104)->path[0] = '\0';
    assert_int_equal(P->command(b, id_of(104), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "helper");
    assert_int_equal(P->command(b, (st_proc_id){4242, 1}, buf, sizeof buf, &err), ST_ESRCH);
    assert_string_equal(buf, "");
}

/* Malformed KERN_PROCARGS2 buffers: bounded parsing, then the fallback. */
static void test_command_malformed(void **state)
{
    st_backend *b = *state;
    char buf[64];
    st_error err;
    fake_proc *p = fake_darwin_find(101);
    static const char no_nul[] = "\x02\x00\x00\x00/bin/sh";                   /* path runs off */
    static const char huge_argc[] = "\x7f\xff\xff\x7f/bin/sh\0\0sh\0-c";      /* argc lies */
    static const char negative[] = "\xff\xff\xff\xff/bin/sh\0sh";
    static const char short_buf[] = "\x01\x00";
    static const char ctrl[] = "\x02\x00\x00\x00/x\0x\0\x1b[2Jboom";

    p->raw_args = no_nul;
    p->raw_len = sizeof no_nul - 1;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    p->raw_args = huge_argc;
    p->raw_len = sizeof huge_argc - 1; /* ends inside "-c", with no NUL */
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "sh -c");
    p->raw_args = negative;
    p->raw_len = sizeof negative;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    p->raw_args = short_buf;
    p->raw_len = 2;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin/worker");
    /* Control bytes are passed through raw; the caller makes them visible. */
    p->raw_args = ctrl;
    p->raw_len = sizeof ctrl;
    assert_int_equal(P->command(b, id_of(101), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "x \x1b[2Jboom");
}

static void test_list_all(void **state)
{
    st_backend *b = *state;
    st_proc_vec v = {0};
    st_error err;

    assert_int_equal(P->list_all(b, &v, &err), ST_OK);
    assert_int_equal(v.len, fake_darwin_count() - 1); /* no kernel_task */
    assert_false(in_vec(&v, 0));
    for (size_t i = 0; i < v.len; i++) {
        const fake_proc *p = fake_darwin_find(v.v[i].id.pid);
        assert_non_null(p);
        assert_true(v.v[i].id.start == p->start_us);
        assert_int_equal(v.v[i].ppid, p->ppid);
    }
    st_proc_vec_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_system),
        T(test_system_unreadable),
        T(test_command),
        T(test_command_malformed),
        T(test_list_all),
    };
    return cmocka_run_group_tests_name("darwin backend (shim): system, commands, list", tests, NULL, NULL);
}
