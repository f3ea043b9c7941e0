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

/* The text of mx's buffer (malloc'd). */
static char *text_of(const st_metrics *mx)
{
    return strndup(mx->buf, mx->len);
}

/* Is there a line that starts with prefix? */
static int has_line(const char *t, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, prefix, n) == 0)
            return 1;
    return 0;
}

static void test_render(void **state)
{
    st_metrics mx;
    st_metrics_values v;
    char path[256];
    snprintf(path, sizeof path, "%s/stagetop.prom", (char *)*state);
    assert_int_equal(st_metrics_open(&mx, path, NULL), ST_OK);
    st_metrics_set_run(&mx, 4242, "python \"gen\".py\n--x", "linux");
    assert_int_equal(st_metrics_add_label(&mx, "job_name=gen", NULL), ST_OK);
    fill(&v);
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    char *t = text_of(&mx);
    char key[256];
    /* the job's identity is on one series only */
    assert_true(has_line(t, "stagetop_run_info{job_name=\"gen\",pid=\"4242\",command=\"python "
                            "\\\"gen\\\".py\\n--x\",version=\"" ST_VERSION "\",platform=\"linux\"} 1\n"));
    assert_null(strstr(t, "pid=\"4242\"} "));
    const char *p = t;
    int with_pid = 0;
    while ((p = strstr(p, "pid=\"4242\"")) != NULL) {
        with_pid++;
        p++;
    }
    assert_int_equal(with_pid, 1);
#define JOB(name) (snprintf(key, sizeof key, "\n%s{job_name=\"gen\"} ", name), value_of(t, key))
#define SYS(name) (snprintf(key, sizeof key, "\n%s ", name), value_of(t, key))
    assert_true(JOB("stagetop_tree_footprint_bytes") == 123456789.0);
    assert_true(JOB("stagetop_tree_rss_bytes") == 23456789.0);
    assert_true(JOB("stagetop_tree_kernel_peak_bytes") == 999999999.0);
    assert_true(JOB("stagetop_tree_gpu_bytes") == (double)(1ull << 33));
    assert_true(JOB("stagetop_tree_processes") == 7.0);
    assert_true(JOB("stagetop_swap_growth_bytes") == -4096.0);
    assert_true(JOB("stagetop_last_sample_timestamp_seconds") == 1796230000.25);
    /* the system's series carry no label at all */
    assert_true(SYS("stagetop_system_swap_used_bytes") == (double)(5ull << 30));
    assert_true(SYS("stagetop_system_memory_available_ratio") == 0.6123);
    assert_true(SYS("stagetop_system_memory_pressure_some_avg10_ratio") == 0.1207);
    assert_null(strstr(t, "stagetop_system_memory_pressure_level"));
    assert_null(strstr(t, "stagetop_memory_pressure{"));
    assert_null(strstr(t, "stagetop_system_swap_used_bytes{"));
#undef JOB
#undef SYS
    assert_non_null(strstr(t, "\nstagetop_job_state{job_name=\"gen\",state=\"paused\"} 1\n"));
    assert_non_null(strstr(t, "\nstagetop_job_state{job_name=\"gen\",state=\"running\"} 0\n"));
    assert_non_null(strstr(t, "\nstagetop_job_state{job_name=\"gen\",state=\"exited\"} 0\n"));
    /* every family has HELP and TYPE, before its samples; counters end in _total */
    assert_non_null(strstr(t, "# HELP stagetop_tree_footprint_bytes "));
    assert_non_null(strstr(t, "# TYPE stagetop_tree_footprint_bytes gauge\nstagetop_tree_footprint_bytes{"));
    assert_non_null(strstr(t, "# TYPE stagetop_samples_total counter\nstagetop_samples_total{"));
    assert_int_equal(t[mx.len - 1], '\n');
    free(t);

    /* without a user label the job's series have no braces at all */
    st_metrics_close(&mx);
    assert_int_equal(st_metrics_open(&mx, path, NULL), ST_OK);
    st_metrics_set_run(&mx, 1, "x", "");
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    t = text_of(&mx);
    assert_true(has_line(t, "stagetop_tree_footprint_bytes 123456789\n"));
    assert_true(has_line(t, "stagetop_job_state{state=\"paused\"} 1\n"));
    assert_true(has_line(t, "stagetop_run_info{pid=\"1\",command=\"x\",version=\"" ST_VERSION "\"} 1\n"));
    free(t);

    /* fields not there are left out, not written as 0 */
    v.last.valid = ST_F_FOOTPRINT;
    v.has_kernel_peak = v.has_swap_growth = 0;
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    t = text_of(&mx);
    assert_null(strstr(t, "stagetop_tree_gpu_bytes"));
    assert_null(strstr(t, "stagetop_system_swap_used_bytes"));
    assert_null(strstr(t, "stagetop_tree_kernel_peak_bytes"));
    assert_null(strstr(t, "stagetop_system_memory_available_ratio"));
    free(t);
    st_metrics_close(&mx);
}

/* macOS's pressure is a level 1/2/4 under its own name, not PSI's ratio. */
static void test_pressure_level(void **state)
{
    (void)state;
    st_metrics mx;
    st_metrics_values v;
    memset(&mx, 0, sizeof mx);
    st_metrics_set_run(&mx, 1, "x", "darwin");
    fill(&v);
    v.pressure_is_level = 1;
    v.last.pressure_c = 400; /* critical, stored as level * 100 */
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    char *t = text_of(&mx);
    assert_true(has_line(t, "stagetop_system_memory_pressure_level 4\n"));
    assert_null(strstr(t, "some_avg10"));
    free(t);
    st_metrics_close(&mx);
}

/* macOS's system GPU memory: a system series (no label, even with the
 * user's), in bytes; left out when the sample has none (Linux). */
static void test_gpu_system(void **state)
{
    (void)state;
    st_metrics mx;
    st_metrics_values v;
    memset(&mx, 0, sizeof mx);
    st_metrics_set_run(&mx, 1, "x", "darwin");
    assert_int_equal(st_metrics_add_label(&mx, "job_name=gen", NULL), ST_OK);
    fill(&v);
    v.last.gpu_system = 1200357376ull + 4096;
    v.last.valid |= ST_F_GPU_SYSTEM;
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    char *t = text_of(&mx);
    assert_true(has_line(t, "stagetop_system_gpu_memory_in_use_bytes 1200361472\n"));
    assert_true(has_line(t, "# TYPE stagetop_system_gpu_memory_in_use_bytes gauge\n"));
    assert_true(has_line(t, "# HELP stagetop_system_gpu_memory_in_use_bytes "));
    assert_null(strstr(t, "stagetop_system_gpu_memory_in_use_bytes{"));
    free(t);
    v.last.valid &= ~ST_F_GPU_SYSTEM;
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    t = text_of(&mx);
    assert_null(strstr(t, "gpu_memory_in_use"));
    free(t);
    st_metrics_close(&mx);
}

/* Peaks, the stage, the guard; after the exit the final values stay and
 * the live readings go. */
static void test_run_values_and_exit(void **state)
{
    (void)state;
    st_metrics mx;
    st_metrics_values v;
    memset(&mx, 0, sizeof mx);
    st_metrics_set_run(&mx, 1, "x", "linux");
    assert_int_equal(st_metrics_add_label(&mx, "j=a", NULL), ST_OK);
    fill(&v);
    v.footprint_peak = 5555;
    v.has_footprint_peak = 1;
    snprintf(v.kernel_peak_source, sizeof v.kernel_peak_source, "wait4");
    snprintf(v.stage, sizeof v.stage, "denoise \"2\"");
    v.has_stage = 1;
    v.swap_growth_peak = 8192;
    v.guard_active = 1;
    v.swap_budget = 1ull << 30;
    v.has_swap_budget = 1;
    v.kill_free_c = 500;
    v.has_kill_free = 1;
    v.guard_tripped = 1;
    v.samples_total = 12;
    v.dropped_total = 2;
    v.start_wall = 1796229990.5;
    v.state = ST_JOB_RUNNING;
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    char *t = text_of(&mx);
    assert_true(has_line(t, "stagetop_tree_footprint_peak_bytes{j=\"a\"} 5555\n"));
    assert_true(has_line(t, "stagetop_tree_kernel_peak_info{j=\"a\",source=\"wait4\"} 1\n"));
    assert_true(has_line(t, "stagetop_stage_info{j=\"a\",stage=\"denoise \\\"2\\\"\"} 1\n"));
    assert_true(has_line(t, "stagetop_swap_growth_peak_bytes{j=\"a\"} 8192\n"));
    assert_true(has_line(t, "stagetop_guard_swap_budget_bytes{j=\"a\"} 1073741824\n"));
    assert_true(has_line(t, "stagetop_guard_min_available_ratio{j=\"a\"} 0.0500\n"));
    assert_true(has_line(t, "stagetop_guard_state{j=\"a\",state=\"tripped\"} 1\n"));
    assert_true(has_line(t, "stagetop_guard_state{j=\"a\",state=\"armed\"} 0\n"));
    assert_true(has_line(t, "stagetop_samples_total{j=\"a\"} 12\n"));
    assert_true(has_line(t, "stagetop_dropped_samples_total{j=\"a\"} 2\n"));
    assert_true(has_line(t, "stagetop_run_start_timestamp_seconds{j=\"a\"} 1796229990.500\n"));
    assert_true(has_line(t, "stagetop_tree_processes{j=\"a\"} 7\n"));
    assert_null(strstr(t, "stagetop_job_exit_code"));
    free(t);

    v.state = ST_JOB_EXITED;
    v.exit_code = 137;
    v.has_exit_code = 1;
    assert_int_equal(st_metrics_render(&mx, &v, NULL), ST_OK);
    t = text_of(&mx);
    assert_true(has_line(t, "stagetop_job_state{j=\"a\",state=\"exited\"} 1\n"));
    assert_true(has_line(t, "stagetop_job_exit_code{j=\"a\"} 137\n"));
    /* nothing that reads as a live reading: no tree lanes, no system lanes */
    static const char *const gone[] = {"stagetop_tree_footprint_bytes", "stagetop_tree_rss_bytes",
                                       "stagetop_tree_gpu_bytes", "stagetop_tree_processes",
                                       "stagetop_system_"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
        assert_null(strstr(t, gone[i]));
    /* the run's final values stay */
    assert_true(has_line(t, "stagetop_tree_footprint_peak_bytes{j=\"a\"} 5555\n"));
    assert_true(has_line(t, "stagetop_tree_kernel_peak_bytes{j=\"a\"} 999999999\n"));
    assert_true(has_line(t, "stagetop_swap_growth_bytes{j=\"a\"} -4096\n"));
    assert_true(has_line(t, "stagetop_stage_info{j=\"a\",stage=\"denoise \\\"2\\\"\"} 1\n"));
    assert_true(has_line(t, "stagetop_samples_total{j=\"a\"} 12\n"));
    free(t);
    st_metrics_close(&mx);
}

/* --metrics-label: Prometheus' label-name rules, reserved and taken names,
 * duplicates; the value escaped. */
static void test_labels(void **state)
{
    (void)state;
    st_metrics mx;
    st_error e;
    static const char *const good[] = {"a=1", "_x=y", "Job_Name9=gen", "team=ml=infra"};
    static const char *const bad[] = {"a", "=1", "9a=1", "a-b=1", "a.b=1", "é=1", "a b=1",
                                      "__name__=x", "__x=1", "pid=1", "command=x", "state=x",
                                      "stage=x", "source=x", "version=x", "platform=x", "job=x",
                                      "instance=x", "a="};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(st_metrics_label_check(good[i], NULL), ST_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(st_metrics_label_check(bad[i], &e), ST_EINVAL);
        assert_true(e.msg[0] != '\0');
    }
    char longname[100];
    memset(longname, 'n', 70);
    strcpy(longname + 70, "=v");
    assert_int_equal(st_metrics_label_check(longname, NULL), ST_EINVAL);
    assert_int_equal(st_metrics_label_check("__x=1", &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "reserved"));

    memset(&mx, 0, sizeof mx);
    assert_int_equal(st_metrics_add_label(&mx, "team=ml \"infra\"\\\n\x1b", NULL), ST_OK);
    assert_int_equal(st_metrics_add_label(&mx, "host_group=a=b", NULL), ST_OK);
    assert_string_equal(mx.labels, "team=\"ml \\\"infra\\\"\\\\\\n?\",host_group=\"a=b\"");
    assert_int_equal(st_metrics_add_label(&mx, "team=other", &e), ST_EINVAL);
    assert_non_null(strstr(e.msg, "twice"));
    assert_int_equal(st_metrics_add_label(&mx, "__a=1", &e), ST_EINVAL);
    for (int i = 2; i < ST_METRICS_MAX_LABELS; i++) {
        char nv[32];
        snprintf(nv, sizeof nv, "l%d=v", i);
        assert_int_equal(st_metrics_add_label(&mx, nv, NULL), ST_OK);
    }
    assert_int_equal(st_metrics_add_label(&mx, "one_more=v", &e), ST_EINVAL);
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
    assert_non_null(strstr(buf, "\nstagetop_tree_footprint_bytes 42\n"));
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

/* The values from a run view: the platform picks the pressure's metric,
 * the summary gives the peaks, the stage and the swap growth, the job its
 * exit code (only once exited, only for a job stagetop started). */
static void test_values_of(void **state)
{
    (void)state;
    st_trace_meta meta;
    st_summary sm;
    st_run_view rv;
    st_metrics_values v;
    st_sample a, b;
    st_event ev;
    memset(&meta, 0, sizeof meta);
    snprintf(meta.platform, sizeof meta.platform, "darwin");
    st_summary_init(&sm);
    memset(&a, 0, sizeof a);
    a.t_ms = 0;
    a.footprint = 100;
    a.swap_used = 1000;
    a.pressure_c = 200;
    a.valid = ST_F_FOOTPRINT | ST_F_SWAP | ST_F_PRESSURE;
    b = a;
    b.t_ms = 500;
    b.footprint = 300;
    b.swap_used = 900;
    assert_int_equal(st_summary_add_sample(&sm, &a, NULL), ST_OK);
    memset(&ev, 0, sizeof ev);
    ev.t_ms = 400;
    ev.kind = ST_EV_STAGE;
    ev.has = ST_EVF_STAGE;
    snprintf(ev.stage, sizeof ev.stage, "decode");
    assert_int_equal(st_summary_add_event(&sm, &ev, NULL), ST_OK);
    assert_int_equal(st_summary_add_sample(&sm, &b, NULL), ST_OK);
    memset(&rv, 0, sizeof rv);
    rv.meta = &meta;
    rv.summary = &sm;
    rv.last = &b;
    rv.job_launched = 1;
    rv.job_state = ST_JOB_RUNNING;
    rv.exit_code = 0;
    rv.samples_total = 2;
    rv.uptime_s = 10.0;
    rv.guard_active = 1;
    rv.guard_opts.has_swap_budget = 1;
    rv.guard_opts.swap_budget = 4096;
    rv.pressure_is_level = 1; /* the platform's capability, as on macOS */
    st_metrics_values_of(&rv, 1000.0, &v);
    assert_true(v.pressure_is_level);
    assert_true(v.has_footprint_peak && v.footprint_peak == 300);
    assert_true(v.has_stage);
    assert_string_equal(v.stage, "decode");
    assert_true(v.has_swap_growth && v.swap_growth == -100 && v.swap_growth_peak == 0);
    assert_true(v.has_swap_budget && v.swap_budget == 4096 && !v.has_kill_free);
    assert_false(v.has_exit_code);
    assert_true(v.start_wall == 990.0);
    rv.job_state = ST_JOB_EXITED;
    rv.exit_code = 3;
    snprintf(meta.platform, sizeof meta.platform, "linux");
    rv.pressure_is_level = 0;
    st_metrics_values_of(&rv, 1000.0, &v);
    assert_false(v.pressure_is_level);
    assert_true(v.has_exit_code && v.exit_code == 3);
    rv.job_launched = 0; /* a watched -p PID: stagetop never learns its code */
    st_metrics_values_of(&rv, 1000.0, &v);
    assert_false(v.has_exit_code);
    st_summary_free(&sm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_label),
        cmocka_unit_test_setup_teardown(test_render, setup_dir, teardown_dir),
        cmocka_unit_test(test_pressure_level),
        cmocka_unit_test(test_gpu_system),
        cmocka_unit_test(test_run_values_and_exit),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_values_of),
        cmocka_unit_test_setup_teardown(test_write_replaces_atomically, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
