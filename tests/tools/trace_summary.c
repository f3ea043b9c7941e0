/* trace-summary: `stagetop summary FILE|-` without the TUI, for the trace
 * tests until tui/main.c exists: load, print the summary JSON, exit 1 with
 * "stagetop: FILE: <msg>" on error.  Also `trace-summary --export IN OUT`
 * (import IN, export the JSON document to OUT) and `--jsonl IN` (import
 * IN, write it to stdout as a JSONL record stream). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/trace.h"

static int fail(const char *file, const st_error *e)
{
    fprintf(stderr, "stagetop: %s: %s\n", file, e->msg);
    return 1;
}

int main(int argc, char **argv)
{
    st_trace t;
    st_error e;
    st_error_clear(&e);
    if (argc == 2) {
        if (st_trace_load_file(argv[1], &t, &e))
            return fail(argv[1], &e);
        char *js = st_summary_to_json(&t.summary, &t.meta);
        if (!js) {
            st_trace_free(&t);
            return 1;
        }
        printf("%s\n", js);
        free(js);
        st_trace_free(&t);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "--export") == 0) {
        if (st_trace_load_file(argv[2], &t, &e))
            return fail(argv[2], &e);
        int rc = st_trace_export(argv[3], &t.meta, st_trace_view(&t), &t.events, &t.summary,
                                 t.dropped_samples, &e);
        st_trace_free(&t);
        return rc ? fail(argv[3], &e) : 0;
    }
    if (argc == 3 && strcmp(argv[1], "--jsonl") == 0) {
        st_recorder *r;
        int rc;
        if (st_trace_load_file(argv[2], &t, &e))
            return fail(argv[2], &e);
        if ((rc = st_recorder_open(&r, NULL, STDOUT_FILENO, 0, &e)) == 0) {
            size_t j = 0;
            rc = st_recorder_start(r, &t.meta, &e);
            for (size_t i = 0; !rc && i <= t.n_samples; i++) {
                while (!rc && j < t.events.len && (i == t.n_samples || t.events.v[j].t_ms <= t.samples[i].t_ms))
                    rc = st_recorder_event(r, &t.events.v[j++], &e);
                if (!rc && i < t.n_samples)
                    rc = st_recorder_sample(r, &t.samples[i], &e);
            }
            if (!rc && t.has_end)
                rc = st_recorder_end(r, &t.summary, t.dropped_samples, &e);
            st_recorder_close(r);
        }
        st_trace_free(&t);
        return rc ? fail("stdout", &e) : 0;
    }
    fprintf(stderr, "usage: trace-summary FILE|-\n       trace-summary --export IN OUT\n"
                    "       trace-summary --jsonl IN\n");
    return 2;
}
