/* test_report_env: the environment a trace names goes in the report's
 * header table (issue [reports] 1): the machine's RAM and swap size, the
 * job's exit status, and every meta.extra field of the start record
 * (sanitised and escaped), for one trace and for A B. */
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
#include "stagetop/report_model.h"
#include "report_fixture.h"
#include "tracetext.h"

/* A stagetop trace on a 16 GiB machine with 4 GiB of swap, whose job
 * exited with status 3, and whose start record has two extra fields, one
 * of them hostile (a table bar and U+202E in key and value). */
static const char STAGETOP_TRACE[] =
    "{\"type\":\"start\",\"stagetop\":\"0.3.0\",\"platform\":\"linux\",\"pid\":42,"
    "\"command\":\"python gen.py\",\"start_utc\":\"2026-12-01T10:00:00Z\",\"interval\":0.5,"
    "\"mem_total\":17179869184,\"swap_total\":4294967296,\"os\":\"Linux 6.1\","
    "\"torch\":\"2.14.0\",\"ev|il\\u202e\":\"x|y\\u202ez\",\"batch\":8,\"amp\":true}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"swap_used\":0,\"level\":90}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":200,\"swap_used\":0,\"level\":90}\n"
    "{\"type\":\"event\",\"kind\":\"exit\",\"t\":1.2,\"value\":3}\n";
/* stageload: no RAM, no exit event; its extra fields. */
static const char STAGELOAD_TRACE[] =
    "{\"type\":\"start\",\"utc\":\"2026-10-06T10:38:59+00:00\",\"interval\":0.5,\"mode\":\"staged\","
    "\"pipeline\":\"P\",\"steps\":20,\"seed\":7,\"stageload\":\"0.1.0\",\"torch\":\"2.11.0\"}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":100,\"swap_used\":0,\"level\":90}\n";

static void the_rows(void **state)
{
    (void)state;
    st_trace t;
    st_report_env env[ST_RM_MAX_ENV];
    load_trace(STAGETOP_TRACE, &t);
    size_t n = st_report_environment(&t, env, ST_RM_MAX_ENV);
    assert_int_equal(n, 7);
    assert_string_equal(env[0].label, "RAM");
    assert_string_equal(env[0].value, "16.0 GiB");
    assert_string_equal(env[1].label, "swap size");
    assert_string_equal(env[1].value, "4.00 GiB");
    assert_string_equal(env[2].label, "exit status");
    assert_string_equal(env[2].value, "3");
    assert_string_equal(env[3].label, "torch");
    assert_string_equal(env[3].value, "2.14.0");
    assert_string_equal(env[4].label, "ev|il\xE2\x80\xAE"); /* raw: the renderer escapes */
    assert_string_equal(env[5].label, "batch");
    assert_string_equal(env[5].value, "8");
    assert_string_equal(env[6].label, "amp");
    assert_string_equal(env[6].value, "true");
    st_trace_free(&t);
}

static void in_the_header_table(void **state)
{
    (void)state;
    rf_pair p;
    rf_load(&p, STAGETOP_TRACE, STAGELOAD_TRACE);
    char *md = st_report_md(&p.a, "a.jsonl", NULL, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "| RAM | 16.0 GiB |\n| swap size | 4.00 GiB |\n| exit status | 3 |\n"
                               "| torch | 2.14.0 |\n| ev\\|il | x\\|yz |\n| batch | 8 |\n| amp | true |\n"));
    assert_null(strstr(md, "\xE2\x80\xAE"));
    free(md);
    md = st_report_md(&p.b, "b.jsonl", NULL, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "| mode | staged |\n| pipeline | P |\n| steps | 20 |\n| seed | 7 |\n"
                               "| stageload | 0.1.0 |\n| torch | 2.11.0 |\n"));
    assert_null(strstr(md, "| utc |")); /* it is the "started" row */
    free(md);
    rf_diff(&p, &p.a, &p.b);
    md = st_report_diff_md(&p.d, "a", "b", NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "| RAM | 16.0 GiB | \xE2\x80\x93 |\n"));
    assert_non_null(strstr(md, "| torch | 2.14.0 | 2.11.0 |\n"));
    assert_non_null(strstr(md, "| exit status | 3 | \xE2\x80\x93 |\n"));
    assert_non_null(strstr(md, "| seed | \xE2\x80\x93 | 7 |\n")); /* only B has it */
    free(md);
    rf_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_rows),
        cmocka_unit_test(in_the_header_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
