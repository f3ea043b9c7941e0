/* test_event_flood.c: a job that floods its events file (issue 21 items 4
 * and 11): the monitor reads it in bounded slices between samples, keeps a
 * bounded number of events and stage windows in memory (the summary's
 * counts and the record exact, what was not kept said), always keeps its
 * own events (the exit the end notification needs), syncs the record at
 * most 10 times a second whatever the event rate, and reads a last line
 * without a newline at the end.  The monitor runs on the scripted backend
 * (tests/fakeplat.c, tests/monitor_script.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/limits.h"
#include "stagetop/monitor.h"
#include "../../core/run/monitor_internal.h" /* the tests look inside */
#include "stagetop/run_view.h"
#include "stagetop/notify.h"
#include "stagetop/trace.h"
#include "fakeplat.h"

#include "monitor_script.h"
#include "tmpdir.h"

static const char *dir; /* this test's directory (tests/tmpdir.h) */

static int setup(void **state)
{
    if (setup_dir(state) != 0)
        return -1;
    dir = *state;
    return 0;
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 300,000 marks already in the file: one sample's poll takes a slice (at
 * most 20,000 lines, about a quarter interval), not the whole flood; the
 * following samples read the rest. */
static void flood_is_read_in_slices(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/ev", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 300000; i++)
        fputs("mark x\n", f);
    fclose(f);
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.interval = 0.1;
    o.events_path = path;
    open_mon(&m, &o, 0);
    double t0 = mono();
    assert_int_equal(st_monitor_step(&m, 0, NULL), ST_OK);
    double took = mono() - t0;
    uint64_t first = m.events.len + m.events.dropped;
    print_message("first poll: %llu events in %.3f s\n", (unsigned long long)first, took);
    assert_true(first > 0 && first <= 20000);
    assert_true(m.follow->more);
    int steps = 1;
    while (m.follow->more && steps < 1000)
        assert_int_equal(st_monitor_step(&m, 0.1 * steps++, NULL), ST_OK);
    assert_int_equal(m.events.len + m.events.dropped, 300000);
    assert_int_equal(m.ring.total, steps); /* a sample each time round */
    st_monitor_close(&m, 0, NULL);
}

/* 120,000 stage lines and 1,000 loads: at most ST_KEEP_EVENTS of the job's
 * events and ST_KEEP_STAGES (+ one folded window) stages kept; counts exact;
 * the warning says what was not kept; the job's exit is still in the list
 * and the exit notification is made. */
static void memory_is_bounded_and_the_end_kept(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/ev", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 120000; i++)
        fprintf(f, "stage s%d\n", i);
    for (int i = 0; i < 1000; i++)
        fputs("load weights 1K\n", f);
    fclose(f);
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.events_path = path;
    open_mon(&m, &o, 0);
    int steps = 0;
    do
        assert_int_equal(st_monitor_step(&m, 0.5 * steps++, NULL), ST_OK);
    while (m.follow->more && steps < 1000);
    assert_true(m.events.len <= ST_KEEP_EVENTS);
    assert_int_equal(m.events.len + m.events.dropped, 121000);
    assert_true(m.summary.n_stages <= ST_KEEP_STAGES + 1);
    assert_int_equal(m.summary.loads_count, 1000);
    assert_int_equal(m.summary.loads_bytes, 1000 * 1024);
    assert_non_null(strstr(st_monitor_warning(&m, ST_WARN_FOLLOW), "not kept in memory"));
    /* the job ends: its exit event is kept, the notification made */
    st_notifier n;
    st_notify_msg msg[4];
    st_run_view rv;
    st_notifier_init(&n);
    st_monitor_view(&m, 0.5 * steps, &rv);
    (void)st_notify_check(&n, &rv, 0.5 * steps, msg, 4);
    for (int i = 0; i < NPROC; i++)
        the_backend->alive[i] = 0;
    assert_int_equal(st_monitor_step(&m, 0.5 * steps, NULL), ST_OK);
    assert_int_equal(count_kind(&m, ST_EV_EXIT), 1);
    st_monitor_view(&m, 0.5 * steps + 100, &rv);
    int k = st_notify_check(&n, &rv, 0.5 * steps + 100, msg, 4), exits = 0;
    for (int i = 0; i < k; i++)
        exits += msg[i].kind == ST_NOTIFY_EXIT;
    assert_int_equal(exits, 1);
    st_monitor_close(&m, 0, NULL);
}

/* 20,000 events into a 1s-sync record as fast as they come: at most 10
 * syncs a second (before: one each). */
static void record_syncs_are_bounded(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/r.jsonl", dir);
    st_recorder *r;
    st_error e;
    assert_int_equal(st_recorder_open(&r, path, -1, 0, &e), ST_OK);
    st_recorder_set_sync(r, ST_REC_SYNC_1S);
    double t0 = mono();
    for (int i = 0; i < 20000; i++) {
        st_event ev;
        st_event_init(&ev, (uint32_t)i, ST_EV_MARK);
        assert_int_equal(st_recorder_event(r, &ev, &e), ST_OK);
    }
    double secs = mono() - t0;
    uint64_t syncs = st_recorder_syncs(r);
    print_message("%llu syncs in %.3f s\n", (unsigned long long)syncs, secs);
    assert_true((double)syncs <= 10.0 * secs + 2);
    assert_int_equal(st_recorder_end(r, NULL, 0, &e), ST_OK);
    assert_int_equal(st_recorder_syncs(r), syncs + 1); /* the end: at once */
    st_recorder_close(r);
}

/* The job's last line has no newline when the run ends: it is read. */
static void last_line_without_newline(void **state)
{
    (void)state;
    char path[128], rec[128], buf[4096];
    snprintf(path, sizeof path, "%s/ev", dir);
    snprintf(rec, sizeof rec, "%s/r.jsonl", dir);
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.events_path = path;
    o.record_path = rec;
    open_mon(&m, &o, 0);
    assert_int_equal(st_monitor_step(&m, 0, NULL), ST_OK);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("mark first\nmark the-last-one", f);
    fclose(f);
    assert_int_equal(st_monitor_step(&m, 0.5, NULL), ST_OK);
    assert_int_equal(count_kind(&m, ST_EV_MARK), 1);
    assert_int_equal(st_monitor_close(&m, 0, NULL), ST_OK);
    f = fopen(rec, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_non_null(strstr(buf, "the-last-one"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(flood_is_read_in_slices, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(memory_is_bounded_and_the_end_kept, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(record_syncs_are_bounded, setup, teardown_dir),
        cmocka_unit_test_setup_teardown(last_line_without_newline, setup, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
