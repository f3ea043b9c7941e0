/* report_fixture.c: two traces and their diff for the report tests
 * (report_fixture.h says what each step does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report_fixture.h"
#include "stagetop/report.h"
#include "tracetext.h"

void rf_load(rf_pair *p, const char *a, const char *b)
{
    memset(p, 0, sizeof *p);
    load_trace(a, &p->a);
    load_trace(b, &p->b);
}

void rf_diff(rf_pair *p, const st_trace *x, const st_trace *y)
{
    st_error e;
    memset(&e, 0, sizeof e);
    if (p->has_diff)
        st_diff_free(&p->d);
    p->has_diff = 0;
    int rc = st_diff_compute(x, y, &p->d, &e);
    if (rc != ST_OK)
        fail_msg("the diff failed (%d): %s", rc, e.msg);
    p->has_diff = 1;
}

void rf_compare(rf_pair *p, const char *a, const char *b)
{
    rf_load(p, a, b);
    rf_diff(p, &p->a, &p->b);
}

void rf_render(rf_pair *p)
{
    free(p->tx);
    free(p->md);
    free(p->js);
    p->tx = st_diff_text(&p->d, "a", "b");
    p->md = st_report_diff_md(&p->d, "a", "b", NULL);
    p->js = st_diff_json(&p->d);
    assert_non_null(p->tx);
    assert_non_null(p->md);
    assert_non_null(p->js);
}

void rf_free(rf_pair *p)
{
    free(p->tx);
    free(p->md);
    free(p->js);
    if (p->has_diff)
        st_diff_free(&p->d);
    st_trace_free(&p->a);
    st_trace_free(&p->b);
    memset(p, 0, sizeof *p);
}
