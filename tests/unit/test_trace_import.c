/* test_trace_import.c: the importer on the real stageload fixtures, on our
 * own good and bad traces (tests/fixtures/traces), and on hostile input.
 * Expected values come from reading the files with plain string scans (not
 * the importer) or are written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stagetop/trace.h"

static const char *root(void)
{
    const char *r = getenv("ST_ROOT");
    return r && *r ? r : ".";
}

static void path_in(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s/%s", root(), dir, name);
}

static const char *fixture_dir(void)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/tests/fixtures/stageload", root());
    return access(buf, R_OK) == 0 ? buf : NULL; /* the fixtures ship with the repo */
}

static int load_str(const char *s, st_trace *t, st_error *e)
{
    return st_trace_load_mem(s, strlen(s), t, e);
}

/* ---- stageload fixtures ---- */

static void test_stageload_fixtures(void **state)
{
    (void)state;
    const char *dir = fixture_dir();
    if (!dir)
        fail_msg("tests/fixtures/stageload is missing");
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int files = 0;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 6 || strcmp(de->d_name + n - 6, ".jsonl") != 0)
            continue;
        char path[4096], line[8192];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        /* expected, by plain scanning: samples, events, an end line */
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        size_t samples = 0, events = 0;
        int has_end = 0;
        while (fgets(line, sizeof line, f)) {
            samples += strstr(line, "\"type\":\"sample\"") != NULL;
            events += strstr(line, "\"type\":\"event\"") != NULL;
            has_end |= strstr(line, "\"type\":\"end\"") != NULL;
        }
        fclose(f);
        st_trace t;
        st_error e;
        int rc = st_trace_load_file(path, &t, &e);
        if (rc)
            fail_msg("%s: %s", de->d_name, e.msg);
        assert_int_equal(t.format, ST_FMT_STAGELOAD);
        assert_int_equal(t.n_samples, samples);
        assert_int_equal(t.events.len, events);
        assert_int_equal(t.has_end, has_end);
        assert_true(t.meta.interval == 0.5);
        assert_string_equal(t.meta.stagetop, "");
        assert_int_equal(strlen(t.meta.start_utc), 25); /* mirrored from "utc" */
        assert_non_null(t.meta.extra);
        cJSON *x = cJSON_Parse(t.meta.extra);
        assert_non_null(x);
        assert_true(cJSON_IsString(cJSON_GetObjectItem(x, "pipeline")));
        assert_true(cJSON_IsString(cJSON_GetObjectItem(x, "stageload")));
        assert_true(cJSON_IsString(cJSON_GetObjectItem(x, "utc")));
        assert_null(cJSON_GetObjectItem(x, "type"));
        assert_null(cJSON_GetObjectItem(x, "interval"));
        cJSON_Delete(x);
        for (size_t i = 0; i < t.n_samples; i++) {
            assert_true(st_sample_has(&t.samples[i], ST_F_FOOTPRINT | ST_F_SWAP | ST_F_LEVEL));
            assert_false(st_sample_has(&t.samples[i], ST_F_RSS));
            if (i)
                assert_true(t.samples[i - 1].t_ms <= t.samples[i].t_ms);
        }
        assert_int_equal(t.summary.n_samples, samples);
        st_trace_free(&t);
        files++;
    }
    closedir(d);
    assert_int_equal(files, 4);
}

/* ---- bad inputs: one per kind; the error names the line ---- */

static const struct { const char *file; size_t line; const char *says; } bad[] = {
    { "bad-wrong-type.jsonl", 3, "\"footprint\" must be a number, found a string" },
    { "bad-negative-bytes.jsonl", 4, "\"footprint\" is negative" },
    { "bad-huge-bytes.jsonl", 2, "\"footprint\" is out of range" },
    { "bad-fraction-bytes.jsonl", 2, "\"nbytes\" is not an integer" },
    { "bad-nonfinite.jsonl", 3, "\"footprint\" is out of range (1e999" },
    { "bad-t-negative.jsonl", 2, "\"t\" is negative" },
    { "bad-t-huge.jsonl", 3, "\"t\" is out of range" },
    { "bad-t-nan.jsonl", 2, "NaN" },
    { "bad-level-range.jsonl", 2, "\"level\" is out of range" },
    { "bad-binary.jsonl", 1, "not a trace" },
    { "bad-empty.jsonl", 1, "empty trace" },
    { "bad-blank.jsonl", 4, "empty trace" },
    { "bad-deep.jsonl", 2, "nested deeper than" },
    { "bad-long-line.jsonl", 2, "longer than 65536 bytes" },
    { "bad-no-type.jsonl", 2, "no \"type\"" },
    { "bad-type-number.jsonl", 2, "\"type\" must be a string" },
    { "bad-no-t.jsonl", 5, "sample has no \"t\"" },
    { "bad-no-kind.jsonl", 2, "event has no \"kind\"" },
    { "bad-not-object.jsonl", 2, "expected an object" },
    { "bad-trailing.jsonl", 3, "unexpected data after the record" },
    { "bad-control-char.jsonl", 2, "control character" },
    { "bad-bad-escape.jsonl", 2, "bad escape" },
    { "bad-doc-truncated.json", 5, "found end of input" },
    { "bad-doc-version.json", 2, "unsupported trace version 2" },
    { "bad-doc-format.json", 1, "not a stagetop trace" },
    { "bad-doc-trailing.json", 3, "unexpected data after the document" },
    { "bad-doc-sample-type.json", 4, "\"level\" must be a number" },
    { "bad-doc-trailing-comma.json", 4, "a value after ','" },
    { "bad-doc-deep.json", 2, "nested deeper than" },
};

static void test_bad_inputs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[4096], want[64];
        path_in(path, sizeof path, "tests/fixtures/traces", bad[i].file);
        st_trace t;
        st_error e;
        st_error_clear(&e);
        int rc = st_trace_load_file(path, &t, &e);
        if (rc != ST_EPARSE)
            fail_msg("%s: expected ST_EPARSE, got %d (%s)", bad[i].file, rc, e.msg);
        snprintf(want, sizeof want, "line %zu: ", bad[i].line);
        if (strncmp(e.msg, want, strlen(want)) != 0 || !strstr(e.msg, bad[i].says))
            fail_msg("%s: message \"%s\", wanted \"%s...%s\"", bad[i].file, e.msg, want, bad[i].says);
        assert_int_equal(t.n_samples, 0); /* nothing half-loaded */
        assert_null(t.samples);
        st_trace_free(&t);
    }
}

/* The summary JSON is valid JSON (read by cJSON, not by us). */
static void summary_parses(const st_trace *t)
{
    char *js = st_summary_to_json(&t->summary, &t->meta);
    assert_non_null(js);
    cJSON *j = cJSON_Parse(js);
    if (!j)
        fail_msg("invalid summary JSON: %.200s", js);
    cJSON_Delete(j);
    free(js);
}

/* Every crasher the fuzzer found, and every good and bad trace, goes the
 * fuzz target's ways (load, summary, export and reload; then following it
 * line by line, bad lines skipped) and loads or fails cleanly: under
 * SANITIZE=1 "cleanly" includes no ASan/UBSan report. */
static void test_fixture_dir_no_crash(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fixtures/traces", root());
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int good = 0, crashers = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[8192], out[] = "/tmp/st-reload-XXXXXX";
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        crashers += strncmp(de->d_name, "crash-", 6) == 0;
        st_trace t, t2;
        st_error e;
        int rc = st_trace_load_file(path, &t, &e);
        if (strncmp(de->d_name, "good-", 5) == 0) {
            if (rc)
                fail_msg("%s: %s", de->d_name, e.msg);
            good++;
        } else if (rc) {
            assert_int_equal(rc, ST_EPARSE);
            assert_true(strncmp(e.msg, "line ", 5) == 0);
        }
        if (rc == ST_OK) {
            summary_parses(&t);
            int fd = mkstemp(out);
            assert_true(fd >= 0);
            close(fd);
            assert_int_equal(st_trace_export(out, &t.meta, st_trace_view(&t), &t.events, &t.summary,
                                             t.dropped_samples, &e), ST_OK);
            assert_int_equal(st_trace_load_file(out, &t2, &e), ST_OK);
            assert_int_equal(t2.n_samples, t.n_samples);
            st_trace_free(&t2);
            unlink(out);
        }
        st_trace_free(&t);

        /* split like a follower does: on '\n' only (NUL bytes included) */
        static char data[1 << 20];
        FILE *f = fopen(path, "rb");
        size_t len = fread(data, 1, sizeof data, f), lineno = 0;
        fclose(f);
        st_trace_init(&t);
        for (const char *p = data, *end = data + len; p < end;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *le = nl ? nl : end;
            rc = st_trace_feed_line(&t, p, (size_t)(le - p), ++lineno, &e);
            assert_true(rc == ST_OK || rc == ST_EPARSE);
            p = nl ? nl + 1 : end;
        }
        st_trace_finish(&t);
        summary_parses(&t);
        st_trace_free(&t);
    }
    closedir(d);
    assert_true(good >= 7);
    assert_true(crashers >= 1);
}

/* ---- semantics ---- */

static void test_sort_stable(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    assert_int_equal(load_str("{\"type\":\"start\"}\n"
                              "{\"type\":\"sample\",\"t\":2,\"footprint\":1}\n"
                              "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"b\",\"t\":1.5}\n"
                              "{\"type\":\"sample\",\"t\":1,\"footprint\":2}\n"
                              "{\"type\":\"sample\",\"t\":2,\"footprint\":3}\n"
                              "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"a\",\"t\":0.5}\n"
                              "{\"type\":\"event\",\"kind\":\"mark\",\"note\":\"c\",\"t\":1.5}\n"
                              "{\"type\":\"sample\",\"t\":1,\"footprint\":4}\n",
                              &t, &e),
                     ST_OK);
    assert_int_equal(t.n_samples, 4);
    const uint32_t t_ms[] = { 1000, 1000, 2000, 2000 };
    const uint64_t fp[] = { 2, 4, 1, 3 };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t.samples[i].t_ms, t_ms[i]);
        assert_int_equal(t.samples[i].footprint, fp[i]);
    }
    assert_int_equal(t.events.len, 3);
    assert_string_equal(t.events.v[0].note, "a");
    assert_string_equal(t.events.v[1].note, "b");
    assert_string_equal(t.events.v[2].note, "c");
    assert_int_equal(t.has_end, 0); /* killed run: accepted */
    assert_int_equal(t.summary.first_t_ms, 1000);
    assert_int_equal(t.summary.last_t_ms, 2000);
    st_trace_free(&t);
}

static void test_doc_summary_recomputed(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    assert_int_equal(load_str("{\"format\":\"stagetop-trace\",\"version\":1,\"meta\":{\"stagetop\":\"0.1.0\","
                              "\"pid\":42,\"mem_total\":1024,\"new_key\":[1,2]},\n"
                              "\"samples\":[{\"t\":0.5,\"footprint\":10,\"gpu\":null,\"procs\":3},"
                              "{\"t\":1.25,\"footprint\":20,\"pressure\":12.34}],\n"
                              "\"events\":[],\n"
                              "\"summary\":{\"peak_footprint\":999999,\"duration\":77,\"kernel_peak\":5000,"
                              "\"stages\":[{\"x\":1}]},\"dropped_samples\":7,\"future\":{\"a\":true}}",
                              &t, &e),
                     ST_OK);
    assert_int_equal(t.format, ST_FMT_JSON);
    assert_int_equal(t.has_end, 1);
    assert_int_equal(t.summary.peak_footprint, 20); /* not 999999 */
    assert_int_equal(t.summary.last_t_ms - t.summary.first_t_ms, 750);
    assert_true(t.summary.has_kernel_peak);
    assert_int_equal(t.summary.kernel_peak, 5000); /* cannot be recomputed: kept */
    assert_int_equal(t.dropped_samples, 7);
    assert_string_equal(t.meta.stagetop, "0.1.0");
    assert_int_equal(t.meta.pid, 42);
    assert_int_equal(t.meta.mem_total, 1024);
    assert_string_equal(t.meta.extra, "{\"new_key\":[1,2]}");
    assert_false(st_sample_has(&t.samples[0], ST_F_GPU));
    assert_int_equal(t.samples[0].procs, 3);
    assert_true(st_sample_has(&t.samples[1], ST_F_PRESSURE));
    assert_int_equal(t.samples[1].pressure_c, 1234);
    st_trace_free(&t);
}

static void test_meta_wrong_types_kept(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    assert_int_equal(load_str("{\"type\":\"start\",\"stagetop\":\"0.1.0\",\"pid\":\"abc\",\"host\":7,"
                              "\"interval\":-1,\"start_utc\":\"2026-12-02T10:00:00Z\","
                              "\"utc\":\"other\",\"steps\":20}\n"
                              "{\"type\":\"end\"}\n",
                              &t, &e),
                     ST_OK);
    assert_int_equal(t.format, ST_FMT_JSONL);
    assert_int_equal(t.meta.pid, 0);
    assert_string_equal(t.meta.host, "");
    assert_true(t.meta.interval == 0);
    assert_string_equal(t.meta.start_utc, "2026-12-02T10:00:00Z"); /* start_utc wins over utc */
    assert_string_equal(t.meta.extra, "{\"pid\":\"abc\",\"host\":7,\"interval\":-1,\"utc\":\"other\",\"steps\":20}");
    st_trace_free(&t);
}

static void test_strings(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    char line[1024];
    char long_note[400];
    memset(long_note, 0, sizeof long_note);
    /* 158 'a' then a 3-byte euro sign: the field holds 159 bytes, so the
     * euro sign does not fit and is dropped whole */
    memset(long_note, 'a', 158);
    strcat(long_note, "\xE2\x82\xAC" "tail");
    snprintf(line, sizeof line,
             "{\"type\":\"event\",\"kind\":\"mark\",\"t\":1,\"stage\":\"\\u00e9\\ud83d\\ude00\","
             "\"name\":\"x\\ud800y\\u0000z\xff!\",\"note\":\"%s\"}\n"
             "{\"type\":\"event\",\"kind\":\"a-very-long-unknown-kind\",\"t\":2}\n",
             long_note);
    assert_int_equal(load_str(line, &t, &e), ST_OK);
    assert_int_equal(t.events.len, 2);
    st_event *ev = &t.events.v[0];
    assert_string_equal(ev->stage, "\xC3\xA9\xF0\x9F\x98\x80");
    assert_string_equal(ev->name, "x\xEF\xBF\xBDy\xEF\xBF\xBDz\xEF\xBF\xBD!");
    assert_int_equal(strlen(ev->note), 158);
    assert_int_equal(ev->has, ST_EVF_STAGE | ST_EVF_NAME | ST_EVF_NOTE);
    assert_int_equal(t.events.v[1].kind, ST_EV_OTHER);
    assert_string_equal(t.events.v[1].kind_name, "a-very-long-unk");
    st_trace_free(&t);
}

static void test_records_skipped_or_kept(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    assert_int_equal(load_str("\xEF\xBB\xBF{\"type\":\"start\",\"mode\":\"a\"}\n"
                              "{\"type\":\"progress\",\"pct\":5}\n"
                              "{\"type\":\"start\",\"mode\":\"b\"}\n"
                              "{\"type\":\"sample\",\"t\":1,\"footprint\":1,\"level\":55.5,\"swap_used\":null}\n"
                              "{\"type\":\"end\",\"summary\":{\"kernel_peak\":123},\"dropped_samples\":4}\n"
                              "{\"type\":\"sample\",\"t\":2,\"footprint\":2}",
                              &t, &e),
                     ST_OK);
    assert_string_equal(t.meta.extra, "{\"mode\":\"a\"}"); /* the first start record */
    assert_int_equal(t.n_samples, 2);
    assert_int_equal(t.samples[0].level_c, 5550);
    assert_false(st_sample_has(&t.samples[0], ST_F_SWAP));
    assert_int_equal(t.has_end, 1);
    assert_int_equal(t.summary.kernel_peak, 123);
    assert_int_equal(t.dropped_samples, 4);
    assert_int_equal(t.lines, 6);
    st_trace_free(&t);
}

/* Follow a file that grows in odd-sized pieces: feed only whole lines. */
static void test_follow_growing(void **state)
{
    (void)state;
    const char *dir = fixture_dir();
    if (!dir)
        fail_msg("tests/fixtures/stageload is missing");
    char path[4096];
    snprintf(path, sizeof path, "%s/2026-10-08-qwen-image-offload__offload-1.trace.jsonl", dir);
    st_trace whole, f;
    st_error e;
    assert_int_equal(st_trace_load_file(path, &whole, &e), ST_OK);
    FILE *src = fopen(path, "rb");
    assert_non_null(src);
    static char data[1 << 20];
    size_t len = fread(data, 1, sizeof data, src);
    fclose(src);

    char tmp[] = "/tmp/st-follow-XXXXXX";
    int wfd = mkstemp(tmp);
    assert_true(wfd >= 0);
    int rfd = open(tmp, O_RDONLY);
    st_trace_init(&f);
    static char pending[1 << 20];
    size_t plen = 0, off = 0, lineno = 0, piece = 1;
    while (off < len || plen) {
        size_t k = off + piece <= len ? piece : len - off;
        assert_int_equal(write(wfd, data + off, k), (ssize_t)k);
        off += k;
        piece = piece * 7 % 997 + 1;
        ssize_t got;
        while ((got = read(rfd, pending + plen, sizeof pending - plen)) > 0)
            plen += (size_t)got;
        char *nl;
        while ((nl = memchr(pending, '\n', plen))) {
            size_t ll = (size_t)(nl - pending);
            assert_int_equal(st_trace_feed_line(&f, pending, ll, ++lineno, &e), ST_OK);
            memmove(pending, nl + 1, plen - ll - 1);
            plen -= ll + 1;
        }
        st_trace_finish(&f);
        if (off == len)
            break;
    }
    assert_int_equal(plen, 0);
    assert_int_equal(f.n_samples, whole.n_samples);
    assert_memory_equal(f.samples, whole.samples, whole.n_samples * sizeof *whole.samples);
    assert_int_equal(f.events.len, whole.events.len);
    assert_int_equal(f.summary.peak_footprint, whole.summary.peak_footprint);
    assert_int_equal(f.summary.n_stages, whole.summary.n_stages);
    assert_string_equal(f.meta.extra, whole.meta.extra);
    close(wfd);
    close(rfd);
    unlink(tmp);
    st_trace_free(&f);
    st_trace_free(&whole);
}

static void test_files_and_stdin(void **state)
{
    (void)state;
    st_trace t;
    st_error e;
    assert_int_equal(st_trace_load_file("/nonexistent/trace.json", &t, &e), ST_EIO);
    assert_string_equal(e.msg, "No such file or directory");
    assert_int_equal(st_trace_load_file("/tmp", &t, &e), ST_EIO);
    assert_string_equal(e.msg, "is a directory");
    /* "-" reads stdin (here: a pipe) */
    int p[2], saved = dup(0);
    assert_int_equal(pipe(p), 0);
    const char *txt = "{\"type\":\"sample\",\"t\":0.25,\"footprint\":9}\n";
    assert_int_equal(write(p[1], txt, strlen(txt)), (ssize_t)strlen(txt));
    close(p[1]);
    dup2(p[0], 0);
    close(p[0]);
    int rc = st_trace_load_file("-", &t, &e);
    dup2(saved, 0);
    close(saved);
    assert_int_equal(rc, ST_OK);
    assert_int_equal(t.n_samples, 1);
    assert_int_equal(t.samples[0].t_ms, 250);
    st_trace_free(&t);
}

static void test_numbers(void **state)
{
    (void)state;
    static const struct { const char *val; int ok; uint32_t t_ms; } ts[] = {
        { "0", 1, 0 }, { "1.5", 1, 1500 }, { "1.0005", 1, 1001 }, { "1.0004999", 1, 1000 },
        { "2e2", 1, 200000 }, { "4294967.295", 1, 4294967295u }, { "4294967.2955", 0, 0 },
        { "-0.0", 1, 0 }, { "-0.001", 0, 0 }, { "01", 0, 0 }, { "1.", 0, 0 }, { ".5", 0, 0 },
        { "1e", 0, 0 }, { "+1", 0, 0 }, { "Infinity", 0, 0 }, { "\"1\"", 0, 0 }, { "true", 0, 0 },
    };
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        char buf[128];
        st_trace t;
        st_error e;
        snprintf(buf, sizeof buf, "{\"type\":\"sample\",\"t\":%s}", ts[i].val);
        int rc = load_str(buf, &t, &e);
        if (ts[i].ok) {
            if (rc)
                fail_msg("t=%s: %s", ts[i].val, e.msg);
            assert_int_equal(t.samples[0].t_ms, ts[i].t_ms);
        } else {
            if (rc != ST_EPARSE)
                fail_msg("t=%s accepted", ts[i].val);
            assert_true(strncmp(e.msg, "line 1: ", 8) == 0);
        }
        st_trace_free(&t);
    }
    static const struct { const char *val; int ok; uint64_t v; } bs[] = {
        { "9007199254740992", 1, 9007199254740992ULL }, { "9007199254740993", 0, 0 },
        { "1e3", 1, 1000 }, { "5.0", 1, 5 }, { "5.5", 0, 0 }, { "-1", 0, 0 },
        { "99999999999999999999999999", 0, 0 }, { "1e400", 0, 0 },
    };
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) {
        char buf[128];
        st_trace t;
        st_error e;
        snprintf(buf, sizeof buf, "{\"type\":\"sample\",\"t\":1,\"rss\":%s}", bs[i].val);
        int rc = load_str(buf, &t, &e);
        if (bs[i].ok) {
            if (rc)
                fail_msg("rss=%s: %s", bs[i].val, e.msg);
            assert_int_equal(t.samples[0].rss, bs[i].v);
        } else if (rc != ST_EPARSE) {
            fail_msg("rss=%s accepted", bs[i].val);
        }
        st_trace_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stageload_fixtures),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_fixture_dir_no_crash),
        cmocka_unit_test(test_sort_stable),
        cmocka_unit_test(test_doc_summary_recomputed),
        cmocka_unit_test(test_meta_wrong_types_kept),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_records_skipped_or_kept),
        cmocka_unit_test(test_follow_growing),
        cmocka_unit_test(test_files_and_stdin),
        cmocka_unit_test(test_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
