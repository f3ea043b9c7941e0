/* trace_tap.c: a run's record read back as it is written (trace.h,
 * st_trace_tap): each record's line is built by the recorder's own builders
 * (trace_record.c) and fed to the reader (st_trace_feed_line) in fold mode,
 * so the summary at the end is the one `stagetop report` or `summary` of
 * the run's record would compute, in memory that does not grow with the
 * samples (they are summed and let go every ST_TRACE_TAP_FOLD). */
#include "stagetop/trace.h"
#include "trace_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct st_trace_tap {
    st_trace t;          /* the reader's trace, folding */
    st_jw line;          /* memory mode: one record's line */
    size_t lineno;
    int failed, ended;
    st_error err;        /* the first failure */
    char command[sizeof ((st_trace_meta *)0)->command]; /* the end record's (-p follows exec) */
};

static void feed(st_trace_tap *tp)
{
    st_error e;
    if (tp->failed || tp->ended)
        return;
    if (tp->line.err) {
        st_error_set(&tp->err, ST_ENOMEM, tp->line.err, "the run's summary: out of memory");
        tp->failed = 1;
        return;
    }
    st_error_clear(&e);
    if (st_trace_feed_line(&tp->t, tp->line.buf, tp->line.len, ++tp->lineno, &e) != ST_OK) {
        st_error_set(&tp->err, e.code ? e.code : ST_EIO, e.sys_errno, "the run's summary: %.200s", e.msg);
        tp->failed = 1;
    }
}

int st_trace_tap_open(st_trace_tap **out, const st_trace_meta *meta, st_error *err)
{
    st_trace_tap *tp = calloc(1, sizeof *tp);
    *out = NULL;
    if (!tp)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the run's summary");
    st_trace_init(&tp->t);
    tp->t.fold = ST_TRACE_TAP_FOLD;
    st_jw_init(&tp->line, -1);
    st_trace_line_start(&tp->line, meta);
    feed(tp);
    if (tp->failed) {
        int rc = st_error_set(err, tp->err.code, tp->err.sys_errno, "%s", tp->err.msg);
        st_trace_tap_free(tp);
        return rc;
    }
    *out = tp;
    return ST_OK;
}

void st_trace_tap_sample(st_trace_tap *tp, const st_sample *s)
{
    if (!tp || tp->failed || tp->ended)
        return;
    st_trace_line_sample(&tp->line, s);
    feed(tp);
}

void st_trace_tap_event(st_trace_tap *tp, const st_event *ev)
{
    if (!tp || tp->failed || tp->ended)
        return;
    st_trace_line_event(&tp->line, ev);
    feed(tp);
}

void st_trace_tap_command(st_trace_tap *tp, const char *command)
{
    if (tp)
        snprintf(tp->command, sizeof tp->command, "%s", command ? command : "");
}

int st_trace_tap_end(st_trace_tap *tp, const st_summary *s, uint64_t dropped_samples, st_trace *out,
                     st_error *err)
{
    st_trace_init(out);
    if (!tp)
        return st_error_set(err, ST_EINVAL, 0, "the run's summary was not kept");
    if (tp->ended)
        return st_error_set(err, ST_EINVAL, 0, "the run's summary was taken already");
    st_trace_line_end(&tp->line, tp->command, s, dropped_samples);
    feed(tp);
    tp->ended = 1;
    if (tp->failed)
        return st_error_set(err, tp->err.code, tp->err.sys_errno, "%s", tp->err.msg);
    /* the end of a read, as st_trace_load_file's (trace_stream.c) */
    if (tp->t.folded)
        st_trace_fold_end(&tp->t);
    else
        st_trace_finish(&tp->t);
    if (tp->t.format == ST_FMT_UNKNOWN)
        tp->t.format = ST_FMT_JSONL;
    if (tp->t.fold_failed)
        return st_error_set(err, ST_EINVAL, 0, "the run's summary: its records came out of time order");
    *out = tp->t;
    st_trace_init(&tp->t);
    return ST_OK;
}

void st_trace_tap_free(st_trace_tap *tp)
{
    if (!tp)
        return;
    st_trace_free(&tp->t);
    st_jw_free(&tp->line);
    free(tp);
}
