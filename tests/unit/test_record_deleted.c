/* test_record_deleted.c: the JSONL record deleted while the run goes on
 * (issue 21 item 14): the run warns (the warning every front end shows:
 * the screen's status line, headless stderr), and at the end the trace is
 * written again under the record's name, readable, with its samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/monitor.h"
#include "stagetop/trace.h"
#include "fakeplat.h"

#include "monitor_script.h"

static void deleted_record_warns_and_comes_back(void **state)
{
    (void)state;
    char dir[] = "/tmp/st-recdel-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    st_monitor m;
    st_monitor_opts o;
    st_error e;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.record_path = path;
    open_mon(&m, &o, 0);
    for (int k = 0; k < 5; k++)
        assert_int_equal(st_monitor_step(&m, 0.5 * k, NULL), ST_OK);
    assert_string_equal(st_monitor_warning(&m, ST_WARN_RECORD), "");
    assert_int_equal(unlink(path), 0);
    for (int k = 5; k < 10; k++)
        assert_int_equal(st_monitor_step(&m, 0.5 * k, NULL), ST_OK);
    assert_non_null(strstr(st_monitor_warning(&m, ST_WARN_RECORD), "was deleted"));
    assert_int_equal(st_monitor_close(&m, 0, &e), ST_OK);
    st_trace t;
    assert_int_equal(st_trace_load_file(path, &t, &e), ST_OK);
    assert_int_equal(t.n_samples, 10);
    st_trace_free(&t);
    unlink(path);
    rmdir(dir);
}

/* Another file moved onto the record's name mid-run (issue 30 item 12):
 * the end rewrite replaced it, and the warning called it deleted.  It is
 * left alone; the trace goes to NAME.stagetop-PID.json beside it. */
static void moved_onto_record_is_left_alone(void **state)
{
    (void)state;
    char dir[] = "/tmp/st-recmv-XXXXXX", path[128], other[160], alt[200];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    snprintf(alt, sizeof alt, "%s.stagetop-%ld.json", path, (long)getpid());
    st_monitor m;
    st_monitor_opts o;
    st_error e;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    o.record_path = path;
    open_mon(&m, &o, 0);
    for (int k = 0; k < 5; k++)
        assert_int_equal(st_monitor_step(&m, 0.5 * k, NULL), ST_OK);
    FILE *f = fopen(other, "w");
    assert_non_null(f);
    fputs("my notes\n", f);
    fclose(f);
    assert_int_equal(rename(other, path), 0);
    for (int k = 5; k < 10; k++)
        assert_int_equal(st_monitor_step(&m, 0.5 * k, NULL), ST_OK);
    const char *w = st_monitor_warning(&m, ST_WARN_RECORD);
    assert_null(strstr(w, "was deleted"));
    assert_non_null(strstr(w, "another file was put at"));
    (void)st_monitor_close(&m, 0, &e); /* ST_EIO: it says where the trace went */
    char buf[64] = "";
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "my notes\n");
    st_trace t;
    assert_int_equal(st_trace_load_file(alt, &t, &e), ST_OK);
    assert_int_equal(t.n_samples, 10);
    st_trace_free(&t);
    unlink(alt);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(deleted_record_warns_and_comes_back),
                                        cmocka_unit_test(moved_onto_record_is_left_alone) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
