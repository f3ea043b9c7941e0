/* test_monitor_mps.c: the start record's MPS keys (core/run/monitor_mps.c,
 * docs/trace-format.md) over the scripted backend of tests/fakeplat.c,
 * given a Metal device (mps_device) and an environment (environ_var) of the
 * test's: the recommended working set and wired limit as the device says,
 * the job's ratios as it was launched (-p: through environ_var; a launched
 * job: its own environment), "not readable" when the backend refuses, and
 * nothing on a platform without Metal.  Expected values are the script's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "stagetop/monitor.h"
#include "stagetop/trace.h"
#include "../../core/run/monitor_internal.h"
#include "fakeplat.h"

#include "monitor_script.h"

static int env_refused;
static const char *env_high = "0.8", *env_low;

static void fake_mps(st_mps_device *d)
{
    d->has_recommended = 1;
    d->recommended_max = 40200896512ull; /* 37.44 GiB */
    d->has_wired_limit = 1;
    d->wired_limit = 40960ull << 20;
}

static int fake_env(st_backend *b, st_proc_id id, const char *name, char *buf, size_t len,
                    st_error *err)
{
    (void)b, (void)id;
    buf[0] = '\0';
    if (env_refused)
        return st_error_set(err, ST_EPERM, 0, "pid 1000 belongs to another user");
    const char *v = !strcmp(name, "PYTORCH_MPS_HIGH_WATERMARK_RATIO") ? env_high
                  : !strcmp(name, "PYTORCH_MPS_LOW_WATERMARK_RATIO") ? env_low : NULL;
    if (v)
        snprintf(buf, len, "%s", v);
    return ST_OK;
}

/* The meta's member key as text ("" when absent), its number's text. */
static void member(const st_trace_meta *m, const char *key, char *out, size_t size)
{
    st_meta_iter it;
    st_meta_item item;
    out[0] = '\0';
    st_meta_iter_init(&it, m);
    while (st_meta_iter_next(&it, &item, sizeof item.str))
        if (!strcmp(item.key, key)) {
            if (item.type == ST_META_NUM)
                snprintf(out, size, "%.*s", (int)item.num_len, item.num);
            else
                snprintf(out, size, "%s", item.str);
            return;
        }
}

static void open_on(st_monitor *m, const st_platform *plat, st_monitor_opts *o)
{
    st_error e;
    st_error_clear(&e);
    fakeplat_on_open(script);
    assert_int_equal(st_monitor_open(m, plat, o, 1000, NULL, 10.0, &e), ST_OK);
}

static void attached_job_as_launched(void **state)
{
    (void)state;
    st_platform mac = fakeplat;
    mac.mps_device = fake_mps;
    mac.environ_var = fake_env;
    st_monitor m;
    st_monitor_opts o;
    char v[128];
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    env_refused = 0, env_high = "0.8", env_low = NULL;
    open_on(&m, &mac, &o);
    member(&m.meta, "mps_recommended_max", v, sizeof v);
    assert_string_equal(v, "40200896512");
    member(&m.meta, "mps_wired_limit", v, sizeof v);
    assert_string_equal(v, "42949672960");
    member(&m.meta, "mps_high_watermark_ratio", v, sizeof v);
    assert_string_equal(v, "0.8");
    member(&m.meta, "mps_low_watermark_ratio", v, sizeof v);
    assert_string_equal(v, ""); /* unset: absent */
    member(&m.meta, "mps_env", v, sizeof v);
    assert_string_equal(v, "as launched");
    st_monitor_close(&m, 0, NULL);
}

static void refused_environment_is_said(void **state)
{
    (void)state;
    st_platform mac = fakeplat;
    mac.mps_device = fake_mps;
    mac.environ_var = fake_env;
    st_monitor m;
    st_monitor_opts o;
    char v[128];
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    env_refused = 1;
    open_on(&m, &mac, &o);
    member(&m.meta, "mps_high_watermark_ratio", v, sizeof v);
    assert_string_equal(v, "");
    member(&m.meta, "mps_env", v, sizeof v);
    assert_string_equal(v, "not readable: pid 1000 belongs to another user");
    member(&m.meta, "mps_recommended_max", v, sizeof v); /* the machine's half stays */
    assert_string_equal(v, "40200896512");
    st_monitor_close(&m, 0, NULL);
    env_refused = 0;
}

static void launched_job_own_environment(void **state)
{
    (void)state;
    st_platform mac = fakeplat;
    mac.mps_device = fake_mps;
    mac.environ_var = fake_env; /* not asked: the job's environment is known */
    char *env[] = {"HOME=/Users/ann", "PYTORCH_MPS_LOW_WATERMARK_RATIO=0.5",
                   "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.6", NULL};
    st_monitor m;
    st_monitor_opts o;
    char v[128];
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.job_env = env;
    o.job_log = "/tmp/job.log";
    open_on(&m, &mac, &o);
    member(&m.meta, "mps_high_watermark_ratio", v, sizeof v);
    assert_string_equal(v, "0.6");
    member(&m.meta, "mps_low_watermark_ratio", v, sizeof v);
    assert_string_equal(v, "0.5");
    member(&m.meta, "job_log", v, sizeof v); /* the other key is kept */
    assert_string_equal(v, "/tmp/job.log");
    st_monitor_close(&m, 0, NULL);
}

static void no_metal_no_keys(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 10.0); /* fakeplat: no mps_device */
    assert_null(m.meta.extra);
    st_monitor_close(&m, 0, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(attached_job_as_launched),
        cmocka_unit_test(refused_environment_is_said),
        cmocka_unit_test(launched_job_own_environment),
        cmocka_unit_test(no_metal_no_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
