/* test_trace_export.c: the JSON document: round trip through the importer,
 * an independent check of the text with cJSON (and python3's strict UTF-8
 * JSON reader when present), and atomicity: nothing partial under the
 * final name and no stray temp file on ENOSPC, EROFS, EFBIG, a missing
 * directory; a symlink path is replaced, not written through. */
#define _GNU_SOURCE /* unshare, CLONE_NEWNS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stagetop/trace.h"
#include "tmpdir.h"
#include "testutil.h"

#if defined(__linux__)
#include <sched.h>
#include <sys/mount.h>
#endif

typedef struct fixture {
    st_trace_meta meta;
    st_sample *s;
    size_t n;
    st_event_list ev;
    st_summary sum;
    char dir[64];
} fixture;

#define N_SAMPLES 1200

static void build(fixture *f, size_t n)
{
    memset(f, 0, sizeof *f);
    snprintf(f->meta.stagetop, sizeof f->meta.stagetop, "0.1.0");
    snprintf(f->meta.platform, sizeof f->meta.platform, "linux");
    snprintf(f->meta.os, sizeof f->meta.os, "Linux 6.1");
    snprintf(f->meta.host, sizeof f->meta.host, "box");
    f->meta.pid = 4242;
    /* quotes, a tab, a newline, a control byte, DEL, an e-acute, a stray 0xff */
    snprintf(f->meta.command, sizeof f->meta.command, "python \"gen.py\"\t--x\n\x01\x7f \xC3\xA9 \xff!");
    snprintf(f->meta.start_utc, sizeof f->meta.start_utc, "2026-12-02T10:00:00Z");
    f->meta.interval = 0.5;
    f->meta.mem_total = 25769803776ULL;
    f->meta.swap_total = 0;
    snprintf(f->meta.footprint_metric, sizeof f->meta.footprint_metric, "anon+shmem+swap");
    f->meta.extra = strdup("{\"pipeline\":\"x\",\"steps\":20,\"nested\":{\"a\":[1,null,true,-2.5e-3]}}");

    f->n = n;
    f->s = calloc(n, sizeof *f->s);
    st_summary_init(&f->sum);
    st_event_list_init(&f->ev, 0);
    for (size_t i = 0; i < n; i++) {
        st_sample *s = &f->s[i];
        s->t_ms = (uint32_t)(i * 500 + i % 3);
        s->valid = ST_F_FOOTPRINT | ST_F_SWAP | ST_F_LEVEL | ST_F_PROCS;
        s->footprint = (uint64_t)i * 1234567891ULL % 9007199254740993ULL;
        s->swap_used = i == n / 2 ? 9007199254740992ULL : (uint64_t)i * 4096;
        s->level_c = (uint16_t)(i % 10001);
        s->procs = (uint32_t)(1 + i % 5);
        if (i % 7) {
            s->valid |= ST_F_RSS;
            s->rss = (uint64_t)i << 20;
        }
        if (i % 3 == 0) {
            s->valid |= ST_F_GPU;
            s->gpu = (uint64_t)i << 24;
        }
        if (i % 5 == 0) {
            s->valid |= ST_F_PRESSURE;
            s->pressure_c = (uint16_t)(i % 400 * 10 + 1);
        }
        if (i % 100 == 10) {
            st_event ev;
            st_event_init(&ev, s->t_ms, (int)(i / 100 % (ST_EV_OTHER + 1)));
            if (ev.kind == ST_EV_OTHER)
                snprintf(ev.kind_name, sizeof ev.kind_name, "custom");
            snprintf(ev.stage, sizeof ev.stage, "stage %zu", i);
            snprintf(ev.name, sizeof ev.name, "model \"%zu\"", i);
            snprintf(ev.note, sizeof ev.note, "line1\nline2\t\\ \xE2\x82\xAC");
            ev.nbytes = (uint64_t)i << 30;
            ev.seconds = 0.1 * (double)i;
            ev.value = -(int64_t)i;
            ev.limit = (int64_t)1 << 40;
            ev.has = ST_EVF_STAGE | ST_EVF_NAME | ST_EVF_NOTE | ST_EVF_NBYTES | ST_EVF_SECONDS |
                     ST_EVF_VALUE | ST_EVF_LIMIT;
            assert_int_equal(st_event_list_add(&f->ev, &ev, NULL), ST_OK);
            assert_int_equal(st_summary_add_event(&f->sum, &ev, NULL), ST_OK);
        }
        assert_int_equal(st_summary_add_sample(&f->sum, s, NULL), ST_OK);
    }
    st_summary_add_kernel_peak(&f->sum, 123456789);
    st_summary_finish(&f->sum);
}

static void destroy(fixture *f)
{
    free(f->s);
    st_event_list_free(&f->ev);
    st_summary_free(&f->sum);
    st_trace_meta_free(&f->meta);
}

static int export_fixture(const char *path, fixture *f, size_t split, st_error *e)
{
    st_samples_view v = { f->s, split, f->s + split, f->n - split };
    return st_trace_export(path, &f->meta, v, &f->ev, &f->sum, 3, e);
}

/* Names in dir, joined by spaces, sorted by readdir (few entries). */
static int count_entries(const char *dir, char *names, size_t size)
{
    DIR *d = opendir(dir);
    int n = 0;
    names[0] = '\0';
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        n++;
        strncat(names, de->d_name, size - strlen(names) - 2);
        strcat(names, " ");
    }
    closedir(d);
    return n;
}

static void test_round_trip(void **state)
{
    const char *dir = *state;
    fixture f;
    char path[256], names[512];
    st_error e;
    build(&f, N_SAMPLES);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    assert_int_equal(export_fixture(path, &f, 600, &e), ST_OK);
    assert_int_equal(count_entries(dir, names, sizeof names), 1); /* no temp file left */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    st_trace t;
    int rc = st_trace_load_file(path, &t, &e);
    if (rc)
        fail_msg("%s", e.msg);
    assert_int_equal(t.format, ST_FMT_JSON);
    assert_int_equal(t.n_samples, N_SAMPLES);
    assert_memory_equal(t.samples, f.s, N_SAMPLES * sizeof *f.s);
    assert_int_equal(t.events.len, f.ev.len);
    for (size_t i = 0; i < f.ev.len; i++) {
        const st_event *a = &f.ev.v[i], *b = &t.events.v[i];
        assert_int_equal(a->t_ms, b->t_ms);
        assert_int_equal(a->kind, b->kind);
        assert_string_equal(a->kind_name, b->kind_name);
        assert_int_equal(a->has, b->has);
        assert_string_equal(a->stage, b->stage);
        assert_string_equal(a->name, b->name);
        assert_string_equal(a->note, b->note);
        assert_int_equal(a->nbytes, b->nbytes);
        assert_true(a->seconds == b->seconds);
        assert_int_equal(a->value, b->value);
        assert_int_equal(a->limit, b->limit);
    }
    assert_string_equal(t.meta.stagetop, f.meta.stagetop);
    assert_string_equal(t.meta.platform, "linux");
    assert_string_equal(t.meta.os, f.meta.os);
    assert_string_equal(t.meta.host, "box");
    assert_int_equal(t.meta.pid, 4242);
    /* the stray 0xff became U+FFFD, everything else came back as it was */
    assert_string_equal(t.meta.command, "python \"gen.py\"\t--x\n\x01\x7f \xC3\xA9 \xEF\xBF\xBD!");
    assert_string_equal(t.meta.start_utc, f.meta.start_utc);
    assert_true(t.meta.interval == 0.5);
    assert_int_equal(t.meta.mem_total, f.meta.mem_total);
    assert_int_equal(t.meta.swap_total, 0);
    assert_string_equal(t.meta.footprint_metric, f.meta.footprint_metric);
    assert_string_equal(t.meta.extra, f.meta.extra);
    assert_int_equal(t.dropped_samples, 3);
    assert_int_equal(t.summary.kernel_peak, 123456789);
    assert_int_equal(t.summary.peak_footprint, f.sum.peak_footprint);
    assert_int_equal(t.summary.n_stages, f.sum.n_stages);
    st_trace_free(&t);
    destroy(&f);
}

/* The text itself, read by cJSON and python3, not by our importer. */
static void test_text_independent(void **state)
{
    const char *dir = *state;
    fixture f;
    char path[256];
    st_error e;
    build(&f, 50);
    f.s[1].t_ms = 1940;
    f.s[1].level_c = 9200;
    f.s[2].level_c = 4550;
    f.s[3].level_c = 4525;
    snprintf(path, sizeof path, "%s/text.json", dir);
    assert_int_equal(export_fixture(path, &f, 50, &e), ST_OK);
    size_t len;
    char *txt = slurp(path, &len);
    assert_non_null(txt);
    assert_non_null(strstr(txt, "{\"t\":1.940,"));
    assert_non_null(strstr(txt, "\"level\":92,"));
    assert_non_null(strstr(txt, "\"level\":45.5,"));
    assert_non_null(strstr(txt, "\"level\":45.25,"));
    assert_non_null(strstr(txt, "\"command\":\"python \\\"gen.py\\\"\\t--x\\n\\u0001\\u007f \xC3\xA9 \\ufffd!\""));
    cJSON *doc = cJSON_ParseWithLength(txt, len);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "format")->valuestring, "stagetop-trace");
    assert_true(cJSON_GetObjectItem(doc, "version")->valuedouble == 1);
    cJSON *samples = cJSON_GetObjectItem(doc, "samples");
    assert_int_equal(cJSON_GetArraySize(samples), 50);
    for (int i = 0; i < 50; i++) {
        cJSON *s = cJSON_GetArrayItem(samples, i);
        assert_int_equal(cJSON_GetObjectItem(s, "gpu") != NULL, i % 3 == 0);
        assert_int_equal(cJSON_GetObjectItem(s, "pressure") != NULL, i % 5 == 0);
        assert_int_equal(cJSON_GetObjectItem(s, "rss") != NULL, i % 7 != 0);
        assert_true(cJSON_GetObjectItem(s, "footprint")->valuedouble == (double)f.s[i].footprint);
    }
    cJSON *meta = cJSON_GetObjectItem(doc, "meta");
    assert_int_equal(cJSON_GetObjectItem(meta, "steps")->valueint, 20);
    assert_true(cJSON_IsObject(cJSON_GetObjectItem(meta, "nested")));
    cJSON *sum = cJSON_GetObjectItem(doc, "summary");
    static const char *keys[] = { "duration", "peak_footprint", "kernel_peak", "swap", "min_level",
                                  "stages", "loads", "releases", "outside_stage", "peak_gpu" };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!cJSON_GetObjectItem(sum, keys[k]))
            fail_msg("summary has no %s", keys[k]);
    uint64_t peak = 0;
    for (int i = 0; i < 50; i++)
        peak = f.s[i].footprint > peak ? f.s[i].footprint : peak;
    assert_true(cJSON_GetObjectItem(sum, "peak_footprint")->valuedouble == (double)peak);
    assert_true(cJSON_GetObjectItem(sum, "kernel_peak")->valuedouble == 123456789.0);
    assert_null(cJSON_GetObjectItem(sum, "meta"));
    cJSON_Delete(doc);
    free(txt);
    if (system("command -v python3 >/dev/null 2>&1") == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\", errors=\"strict\"))' %s",
                 path);
        assert_int_equal(system(cmd), 0);
    }
    destroy(&f);
}

static void test_summary_to_json(void **state)
{
    (void)state;
    st_summary s;
    st_trace_meta m;
    st_summary_init(&s);
    memset(&m, 0, sizeof m);
    m.extra = strdup("{\"utc\":\"2026-10-06T10:36:12+00:00\",\"mode\":\"eager\"}");
    snprintf(m.start_utc, sizeof m.start_utc, "2026-10-06T10:36:12+00:00");
    m.interval = 0.5;
    char *js = st_summary_to_json(&s, &m);
    assert_non_null(js);
    /* no samples: stageload's shape for an empty run; meta as stageload
     * wrote it (start_utc mirrored from utc is not written twice) */
    assert_string_equal(js, "{\"meta\":{\"interval\":0.5,\"utc\":\"2026-10-06T10:36:12+00:00\",\"mode\":\"eager\"},"
                            "\"duration\":0.000,\"peak_footprint\":0,\"kernel_peak\":null,\"swap\":{},"
                            "\"min_level\":null,\"stages\":[],\"loads\":{\"count\":0,\"bytes\":0,"
                            "\"seconds\":0.000},\"releases\":{\"count\":0,\"bytes\":0},\"outside_stage\":[]}");
    free(js);
    free(m.extra);
    m.extra = strdup("{\"broken\":");  /* invalid extra is left out, never copied */
    js = st_summary_to_json(&s, &m);
    cJSON *j = cJSON_Parse(js);
    assert_non_null(j);
    cJSON_Delete(j);
    assert_null(strstr(js, "broken"));
    free(js);
    free(m.extra);
}

/* ---- failures ---- */

static void expect_clean_failure(const char *dir, const char *path, int want_errno, const char *old)
{
    fixture f;
    st_error e;
    char names[512];
    build(&f, 20000); /* ~1.5 MB of text */
    int rc = export_fixture(path, &f, 20000, &e);
    destroy(&f);
    if (rc == ST_OK)
        fail_msg("export to %s succeeded", path);
    assert_int_equal(rc, ST_EIO);
    if (e.sys_errno != want_errno)
        fail_msg("errno %d (%s), wanted %d", e.sys_errno, e.msg, want_errno);
    assert_non_null(strstr(e.msg, strerror(want_errno)));
    if (old) { /* the old file is intact and nothing else is there */
        char *txt = slurp(path, NULL);
        assert_non_null(txt);
        assert_string_equal(txt, old);
        free(txt);
        assert_int_equal(count_entries(dir, names, sizeof names), 1);
    } else if (dir) {
        assert_int_equal(count_entries(dir, names, sizeof names), 0);
    }
}

static void write_file(const char *path, const char *txt)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(txt, f);
    fclose(f);
}

static void test_missing_dir(void **state)
{
    char path[256];
    snprintf(path, sizeof path, "%s/no/such/dir/t.json", (char *)*state);
    expect_clean_failure(NULL, path, ENOENT, NULL);
    /* the path is a directory: rename refuses, the temp file is removed */
    char sub[256];
    snprintf(sub, sizeof sub, "%s/adir", (char *)*state);
    assert_int_equal(mkdir(sub, 0755), 0);
    fixture f;
    st_error e;
    char names[512];
    build(&f, 10);
    assert_int_equal(export_fixture(sub, &f, 10, &e), ST_EIO);
    destroy(&f);
    assert_int_equal(count_entries(*state, names, sizeof names), 1);
    rmdir(sub);
}

#if defined(__linux__)
/* A tiny tmpfs in a private mount namespace (root only; gone at exit). */
static int tiny_tmpfs(const char *dir, char *why, size_t size)
{
    static int unshared;
    if (geteuid() != 0) {
        snprintf(why, size, "needs root to mount a tmpfs");
        return -1;
    }
    if (!unshared) {
        if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
            snprintf(why, size, "no private mount namespace: %s", strerror(errno));
            return -1;
        }
        unshared = 1;
    }
    if (mount("tmpfs", dir, "tmpfs", 0, "size=256k,mode=0755") != 0) {
        snprintf(why, size, "cannot mount a tmpfs: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void test_enospc_and_erofs(void **state)
{
    char mnt[256], path[300], why[128];
    snprintf(mnt, sizeof mnt, "%s/mnt", (char *)*state);
    assert_int_equal(mkdir(mnt, 0755), 0);
    if (tiny_tmpfs(mnt, why, sizeof why) != 0) {
        print_message("SKIP: ENOSPC/EROFS export: %s\n", why);
        skip();
    }
    snprintf(path, sizeof path, "%s/trace.json", mnt);
    write_file(path, "OLD\n");
    expect_clean_failure(mnt, path, ENOSPC, "OLD\n");
    /* read-only: the temporary file cannot even be created */
    assert_int_equal(mount(NULL, mnt, NULL, MS_REMOUNT | MS_RDONLY, "size=256k"), 0);
    expect_clean_failure(mnt, path, EROFS, "OLD\n");
    umount2(mnt, MNT_DETACH);
}
#else
static void test_enospc_and_erofs(void **state)
{
    (void)state;
    print_message("SKIP: ENOSPC/EROFS export: needs Linux mount namespaces\n");
    skip();
}
#endif

static void test_efbig_rlimit(void **state)
{
    /* RLIMIT_FSIZE works without root: the write fails half way (EFBIG). */
    char path[256], names[512];
    snprintf(path, sizeof path, "%s/big.json", (char *)*state);
    write_file(path, "OLD\n");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = { 100000, 100000 };
        fixture f;
        st_error e;
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
        build(&f, 20000);
        int rc = export_fixture(path, &f, 20000, &e);
        _exit(rc == ST_EIO ? e.sys_errno : 100);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), EFBIG);
    char *txt = slurp(path, NULL);
    assert_string_equal(txt, "OLD\n");
    free(txt);
    assert_int_equal(count_entries(*state, names, sizeof names), 1);
}

static void test_symlink_replaced(void **state)
{
    const char *dir = *state;
    char real[256], link[256], other[256], link2[256];
    snprintf(real, sizeof real, "%s/real.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    write_file(real, "KEEP\n");
    assert_int_equal(symlink("real.json", link), 0);
    fixture f;
    st_error e;
    build(&f, 10);
    assert_int_equal(export_fixture(link, &f, 10, &e), ST_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode)); /* the link itself was replaced */
    char *txt = slurp(real, NULL);
    assert_string_equal(txt, "KEEP\n"); /* and nothing written through it */
    free(txt);
    /* a link to another directory, and a dangling one */
    snprintf(other, sizeof other, "%s/sub", dir);
    assert_int_equal(mkdir(other, 0755), 0);
    snprintf(link2, sizeof link2, "%s/sub/target.json", dir);
    write_file(link2, "KEEP2\n");
    snprintf(link, sizeof link, "%s/link2.json", dir);
    assert_int_equal(symlink(link2, link), 0);
    assert_int_equal(export_fixture(link, &f, 10, &e), ST_OK);
    txt = slurp(link2, NULL);
    assert_string_equal(txt, "KEEP2\n");
    free(txt);
    snprintf(link, sizeof link, "%s/dangling.json", dir);
    assert_int_equal(symlink("/nonexistent/x.json", link), 0);
    assert_int_equal(export_fixture(link, &f, 10, &e), ST_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    destroy(&f);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_text_independent, setup_dir, teardown_dir),
        cmocka_unit_test(test_summary_to_json),
        cmocka_unit_test_setup_teardown(test_missing_dir, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_enospc_and_erofs, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_efbig_rlimit, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_symlink_replaced, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(export_honours_umask, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
