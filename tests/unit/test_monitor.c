/* The monitor's data path with a scripted backend plugged into the same
 * platform table: deadlines without drift, dropped deadlines, the guard's
 * events and actions, the exit event, the record stream, --events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/run/monitor_internal.h" /* the tests look inside */
#include "fakeplat.h"

#include "monitor_script.h"

/* ---- tests ----------------------------------------------------------------- */

static void sums_and_system_fields(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 100.0);
    assert_int_equal(st_monitor_step(&m, 100.0, NULL), ST_OK);
    const st_sample *s = st_ring_last(&m.ring);
    assert_non_null(s);
    assert_int_equal(s->procs, 3);
    assert_int_equal(s->footprint, (1ull + 2 + 3) << 20);
    assert_int_equal(s->rss, (2ull + 3 + 4) << 20);
    assert_int_equal(s->swap_used, 1ull << 30);
    assert_int_equal(s->level_c, 8000);
    assert_true(st_sample_has(s, ST_F_FOOTPRINT | ST_F_RSS | ST_F_SWAP | ST_F_LEVEL | ST_F_PROCS));
    assert_false(st_sample_has(s, ST_F_GPU));
    assert_int_equal(m.summary.kernel_peak, 5ull << 20); /* max per-process peak */
    assert_string_equal(m.meta.command, "fake-1000");
    assert_string_equal(m.meta.footprint_metric, "fake_footprint");
    st_monitor_close(&m, 0, NULL);
}

static void deadlines_do_not_drift(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.interval = 0.01;
    open_mon(&m, &o, 50.0);
    /* Wake up a little late every time: the deadlines stay on the grid. */
    for (int k = 0; k < 1000; k++) {
        double dl = st_monitor_deadline(&m);
        assert_true(dl > 50.0 + k * 0.01 - 1e-9 && dl < 50.0 + k * 0.01 + 1e-9);
        assert_int_equal(st_monitor_step(&m, dl + 0.004, NULL), ST_OK);
    }
    assert_int_equal(m.dropped, 0);
    assert_int_equal(m.ring.total, 1000);
    assert_int_equal(st_ring_last(&m.ring)->t_ms, 9994);
    /* A stall of 0.1 s skips ten deadlines instead of sampling in a burst. */
    double dl = st_monitor_deadline(&m);
    assert_int_equal(st_monitor_step(&m, dl + 0.1, NULL), ST_OK);
    assert_int_equal(m.dropped, 10);
    assert_true(st_monitor_deadline(&m) > dl + 0.1);
    st_monitor_close(&m, 0, NULL);
}

/* The script's pids (1000 and up) are fake, but the rule that stagetop
 * never signals its own ancestors is checked against the real ones (the
 * fake backend names no parents: jobsig.c's ancestry_build).  After the
 * machine's pids wrap, a real ancestor of this test (make, the runner's
 * shell) can be 1000..1000+NPROC-1: then pausing rightly refuses it, and a
 * pause test cannot say anything.  It skips, saying so.  (Linux's /proc;
 * elsewhere the chain is not walked.) */
static int real_ancestor_is_fake(void)
{
    long pid = (long)getpid();
    for (int depth = 0; pid > 1 && depth < 64; depth++) {
        if (pid >= 1000 && pid < 1000 + NPROC) {
            print_message("SKIP: a real ancestor of this test has pid %ld, one of the script's fake "
                          "pids: stagetop rightly refuses to pause it\n", pid);
            return 1;
        }
        char path[64], line[256];
        long ppid = 0;
        snprintf(path, sizeof path, "/proc/%ld/status", pid); /* portable: Linux only, fopen fails elsewhere */
        FILE *f = fopen(path, "r"); /* portable: Linux only, no /proc elsewhere */
        if (!f)
            return 0;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "PPid: %ld", &ppid) == 1)
                break;
        fclose(f);
        pid = ppid;
    }
    return 0;
}

static void guard_pauses_then_rearms_on_resume(void **state)
{
    (void)state;
    if (real_ancestor_is_fake())
        skip();
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.guard.has_swap_budget = 1;
    o.guard.swap_budget = 256ull << 20;
    o.guard.action = ST_GUARD_PAUSE;
    open_mon(&m, &o, 0);
    st_monitor_step(&m, 0, NULL);
    the_backend->sys.swap_used += 200ull << 20; /* under budget */
    st_monitor_step(&m, 0.5, NULL);
    assert_int_equal(count_kind(&m, ST_EV_BUDGET), 0);
    the_backend->sys.swap_used += 100ull << 20; /* 300 MiB over the start */
    st_monitor_step(&m, 1.0, NULL);
    assert_int_equal(count_kind(&m, ST_EV_BUDGET), 1);
    assert_int_equal(count_kind(&m, ST_EV_PAUSE), 1);
    assert_int_equal(m.job.state, ST_JOB_PAUSED);
    /* the root was stopped first, then its children */
    assert_true(the_backend->n_signals >= 3);
    assert_int_equal(the_backend->signals[0], SIGSTOP);
    assert_int_equal(the_backend->signalled_pid[0], 1000);
    const st_event *b = &m.events.v[0];
    assert_int_equal(b->value, 300ll << 20);
    assert_int_equal(b->limit, 256ll << 20);
    st_monitor_step(&m, 1.5, NULL); /* still over: trips only once */
    assert_int_equal(count_kind(&m, ST_EV_BUDGET), 1);
    assert_false(m.verdict.since_resume); /* the first: since the job started */
    assert_int_equal(st_monitor_resume(&m, 2.0, NULL), ST_OK);
    assert_int_equal(count_kind(&m, ST_EV_RESUME), 1);
    /* the budget counts again from the resume, and the alert says so */
    the_backend->sys.swap_used += 300ull << 20;
    st_monitor_step(&m, 2.5, NULL);
    assert_int_equal(count_kind(&m, ST_EV_BUDGET), 2);
    assert_int_equal(m.verdict.value, 300ll << 20); /* not 600 MiB since the start */
    assert_true(m.verdict.since_resume);
    assert_int_equal(st_monitor_resume(&m, 3.0, NULL), ST_OK);
    /* closing does not resume again: the job is not paused */
    int before = the_backend->n_signals;
    st_monitor_close(&m, 0, NULL);
    assert_int_equal(the_backend->n_signals, before);
}

static void close_resumes_a_paused_job(void **state)
{
    (void)state;
    if (real_ancestor_is_fake())
        skip();
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 0);
    st_monitor_step(&m, 0, NULL);
    assert_int_equal(st_monitor_pause(&m, 0.1, NULL), ST_OK);
    struct st_backend *b = the_backend;
    int n = b->n_signals;
    assert_int_equal(n, 3);
    st_monitor_close(&m, 0, NULL);
    assert_int_equal(b->n_signals, 6);
    for (int i = 3; i < 6; i++)
        assert_int_equal(b->signals[i], SIGCONT);
}

static void close_can_leave_it_paused_when_asked(void **state)
{
    (void)state;
    if (real_ancestor_is_fake())
        skip();
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 0);
    st_monitor_step(&m, 0, NULL);
    assert_int_equal(st_monitor_pause(&m, 0.1, NULL), ST_OK);
    st_monitor_close(&m, 1, NULL);
    assert_int_equal(the_backend->n_signals, 3);
}

static void root_exit_gives_an_exit_event(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 0);
    st_monitor_step(&m, 0, NULL);
    for (int i = 0; i < NPROC; i++)
        the_backend->alive[i] = 0;
    st_monitor_step(&m, 0.5, NULL);
    assert_int_equal(m.job.state, ST_JOB_EXITED);
    assert_int_equal(count_kind(&m, ST_EV_EXIT), 1);
    assert_int_equal(st_ring_last(&m.ring)->procs, 0);
    st_monitor_close(&m, 0, NULL);
}

static void followed_events_land_on_our_clock(void **state)
{
    (void)state;
    char path[] = "/tmp/st-follow-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* the file does not exist yet when stagetop starts */
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.events_path = path;
    open_mon(&m, &o, 10.0);
    st_monitor_step(&m, 10.0, NULL);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"type\":\"start\",\"utc\":\"2026-12-02T10:00:00+00:00\",\"interval\":0.5}\n");
    fprintf(f, "{\"type\":\"sample\",\"t\":1.0,\"footprint\":1,\"swap_used\":0,\"level\":90}\n");
    fprintf(f, "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"encode\",\"t\":1.2}\n");
    fprintf(f, "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"te\",\"stage\":\"encode\",");
    fflush(f);
    /* Read at 3.2 s on our clock, just after the job wrote t = 1.2: the
     * offset bound is min(3.2 - 1.0, 3.2 - 1.2) = 2.0. */
    st_monitor_step(&m, 13.2, NULL);
    assert_int_equal(count_kind(&m, ST_EV_STAGE), 1);
    assert_int_equal(m.events.v[0].t_ms, 3200);
    fprintf(f, "\"nbytes\":1024,\"t\":1.4}\nnot json at all\n");
    fclose(f);
    st_monitor_step(&m, 13.5, NULL);
    assert_int_equal(count_kind(&m, ST_EV_LOAD), 1);
    assert_int_equal(m.events.v[1].nbytes, 1024);
    assert_int_equal(m.events.v[1].t_ms, 3400); /* 1.4 + 2.0: late reads don't move it */
    assert_true(m.follow->bad_lines == 1);
    assert_non_null(strstr(st_monitor_warning(&m, ST_WARN_FOLLOW), "line 5"));
    st_monitor_close(&m, 0, NULL);
    unlink(path);
}

/* --report/--plot without a record: the whole run, however short the
 * history.  20,000 samples (200 s at 0.01 s) with a 1 s history: the
 * trace's numbers are the run's (its samples, duration and a peak from
 * long before the history), its points the series' (bounded, the peak
 * kept, the run's first and last time). */
static void whole_run_past_the_history(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.interval = 0.01;
    o.history_s = 1;
    o.whole_run = 1;
    open_mon(&m, &o, 10.0);
    uint64_t x = 88172645463325252ull, spike = 0;
    for (int k = 0; k < 20000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        the_backend->procs[1].footprint = k == 1234 ? 7ull << 30 : (x % 512) << 20; /* random, a spike early */
        assert_int_equal(st_monitor_step(&m, st_monitor_deadline(&m), NULL), ST_OK);
        if (k == 1234)
            spike = st_ring_last(&m.ring)->footprint;
    }
    st_monitor_finish(&m);
    assert_true(st_ring_len(&m.ring) < 200); /* the history holds the last second only */
    st_trace t;
    st_error e;
    uint64_t stand_for = 0;
    assert_int_equal(st_monitor_whole_run(&m, &t, &stand_for, &e), ST_OK);
    assert_int_equal(t.summary.n_samples, 20000);
    assert_int_equal(t.summary.peak_footprint, spike);
    assert_int_equal(t.summary.peak_footprint, m.summary.peak_footprint);
    assert_int_equal(t.summary.first_t_ms, 0);
    assert_int_equal(t.summary.last_t_ms, st_ring_last(&m.ring)->t_ms);
    assert_int_equal(stand_for, 20000); /* decimated: the plot counts the run's samples */
    assert_true(t.n_samples <= 4 * ST_RUNSERIES_COLS && t.n_samples < 20000);
    uint64_t top = 0;
    for (size_t i = 0; i < t.n_samples; i++)
        top = t.samples[i].footprint > top ? t.samples[i].footprint : top;
    assert_int_equal(top, spike);
    assert_int_equal(t.samples[0].t_ms, 0);
    assert_int_equal(t.samples[t.n_samples - 1].t_ms, t.summary.last_t_ms);
    st_trace c; /* once */
    assert_int_equal(st_monitor_whole_run(&m, &c, &stand_for, &e), ST_EINVAL);
    st_trace_free(&t);
    st_trace_free(&c);
    st_monitor_close(&m, 0, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sums_and_system_fields),
        cmocka_unit_test(whole_run_past_the_history),
        cmocka_unit_test(deadlines_do_not_drift),
        cmocka_unit_test(guard_pauses_then_rearms_on_resume),
        cmocka_unit_test(close_resumes_a_paused_job),
        cmocka_unit_test(close_can_leave_it_paused_when_asked),
        cmocka_unit_test(root_exit_gives_an_exit_event),
        cmocka_unit_test(followed_events_land_on_our_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
