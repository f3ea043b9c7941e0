/* tracetext.h: a trace read from text in memory, for the unit tests of
 * report, diff and the summary (after cmocka.h; -Itests). */
#ifndef STAGETOP_TESTS_TRACETEXT_H
#define STAGETOP_TESTS_TRACETEXT_H

#include <string.h>
#include "stagetop/trace.h"

/* Load text (a JSONL record or a JSON document) into t; the test fails
 * when it does not load. */
static inline void load_trace(const char *text, st_trace *t)
{
    st_error e;
    st_trace_init(t);
    assert_int_equal(st_trace_load_mem(text, strlen(text), t, &e), ST_OK);
}

#endif
