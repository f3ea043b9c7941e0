/* test_hardening.c: hostile files and inputs around the trace (issue 14):
 *  - the JSON writer escapes C1 controls and bidi controls (cJSON reads the
 *    text back to the same bytes);
 *  - exports honour the umask;
 *  - the SVG subtitle keeps the whole OS name;
 *  - the summary's outside_stage list: sorted and unique, also when fed
 *    after st_summary_finish;
 *  - --events: a device is refused, a FIFO is read, a poll takes at most
 *    1 MiB of an endless file;
 *  - the record: never through a symlink, never over a file without
 *    ST_REC_OVERWRITE; syncs as --record-sync says;
 *  - the chunked reader: the same trace as the whole-buffer reader across
 *    chunk boundaries, over-long lines named, a FIFO without a writer given
 *    up on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/follow.h"
#include "stagetop/json.h"
#include "stagetop/plot.h"
#include "stagetop/trace.h"
#include "stagetop/trace_stream.h"
#include "tmpdir.h"
#include "testutil.h"

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

/* UTF-8 of a code point < 0x10000. */
static size_t utf8(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

/* ---- JSON writer: C1 and bidi controls ---- */

static void json_escapes_c1_and_bidi(void **state)
{
    (void)state;
    static const unsigned escaped[] = { 0x80, 0x85, 0x9B, 0x9D, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A,
                                        0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069 };
    static const unsigned kept[] = { 0xA0, 0xE9, 0x2010, 0x2030, 0x2065, 0x206A, 0x4E2D };
    for (size_t k = 0; k < 2; k++) {
        const unsigned *v = k ? kept : escaped;
        size_t n = k ? sizeof kept / sizeof *kept : sizeof escaped / sizeof *escaped;
        for (size_t i = 0; i < n; i++) {
            char in[16], want[8];
            size_t len = 0;
            in[len++] = 'a';
            len += utf8(v[i], in + len);
            in[len++] = 'b';
            in[len] = '\0';
            st_jw w;
            st_jw_init(&w, -1);
            st_jw_str(&w, in);
            char *out = st_jw_take(&w);
            assert_non_null(out);
            snprintf(want, sizeof want, "\\u%04x", v[i]);
            if (k == 0) {
                assert_non_null(strstr(out, want));
                for (const unsigned char *p = (const unsigned char *)out; *p; p++)
                    assert_true(*p < 0x80); /* nothing raw is left */
            } else {
                assert_null(strstr(out, "\\u"));
            }
            /* the reference parser reads back the very same bytes */
            cJSON *j = cJSON_Parse(out);
            assert_non_null(j);
            assert_true(cJSON_IsString(j));
            assert_string_equal(j->valuestring, in);
            cJSON_Delete(j);
            free(out);
        }
    }
}

/* ---- exports and the umask ---- */

static mode_t export_mode(const char *dir, mode_t mask)
{
    char path[512];
    snprintf(path, sizeof path, "%s/umask-%03o.json", dir, (unsigned)mask);
    st_trace_meta m;
    memset(&m, 0, sizeof m);
    st_sample s;
    memset(&s, 0, sizeof s);
    s.valid = ST_F_FOOTPRINT;
    s.footprint = 1234;
    st_samples_view v = { &s, 1, NULL, 0 };
    st_event_list ev;
    st_event_list_init(&ev, 0);
    st_summary sum;
    st_summary_init(&sum);
    st_summary_add_sample(&sum, &s, NULL);
    st_error e;
    mode_t old = umask(mask);
    int rc = st_trace_export(path, &m, v, &ev, &sum, 0, &e);
    umask(old);
    assert_int_equal(rc, ST_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    st_summary_free(&sum);
    st_event_list_free(&ev);
    return st.st_mode & 0777;
}

static void export_honours_umask(void **state)
{
    const char *dir = *state;
    assert_int_equal(export_mode(dir, 077), 0600);
    assert_int_equal(export_mode(dir, 022), 0644);
    assert_int_equal(export_mode(dir, 002), 0664);
}

/* ---- SVG subtitle ---- */

static void svg_subtitle_keeps_os_name(void **state)
{
    (void)state;
    st_trace t;
    st_trace_init(&t);
    t.samples = calloc(2, sizeof *t.samples);
    assert_non_null(t.samples);
    t.n_samples = t.cap_samples = 2;
    for (int i = 0; i < 2; i++) {
        t.samples[i].t_ms = (uint32_t)i * 1000;
        t.samples[i].footprint = (uint64_t)(i + 1) << 20;
        t.samples[i].valid = ST_F_FOOTPRINT;
    }
    const char *os = "Linux 6.18.44-fc-v1045 x86_64";
    snprintf(t.meta.os, sizeof t.meta.os, "%s", os);
    snprintf(t.meta.host, sizeof t.meta.host, "buildhost");
    st_trace_finish(&t);
    char *svg = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&svg, &len);
    assert_non_null(f);
    st_error e;
    assert_int_equal(st_plot_svg(&t, NULL, f, &e), ST_OK);
    fclose(f);
    assert_non_null(strstr(svg, os));
    assert_non_null(strstr(svg, "buildhost"));
    free(svg);
    st_trace_free(&t);
}

/* ---- outside_stage: sorted, unique ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void outside_stage_sorted_unique(void **state)
{
    (void)state;
    enum { N = 20000, DISTINCT = 7001 };
    static char names[N][32];
    static char *ref[N];
    st_summary s;
    st_summary_init(&s);
    srand((unsigned)time(NULL));
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "w%d", rand() % DISTINCT);
        st_event ev;
        st_event_init(&ev, (uint32_t)i, i % 2 ? ST_EV_LOAD : ST_EV_RELOAD);
        memcpy(ev.name, names[i], sizeof names[i]); /* 32 bytes, NUL included */
        snprintf(ev.note, sizeof ev.note, "outside_stage");
        ev.has = ST_EVF_NAME | ST_EVF_NOTE;
        assert_int_equal(st_summary_add_event(&s, &ev, NULL), ST_OK);
        if (i == N / 2)
            st_summary_finish(&s); /* finish, then feed more */
    }
    /* the writer of a summary fed since finish: sorted, unique already */
    char *json = st_summary_to_json(&s, NULL);
    assert_non_null(json);
    st_summary_finish(&s);
    /* reference: qsort + dedupe */
    for (size_t i = 0; i < N; i++)
        ref[i] = names[i];
    qsort(ref, N, sizeof *ref, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < N; i++)
        if (k == 0 || strcmp(ref[k - 1], ref[i]) != 0)
            ref[k++] = ref[i];
    assert_int_equal(s.n_outside_stage, k);
    for (size_t i = 0; i < k; i++)
        assert_string_equal(s.outside_stage[i], ref[i]);
    cJSON *j = cJSON_Parse(json);
    assert_non_null(j);
    cJSON *arr = cJSON_GetObjectItem(j, "outside_stage");
    assert_true(cJSON_IsArray(arr));
    assert_int_equal((size_t)cJSON_GetArraySize(arr), k);
    for (size_t i = 0; i < k; i++)
        assert_string_equal(cJSON_GetArrayItem(arr, (int)i)->valuestring, ref[i]);
    cJSON_Delete(j);
    free(json);
    st_summary_free(&s);
}

/* ---- --events ---- */

static void count_ev(void *ctx, const st_event *ev)
{
    (void)ev;
    (*(size_t *)ctx)++;
}

static void follow_refuses_devices(void **state)
{
    (void)state;
    st_follow f;
    st_error e;
    assert_int_equal(st_follow_open(&f, "/dev/zero", &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "character device"));
    assert_int_equal(st_follow_open(&f, "/tmp", &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "directory"));
}

static void follow_reads_a_fifo(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/events.fifo", (char *)*state);
    assert_int_equal(mkfifo(path, 0600), 0);
    st_follow f;
    st_error e;
    size_t n = 0;
    assert_int_equal(st_follow_open(&f, path, &e), ST_OK);
    assert_int_equal(st_follow_poll(&f, 1.0, count_ev, &n, &e), 0); /* no writer yet */
    int w = open(path, O_WRONLY | O_NONBLOCK);
    assert_true(w >= 0);
    const char *lines = "{\"type\":\"event\",\"kind\":\"mark\",\"t\":0.5,\"note\":\"a\"}\n"
                        "{\"type\":\"event\",\"kind\":\"stage\",\"stage\":\"b\",\"t\":0.7}\n";
    assert_int_equal(write(w, lines, strlen(lines)), (ssize_t)strlen(lines));
    int rc = st_follow_poll(&f, 2.0, count_ev, &n, &e);
    if (rc < 0)
        fail_msg("poll: %s", e.msg);
    assert_int_equal(n, 2);
    close(w);
    assert_int_equal(st_follow_poll(&f, 3.0, count_ev, &n, &e), 0); /* writer gone: EOF, no error */
    st_follow_close(&f);
}

static void follow_poll_is_bounded(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/big.jsonl", (char *)*state);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    size_t lines = 0, bytes = 0;
    while (bytes < (5u << 20)) { /* 5 MiB of marks */
        int k = fprintf(fp, "{\"type\":\"event\",\"kind\":\"mark\",\"t\":%zu.000,\"note\":\"m%zu\"}\n",
                        lines, lines);
        bytes += (size_t)k;
        lines++;
    }
    fclose(fp);
    st_follow f;
    st_error e;
    size_t n = 0;
    int polls = 0;
    assert_int_equal(st_follow_open(&f, path, &e), ST_OK);
    while (n < lines) {
        off_t before = f.off;
        assert_true(st_follow_poll(&f, 1e6, count_ev, &n, &e) >= 0);
        assert_true(f.off - before <= (2 << 20)); /* 1 MiB and the last read's chunk */
        assert_true(f.off > before);
        assert_true(++polls < 100);
    }
    assert_true(polls >= 4);
    assert_int_equal(n, lines);
    st_follow_close(&f);
}

/* ---- the record file ---- */

static void record_never_through_a_symlink(void **state)
{
    char target[512], link[512];
    snprintf(target, sizeof target, "%s/precious", (char *)*state);
    snprintf(link, sizeof link, "%s/run.jsonl", (char *)*state);
    put_file(target, "precious\n");
    assert_int_equal(symlink(target, link), 0);
    st_recorder *r;
    st_error e;
    for (unsigned flags = 0; flags <= ST_REC_OVERWRITE; flags += ST_REC_OVERWRITE) {
        assert_int_equal(st_recorder_open(&r, link, -1, flags, &e), ST_EINVAL);
        assert_non_null(strstr(e.msg, "symbolic link"));
        char *t = slurp(target, NULL);
        assert_string_equal(t, "precious\n"); /* not truncated, not written */
        free(t);
        struct stat st;
        assert_int_equal(lstat(link, &st), 0);
        assert_true(S_ISLNK(st.st_mode)); /* the link is left as it was */
    }
    /* a dangling link is not followed either (it would create the target) */
    snprintf(target, sizeof target, "%s/would-be-created", (char *)*state);
    snprintf(link, sizeof link, "%s/dangling.jsonl", (char *)*state);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(st_recorder_open(&r, link, -1, 0, &e), ST_EINVAL);
    assert_int_equal(access(target, F_OK), -1);
}

static size_t syncs_for(const char *dir, int mode, size_t samples, size_t events, double *secs)
{
    char path[512];
    snprintf(path, sizeof path, "%s/sync-%d.jsonl", dir, mode);
    st_recorder *r;
    st_error e;
    struct timespec a, b;
    assert_int_equal(st_recorder_open(&r, path, -1, ST_REC_OVERWRITE, &e), ST_OK);
    st_recorder_set_sync(r, mode);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (size_t i = 0; i < samples; i++) {
        st_sample s;
        memset(&s, 0, sizeof s);
        s.t_ms = (uint32_t)i;
        s.valid = ST_F_FOOTPRINT;
        s.footprint = i;
        assert_int_equal(st_recorder_sample(r, &s, &e), ST_OK);
    }
    for (size_t i = 0; i < events; i++) {
        st_event ev;
        st_event_init(&ev, (uint32_t)(samples + i), ST_EV_MARK);
        assert_int_equal(st_recorder_event(r, &ev, &e), ST_OK);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    size_t n = (size_t)st_recorder_syncs(r);
    st_recorder_close(r);
    *secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    return n;
}

static void record_sync_modes(void **state)
{
    const char *dir = *state;
    double secs;
    assert_int_equal(syncs_for(dir, ST_REC_SYNC_NEVER, 500, 5, &secs), 0);
    assert_int_equal(syncs_for(dir, ST_REC_SYNC_ALWAYS, 200, 5, &secs), 205);
    /* 1 s: the first line, then at most one a second; each event at once */
    size_t n = syncs_for(dir, ST_REC_SYNC_1S, 2000, 0, &secs);
    assert_true(n >= 1);
    assert_true((double)n <= 1 + secs + 1);
    n = syncs_for(dir, ST_REC_SYNC_1S, 2000, 7, &secs); /* events: at most 10 a second */
    assert_true(n >= 1 && (double)n <= 2 + 10 * secs + 1);
}

/* ---- the chunked reader ---- */

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
        cmocka_unit_test(json_escapes_c1_and_bidi),
        cmocka_unit_test_setup_teardown(export_honours_umask, setup_dir, teardown_dir),
        cmocka_unit_test(svg_subtitle_keeps_os_name),
        cmocka_unit_test(outside_stage_sorted_unique),
        cmocka_unit_test(follow_refuses_devices),
        cmocka_unit_test_setup_teardown(follow_reads_a_fifo, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(follow_poll_is_bounded, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(record_never_through_a_symlink, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(record_sync_modes, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stream_matches_whole_buffer, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stream_names_the_bad_line, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stream_fifo_without_writer, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
