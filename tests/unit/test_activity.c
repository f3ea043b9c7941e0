/* test_activity.c: the activity lanes in the summary ([lanes]): CPU seconds
 * and mean CPU, page-ins and their peak rate, the tree's swap and
 * compressed peaks, per run and per stage, through a JSONL trace read back,
 * and as `report` and `diff` word them.  Expected values are computed here
 * from the samples written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/metrics.h"
#include "stagetop/report.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"

/* A run of 4 s, samples every second: CPU 100%, 100%, 50%, 0% (the first
 * sample has no rate), page-ins 0, 250/s, 1000/s, 10/s; a stage "load" from
 * t = 2 s.  CPU seconds 1+1+0.5+0 = 2.5 (mean 62.5% over 4 s); page-ins
 * 0+250+1000+10 = 1260, peak 1000/s. */
static const char TRACE[] =
    "{\"type\":\"start\",\"format\":\"stagetop-trace\",\"version\":1,\"meta\":{}}\n"
    "{\"type\":\"sample\",\"t\":0.000,\"footprint\":100,\"tree_swap\":0,\"compressed\":5000}\n"
    "{\"type\":\"sample\",\"t\":1.000,\"footprint\":100,\"tree_swap\":4096,\"cpu\":100,\"pageins\":0}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"t\":2.000,\"stage\":\"load\"}\n"
    "{\"type\":\"sample\",\"t\":2.000,\"footprint\":100,\"cpu\":100,\"pageins\":250,\"compressed\":9000}\n"
    "{\"type\":\"sample\",\"t\":3.000,\"footprint\":100,\"tree_swap\":8192,\"cpu\":50,\"pageins\":1000}\n"
    "{\"type\":\"sample\",\"t\":4.000,\"footprint\":100,\"cpu\":0,\"pageins\":10.5}\n";

static void load(st_trace *t, const char *text)
{
    st_error err;
    st_trace_init(t);
    assert_int_equal(st_trace_load_mem(text, strlen(text), t, &err), ST_OK);
}

static void run_and_stages(void **state)
{
    st_trace t;
    st_stage_row row;
    (void)state;
    load(&t, TRACE);
    const st_activity *a = &t.summary.act;
    assert_int_equal(a->has, ST_F_CPU | ST_F_PAGEINS | ST_F_TREE_SWAP | ST_F_COMPRESSED);
    assert_true(fabs(a->cpu_s - 2.5) < 1e-9);
    assert_true(fabs(a->pageins - 1260.5) < 1e-9);
    assert_int_equal(a->peak_cpu_c, 10000);
    assert_int_equal(a->peak_pageins_c, 100000);
    assert_int_equal(a->peak_tree_swap, 8192);
    assert_int_equal(a->peak_compressed, 9000);
    assert_int_equal(t.summary.n_stages, 2);
    st_summary_stage(&t.summary, 0, &row); /* setup: samples at 0 and 1 s */
    assert_true(fabs(row.act.cpu_s - 1.0) < 1e-9);
    assert_true(fabs(row.act.pageins - 0.0) < 1e-9);
    assert_int_equal(row.act.peak_tree_swap, 4096);
    assert_int_equal(row.act.peak_compressed, 5000);
    st_summary_stage(&t.summary, 1, &row); /* load: 2, 3, 4 s */
    assert_true(fabs(row.act.cpu_s - 1.5) < 1e-9);
    assert_true(fabs(row.act.pageins - 1260.5) < 1e-9);
    assert_int_equal(row.act.peak_pageins_c, 100000);
    assert_int_equal(row.act.peak_tree_swap, 8192);
    assert_int_equal(row.act.peak_compressed, 9000);
    char buf[64];
    assert_string_equal(st_activity_cpu(a, 4.0, buf, sizeof buf), "2.5 s, mean 62%");
    assert_string_equal(st_activity_pageins(a, buf, sizeof buf), "1260, peak 1000/s");
    /* the exported summary: peaks (the lane table's) and the integrals */
    char *doc = st_summary_to_json(&t.summary, &t.meta);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"peak_cpu\":100,\"peak_pageins\":1000,\"peak_compressed\":9000"));
    assert_non_null(strstr(doc, "\"cpu_seconds\":2.500,\"pageins_total\":1260"));
    free(doc);
    st_trace_free(&t);
}

/* A trace without the lanes (0.2's, stageload's): nothing, and `report`
 * and `diff` print no activity rows; with them, they do. */
static void outputs(void **state)
{
    st_trace with, without;
    st_diff d;
    st_error err;
    (void)state;
    load(&with, TRACE);
    load(&without, "{\"type\":\"start\",\"format\":\"stagetop-trace\",\"version\":1,\"meta\":{}}\n"
                   "{\"type\":\"sample\",\"t\":0.000,\"footprint\":100}\n"
                   "{\"type\":\"sample\",\"t\":1.000,\"footprint\":200}\n");
    assert_int_equal(without.summary.act.has, 0);
    char *md = st_report_md(&without, "x", NULL, &err);
    assert_non_null(md);
    assert_null(strstr(md, "CPU (tree)"));
    free(md);
    md = st_report_md(&with, "x", NULL, &err);
    assert_non_null(md);
    assert_non_null(strstr(md, "| CPU (tree) | 2.5 s, mean 62% |"));
    assert_non_null(strstr(md, "| page-ins (tree) | 1260, peak 1000/s |"));
    assert_non_null(strstr(md, "| tree swap peak | 8.00 KiB |"));
    assert_non_null(strstr(md, "| load | 1.5 s, mean 75% | 1260, peak 1000/s | 8.00 KiB | 8.79 KiB |"));
    free(md);
    assert_int_equal(st_diff_compute(&without, &with, &d, &err), ST_OK);
    char *txt = st_diff_text(&d, "a", "b");
    assert_non_null(txt);
    assert_non_null(strstr(txt, "CPU (tree)"));
    assert_non_null(strstr(txt, "2.5 s, mean 62%"));
    free(txt);
    st_diff_free(&d);
    st_trace_free(&with);
    st_trace_free(&without);
}

/* --metrics: CPU in cores, page-ins per second and compressed as gauges,
 * page-ins also as a counter (Prometheus naming: _total, TYPE counter). */
static void metrics_file(void **state)
{
    st_metrics mx;
    st_metrics_values v;
    st_error err;
    (void)state;
    memset(&mx, 0, sizeof mx);
    memset(&v, 0, sizeof v);
    v.has_sample = 1;
    v.last.valid = ST_F_CPU | ST_F_PAGEINS | ST_F_COMPRESSED | ST_F_TREE_SWAP;
    v.last.cpu_c = 15050;      /* 150.5% of a core */
    v.last.pageins_c = 12345;  /* 123.45/s */
    v.last.compressed = 7u << 20;
    v.last.tree_swap = 4096;
    v.pageins_total = 98765;
    v.has_pageins = 1;
    v.cpu_total_ns = 2500000001ull; /* 2.5 s and one nanosecond, of members alive or gone */
    v.has_cpu = 1;
    assert_int_equal(st_metrics_render(&mx, &v, &err), ST_OK);
    mx.buf[mx.len] = '\0';
    assert_non_null(strstr(mx.buf, "# TYPE stagetop_tree_cpu_cores gauge\nstagetop_tree_cpu_cores 1.5050\n"));
    assert_non_null(strstr(mx.buf, "stagetop_system_memory_compressed_bytes 7340032\n"));
    assert_non_null(strstr(mx.buf, "stagetop_tree_swap_bytes 4096\n"));
    assert_non_null(strstr(mx.buf, "# TYPE stagetop_tree_pageins_total counter\n"
                                   "stagetop_tree_pageins_total 98765\n"));
    /* CPU as a counter in seconds (process-exporter's and node_exporter's
     * naming), beside the gauge of cores */
    assert_non_null(strstr(mx.buf, "# TYPE stagetop_tree_cpu_seconds_total counter\n"
                                   "stagetop_tree_cpu_seconds_total 2.500000001\n"));
    /* the rate as a gauge too (the lane table's row) */
    assert_non_null(strstr(mx.buf, "stagetop_tree_pageins_per_second 123.45\n"));
    free(mx.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(run_and_stages),
        cmocka_unit_test(outputs),
        cmocka_unit_test(metrics_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
