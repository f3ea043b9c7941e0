/* report_fixture.h: two traces read from text and their diff, the fixture
 * of the report and diff unit tests (test_report_model, test_report_nostages,
 * test_diff_time, test_report_charts, test_md, test_report_env; mk/unit.mk
 * links tests/report_fixture.c into them).  Include it after <cmocka.h>
 * (-Itests); a step that does not succeed fails the test. */
#ifndef STAGETOP_TESTS_REPORT_FIXTURE_H
#define STAGETOP_TESTS_REPORT_FIXTURE_H

#include "stagetop/diff.h"
#include "stagetop/trace.h"

typedef struct rf_pair {
    st_trace a, b;
    st_diff d;          /* after rf_diff or rf_compare */
    int has_diff;
    char *tx, *md, *js; /* after rf_render: the diff's text, Markdown, --json */
} rf_pair;

/* Load the traces a and b from text (tracetext.h's load_trace), no diff. */
void rf_load(rf_pair *p, const char *a, const char *b);
/* The diff of x and y (p's own traces) into p->d, in place of any before. */
void rf_diff(rf_pair *p, const st_trace *x, const st_trace *y);
/* rf_load, then the diff of a and b. */
void rf_compare(rf_pair *p, const char *a, const char *b);
/* The diff's text and Markdown (st_diff_text, st_report_diff_md; the runs
 * labelled "a" and "b") and its --json (st_diff_json); none is NULL. */
void rf_render(rf_pair *p);
/* What rf_render made, the diff, both traces. */
void rf_free(rf_pair *p);

#endif
