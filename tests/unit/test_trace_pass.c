/* test_trace_pass.c: st_trace_pass_file, the read with a callback on each
 * sample that `stagetop plot FILE` streams with (core/plot/plot_stream.c):
 *  - on every fixture the callback sees the samples of the whole load
 *    (st_trace_load_file), in the file's order (so, sorted stably by time,
 *    the whole load's, byte for byte), and the trace read is the whole
 *    load's but for the samples: meta, events, torn line, kernel peak, the
 *    error of a bad file;
 *  - drop keeps at most the last sample; a JSON document is not passed
 *    (its samples are all kept);
 *  - a callback's error stops the read with that error and keeps nothing;
 *  - st_trace_fold_pass_file (`stagetop report`'s read) of a generated
 *    200,000-sample record passes every sample in order and gives the
 *    whole load's summary (its JSON, byte for byte), meta and events with
 *    at most ST_TRACE_FOLD samples kept; a dropping pass is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/trace.h"

typedef struct seen {
    st_sample *v;
    size_t n, cap, stop_at; /* stop_at > 0: fail on that sample */
} seen;

static int collect(void *ctx, const st_sample *s, st_error *err)
{
    seen *k = ctx;
    if (k->stop_at && k->n + 1 == k->stop_at)
        return st_error_set(err, ST_EINVAL, 0, "stopped at sample %zu", k->stop_at);
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 256;
        k->v = realloc(k->v, k->cap * sizeof *k->v);
        assert_non_null(k->v);
    }
    k->v[k->n++] = *s;
    return ST_OK;
}

/* Stable insertion sort by t_ms (what st_trace_finish does). */
static void sort_t(st_sample *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        st_sample x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1].t_ms > x.t_ms) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static void check_file(const char *path, int drop)
{
    st_trace whole, t;
    st_error ew, ep;
    seen k = {0};
    st_trace_pass pass = {collect, &k, drop};
    int rw = st_trace_load_file(path, &whole, &ew);
    int rp = st_trace_pass_file(path, &pass, &t, &ep);
    assert_int_equal(rp, rw);
    if (rw != ST_OK) {
        assert_string_equal(ep.msg, ew.msg);
        assert_int_equal(t.n_samples, 0);
        free(k.v);
        return;
    }
    if (whole.format == ST_FMT_JSON) { /* a document: read whole, nothing passed */
        assert_int_equal(k.n, 0);
        assert_int_equal(t.n_samples, whole.n_samples);
        assert_memory_equal(t.samples, whole.samples, whole.n_samples * sizeof *whole.samples);
    } else {
        if (k.n != whole.n_samples)
            fail_msg("%s: %zu samples passed, the whole load has %zu", path, k.n, whole.n_samples);
        sort_t(k.v, k.n);
        if (k.n)
            assert_memory_equal(k.v, whole.samples, k.n * sizeof *k.v);
        assert_true(drop ? t.n_samples <= 1 : t.n_samples == whole.n_samples);
    }
    assert_null(t.pass);
    assert_int_equal(t.format, whole.format);
    assert_int_equal(t.has_end, whole.has_end);
    assert_int_equal(t.torn_line, whole.torn_line);
    assert_string_equal(t.meta.command, whole.meta.command);
    assert_int_equal(t.summary.has_kernel_peak, whole.summary.has_kernel_peak);
    assert_int_equal(t.summary.kernel_peak, whole.summary.kernel_peak);
    assert_int_equal(t.events.len, whole.events.len);
    if (whole.events.len)
        assert_memory_equal(t.events.v, whole.events.v, whole.events.len * sizeof *whole.events.v);
    st_trace_free(&t);
    st_trace_free(&whole);
    free(k.v);
}

static size_t each_fixture(int drop)
{
    static const char *const dirs[] = {"traces", "stageload", "linux", "macos", "mps", "nvidia"};
    const char *root = getenv("ST_ROOT");
    size_t n = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char dir[512], path[1024];
        snprintf(dir, sizeof dir, "%s/tests/fixtures/%s", root ? root : ".", dirs[d]);
        DIR *h = opendir(dir);
        if (!h)
            continue;
        for (struct dirent *e; (e = readdir(h)) != NULL;) {
            size_t len = strlen(e->d_name);
            if (!(len > 6 && !strcmp(e->d_name + len - 6, ".jsonl")) &&
                !(len > 5 && !strcmp(e->d_name + len - 5, ".json")))
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            check_file(path, drop);
            n++;
        }
        closedir(h);
    }
    return n;
}

static void fixtures_pass_the_whole_loads_samples(void **state)
{
    (void)state;
    assert_true(each_fixture(0) >= 40);
}

static void fixtures_dropped_keep_one_sample(void **state)
{
    (void)state;
    assert_true(each_fixture(1) >= 40);
}

static void a_callback_error_stops_the_read(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char path[512];
    snprintf(path, sizeof path, "%s/tests/fixtures/stageload/2026-10-06-qwen-image__staged-1.trace.jsonl",
             root ? root : ".");
    seen k = {.stop_at = 5};
    st_trace_pass pass = {collect, &k, 1};
    st_trace t;
    st_error e;
    assert_int_equal(st_trace_pass_file(path, &pass, &t, &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "stopped at sample 5"));
    assert_int_equal(k.n, 4);
    assert_int_equal(t.n_samples, 0);
    assert_int_equal(t.events.len, 0);
    st_trace_free(&t);
    free(k.v);
}

static void a_folded_pass_is_the_whole_summary(void **state)
{
    (void)state;
    char path[] = "/tmp/test_trace_pass_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "{\"type\":\"start\",\"stagetop\":\"0.4.0\",\"utc\":\"2026-01-01T00:00:00+00:00\","
               "\"interval\":0.01}\n");
    uint32_t x = 12345; /* a fixed xorshift: the footprints differ sample to sample */
    const size_t n = 200000;
    for (size_t i = 0; i < n; i++) {
        if (i % 30011 == 0)
            fprintf(f, "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"s%zu\",\"t\":%zu.%02zu}\n",
                    i, i / 100, i % 100);
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        fprintf(f, "{\"type\":\"sample\",\"t\":%zu.%02zu,\"footprint\":%u,\"swap_used\":%zu,"
                   "\"level\":%u}\n", i / 100, i % 100, (1u << 30) + (x >> 4), (size_t)1 << 30 | i * 999,
                20 + x % 70);
    }
    fprintf(f, "{\"type\":\"end\"}\n");
    assert_int_equal(fclose(f), 0);
    st_trace whole, t;
    st_error e;
    seen k = {0};
    st_trace_pass pass = {collect, &k, 0};
    assert_int_equal(st_trace_load_file(path, &whole, &e), ST_OK);
    assert_int_equal(st_trace_fold_pass_file(path, &pass, &t, &e), ST_OK);
    assert_int_equal(whole.n_samples, n);
    assert_int_equal(k.n, n);
    assert_memory_equal(k.v, whole.samples, n * sizeof *whole.samples);
    assert_true(t.folded > 0);
    assert_false(t.fold_failed);
    assert_true(t.n_samples <= ST_TRACE_FOLD + 1);
    char *js = st_summary_to_json(&t.summary, &t.meta), *jw = st_summary_to_json(&whole.summary, &whole.meta);
    assert_non_null(js);
    assert_non_null(jw);
    assert_string_equal(js, jw);
    assert_int_equal(t.events.len, whole.events.len);
    assert_int_equal(t.summary.n_stages, 7);
    free(js);
    free(jw);
    st_trace_free(&t);
    st_trace_free(&whole);
    st_trace_pass dropping = {collect, &k, 1};
    assert_int_equal(st_trace_fold_pass_file(path, &dropping, &t, &e), ST_EINVAL);
    unlink(path);
    free(k.v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixtures_pass_the_whole_loads_samples),
        cmocka_unit_test(fixtures_dropped_keep_one_sample),
        cmocka_unit_test(a_callback_error_stops_the_read),
        cmocka_unit_test(a_folded_pass_is_the_whole_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
