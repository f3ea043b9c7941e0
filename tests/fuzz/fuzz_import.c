/* fuzz_import.c: libFuzzer target for the trace importer (issue 6).
 *
 * Input: any bytes.  Checks, beyond "no crash, no leak, no UB":
 *  - an ST_EPARSE error names a line that exists ("line N: ...");
 *  - whatever loads exports to a document that loads again, with the same
 *    samples, and whose own export is byte-identical (a fixpoint); the same
 *    for the JSONL record stream;
 *  - the summary JSON is valid JSON;
 *  - feeding the input line by line (as when following a growing file)
 *    never crashes either;
 *  - the chunked file reader (st_trace_load_file, core/trace/trace_stream.c)
 *    gives what the whole-buffer reader gives: the same status and, when
 *    it loads, the same samples, events and dropped count.
 * Build and run: `make fuzz` (mk/trace-tools-fuzz.mk); docs/fuzzing.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/trace/trace_internal.h"
#include "stagetop/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_import: property failed: %s\n", what);
        abort();
    }
}

static size_t count_lines(const char *p, size_t n)
{
    size_t lines = 1;
    for (size_t i = 0; i < n; i++)
        lines += p[i] == '\n';
    return lines;
}

static void check_error(const st_error *e, int rc, const char *buf, size_t n)
{
    if (rc != ST_EPARSE)
        return;
    size_t line = 0;
    check(sscanf(e->msg, "line %zu: ", &line) == 1, "error message names a line");
    check(line >= 1 && line <= count_lines(buf, n), "error line exists");
}

static void valid_json(const char *s)
{
    st_jr r;
    check(s != NULL, "summary json allocated");
    st_jr_init(&r, s, strlen(s), 1, NULL);
    check(st_jr_skip(&r) == ST_OK && st_jr_ws(&r) == -1, "summary is valid JSON");
}

static char *doc_of(const st_trace *t, size_t *len)
{
    st_jw w;
    st_jw_init(&w, -1);
    st_jw_trace_doc(&w, &t->meta, t->samples, t->n_samples, NULL, 0, &t->events, &t->summary,
                    t->dropped_samples);
    check(!w.err, "document written");
    *len = w.len;
    return st_jw_take(&w);
}

static char *jsonl_of(const st_trace *t, size_t *len)
{
    st_jw w;
    int n = 1;
    st_jw_init(&w, -1);
    st_jw_lit(&w, "{\"type\":\"start\"");
    st_jw_meta_members(&w, &t->meta, &n);
    st_jw_lit(&w, "}\n");
    for (size_t i = 0; i < t->n_samples; i++) {
        st_jw_lit(&w, "{\"type\":\"sample\",");
        st_jw_sample_members(&w, &t->samples[i]);
        st_jw_lit(&w, "}\n");
    }
    for (size_t i = 0; i < t->events.len; i++) {
        st_jw_lit(&w, "{\"type\":\"event\",");
        st_jw_event_members(&w, &t->events.v[i]);
        st_jw_lit(&w, "}\n");
    }
    if (t->has_end) {
        st_jw_lit(&w, "{\"type\":\"end\",\"summary\":");
        st_jw_summary(&w, &t->summary, NULL);
        st_jw_lit(&w, "}\n");
    }
    check(!w.err, "jsonl written");
    *len = w.len;
    return st_jw_take(&w);
}

static void round_trip(const st_trace *t)
{
    size_t n1, n2;
    st_trace t2, t3;
    st_error e;
    char *d1 = doc_of(t, &n1);
    check(st_trace_load_mem(d1, n1, &t2, &e) == ST_OK, "exported document loads again");
    check(t2.n_samples == t->n_samples, "same sample count");
    check(t->n_samples == 0 || memcmp(t2.samples, t->samples, t->n_samples * sizeof *t->samples) == 0,
          "same samples");
    check(t2.events.len == t->events.len, "same event count");
    char *d2 = doc_of(&t2, &n2);
    check(n1 == n2 && memcmp(d1, d2, n1) == 0, "export is a fixpoint");
    free(d2);

    char *l1 = jsonl_of(t, &n1);
    check(st_trace_load_mem(l1, n1, &t3, &e) == ST_OK, "JSONL records load again");
    check(t3.n_samples == t->n_samples, "same sample count (JSONL)");
    char *l2 = jsonl_of(&t3, &n2);
    check(n1 == n2 && memcmp(l1, l2, n1) == 0, "JSONL is a fixpoint");
    free(l1);
    free(l2);
    free(d1);
    st_trace_free(&t2);
    st_trace_free(&t3);
}

/* The input as a file (one temp file, rewritten each time), read by the
 * chunked reader and compared with the whole-buffer result t/rc. */
static void same_from_file(const uint8_t *data, size_t size, const st_trace *t, int rc)
{
    static char path[] = "/tmp/fuzz-import-XXXXXX";
    static int fd = -1;
    if (fd < 0 && (fd = mkstemp(path)) < 0)
        return;
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        return;
    st_trace f;
    st_error e;
    int frc = st_trace_load_file(path, &f, &e);
    check(frc == rc, "the chunked reader gives the same status");
    if (frc == ST_OK) {
        check(f.n_samples == t->n_samples &&
                  (!f.n_samples || memcmp(f.samples, t->samples, f.n_samples * sizeof *f.samples) == 0),
              "the chunked reader gives the same samples");
        check(f.events.len == t->events.len && f.dropped_samples == t->dropped_samples,
              "the chunked reader gives the same events");
        st_trace_free(&f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *buf = (const char *)data;
    st_trace t;
    st_error e;
    st_error_clear(&e);
    int rc = st_trace_load_mem(buf, size, &t, &e);
    check_error(&e, rc, buf, size);
    same_from_file(data, size, &t, rc);
    if (rc == ST_OK) {
        char *js = st_summary_to_json(&t.summary, &t.meta);
        valid_json(js);
        free(js);
        round_trip(&t);
    }
    st_trace_free(&t);

    /* Following: one line at a time, bad lines reported and skipped. */
    st_trace f;
    st_trace_init(&f);
    size_t lineno = 1;
    for (const char *p = buf, *end = buf + size; p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        rc = st_trace_feed_line(&f, p, (size_t)(le - p), lineno, &e);
        if (rc == ST_EPARSE) {
            size_t line = 0;
            check(sscanf(e.msg, "line %zu: ", &line) == 1 && line == lineno, "feed error names its line");
        }
        p = nl ? nl + 1 : end;
    }
    st_trace_finish(&f);
    char *js = st_summary_to_json(&f.summary, &f.meta);
    valid_json(js);
    free(js);
    st_trace_free(&f);
    return 0;
}
