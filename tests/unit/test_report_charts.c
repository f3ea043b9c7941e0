/* test_report_charts: the report's chart section ([reports] 3): the text
 * chart is an indented code block (a block for python-markdown without
 * extensions, and no fence for trace text to close), the SVG written
 * beside the report is linked by a relative, percent-encoded name, and the
 * comparison (report A B) has a chart per run, captioned. */
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
#include "report_fixture.h"
#include "tracetext.h"

static const char RUN[] =
    "{\"type\":\"start\",\"interval\":1,\"stageload\":\"0.1.0\"}\n"
    "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"enc\",\"t\":0}\n"
    "{\"type\":\"sample\",\"t\":0,\"footprint\":500,\"swap_used\":2000,\"level\":50}\n"
    "{\"type\":\"sample\",\"t\":1,\"footprint\":600,\"swap_used\":2000,\"level\":50}\n";

static void one_trace_block_and_link(void **state)
{
    (void)state;
    st_trace t;
    load_trace(RUN, &t);
    st_report_charts c = {{"footprint ```x\n~~~~\ntime 0s\n", NULL}, "my run (1).svg"};
    char *md = st_report_md_charts(&t, "t.jsonl", &c, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "#### Chart\n\n![Memory over time](my%20run%20%281%29.svg)\n\n"
                               "    footprint ```x\n    ~~~~\n    time 0s\n\n#### Events"));
    assert_null(strstr(md, "\n```"));
    free(md);
    /* no image, no text: no chart section */
    st_report_charts none = {{NULL, NULL}, NULL};
    md = st_report_md_charts(&t, "t.jsonl", &none, NULL);
    assert_non_null(md);
    assert_null(strstr(md, "#### Chart"));
    free(md);
    st_trace_free(&t);
}

static void comparison_has_charts(void **state)
{
    (void)state;
    rf_pair p;
    rf_compare(&p, RUN, RUN);
    st_report_charts c = {{"footprint A\n", "footprint B\n"}, "cmp.svg"};
    char *md = st_report_diff_md_charts(&p.d, "a|1.jsonl", "b.jsonl", &c, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "#### Chart\n\n![Memory over time, A solid and B dashed](cmp.svg)\n\n"
                               "A: a\\|1.jsonl\n\n    footprint A\n\n"
                               "B: b.jsonl\n\n    footprint B\n"));
    /* after the summary table */
    assert_true(strstr(md, "#### Chart") > strstr(md, "#### Summary"));
    free(md);
    md = st_report_diff_md(&p.d, "a.jsonl", "b.jsonl", NULL);
    assert_non_null(md);
    assert_null(strstr(md, "#### Chart"));
    free(md);
    rf_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_trace_block_and_link),
        cmocka_unit_test(comparison_has_charts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
