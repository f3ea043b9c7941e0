/* test_diff_fold.c: `stagetop diff` and `summary --text` read a stagetop
 * record folded (tui's cli_load_summary: st_trace_summary_file, the samples
 * summed as they are read and let go); what they print must be what the
 * whole load (st_trace_load_file, every sample kept) gives, byte for byte:
 * st_diff_text, st_diff_json, the --fail-peak/--fail-time verdicts and
 * st_report_summary_text, on records of 200,000 samples with many stages
 * (names that repeat, loads, marks, releases at a sample's millisecond or a
 * little before it, every lane), which fold three times, and on one whose
 * events turn out of order after two folds (read again whole). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/report.h"
#include "stagetop/sb.h"
#include "stagetop/trace.h"
#include "tmpdir.h"

#define N_SAMPLES 200000u

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A record of N_SAMPLES samples 10 ms apart and `stages` stages (of 23
 * names); late_at: a mark after that sample, 5 s late (0: none). */
static void write_record(const char *path, uint64_t seed, unsigned stages, unsigned late_at)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    uint64_t x = seed;
    fprintf(f, "{\"type\":\"start\",\"stagetop\":\"0.4.0\",\"platform\":\"linux\",\"pid\":7,"
               "\"command\":\"job %llu\",\"interval\":0.01,\"mem_total\":25276071936,"
               "\"footprint_metric\":\"pss_anon+pss_shmem+swap_pss\"}\n", (unsigned long long)seed);
    unsigned every = N_SAMPLES / stages;
    uint64_t swap = 1ull << 30;
    for (unsigned i = 0; i < N_SAMPLES; i++) {
        unsigned ms = i * 10, k = i / every;
        unsigned r = (unsigned)(rnd(&x) % 400), et = ms - (unsigned)(rnd(&x) % 3) * (ms >= 20);
        if (r == 0)
            fprintf(f, "{\"type\":\"event\",\"kind\":\"load\",\"name\":\"w%u\",\"nbytes\":%llu,"
                       "\"seconds\":0.5,\"t\":%u.%03u}\n", i % 13,
                    (unsigned long long)(rnd(&x) % 9000000000ull), et / 1000, et % 1000);
        else if (r == 1)
            fprintf(f, "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"m%u\",\"t\":%u.%03u}\n", i % 5,
                    et / 1000, et % 1000);
        else if (r == 2)
            fprintf(f, "{\"type\":\"event\",\"kind\":\"release\",\"name\":\"w%u\",\"nbytes\":%llu,"
                       "\"t\":%u.%03u}\n", i % 13, (unsigned long long)(rnd(&x) % 4000000000ull),
                    et / 1000, et % 1000);
        if (i % every == 0) /* after the events a little before it: in time order */
            fprintf(f, "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"st%llu\",\"t\":%u.%03u}\n",
                    (unsigned long long)((k * 7 + seed) % 23), ms / 1000, ms % 1000);
        uint64_t fp = (1ull << 30) * (1 + (k * 5 + seed) % 11) + rnd(&x) % (1ull << 31);
        swap += rnd(&x) % (2u << 20);
        swap -= swap > (1u << 20) ? rnd(&x) % (2u << 20) : 0;
        char line[512];
        snprintf(line, sizeof line,
                 "{\"type\":\"sample\",\"t\":%u.%03u,\"footprint\":%llu,\"rss\":%llu,\"swap_used\":%llu,"
                 "\"level\":%u.%02u,\"procs\":%u,\"cpu\":%u.%02u,\"pageins\":%u,\"tree_swap\":%llu,"
                 "\"limit_free\":%llu,\"gpu\":%llu}\n",
                 ms / 1000, ms % 1000, (unsigned long long)fp, (unsigned long long)(fp / 2),
                 (unsigned long long)swap, (unsigned)((k * 3 + seed) % 40 + rnd(&x) % 60),
                 (unsigned)(rnd(&x) % 100), 1 + i % 5, (unsigned)(rnd(&x) % 16),
                 (unsigned)(rnd(&x) % 100), (unsigned)(rnd(&x) % 4000), (unsigned long long)(swap / 2),
                 (unsigned long long)((1ull << 35) - fp), (unsigned long long)(rnd(&x) % (1ull << 33)));
        fputs(line, f);
        if (late_at && i == late_at) /* a mark 5 s back, after samples were let go */
            fprintf(f, "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"late\",\"t\":%u.%03u}\n",
                    (ms - 5000) / 1000, (ms - 5000) % 1000);
    }
    unsigned end = N_SAMPLES * 10;
    fprintf(f, "{\"type\":\"event\",\"kind\":\"exit\",\"t\":%u.%03u,\"value\":%llu}\n", end / 1000,
            end % 1000, (unsigned long long)(seed % 3));
    fprintf(f, "{\"type\":\"end\",\"summary\":{\"kernel_peak\":19000000000,\"kernel_peak_source\":\"wait4\"},"
               "\"dropped_samples\":3}\n");
    fclose(f);
}

static void load_whole(const char *path, st_trace *t)
{
    st_error e;
    if (st_trace_load_file(path, t, &e) != ST_OK)
        fail_msg("%s: %s", path, e.msg);
    assert_int_equal(t->n_samples, N_SAMPLES);
}

static void load_folded(const char *path, st_trace *t, int folds)
{
    st_error e;
    assert_int_equal(st_trace_summary_file(path, t, &e), ST_OK);
    if (folds) { /* it did let the samples go */
        if (t->folded <= N_SAMPLES - ST_TRACE_FOLD - 2)
            fail_msg("%s: %zu samples let go, %zu kept", path, t->folded, t->n_samples);
        assert_true(t->n_samples <= ST_TRACE_FOLD + 1);
        assert_true(t->cap_samples <= t->n_samples + 1);
    } else {
        assert_int_equal(t->folded, 0);
    }
    assert_int_equal(t->summary.n_samples, N_SAMPLES);
}

static char *summary_text(const st_trace *t, int width)
{
    st_sb w;
    st_sb_init(&w);
    st_report_summary_text(t, &w, width);
    char *s = st_sb_take(&w);
    assert_non_null(s);
    return s;
}

static void same_str(char *a, char *b, const char *what)
{
    assert_non_null(a);
    assert_non_null(b);
    if (strcmp(a, b) != 0)
        fail_msg("%s differs:\n--- whole\n%s\n--- folded\n%s", what, a, b);
    free(a);
    free(b);
}

/* Every output of diff A B and of summary --text A, whole and folded. */
static void same_outputs(const char *pa, const char *pb, int fold_a, int fold_b)
{
    st_trace wa, wb, fa, fb;
    st_diff dw, df;
    st_error e;
    load_whole(pa, &wa);
    load_whole(pb, &wb);
    load_folded(pa, &fa, fold_a);
    load_folded(pb, &fb, fold_b);
    assert_true(wa.summary.n_stages > 20);
    for (int w = 0; w < 3; w++) {
        static const int widths[] = {0, 80, 200};
        same_str(summary_text(&wa, widths[w]), summary_text(&fa, widths[w]), "summary --text A");
        same_str(summary_text(&wb, widths[w]), summary_text(&fb, widths[w]), "summary --text B");
    }
    assert_int_equal(st_diff_compute(&wa, &wb, &dw, &e), ST_OK);
    assert_int_equal(st_diff_compute(&fa, &fb, &df, &e), ST_OK);
    assert_true(dw.n_stages > 20);
    same_str(st_diff_text(&dw, pa, pb), st_diff_text(&df, pa, pb), "diff A B");
    same_str(st_diff_json(&dw), st_diff_json(&df), "diff --json A B");
    static const double pcts[] = {-100, -0.5, 0, 0.5, 3, 50};
    for (size_t i = 0; i < sizeof pcts / sizeof *pcts; i++) {
        assert_int_equal(st_diff_peak_exceeds(&dw, pcts[i]), st_diff_peak_exceeds(&df, pcts[i]));
        assert_int_equal(st_diff_time_exceeds(&dw, pcts[i]), st_diff_time_exceeds(&df, pcts[i]));
    }
    st_diff_free(&dw);
    st_diff_free(&df);
    st_trace_free(&wa);
    st_trace_free(&wb);
    st_trace_free(&fa);
    st_trace_free(&fb);
}

static void many_stages_fold_as_the_whole_load(void **state)
{
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.jsonl", (const char *)*state);
    snprintf(b, sizeof b, "%s/b.jsonl", (const char *)*state);
    write_record(a, 1, 97, 0);
    write_record(b, 2, 41, 0);
    same_outputs(a, b, 1, 1);
    same_outputs(b, a, 1, 1);
}

static void out_of_order_is_read_again_whole(void **state)
{
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.jsonl", (const char *)*state);
    snprintf(b, sizeof b, "%s/late.jsonl", (const char *)*state);
    write_record(a, 3, 60, 0);
    write_record(b, 4, 60, 150001); /* after two folds */
    same_outputs(a, b, 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(many_stages_fold_as_the_whole_load, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(out_of_order_is_read_again_whole, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
