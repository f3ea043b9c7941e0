/* test_trace_record.c: the JSONL record stream: stageload's record shapes
 * (checked line by line with cJSON), record -> import round trip, a run
 * killed with SIGKILL at random moments leaves only whole lines, write
 * errors are reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/trace.h"
#include "tmpdir.h"
#include "testutil.h"

static void meta_of(st_trace_meta *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->stagetop, sizeof m->stagetop, "0.1.0");
    snprintf(m->platform, sizeof m->platform, "linux");
    snprintf(m->command, sizeof m->command, "sleep 1 \"x\"");
    m->pid = 77;
    m->interval = 0.25;
    m->mem_total = 1ULL << 34;
    m->extra = strdup("{\"mode\":\"test\"}");
}

static st_sample sample_at(uint32_t i)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    s.t_ms = i * 250;
    s.footprint = (uint64_t)(i + 1) * 1000003;
    s.rss = s.footprint / 2;
    s.swap_used = (uint64_t)i * 4096;
    s.level_c = (uint16_t)(9000 - i % 100);
    s.procs = 1 + i % 4;
    s.valid = ST_F_FOOTPRINT | ST_F_RSS | ST_F_SWAP | ST_F_LEVEL | ST_F_PROCS;
    if (i % 2) {
        s.valid |= ST_F_GPU;
        s.gpu = (uint64_t)i << 20;
    }
    return s;
}

static void test_record_import(void **state)
{
    char path[256];
    snprintf(path, sizeof path, "%s/run.jsonl", (char *)*state);
    st_recorder *r;
    st_error e;
    st_trace_meta m;
    st_summary sum;
    meta_of(&m);
    st_summary_init(&sum);
    mode_t old = umask(022);
    assert_int_equal(st_recorder_open(&r, path, -1, 0, &e), ST_OK);
    umask(old);
    assert_int_equal(st_recorder_start(r, &m, &e), ST_OK);
    st_sample s[40];
    for (uint32_t i = 0; i < 40; i++) {
        if (i == 10 || i == 30) {
            st_event ev;
            st_event_init(&ev, i * 250, ST_EV_STAGE);
            snprintf(ev.stage, sizeof ev.stage, i == 10 ? "encode" : "decode");
            ev.has = ST_EVF_STAGE;
            assert_int_equal(st_recorder_event(r, &ev, &e), ST_OK);
            st_summary_add_event(&sum, &ev, NULL);
        }
        s[i] = sample_at(i);
        assert_int_equal(st_recorder_sample(r, &s[i], &e), ST_OK);
        st_summary_add_sample(&sum, &s[i], NULL);
    }
    st_summary_add_kernel_peak(&sum, 999);
    st_summary_finish(&sum);
    assert_int_equal(st_recorder_end(r, &sum, 0, &e), ST_OK);
    st_recorder_close(r);

    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    /* every line: one JSON object in stageload's record shape */
    FILE *f = fopen(path, "r");
    char line[8192];
    int n = 0, samples = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        assert_true(len > 0 && line[len - 1] == '\n');
        if (strspn(line, " \n") == len)
            continue; /* a padding line (up to a page boundary) */
        assert_true(line[0] == '{'); /* every record starts its line */
        cJSON *j = cJSON_Parse(line);
        assert_non_null(j);
        const char *type = cJSON_GetObjectItem(j, "type")->valuestring;
        if (n == 0) {
            assert_string_equal(type, "start");
            assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "test");
            assert_int_equal(cJSON_GetObjectItem(j, "pid")->valueint, 77);
        } else if (strcmp(type, "sample") == 0) {
            static const char *keys[] = { "t", "footprint", "swap_used", "level" };
            for (int k = 0; k < 4; k++)
                assert_true(cJSON_IsNumber(cJSON_GetObjectItem(j, keys[k])));
            assert_true(cJSON_GetObjectItem(j, "t")->valuedouble == samples * 0.25);
            samples++;
        } else if (strcmp(type, "event") == 0) {
            assert_string_equal(cJSON_GetObjectItem(j, "kind")->valuestring, "stage");
            assert_true(cJSON_IsNumber(cJSON_GetObjectItem(j, "t")));
        } else {
            assert_string_equal(type, "end");
            assert_true(cJSON_IsObject(cJSON_GetObjectItem(j, "summary")));
        }
        cJSON_Delete(j);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 1 + 40 + 2 + 1);
    assert_int_equal(samples, 40);

    st_trace t;
    assert_int_equal(st_trace_load_file(path, &t, &e), ST_OK);
    assert_int_equal(t.format, ST_FMT_JSONL);
    assert_int_equal(t.has_end, 1);
    assert_int_equal(t.n_samples, 40);
    assert_memory_equal(t.samples, s, sizeof s);
    assert_int_equal(t.events.len, 2);
    assert_string_equal(t.events.v[1].stage, "decode");
    assert_string_equal(t.meta.command, "sleep 1 \"x\"");
    assert_int_equal(t.meta.pid, 77);
    assert_string_equal(t.meta.extra, "{\"mode\":\"test\"}");
    assert_int_equal(t.summary.kernel_peak, 999);
    assert_int_equal(t.summary.n_stages, 3);
    assert_int_equal(t.summary.stages[1].seconds_ms, 5000);
    st_trace_free(&t);
    st_summary_free(&sum);
    st_trace_meta_free(&m);
}

/* An existing file is kept unless ST_REC_OVERWRITE; then it is replaced
 * (truncated content gone) and the end record says dropped_samples. */
static void test_existing_file(void **state)
{
    char path[256];
    snprintf(path, sizeof path, "%s/old.jsonl", (char *)*state);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    assert_int_equal(write(fd, "stale content, longer than a line\n", 34), 34);
    close(fd);
    st_recorder *r;
    st_error e;
    assert_int_equal(st_recorder_open(&r, path, -1, 0, &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "exists"));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 34); /* untouched */
    assert_int_equal(st_recorder_open(&r, path, -1, ST_REC_OVERWRITE, &e), ST_OK);
    assert_int_equal(st_recorder_end(r, NULL, 7, &e), ST_OK);
    st_recorder_close(r);
    FILE *f = fopen(path, "r");
    char buf[128] = "";
    assert_non_null(fgets(buf, sizeof buf, f));
    assert_null(fgets(buf + 64, 64, f));
    fclose(f);
    assert_string_equal(buf, "{\"type\":\"end\",\"dropped_samples\":7}\n");
    st_trace t;
    assert_int_equal(st_trace_load_file(path, &t, &e), ST_OK);
    assert_int_equal(t.dropped_samples, 7);
    st_trace_free(&t);
}

/* Lines never cross a 4 KiB boundary of the file (see trace_record.c). */
static void test_lines_inside_pages(void **state)
{
    char path[256];
    snprintf(path, sizeof path, "%s/pages.jsonl", (char *)*state);
    st_recorder *r;
    st_error e;
    assert_int_equal(st_recorder_open(&r, path, -1, 0, &e), ST_OK);
    st_recorder_set_sync(r, ST_REC_SYNC_NEVER);
    for (uint32_t i = 0; i < 3000; i++) {
        st_event ev;
        st_event_init(&ev, i, ST_EV_MARK);
        memset(ev.note, 'a' + i % 26, i % 159); /* lines of many lengths */
        ev.has = ST_EVF_NOTE;
        assert_int_equal(st_recorder_event(r, &ev, &e), ST_OK);
    }
    st_recorder_close(r);
    FILE *f = fopen(path, "rb");
    char line[4200];
    long off = 0;
    int records = 0, pads = 0;
    while (fgets(line, sizeof line, f)) {
        long len = (long)strlen(line);
        if ((long)strspn(line, " \n") == len) { /* padding: a line of its own */
            assert_true(line[len - 1] == '\n');
            assert_int_equal((off + len) % 4096, 0); /* up to the page boundary */
            pads++;
            off += len;
            continue;
        }
        assert_true(line[0] == '{'); /* every record starts its line */
        assert_true(off / 4096 == (off + len - 1) / 4096); /* the record: one page */
        records++;
        off += len;
    }
    fclose(f);
    assert_int_equal(records, 3000);
    assert_true(pads > 0);
    st_trace t;
    assert_int_equal(st_trace_load_file(path, &t, &e), ST_OK);
    assert_int_equal(t.events.len, 3000);
    st_trace_free(&t);
}

static void test_fd_mode(void **state)
{
    (void)state;
    int p[2];
    st_recorder *r;
    st_error e;
    assert_int_equal(pipe(p), 0);
    assert_int_equal(st_recorder_open(&r, NULL, p[1], 0, &e), ST_OK);
    st_sample s = sample_at(3);
    assert_int_equal(st_recorder_sample(r, &s, &e), ST_OK);
    st_recorder_close(r); /* does not close a descriptor it was given */
    assert_true(fcntl(p[1], F_GETFD) != -1);
    close(p[1]);
    char buf[512];
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    close(p[0]);
    assert_true(n > 0);
    buf[n] = '\0';
    assert_string_equal(buf, "{\"type\":\"sample\",\"t\":0.750,\"footprint\":4000012,\"rss\":2000006,"
                             "\"swap_used\":12288,\"level\":89.97,\"procs\":4,\"gpu\":3145728}\n");
}

static void test_write_errors(void **state)
{
    (void)state;
    st_recorder *r;
    st_error e;
    st_sample s = sample_at(1);
    if (access("/dev/full", W_OK) != 0) {
        print_message("SKIP: /dev/full: not available\n");
        skip();
    }
    assert_int_equal(st_recorder_open(&r, "/dev/full", -1, 0, &e), ST_OK);
    assert_int_equal(st_recorder_sample(r, &s, &e), ST_EIO);
    assert_int_equal(e.sys_errno, ENOSPC);
    assert_non_null(strstr(e.msg, "/dev/full"));
    st_recorder_close(r);
    assert_int_equal(st_recorder_open(&r, "/nonexistent/dir/x.jsonl", -1, 0, &e), ST_EIO);
    assert_int_equal(e.sys_errno, ENOENT);
    assert_null(r);
}

/* A recorder killed with SIGKILL at a random moment leaves whole lines. */
static void test_sigkill_leaves_whole_lines(void **state)
{
    char path[256];
    snprintf(path, sizeof path, "%s/killed.jsonl", (char *)*state);
    srand((unsigned)time(NULL));
    for (int round = 0; round < 60; round++) {
        int ready[2];
        assert_int_equal(pipe(ready), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            st_recorder *r;
            st_trace_meta m;
            meta_of(&m);
            if (st_recorder_open(&r, path, -1, 0, NULL) || st_recorder_start(r, &m, NULL))
                _exit(1);
            st_recorder_set_sync(r, ST_REC_SYNC_NEVER); /* as many lines as it can */
            (void)write(ready[1], "x", 1);
            for (uint32_t i = 0;; i++) {
                st_sample s = sample_at(i % 100000);
                st_event ev;
                st_event_init(&ev, s.t_ms, ST_EV_MARK);
                memset(ev.note, 'n', 150); /* longer lines, across page boundaries */
                ev.has = ST_EVF_NOTE;
                if (st_recorder_sample(r, &s, NULL) || st_recorder_event(r, &ev, NULL))
                    _exit(2);
            }
        }
        close(ready[1]);
        char c;
        assert_int_equal(read(ready[0], &c, 1), 1);
        close(ready[0]);
        struct timespec ts = { 0, (long)(1 + rand() % 30) * 1000000L };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        st_trace t;
        st_error e;
        int rc = st_trace_load_file(path, &t, &e);
        if (rc)
            fail_msg("round %d: %s", round, e.msg);
        assert_int_equal(t.has_end, 0);
        assert_true(t.n_samples > 0);
        assert_true(t.events.len + 1 >= t.n_samples);
        st_trace_free(&t);
        unlink(path);
    }
}

/* ---- the record file: never through a symlink; --record-sync ---- */

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_record_import, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_existing_file, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_lines_inside_pages, setup_dir, teardown_dir),
        cmocka_unit_test(test_fd_mode),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test_setup_teardown(test_sigkill_leaves_whole_lines, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(record_never_through_a_symlink, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(record_sync_modes, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
