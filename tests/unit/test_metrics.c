/* test_metrics.c: the --metrics file (core/metrics.c, core/atomic_file.c):
 * label escaping, the text it renders, the atomic replacement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>

#include <cmocka.h>

#include "stagetop/atomic_file.h"
#include "stagetop/metrics.h"
#include "tmpdir.h"

static void test_escape_label(void **state)
{
    (void)state;
    char out[1024];
    st_metrics_escape_label("a\\b\"c\nd", 120, out, sizeof out);
    assert_string_equal(out, "a\\\\b\\\"c\\nd");
    /* other controls, C1 and bytes that are not UTF-8 become '?' */
    st_metrics_escape_label("x\033[31m\a\x7f\xc2\x9b\xff\xc3", 120, out, sizeof out);
    assert_string_equal(out, "x?[31m?????");
    /* UTF-8 is kept, and the cut counts code points, not bytes */
    char in[400] = "";
    for (int i = 0; i < 130; i++)
        strcat(in, "\xc3\xa9"); /* 130 x U+00E9 */
    size_t n = st_metrics_escape_label(in, 120, out, sizeof out);
    assert_int_equal(n, 120 * 2 + 3);
    assert_memory_equal(out + 240, "...", 4);
    for (int i = 0; i < 240; i += 2)
        assert_memory_equal(out + i, "\xc3\xa9", 2);
    /* exactly max_chars: no marker */
    in[240] = '\0';
    st_metrics_escape_label(in, 120, out, sizeof out);
    assert_int_equal(strlen(out), 240);
    /* a small buffer cuts on a whole unit, never inside an escape or a code point */
    st_metrics_escape_label("ab\"\xc3\xa9", 120, out, 4);
    assert_string_equal(out, "ab");
    st_metrics_escape_label("a\xc3\xa9", 120, out, 3);
    assert_string_equal(out, "a");
}

/* The value of `name{...}` in text, or -1 when missing. */
static double value_of(const char *text, const char *name_and_labels)
{
    const char *p = strstr(text, name_and_labels);
    if (!p)
        return -1;
    return strtod(p + strlen(name_and_labels), NULL);
}

static void fill(st_metrics_values *v)
{
    memset(v, 0, sizeof *v);
    v->has_sample = 1;
    v->last.footprint = 123456789;
    v->last.rss = 23456789;
    v->last.gpu = 1ull << 33;
    v->last.procs = 7;
    v->last.swap_used = 5ull << 30;
    v->last.level_c = 6123;
    v->last.pressure_c = 1207;
    v->last.valid = ST_F_FOOTPRINT | ST_F_RSS | ST_F_GPU | ST_F_PROCS | ST_F_SWAP | ST_F_LEVEL |
                    ST_F_PRESSURE;
    v->kernel_peak = 999999999;
    v->has_kernel_peak = 1;
    v->swap_growth = -4096;
    v->has_swap_growth = 1;
    v->state = ST_JOB_PAUSED;
    v->wall = 1796230000.25;
}

static void test_render(void **state)
{
    st_metrics mx;
    st_metrics_values v;
    char path[256];
    snprintf(path, sizeof path, "%s/stagetop.prom", (char *)*state);
    assert_int_equal(st_metrics_open(&mx, path, NULL), ST_OK);
    st_metrics_set_labels(&mx, 4242, "python \"gen\".py\n--x");
    fill(&v);
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    char *t = strndup(mx.buf, mx.len);
    const char *L = "{pid=\"4242\",command=\"python \\\"gen\\\".py\\n--x\"} ";
    char key[256];
#define VAL(name) (snprintf(key, sizeof key, "\n%s%s", name, L), value_of(t, key))
    assert_true(VAL("stagetop_tree_footprint_bytes") == 123456789.0);
    assert_true(VAL("stagetop_tree_rss_bytes") == 23456789.0);
    assert_true(VAL("stagetop_tree_kernel_peak_bytes") == 999999999.0);
    assert_true(VAL("stagetop_tree_gpu_bytes") == (double)(1ull << 33));
    assert_true(VAL("stagetop_tree_processes") == 7.0);
    assert_true(VAL("stagetop_swap_used_bytes") == (double)(5ull << 30));
    assert_true(VAL("stagetop_swap_growth_bytes") == -4096.0);
    assert_true(VAL("stagetop_memory_available_ratio") == 0.6123);
    assert_true(VAL("stagetop_memory_pressure") == 12.07);
    assert_true(VAL("stagetop_last_sample_timestamp_seconds") == 1796230000.25);
#undef VAL
    assert_non_null(strstr(t, ",state=\"paused\"} 1\n"));
    assert_non_null(strstr(t, ",state=\"running\"} 0\n"));
    assert_non_null(strstr(t, ",state=\"exited\"} 0\n"));
    /* every family has HELP and TYPE gauge, before its samples */
    assert_non_null(strstr(t, "# HELP stagetop_tree_footprint_bytes "));
    assert_non_null(strstr(t, "# TYPE stagetop_tree_footprint_bytes gauge\nstagetop_tree_footprint_bytes{"));
    assert_int_equal(t[mx.len - 1], '\n');
    free(t);

    /* fields not there are left out, not written as 0 */
    v.last.valid = ST_F_FOOTPRINT;
    v.has_kernel_peak = v.has_swap_growth = 0;
    v.state = ST_JOB_EXITED;
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    t = strndup(mx.buf, mx.len);
    assert_null(strstr(t, "stagetop_tree_gpu_bytes"));
    assert_null(strstr(t, "stagetop_swap_used_bytes"));
    assert_null(strstr(t, "stagetop_tree_kernel_peak_bytes"));
    assert_null(strstr(t, "stagetop_memory_available_ratio"));
    assert_non_null(strstr(t, ",state=\"exited\"} 1\n"));
    free(t);
    st_metrics_close(&mx);
}

static int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static void test_write_replaces_atomically(void **state)
{
    const char *dir = *state;
    st_metrics mx;
    st_metrics_values v;
    st_error e;
    char path[256], buf[8192];
    struct stat st1, st2;
    snprintf(path, sizeof path, "%s/job.prom", dir);
    assert_int_equal(st_metrics_open(&mx, path, NULL), ST_OK);
    assert_int_equal(count_entries(dir), 0); /* the probe left nothing */
    st_metrics_set_labels(&mx, 1, "x");
    fill(&v);
    assert_int_equal(st_metrics_write(&mx, &v, NULL), ST_OK);
    assert_int_equal(stat(path, &st1), 0);
    v.last.footprint = 42;
    assert_int_equal(st_metrics_write(&mx, &v, NULL), ST_OK);
    assert_int_equal(stat(path, &st2), 0);
    assert_true(st1.st_ino != st2.st_ino); /* a new file renamed over, not rewritten in place */
    assert_int_equal(count_entries(dir), 1); /* no temporary file left */
    mode_t mask = umask(022);
    umask(mask);
    assert_int_equal(st2.st_mode & 0777, 0666 & ~mask); /* a new file's mode */
    FILE *f = fopen(path, "r");
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_int_equal(n, mx.len);
    assert_non_null(strstr(buf, "stagetop_tree_footprint_bytes{pid=\"1\",command=\"x\"} 42\n"));
    assert_int_equal(mx.writes, 2);
    st_metrics_close(&mx);

    /* a directory that is not there: a clear error at open */
    snprintf(path, sizeof path, "%s/no/such/dir/x.prom", dir);
    assert_int_equal(st_metrics_open(&mx, path, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "no/such/dir"));
    assert_int_equal(st_metrics_open(&mx, "", &e), ST_EINVAL);
    snprintf(path, sizeof path, "%s/", dir);
    assert_int_equal(st_metrics_open(&mx, path, &e), ST_EINVAL);
    /* a path that is a directory: refused at open (not at every sample),
     * and by the writer before anything is made */
    snprintf(path, sizeof path, "%s/sub", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(st_metrics_open(&mx, path, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "is a directory"));
    assert_int_equal(st_atomic_write(path, "x\n", 2, 0, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "is a directory"));
    assert_int_equal(count_entries(dir), 2); /* job.prom and sub */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_label),
        cmocka_unit_test_setup_teardown(test_render, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_write_replaces_atomically, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
