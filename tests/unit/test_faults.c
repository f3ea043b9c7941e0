/* Regression tests for what the fault suite (tests/faults/) found, on a
 * scripted backend whose processes refuse every signal (another user's):
 *  - k on such a job must not enter KILLING (the screen then said KILLING
 *    for ever, and q had to be pressed twice);
 *  - a guard whose pause or kill reached no process must say so
 *    (ST_WARN_GUARD) and claim nothing: not tripped, so no "job paused" and no
 *    exit code 3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/monitor.h"

struct st_backend {
    st_proc_mem procs[2]; /* a root and its child, both another user's */
    int n_signals;        /* signals attempted */
};

static int f_open(st_backend **out, st_error *err)
{
    (void)err;
    struct st_backend *b = calloc(1, sizeof *b);
    for (int i = 0; i < 2; i++) {
        b->procs[i].id.pid = 2000 + i;
        b->procs[i].id.start = 77;
        b->procs[i].ppid = i ? 2000 : 1;
        b->procs[i].footprint = 8u << 20;
        b->procs[i].rss = 9u << 20;
        b->procs[i].valid = ST_PM_FOOTPRINT | ST_PM_RSS;
    }
    *out = b;
    return ST_OK;
}

static void f_close(st_backend *b) { free(b); }

static int f_identify(st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    for (int i = 0; i < 2; i++)
        if (b->procs[i].id.pid == pid) {
            *out = b->procs[i].id;
            return ST_OK;
        }
    return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
}

static int f_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    st_proc_vec_clear(out);
    for (int i = 0; i < 2; i++) {
        st_proc_ref r = {b->procs[i].id, b->procs[i].ppid};
        if (i == 0 && b->procs[0].id.pid != root.pid)
            return st_error_set(err, ST_ESRCH, ESRCH, "gone");
        st_proc_vec_push(out, &r, err);
    }
    return ST_OK;
}

static int f_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err)
{
    for (int i = 0; i < 2; i++)
        if (b->procs[i].id.pid == id.pid) {
            *out = b->procs[i];
            return ST_OK;
        }
    return st_error_set(err, ST_ESRCH, ESRCH, "gone");
}

static int f_read_system(st_backend *b, st_sys_mem *out, st_error *err)
{
    (void)b;
    (void)err;
    memset(out, 0, sizeof *out);
    out->mem_total = 16ull << 30;
    out->level_c = 5000; /* 50 %: under --kill-free 60 */
    out->valid = ST_F_LEVEL | ST_SYS_MEMTOTAL;
    return ST_OK;
}

static int f_command(st_backend *b, st_proc_id id, char *buf, size_t len, st_error *err)
{
    (void)b;
    (void)err;
    snprintf(buf, len, "theirs-%d", (int)id.pid);
    return ST_OK;
}

static int f_list_all(st_backend *b, st_proc_vec *out, st_error *err)
{
    return f_descendants(b, b->procs[0].id, out, err);
}

static int f_send_signal(st_backend *b, st_proc_id id, int sig, st_error *err)
{
    b->n_signals++;
    return st_error_set(err, ST_EPERM, EPERM, "signal %d to process %d: Operation not permitted",
                        sig, (int)id.pid);
}

static const st_platform refusing = {
    .name = "fake", .footprint_metric = "fake", .peak_metric = "fake",
    .open = f_open, .close = f_close, .identify = f_identify, .descendants = f_descendants,
    .read_proc = f_read_proc, .release = NULL, .read_system = f_read_system,
    .command = f_command, .list_all = f_list_all, .send_signal = f_send_signal,
};

static void open_mon(st_monitor *m, st_monitor_opts *o)
{
    st_error e;
    o->no_gpu = 1;
    o->interval = 0.1;
    if (st_monitor_open(m, &refusing, o, 2000, NULL, 0.0, &e) != ST_OK)
        fail_msg("open: %s", e.msg);
}

static void refused_kill_is_not_killing(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_error e;
    st_monitor_opts_default(&o);
    open_mon(&m, &o);
    assert_int_equal(st_monitor_step(&m, 0.0, &e), ST_OK);
    assert_int_equal(st_monitor_kill(&m, 0.05, &e), ST_EPERM);
    assert_non_null(strstr(e.msg, "not permitted"));
    assert_int_equal(m.job.signalled, 0);
    assert_int_equal(m.job.refused, 2);
    assert_int_equal(m.job.state, ST_JOB_RUNNING); /* was ST_JOB_KILLING */
    /* past any grace period: no SIGKILL round, still running, no exit */
    for (int k = 1; k < 100; k++)
        assert_int_equal(st_monitor_step(&m, k * 0.1, &e), ST_OK);
    assert_int_equal(m.job.state, ST_JOB_RUNNING);
    st_monitor_close(&m, 0, NULL);
}

static void refused_guard_claims_nothing(void **state)
{
    (void)state;
    for (int action = ST_GUARD_PAUSE; action <= ST_GUARD_KILL; action++) {
        st_monitor m;
        st_monitor_opts o;
        st_error e;
        st_monitor_opts_default(&o);
        o.guard.has_kill_free = 1;
        o.guard.kill_free_c = 6000;
        o.guard.action = action;
        open_mon(&m, &o);
        for (int k = 0; k < 5; k++)
            assert_int_equal(st_monitor_step(&m, k * 0.1, &e), ST_OK);
        int budget = 0;
        for (size_t i = 0; i < m.events.len; i++)
            budget += m.events.v[i].kind == ST_EV_BUDGET;
        assert_int_equal(budget, 1);             /* the limit was crossed, once */
        assert_int_equal(m.guard_tripped, 0);    /* but not acted on */
        assert_non_null(strstr(st_monitor_warning(&m, ST_WARN_GUARD), action == ST_GUARD_KILL ? "could not kill" : "could not pause"));
        assert_non_null(strstr(st_monitor_warning(&m, ST_WARN_GUARD), "not permitted"));
        assert_int_equal(m.job.state, ST_JOB_RUNNING);
        st_monitor_close(&m, 0, NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_kill_is_not_killing),
        cmocka_unit_test(refused_guard_claims_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
