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
#include "fakeplat.h"

/* A root and its child, both another user's: every signal is refused
 * (tests/fakeplat.c). */
static int script(st_backend *b, st_error *err)
{
    (void)err;
    for (int i = 0; i < 2; i++) {
        st_proc_mem *p = fakeplat_add(b, 2000 + i, 77, i ? 2000 : 1);
        p->footprint = 8u << 20;
        p->rss = 9u << 20;
        p->valid = ST_PM_FOOTPRINT | ST_PM_RSS;
    }
    b->sys.mem_total = 16ull << 30;
    b->sys.level_c = 5000; /* 50 %: under --kill-free 60 */
    b->sys.valid = ST_SYS_LEVEL | ST_SYS_MEMTOTAL;
    b->command_prefix = "theirs-";
    b->refuse_signals = 1;
    return ST_OK;
}

static void open_mon(st_monitor *m, st_monitor_opts *o)
{
    st_error e;
    o->no_gpu = 1;
    o->interval = 0.1;
    fakeplat_on_open(script);
    if (st_monitor_open(m, &fakeplat, o, 2000, NULL, 0.0, &e) != ST_OK)
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
