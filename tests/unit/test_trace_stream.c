/* test_trace_stream.c: the one reader of traces (trace_stream.h): the
 * document-or-stream rule on partial input, records fed as their lines
 * complete on a pipe (`replay -`), a document on a pipe loaded at its end,
 * the one line limit for a stream and for --events.  Expected records are
 * what st_trace_load_mem makes of the same bytes, or written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stagetop/follow.h"
#include "stagetop/trace.h"
#include "stagetop/trace_stream.h"
#include "tmpdir.h"
#include "testutil.h"

static void put(int fd, const char *s)
{
    size_t n = strlen(s);
    assert_int_equal(write(fd, s, n), (ssize_t)n);
}

/* Write s into a pipe the reader drains meanwhile (more than a pipe holds). */
static void feed(int fd, const char *s, st_trace_reader *rd, st_trace *t)
{
    st_error e;
    size_t n = strlen(s), off = 0;
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    while (off < n) {
        ssize_t k = write(fd, s + off, n - off);
        if (k < 0)
            assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
        else
            off += (size_t)k;
        assert_int_equal(st_trace_reader_poll(rd, t, 0, &e), ST_OK);
    }
}

static void test_detect(void **state)
{
    (void)state;
    const char *doc = "\xEF\xBB\xBF \n{\"format\":\"stagetop-trace\",\"version\":1}";
    const char *jsonl = "{\"type\":\"sample\",\"t\":0,\"footprint\":1}\n";
    /* every prefix of the document: undecided, until "format" is whole */
    size_t at = (size_t)(strstr(doc, "\"format\"") - doc) + strlen("\"format\"");
    for (size_t n = 0; n <= strlen(doc); n++) {
        int k = st_trace_detect(doc, n, 0);
        if (n < at)
            assert_int_equal(k, ST_TRACE_MORE);
        else if (n > at) /* (the ':' after the key) */
            assert_int_equal(k, ST_TRACE_DOC);
    }
    assert_int_equal(st_trace_detect("{\n  \"format\": \"stagetop-trace\"", 30, 0), ST_TRACE_DOC);
    assert_int_equal(st_trace_detect("{\n", 2, 0), ST_TRACE_MORE); /* pretty-printed: wait */
    assert_int_equal(st_trace_detect("{\n", 2, 1), ST_TRACE_LINES);
    assert_int_equal(st_trace_detect(jsonl, 9, 0), ST_TRACE_LINES);
    assert_int_equal(st_trace_detect("{\"meta\":{\"a\":1},\"type\":\"start\"}", 31, 0), ST_TRACE_LINES);
    assert_int_equal(st_trace_detect("{oops\n{\"type\"", 13, 0), ST_TRACE_LINES); /* bad line 1 */
    assert_int_equal(st_trace_detect("not json\n", 9, 0), ST_TRACE_LINES);
    assert_int_equal(st_trace_detect("  \n", 3, 0), ST_TRACE_MORE);
    assert_int_equal(st_trace_detect("  \n", 3, 1), ST_TRACE_LINES);
}

/* JSONL on a pipe: a record counts once its line is whole. */
static void test_live_lines(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    st_trace_reader rd;
    st_trace t;
    st_error e;
    st_trace_init(&t);
    assert_int_equal(st_trace_reader_fd(&rd, p[0], 1, ST_TS_LIVE, 0, &e), ST_OK);
    assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK); /* nothing there: no block */
    assert_int_equal(rd.ended, 0);
    put(p[1], "{\"type\":\"start\",\"stagetop\":\"0.1\",\"interval\":0.5}\n{\"type\":\"sample\",\"t\":0.5,\"footpr");
    assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
    assert_int_equal(rd.kind, ST_TRACE_LINES);
    assert_int_equal(t.n_samples, 0);
    assert_true(t.meta.interval == 0.5);
    put(p[1], "int\":4096}\n");
    assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
    assert_int_equal(t.n_samples, 1);
    assert_int_equal(t.samples[0].footprint, 4096);
    /* a line past the limit: counted, named, skipped; the next one is read */
    size_t big = ST_TRACE_MAX_LINE + 100;
    char *junk = malloc(big + 1);
    assert_non_null(junk);
    memset(junk, 'x', big);
    junk[big] = '\0';
    feed(p[1], junk, &rd, &t);
    put(p[1], "\n{\"type\":\"sample\",\"t\":1.0,\"footprint\":8192}\nnot json\n");
    free(junk);
    for (int i = 0; i < 100 && t.n_samples < 2; i++)
        assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
    assert_int_equal(t.n_samples, 2);
    assert_int_equal(t.samples[1].footprint, 8192);
    assert_int_equal(rd.bad, 2);
    assert_non_null(strstr(rd.last_bad.msg, "line 5"));
    /* the last line needs no newline once the writer is gone */
    put(p[1], "{\"type\":\"end\"}");
    assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
    assert_int_equal(t.has_end, 0);
    close(p[1]);
    assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
    assert_int_equal(rd.ended, 1);
    assert_int_equal(t.has_end, 1);
    st_trace_reader_close(&rd);
    st_trace_free(&t);
}

/* A pretty-printed document on a pipe, in pieces: nothing until its end,
 * then exactly what st_trace_load_mem makes of the same text. */
static void test_live_document(void **state)
{
    (void)state;
    const char *doc = "{\n  \"format\": \"stagetop-trace\",\n  \"version\": 1,\n"
                      "  \"meta\": {\"stagetop\": \"0.1\", \"interval\": 1.0},\n"
                      "  \"samples\": [\n    {\"t\": 0.0, \"footprint\": 1024},\n"
                      "    {\"t\": 1.0, \"footprint\": 3072}\n  ],\n  \"events\": []\n}\n";
    st_trace want, t;
    st_error e;
    assert_int_equal(st_trace_load_mem(doc, strlen(doc), &want, &e), ST_OK);
    int p[2];
    assert_int_equal(pipe(p), 0);
    st_trace_reader rd;
    st_trace_init(&t);
    assert_int_equal(st_trace_reader_fd(&rd, p[0], 1, ST_TS_LIVE, 0, &e), ST_OK);
    for (size_t off = 0, n = strlen(doc); off < n; off += 7) {
        char piece[8];
        snprintf(piece, sizeof piece, "%.7s", doc + off);
        put(p[1], piece);
        assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
        assert_int_equal(rd.doc_loaded, 0);
        assert_int_equal(t.n_samples, 0);
    }
    assert_int_equal(rd.kind, ST_TRACE_DOC);
    close(p[1]);
    assert_int_equal(st_trace_reader_poll(&rd, &t, 0, &e), ST_OK);
    assert_int_equal(rd.ended, 1);
    assert_int_equal(rd.doc_loaded, 1);
    assert_int_equal(t.format, ST_FMT_JSON);
    assert_int_equal(t.n_samples, want.n_samples);
    assert_memory_equal(t.samples, want.samples, want.n_samples * sizeof *want.samples);
    assert_int_equal(t.summary.peak_footprint, want.summary.peak_footprint);
    st_trace_reader_close(&rd);
    st_trace_free(&t);
    st_trace_free(&want);
}

static void collect(void *ctx, const st_event *ev)
{
    int *n = ctx;
    (void)ev;
    (*n)++;
}

/* --events: the same limit; the line after an over-long one is read. */
static void test_follow_long_line(void **state)
{
    (void)state;
    char dir[] = "/tmp/st-stream-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/ev", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    st_follow fo;
    st_error e;
    int n = 0;
    assert_int_equal(st_follow_open(&fo, path, &e), ST_OK);
    fputs("mark ", f);
    for (int i = 0; i < ST_TRACE_MAX_LINE; i++)
        fputc('y', f);
    fputs("\nstage after\n", f);
    fflush(f);
    for (int i = 0; i < 10 && n == 0; i++)
        assert_true(st_follow_poll(&fo, 1.0, collect, &n, &e) >= 0);
    assert_int_equal(n, 1);
    assert_int_equal(fo.bad_lines, 1);
    assert_non_null(strstr(fo.last_error, "line 1: longer than"));
    st_follow_close(&fo);
    fclose(f);
    unlink(path);
    rmdir(dir);
}

/* ---- the chunked reader against the whole-buffer reader ---- */

static void stream_matches_whole_buffer(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/t.jsonl", (char *)*state);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "\xEF\xBB\xBF{\"type\":\"start\",\"stagetop\":\"0.1.0\",\"interval\":0.5}\n\n");
    for (int i = 0; i < 30000; i++) { /* many chunks; blank and padded lines on the way */
        if (i % 997 == 0)
            fprintf(fp, "%*s", 1 + i % 300, "");
        fprintf(fp, "{\"type\":\"sample\",\"t\":%d.500,\"footprint\":%d,\"procs\":%d}\n", i, i * 7 + 1,
                1 + i % 9);
        if (i % 1000 == 500)
            fprintf(fp, "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"s%d\",\"t\":%d.500}\n", i, i);
    }
    fprintf(fp, "{\"type\":\"end\",\"dropped_samples\":3}"); /* no final newline */
    fclose(fp);
    size_t len;
    char *all = slurp(path, &len);
    st_trace a, b;
    st_error e;
    assert_int_equal(st_trace_load_mem(all, len, &a, &e), ST_OK);
    int rc = st_trace_load_file(path, &b, &e);
    if (rc)
        fail_msg("%s", e.msg);
    assert_int_equal(b.n_samples, 30000);
    assert_int_equal(b.n_samples, a.n_samples);
    assert_memory_equal(b.samples, a.samples, a.n_samples * sizeof *a.samples);
    assert_int_equal(b.events.len, a.events.len);
    assert_int_equal(b.dropped_samples, 3);
    assert_int_equal(b.has_end, 1);
    assert_int_equal(b.summary.n_stages, a.summary.n_stages);
    st_trace_free(&a);
    st_trace_free(&b);
    free(all);
}

static void stream_names_the_bad_line(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/long.jsonl", (char *)*state);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    for (int i = 0; i < 5000; i++)
        fprintf(fp, "{\"type\":\"sample\",\"t\":%d.000,\"footprint\":1}\n", i);
    fputs("{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"", fp); /* line 5001: 200 KB */
    for (int i = 0; i < 200000; i++)
        fputc('x', fp);
    fputs("\"}\n", fp);
    fclose(fp);
    st_trace t;
    st_error e;
    assert_int_equal(st_trace_load_file(path, &t, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 5001"));
    assert_non_null(strstr(e.msg, "longer"));
}

static void stream_fifo_without_writer(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/nobody.fifo", (char *)*state);
    assert_int_equal(mkfifo(path, 0600), 0);
    st_trace_stream s;
    st_error e;
    assert_int_equal(st_trace_stream_open(&s, path, 0.2, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "no writer"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_live_lines),
        cmocka_unit_test(test_live_document),
        cmocka_unit_test(test_follow_long_line),
        cmocka_unit_test_setup_teardown(stream_matches_whole_buffer, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stream_names_the_bad_line, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stream_fifo_without_writer, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
