/* test_trace_fold.c: `stagetop summary` sums a stagetop record as it reads
 * it and lets the samples go (st_trace_summary_file, st_trace_fold): the
 * summary must be the one of the whole load (st_trace_load_file), byte for
 * byte, whatever the fold step, for the fixtures and for random records
 * whose events share milliseconds with samples or come a little late; where
 * the records turn out of order after samples were let go, the fold says so
 * and st_trace_summary_file reads the file whole instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/summary.h"
#include "stagetop/trace.h"
#include "testutil.h"
#include "tmpdir.h"

/* The summary JSON of the whole load. */
static char *full_json(const char *path)
{
    st_trace t;
    st_error e;
    assert_int_equal(st_trace_load_file(path, &t, &e), ST_OK);
    char *j = st_summary_to_json(&t.summary, &t.meta);
    assert_non_null(j);
    st_trace_free(&t);
    return j;
}

/* The summary JSON of a read that folds every `fold` samples (the lines fed
 * one by one, as the reader does); *failed: the fold gave up. */
static char *fold_json(const char *path, size_t fold, int *failed, size_t *kept, size_t *folded)
{
    size_t len;
    char *buf = slurp(path, &len);
    st_trace t;
    st_error e;
    st_trace_init(&t);
    t.fold = fold;
    size_t lineno = 0;
    for (char *p = buf, *nl; p < buf + len; p = nl + 1) {
        nl = memchr(p, '\n', (size_t)(buf + len - p));
        if (!nl)
            nl = buf + len;
        assert_int_equal(st_trace_feed_line(&t, p, (size_t)(nl - p), ++lineno, &e), ST_OK);
    }
    if (t.folded)
        st_trace_fold_end(&t);
    else
        st_trace_finish(&t);
    *failed = t.fold_failed;
    if (kept)
        *kept = t.n_samples;
    if (folded)
        *folded = t.folded;
    char *j = st_summary_to_json(&t.summary, &t.meta);
    assert_non_null(j);
    st_trace_free(&t);
    free(buf);
    return j;
}

/* st_trace_summary_file's JSON. */
static char *summary_file_json(const char *path, size_t *kept, size_t *folded)
{
    st_trace t;
    st_error e;
    assert_int_equal(st_trace_summary_file(path, &t, &e), ST_OK);
    char *j = st_summary_to_json(&t.summary, &t.meta);
    assert_non_null(j);
    if (kept)
        *kept = t.n_samples;
    if (folded)
        *folded = t.folded;
    st_trace_free(&t);
    return j;
}

static void fixtures_fold_as_the_whole_load(void **state)
{
    (void)state;
    static const char *const names[] = {
        "traces/good-no-samples.jsonl", "traces/good-outside-stage.jsonl",
        "traces/good-stage-after-end.jsonl", "traces/good-stage-at-end.jsonl",
        "traces/good-stage-at-zero.jsonl", "traces/good-type-not-first.jsonl",
        "traces/good-unsorted.jsonl", "stageload/2026-10-05__staged-1.trace.jsonl",
        "stageload/2026-10-06-qwen-image__staged-1.trace.jsonl",
    };
    const char *root = getenv("ST_ROOT");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/fixtures/%s", root ? root : ".", names[i]);
        char *full = full_json(path);
        static const size_t folds[] = {1, 2, 3, 7};
        for (size_t f = 0; f < 4; f++) {
            int failed;
            char *j = fold_json(path, folds[f], &failed, NULL, NULL);
            if (!failed && strcmp(j, full) != 0)
                fail_msg("%s, fold %zu:\n%s\n!=\n%s", names[i], folds[f], j, full);
            free(j);
        }
        char *s = summary_file_json(path, NULL, NULL);
        assert_string_equal(s, full);
        free(s);
        free(full);
    }
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A random stagetop record: samples in time order, often several in one
 * millisecond; stages in time order at the current time; marks and loads at
 * the current time, or (late) up to 3 ms before it. */
static void random_record(const char *path, uint64_t *x, int late)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"platform\":\"linux\",\"interval\":0.001}\n");
    unsigned t = 0, n = 50 + (unsigned)(rnd(x) % 350);
    for (unsigned i = 0; i < n; i++) {
        static const unsigned steps[] = {0, 0, 1, 2, 5};
        t += steps[rnd(x) % 5];
        unsigned r = (unsigned)(rnd(x) % 10);
        if (r < 7) {
            unsigned procs = rnd(x) % 9 == 0 ? 0 : 1 + (unsigned)(rnd(x) % 4);
            uint64_t fp = procs ? rnd(x) % 5000000000ULL : 0;
            fprintf(f, "{\"type\":\"sample\",\"t\":%u.%03u,\"footprint\":%llu,\"rss\":%llu,"
                       "\"swap_used\":%llu,\"level\":%u.%02u,\"procs\":%u}\n",
                    t / 1000, t % 1000, (unsigned long long)fp, (unsigned long long)(fp / 2),
                    (unsigned long long)(rnd(x) % 3000000000ULL), (unsigned)(rnd(x) % 100),
                    (unsigned)(rnd(x) % 100), procs);
        } else if (r == 7) {
            fprintf(f, "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"s%u\",\"t\":%u.%03u}\n",
                    (unsigned)(rnd(x) % 5), t / 1000, t % 1000);
        } else {
            unsigned et = late && rnd(x) % 3 == 0 ? t - (t < 3 ? t : (unsigned)(rnd(x) % 4)) : t;
            if (r == 8)
                fprintf(f, "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"m\",\"t\":%u.%03u}\n",
                        et / 1000, et % 1000);
            else
                fprintf(f, "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"w%u\",\"nbytes\":%u,"
                           "\"seconds\":0.5,\"t\":%u.%03u}\n",
                        (unsigned)(rnd(x) % 3), (unsigned)(rnd(x) % 100000), et / 1000, et % 1000);
        }
    }
    fprintf(f, "{\"type\":\"end\",\"summary\":{\"kernel_peak\":6000000000,\"kernel_peak_source\":\"wait4\"}}\n");
    fclose(f);
}

static void random_records_fold_as_the_whole_load(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/r.jsonl", (const char *)*state);
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    int folded_ok = 0, gave_up = 0;
    for (int round = 0; round < 300; round++) {
        random_record(path, &x, round % 2);
        char *full = full_json(path);
        static const size_t folds[] = {1, 3, 16};
        for (size_t f = 0; f < 3; f++) {
            int failed;
            size_t folded;
            char *j = fold_json(path, folds[f], &failed, NULL, &folded);
            if (failed)
                gave_up++;
            else if (folded)
                folded_ok++;
            if (!failed && strcmp(j, full) != 0)
                fail_msg("round %d, fold %zu:\n%s\n!=\n%s", round, folds[f], j, full);
            free(j);
        }
        char *s = summary_file_json(path, NULL, NULL); /* folds or reads again */
        assert_string_equal(s, full);
        free(s);
        free(full);
    }
    /* both ways were taken: records that fold, records that made it give up */
    assert_true(folded_ok > 100);
    assert_true(gave_up > 10);
}

static void summary_file_keeps_few_samples(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/big.jsonl", (const char *)*state);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"platform\":\"linux\",\"interval\":0.5}\n");
    uint64_t x = 88172645463325252ULL;
    for (unsigned i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (i % 20000 == 0)
            fprintf(f, "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"st%u\",\"t\":%u.%03u}\n",
                    i / 20000, i / 2, i % 2 * 500);
        fprintf(f, "{\"type\":\"sample\",\"t\":%u.%03u,\"footprint\":%llu,\"swap_used\":%llu,"
                   "\"level\":%u.00,\"procs\":3}\n",
                i / 2, i % 2 * 500, (unsigned long long)(x % 40000000000ULL),
                (unsigned long long)(x >> 30), (unsigned)(x % 100));
    }
    fprintf(f, "{\"type\":\"end\"}\n");
    fclose(f);
    size_t kept, folded;
    char *full = full_json(path);
    char *s = summary_file_json(path, &kept, &folded);
    assert_string_equal(s, full);
    assert_true(kept <= ST_TRACE_FOLD + 1);
    assert_true(folded >= 200000 - ST_TRACE_FOLD - 1);
    free(s);
    free(full);
}

/* A record whose samples all share one millisecond can never fold (each
 * waits for an event at that time): it is read in linear time, not rescanned
 * at every sample (200,000 samples: minutes before), and still right. */
static void one_millisecond_stays_linear(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/same.jsonl", (const char *)*state);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"interval\":0.5}\n");
    for (unsigned i = 0; i < 200000; i++)
        fprintf(f, "{\"type\":\"sample\",\"t\":1.000,\"footprint\":%u}\n", i % 1000);
    fprintf(f, "{\"type\":\"end\"}\n");
    fclose(f);
    size_t folded;
    char *full = full_json(path);
    char *s = summary_file_json(path, NULL, &folded);
    assert_string_equal(s, full);
    assert_int_equal(folded, 0);
    free(s);
    free(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixtures_fold_as_the_whole_load),
        cmocka_unit_test_setup_teardown(random_records_fold_as_the_whole_load, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(summary_file_keeps_few_samples, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(one_millisecond_stays_linear, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
