/* The tap (core/trace/trace_tap.c): a run's record read back as it is
 * written gives what loading the record's file gives: the same summary (as
 * the trace summary's JSON), events, meta and dropped samples, though its
 * samples were let go as they were summed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stagetop/lanes.h"
#include "stagetop/trace.h"
#include "tmpdir.h"

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void tap_equals_record(void **state)
{
    char path[256];
    snprintf(path, sizeof path, "%s/run.jsonl", (const char *)*state);
    st_trace_meta meta;
    memset(&meta, 0, sizeof meta);
    snprintf(meta.stagetop, sizeof meta.stagetop, "0.4.0");
    snprintf(meta.platform, sizeof meta.platform, "linux");
    snprintf(meta.command, sizeof meta.command, "python3 train.py");
    meta.interval = 0.01;
    meta.pid = 4242;
    meta.mem_total = 1ull << 34;
    st_recorder *rec;
    st_trace_tap *tap;
    st_error e;
    assert_int_equal(st_recorder_open(&rec, path, -1, 0, &e), ST_OK);
    assert_int_equal(st_recorder_start(rec, &meta, &e), ST_OK);
    assert_int_equal(st_trace_tap_open(&tap, &meta, &e), ST_OK);
    st_summary sum; /* what the run's end record carries: its kernel peak */
    st_summary_init(&sum);
    uint32_t t = 0;
    for (int k = 0; k < 5000; k++) { /* far past ST_TRACE_TAP_FOLD: folded many times */
        st_sample s;
        memset(&s, 0, sizeof s);
        s.t_ms = t;
        for (int i = 0; i < ST_LANE_COUNT; i++) {
            const st_lane *l = &st_lanes[i];
            if (i != ST_LANE_FOOTPRINT && rnd() % 5 == 0)
                continue;
            st_lane_set_raw(l, &s, rnd() % (l->type == ST_LT_CENTI ? 10001 : 1u << 30));
        }
        assert_int_equal(st_recorder_sample(rec, &s, &e), ST_OK);
        st_trace_tap_sample(tap, &s);
        st_summary_add_sample(&sum, &s, NULL);
        if (k % 700 == 3 || k % 97 == 5) { /* stages and marks, after the sample, as the run places them */
            st_event ev;
            st_event_init(&ev, t + 1, k % 700 == 3 ? ST_EV_STAGE : ST_EV_MARK);
            char name[32];
            snprintf(name, sizeof name, "step %d \xc3\xa9", k);
            if (ev.kind == ST_EV_STAGE) {
                st_event_set_str(ev.stage, sizeof ev.stage, name);
                ev.has |= ST_EVF_STAGE;
            } else {
                st_event_set_str(ev.note, sizeof ev.note, name);
                ev.has |= ST_EVF_NOTE;
            }
            assert_int_equal(st_recorder_event(rec, &ev, &e), ST_OK);
            st_trace_tap_event(tap, &ev);
            st_summary_add_event(&sum, &ev, NULL);
        }
        t += 10 + (uint32_t)(rnd() % 3);
    }
    st_summary_add_kernel_peak_from(&sum, 3ull << 30, "cgroup memory.peak");
    st_summary_finish(&sum);
    st_recorder_command(rec, "python3 train.py --resume");
    st_trace_tap_command(tap, "python3 train.py --resume");
    assert_int_equal(st_recorder_end(rec, &sum, 17, &e), ST_OK);
    st_recorder_close(rec);

    st_trace a, b;
    assert_int_equal(st_trace_tap_end(tap, &sum, 17, &a, &e), ST_OK);
    assert_int_equal(st_trace_load_file(path, &b, &e), ST_OK);
    char *ja = st_summary_to_json(&a.summary, &a.meta), *jb = st_summary_to_json(&b.summary, &b.meta);
    assert_non_null(ja);
    assert_non_null(jb);
    assert_string_equal(ja, jb);
    assert_int_equal(a.summary.n_samples, 5000);
    assert_true(a.n_samples < 600); /* let go as summed */
    assert_int_equal(b.n_samples, 5000);
    assert_int_equal(a.events.len, b.events.len);
    for (size_t i = 0; i < a.events.len; i++)
        assert_memory_equal(&a.events.v[i], &b.events.v[i], sizeof a.events.v[i]);
    assert_string_equal(a.meta.command, "python3 train.py --resume");
    assert_string_equal(a.meta.command, b.meta.command);
    assert_int_equal(a.dropped_samples, 17);
    assert_int_equal(a.dropped_samples, b.dropped_samples);
    assert_int_equal(a.summary.has_kernel_peak, 1);
    /* taken once */
    st_trace c;
    assert_int_equal(st_trace_tap_end(tap, &sum, 17, &c, &e), ST_EINVAL);
    free(ja);
    free(jb);
    st_trace_free(&a);
    st_trace_free(&b);
    st_trace_free(&c);
    st_trace_tap_free(tap);
    st_summary_free(&sum);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(tap_equals_record, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
