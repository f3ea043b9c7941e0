/* st_run_view: the snapshot of a live run (st_monitor_view) on a scripted
 * backend and of a trace (st_trace_run_view): members, samples, job state,
 * the derived swap rate and time to budget, and the one warnings list. */
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
#include "stagetop/lanes.h"
#include "stagetop/run_view.h"
#include "fakeplat.h"

#include "monitor_script.h"

/* ---- tests ----------------------------------------------------------------- */

/* Step at t0 + k * interval with the backend's swap set by swap_at(k). */
static void step_with_swap(st_monitor *m, double t0, double iv, int k, uint64_t swap)
{
    the_backend->sys.swap_used = swap;
    assert_int_equal(st_monitor_step(m, t0 + k * iv, NULL), ST_OK);
}

static void live_view_mirrors_the_run(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.interval = 0.5;
    open_mon(&m, &o, 10.0);
    st_monitor_start(&m, 10.0);
    for (int k = 0; k < 4; k++)
        step_with_swap(&m, 10.0, 0.5, k, 1ull << 30);
    st_run_view v;
    st_monitor_view(&m, 12.25, &v);
    assert_int_equal(v.replay, 0);
    assert_int_equal(v.root_pid, 1000);
    assert_int_equal(v.n_members, 3);
    assert_int_equal(v.members[0].id.pid, 1000);
    assert_int_equal(v.samples_total, 4);
    assert_int_equal(v.samples.a_len + v.samples.b_len, 4);
    assert_non_null(v.last);
    assert_int_equal(v.last->t_ms, 1500);
    assert_int_equal(v.last->footprint, (1ull + 2 + 3) << 20);
    assert_true(v.uptime_s > 2.249 && v.uptime_s < 2.251);
    assert_string_equal(v.meta->command, "fake-1000");
    assert_string_equal(v.footprint_metric, "fake_footprint");
    assert_false(v.footprint_per_process); /* a definition not known to count shared pages twice */
    assert_false(v.footprint_carried);
    assert_string_equal(v.peak_metric, "fake_peak");
    assert_int_equal(v.job_state, ST_JOB_RUNNING);
    assert_false(v.has_gpu_lane);
    assert_int_equal(v.interval * 1000, 500);
    /* no GPU lane: said as information, not as a warning */
    const st_run_warning *w = st_run_view_find(&v, ST_WARN_NO_GPU);
    assert_non_null(w);
    assert_true(w->info);
    assert_null(st_run_view_warning(&v));
    /* an event shows up in the view */
    assert_int_equal(st_monitor_mark(&m, "here", 12.3, NULL), ST_OK);
    st_monitor_view(&m, 12.3, &v);
    assert_int_equal(v.n_events, m.events.len);
    assert_int_equal(v.events[v.n_events - 1].kind, ST_EV_MARK);
    st_monitor_close(&m, 0, NULL);
}

/* The swap rate is the growth over the last ST_RUN_SWAP_RATE_WINDOW_S
 * seconds per second; the time to budget is what is left of the budget at
 * that rate.  Swap grows by `per` bytes a sample of 0.5 s for 30 s. */
static void swap_rate_and_time_to_budget(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.interval = 0.5;
    const uint64_t base = 1ull << 30, per = 3ull << 20, budget = 1ull << 30;
    o.guard.has_swap_budget = 1;
    o.guard.swap_budget = budget;
    o.guard.action = ST_GUARD_PAUSE;
    open_mon(&m, &o, 0.0);
    st_monitor_start(&m, 0.0);
    int n = 60;
    for (int k = 0; k < n; k++)
        step_with_swap(&m, 0.0, 0.5, k, base + (uint64_t)k * per);
    st_run_view v;
    st_monitor_view(&m, 30.0, &v);
    assert_true(v.guard_active);
    assert_true(v.has_swap_rate);
    /* independently: samples at k*0.5 s; the window's oldest is 20 samples back */
    double window_samples = ST_RUN_SWAP_RATE_WINDOW_S / 0.5;
    double expect = (double)per * window_samples / ST_RUN_SWAP_RATE_WINDOW_S;
    assert_true(v.swap_rate > expect - 1 && v.swap_rate < expect + 1);
    uint64_t now_swap = base + (uint64_t)(n - 1) * per;
    double left = (double)(base + budget) - (double)now_swap;
    double eta = left / expect;
    assert_true(v.budget_eta_s > eta - 0.01 && v.budget_eta_s < eta + 0.01);
    /* the helpers alone */
    assert_true(st_run_budget_eta(100, 50, 200, 10.0) == 0.0);
    assert_true(st_run_budget_eta(100, 50, 120, 0.0) < 0.0);
    assert_true(st_run_budget_eta(100, 50, 120, 10.0) == 3.0);
    st_monitor_close(&m, 0, NULL);
}

/* Shrinking swap gives a negative rate and no time to budget; under 2 s of
 * run there is no rate at all. */
static void no_rate_early_and_negative_when_shrinking(void **state)
{
    (void)state;
    st_sample s[3];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 3; i++) {
        s[i].valid = ST_F_SWAP;
        s[i].t_ms = (uint32_t)(i * 800);
        s[i].swap_used = (uint64_t)(3 - i) << 20;
    }
    st_samples_view sv = {s, 3, NULL, 0};
    double rate = 0;
    assert_int_equal(st_run_swap_rate(sv, &rate), 0); /* newest at 1.6 s */
    s[2].t_ms = 2400;
    assert_int_equal(st_run_swap_rate(sv, &rate), 1);
    double expect = -(2.0 * (1 << 20)) / 2.4;
    assert_true(rate > expect - 1 && rate < expect + 1);
    /* two spans (a wrapped ring) give the same answer */
    st_samples_view split = {s, 1, s + 1, 2};
    double rate2 = 0;
    assert_int_equal(st_run_swap_rate(split, &rate2), 1);
    assert_true(rate2 == rate);
}

/* The warnings list: each loose failure of the monitor is one entry, the
 * first shown is the guard's, a follower's failure is in the list. */
static void warnings_are_one_list(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 0.0);
    st_error_set(&m.warn[ST_WARN_FOLLOW], ST_EPARSE, 0, "events: line 3: bad");
    st_run_view v;
    st_monitor_view(&m, 0.0, &v);
    const st_run_warning *w = st_run_view_warning(&v);
    assert_non_null(w);
    assert_int_equal(w->source, ST_WARN_FOLLOW);
    assert_string_equal(w->e.msg, "events: line 3: bad");
    assert_int_equal(w->e.code, ST_EPARSE);
    st_error_set(&m.warn[ST_WARN_GUARD], ST_EPERM, 1, "budget crossed, but could not pause");
    m.tree.eperm_count = 2;
    st_monitor_view(&m, 0.0, &v);
    w = st_run_view_warning(&v);
    assert_int_equal(w->source, ST_WARN_GUARD);
    assert_non_null(st_run_view_find(&v, ST_WARN_FOLLOW));
    w = st_run_view_find(&v, ST_WARN_EPERM);
    assert_non_null(w);
    assert_non_null(strstr(w->e.msg, "2 member"));
    m.tree.eperm_count = 0;
    st_monitor_close(&m, 0, NULL);
}

/* The backend's note on a lane it cannot read (macOS: the task name port
 * refused, core/platform/darwin_vm.c) is one warning of the list, from the
 * sample it appears on, and none before. */
static const char *lanes_note_text = "";
static const char *fake_lanes_note(st_backend *b)
{
    (void)b;
    return lanes_note_text;
}

static void backend_note_is_one_warning(void **state)
{
    (void)state;
    st_platform plat = fakeplat;
    plat.lanes_note = fake_lanes_note;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    st_error e;
    lanes_note_text = "";
    fakeplat_on_open(script);
    assert_int_equal(st_monitor_open(&m, &plat, &o, 1000, NULL, 0.0, &e), ST_OK);
    st_run_view v;
    st_monitor_view(&m, 0.0, &v);
    assert_null(st_run_view_find(&v, ST_WARN_LANES));
    lanes_note_text = "macOS refused the task name port of process 1001";
    st_monitor_view(&m, 0.0, &v);
    size_t n = 0;
    for (size_t i = 0; i < v.n_warnings; i++)
        n += v.warnings[i].source == ST_WARN_LANES;
    assert_int_equal(n, 1);
    const st_run_warning *w = st_run_view_find(&v, ST_WARN_LANES);
    assert_int_equal(w->info, 0); /* said (headless says each source once) */
    assert_string_equal(w->e.msg, lanes_note_text);
    assert_ptr_equal(st_run_view_warning(&v), w); /* the screen's status line */
    st_monitor_close(&m, 0, NULL);
}

/* The script on a machine without swap configured. */
static int script_no_swap(st_backend *b, st_error *err)
{
    int rc = script(b, err);
    b->sys.swap_total = 0;
    b->sys.swap_used = 0;
    return rc;
}

/* Budgets that cannot act are said by the view: a swap budget without swap
 * configured, a level threshold the level is already under at the start;
 * neither when they can act. */
static void view_says_which_budget_cannot_act(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_error e;
    st_run_view v;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    st_monitor_opts_swap_budget(&o, 100ull << 20);
    st_monitor_opts_kill_free(&o, 90.0); /* the script's level is 80 % */
    fakeplat_on_open(script_no_swap);
    assert_int_equal(st_monitor_open(&m, &fakeplat, &o, 1000, NULL, 0.0, &e), ST_OK);
    st_monitor_view(&m, 0.0, &v);
    assert_true(v.guard_active);
    assert_int_equal(v.guard_no_swap, 1);
    assert_int_equal(v.guard_level_crossed, 1);
    assert_int_equal(v.level_start_c, 8000);
    st_monitor_close(&m, 0, NULL);

    st_monitor_opts_kill_free(&o, 50.0); /* under 80 %: it can act */
    open_mon(&m, &o, 0.0);               /* 4 GiB of swap configured */
    st_monitor_view(&m, 0.0, &v);
    assert_true(v.guard_active);
    assert_int_equal(v.guard_no_swap, 0);
    assert_int_equal(v.guard_level_crossed, 0);
    st_monitor_close(&m, 0, NULL);
}

/* A definition that counts a shared page once per process (the status sum
 * of a kernel before 5.8, macOS phys_footprint) is said while the tree has
 * more than one process, and no longer once it is one (docs/metrics.md). */
static void live_view_says_shared_pages_count_per_process(void **state)
{
    (void)state;
    static const char *const metrics[] = {ST_FOOTPRINT_METRIC_STATUS, ST_FOOTPRINT_METRIC_DARWIN};
    for (size_t k = 0; k < 2; k++) {
        st_platform plat = fakeplat;
        plat.footprint_metric = metrics[k];
        st_monitor m;
        st_monitor_opts o;
        st_error e;
        st_monitor_opts_default(&o);
        o.no_gpu = 1;
        o.interval = 0.5;
        fakeplat_on_open(script);
        assert_int_equal(st_monitor_open(&m, &plat, &o, 1000, NULL, 10.0, &e), ST_OK);
        st_monitor_start(&m, 10.0);
        step_with_swap(&m, 10.0, 0.5, 0, 1ull << 30);
        st_run_view v;
        st_monitor_view(&m, 10.0, &v);
        assert_string_equal(v.footprint_metric, metrics[k]);
        assert_int_equal(v.last->procs, 3);
        assert_true(v.footprint_per_process);
        the_backend->alive[1] = the_backend->alive[2] = 0; /* the children leave */
        step_with_swap(&m, 10.0, 0.5, 1, 1ull << 30);
        st_monitor_view(&m, 10.5, &v);
        assert_int_equal(v.last->procs, 1);
        assert_false(v.footprint_per_process); /* a lone process shares with no one */
        st_monitor_close(&m, 0, NULL);
    }
}

/* A trace gives the same type: samples and events up to an edge, the
 * trace's summary, an exited job, no members. */
static void trace_view_up_to_an_edge(void **state)
{
    (void)state;
    st_trace t;
    st_trace_init(&t);
    st_sample s[5];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 5; i++) {
        s[i].t_ms = (uint32_t)(i * 1000);
        s[i].valid = ST_F_SWAP | ST_F_FOOTPRINT;
        s[i].swap_used = (uint64_t)(10 + i) << 20;
        s[i].footprint = (uint64_t)(i + 1) << 20;
    }
    t.samples = s;
    t.n_samples = 5;
    t.meta.pid = 4242;
    t.meta.swap_total = 8ull << 30;
    snprintf(t.meta.footprint_metric, sizeof t.meta.footprint_metric, "pss");
    st_run_view v;
    st_trace_run_view(&t, 3, 0, 1.0, &v);
    assert_int_equal(v.replay, 1);
    assert_int_equal(v.root_pid, 4242);
    assert_int_equal(v.samples.a_len + v.samples.b_len, 3);
    assert_ptr_equal(v.last, &s[2]);
    assert_int_equal(v.samples_total, 5);
    assert_int_equal(v.n_members, 0);
    assert_int_equal(v.job_state, ST_JOB_EXITED);
    assert_string_equal(v.footprint_metric, "pss");
    assert_true(v.sys.valid & ST_SYS_SWAPTOTAL);
    assert_int_equal(v.sys.swap_total, t.meta.swap_total);
    assert_true(v.has_swap_rate);
    assert_true(v.swap_rate > (1 << 20) - 1 && v.swap_rate < (1 << 20) + 1);
    assert_true(v.budget_eta_s < 0); /* no guard in a replay */
    assert_int_equal(v.n_warnings, 0);
    assert_false(v.footprint_carried);
    assert_false(v.footprint_per_process);
    /* the age of the proportional corrections is the edge sample's */
    s[2].footprint_age_c = 275;
    s[2].valid |= ST_F_FOOTPRINT_AGE;
    st_trace_run_view(&t, 3, 0, 1.0, &v);
    assert_true(v.footprint_carried);
    assert_true(v.footprint_age_s > 2.749 && v.footprint_age_s < 2.751);
    st_trace_run_view(&t, 4, 0, 1.0, &v);
    assert_false(v.footprint_carried); /* s[3] carries none */
    /* phys_footprint over 3 processes is said; over 1 it is not */
    snprintf(t.meta.footprint_metric, sizeof t.meta.footprint_metric, "phys_footprint");
    s[3].procs = 3;
    s[3].valid |= ST_F_PROCS;
    st_trace_run_view(&t, 4, 0, 1.0, &v);
    assert_true(v.footprint_per_process);
    s[3].procs = 1;
    st_trace_run_view(&t, 4, 0, 1.0, &v);
    assert_false(v.footprint_per_process);
    st_trace_run_view(&t, 99, 99, 1.0, &v); /* clamped to what there is */
    assert_int_equal(v.samples.a_len, 5);
    assert_int_equal(v.n_events, 0);
}

/* A record whose job the OOM killer ended at its cgroup's limit
 * (tests/fixtures/traces/good-oom-limit.jsonl, as monitor_limit.c writes
 * one): the view says the limit, where it was set and who ended the job,
 * and an export read back keeps the start's keys. */
static void trace_view_says_the_limit(void **state)
{
    (void)state;
    st_trace t, t2;
    st_error e;
    st_run_view v;
    assert_int_equal(st_trace_load_file("tests/fixtures/traces/good-oom-limit.jsonl", &t, &e), ST_OK);
    st_trace_run_view(&t, t.n_samples, t.events.len, 0.1, &v);
    assert_true(v.limit.has_cgroup);
    assert_string_equal(v.limit.cgroup, "/slurm/job_42/step_0");
    assert_true(v.limit.has_limit);
    assert_int_equal(v.limit.limit, 100663296);
    assert_string_equal(v.limit.limit_cgroup, "/slurm/job_42");
    assert_string_equal(v.limit.limit_file, "memory.max");
    assert_true(v.oom_root);
    assert_string_equal(v.oom_note, "killed by the kernel's OOM killer at the memory limit of /slurm/job_42 (96.0 MiB)");
    assert_true(v.summary->lanes.has & ST_F_LIMIT_FREE);
    assert_int_equal(v.summary->lanes.min[ST_LANE_LIMIT_FREE], 204800);
    assert_int_equal(v.last->limit_free, 204800);
    st_trace_run_view(&t, 2, 0, 0.1, &v); /* before the exit: no word of it */
    assert_string_equal(v.oom_note, "");
    assert_false(v.oom_root);
    char out[] = "/tmp/st-limit-XXXXXX";
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(st_trace_export(out, &t.meta, st_trace_view(&t), &t.events, &t.summary,
                                     t.dropped_samples, &e), ST_OK);
    assert_int_equal(st_trace_load_file(out, &t2, &e), ST_OK);
    unlink(out);
    st_trace_limit lim;
    st_trace_limit_of(&t2.meta, &lim);
    assert_true(lim.has_limit && lim.limit == 100663296);
    assert_string_equal(lim.limit_cgroup, "/slurm/job_42");
    assert_int_equal(t2.samples[2].limit_free, 204800);
    st_trace_free(&t2);
    st_trace_free(&t);
    /* none, and a memory_limit that is no byte count */
    st_trace_meta m;
    memset(&m, 0, sizeof m);
    m.extra = (char *)"{\"cgroup\":\"/a\",\"memory_limit\":1.5e3}";
    st_trace_limit_of(&m, &lim);
    assert_true(lim.has_cgroup);
    assert_false(lim.has_limit);
    m.extra = NULL;
    st_trace_limit_of(&m, &lim);
    assert_false(lim.has_cgroup);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(live_view_mirrors_the_run),
        cmocka_unit_test(swap_rate_and_time_to_budget),
        cmocka_unit_test(no_rate_early_and_negative_when_shrinking),
        cmocka_unit_test(warnings_are_one_list),
        cmocka_unit_test(backend_note_is_one_warning),
        cmocka_unit_test(view_says_which_budget_cannot_act),
        cmocka_unit_test(live_view_says_shared_pages_count_per_process),
        cmocka_unit_test(trace_view_up_to_an_edge),
        cmocka_unit_test(trace_view_says_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
