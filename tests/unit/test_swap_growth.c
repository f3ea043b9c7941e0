/* test_swap_growth: "swap growth" is one quantity (docs/metrics.md): swap
 * used at the latest sample minus swap used at the run's first sample.  A
 * live run on the scripted backend whose swap moves between the monitor's
 * opening and its first sample: the screen's base (the run view's
 * sys_start), the guard's base, the summary's start and the metrics file
 * all take the first sample's reading, so --swap-budget, the notification,
 * the screen and stagetop_swap_growth_bytes say the same number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/metrics.h"
#include "stagetop/report.h"
#include "stagetop/monitor.h"
#include "../../core/run/monitor_internal.h" /* the tests look inside */
#include "stagetop/run_view.h"
#include "fakeplat.h"

#include "monitor_script.h"

#include "sizes.h"
#include "tracetext.h"

static void one_base_for_every_live_output(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.guard.has_swap_budget = 1;
    o.guard.swap_budget = 256 * MIB;
    o.guard.action = ST_GUARD_PAUSE;
    open_mon(&m, &o, 0); /* the script: 1 GiB of swap used at the opening */
    uint64_t first = (1024 + 300) * MIB;
    the_backend->sys.swap_used = first; /* swap moved before the first sample */
    assert_int_equal(st_monitor_step(&m, 0, NULL), ST_OK);
    the_backend->sys.swap_used = first + 200 * MIB;
    assert_int_equal(st_monitor_step(&m, 0.5, NULL), ST_OK);

    assert_true(m.summary.has_swap);
    assert_int_equal(m.summary.swap_start, first);
    st_run_view v;
    st_monitor_view(&m, 0.5, &v);
    assert_int_equal(v.sys_start.swap_used, first);  /* the screen's "since start" */
    assert_true(m.guard.has_base);
    assert_int_equal(m.guard.swap_base, first);      /* --swap-budget, --notify */
    /* 200 MiB of growth is under the 256 MiB budget: no action (from the
     * opening's reading it would have been 500 MIB) */
    assert_int_equal(count_kind(&m, ST_EV_BUDGET), 0);
    st_metrics_values mv;
    st_monitor_view(&m, 1.0, &v);
    st_metrics_values_of(&v, 1.0, &mv);
    assert_true(mv.has_swap_growth);
    assert_int_equal(mv.swap_growth, (int64_t)(200 * MIB));
    /* past the budget, counted from the same base */
    the_backend->sys.swap_used = first + 257 * MIB;
    assert_int_equal(st_monitor_step(&m, 1.0, NULL), ST_OK);
    assert_int_equal(count_kind(&m, ST_EV_BUDGET), 1);
    st_monitor_close(&m, 0, NULL);
}

/* The metrics file names the quantity the way docs/metrics.md does. */
static void metrics_help_names_the_definition(void **state)
{
    (void)state;
    st_metrics mx;
    st_metrics_values v;
    st_error e;
    memset(&v, 0, sizeof v);
    memset(&mx, 0, sizeof mx);
    st_metrics_set_labels(&mx, 42, "job");
    v.has_swap_growth = 1;
    v.swap_growth = 123456;
    assert_int_equal(st_metrics_render(&mx, &v, &e), ST_OK);
    assert_non_null(strstr(mx.buf, "# HELP stagetop_swap_growth_bytes System swap used at the latest "
                                   "sample minus at the run's first sample"));
    assert_non_null(strstr(mx.buf, "\nstagetop_swap_growth_bytes")); /* the job's series: user labels only */
    assert_non_null(strstr(mx.buf, "\nstagetop_swap_growth_bytes 123456\n"));
    st_metrics_close(&mx);
}

/* Swap: A 1000 -> peak 1500 -> end 1250 (growth +250, peak rise +500);
 * B 2000 -> peak 2600 -> end 2500 (growth +500, peak rise +600). */
static const char TRACE_A[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"swap_used\":1000,\"level\":90}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":1}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":300,\"swap_used\":1500,\"level\":80}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":200,\"swap_used\":1250,\"level\":70}\n";
static const char TRACE_B[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":500,\"swap_used\":2000,\"level\":50}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":1}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":1000,\"swap_used\":2600,\"level\":40}\n"
    "{\"type\":\"sample\",\"t\":2,\"footprint\":990,\"swap_used\":2500,\"level\":45}\n";

/* The trace outputs: peak - start is "swap peak rise" everywhere; "swap
 * growth" is left to the per-stage column (a window's end - its start). */
static void trace_outputs_name_the_peak_rise(void **state)
{
    (void)state;
    st_trace a, b;
    st_diff d;
    load_trace(TRACE_A, &a);
    load_trace(TRACE_B, &b);
    char *md = st_report_md(&a, "a.jsonl", NULL, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "| swap peak rise | +500 B |\n"));
    assert_null(strstr(md, "\n| swap growth"));                 /* not a summary row */
    assert_non_null(strstr(md, "| peak footprint | swap growth | min level |")); /* stage column */
    assert_non_null(strstr(md, "| setup | 0.0 s | 1.0 s | 100 B | +0 B |"));
    assert_non_null(strstr(md, "| enc | 1.0 s | 1.0 s | 300 B | +250 B |")); /* 1250 - 1000 */
    free(md);
    assert_int_equal(st_diff_compute(&a, &b, &d, NULL), ST_OK);
    assert_true(d.has_swap_peak_rise);
    assert_int_equal(d.swap_peak_rise, 600 - 500);
    char *tx = st_diff_text(&d, "a", "b"), *js = st_diff_json(&d);
    char *cmp = st_report_diff_md(&d, "a", "b", NULL);
    assert_non_null(tx);
    assert_non_null(js);
    assert_non_null(cmp);
    const char *row = strstr(tx, "\nswap peak rise ");
    assert_non_null(row);
    const char *end = strchr(row + 1, '\n');
    assert_non_null(end);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(end - row - 1), row + 1);
    assert_non_null(strstr(line, "+500 B"));
    assert_non_null(strstr(line, "+600 B"));
    assert_non_null(strstr(line, "+100 B"));
    assert_null(strstr(tx, "\nswap growth")); /* no summary row of that name */
    assert_non_null(strstr(js, "\"swap_peak_rise_bytes\":100"));
    assert_null(strstr(js, "swap_growth_bytes")); /* per-stage "swap_growth" is the definition's */
    assert_non_null(strstr(cmp, "| swap peak rise | +500 B | +600 B | +100 B |\n"));
    assert_null(strstr(cmp, "\n| swap growth")); /* per-stage columns only */
    free(tx);
    free(js);
    free(cmp);
    st_diff_free(&d);
    st_trace_free(&a);
    st_trace_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_base_for_every_live_output),
        cmocka_unit_test(metrics_help_names_the_definition),
        cmocka_unit_test(trace_outputs_name_the_peak_rise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
