/* test_darwin_env.c: the REAL core/platform/platform_darwin.c's environ_var
 * over the scripted kernel of fake_darwin.c, whose KERN_PROCARGS2 answers as
 * XNU's sysctl_procargsx does (fake_darwin.c cites the lines): -p's job
 * names its stage file in $STAGETOP_EVENTS or $STAGELOAD_TRACE, found in the
 * environment part of the area and nowhere else (not in argv, not under a
 * longer name), with every way the area may not be read.  Expected values
 * come from the script. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "darwin_check.h"

/* The job 100's environment; argv holds a look-alike that is not one. */
static const char JOB_ENV[] = "HOME=/Users/ann\0"
                              "STAGETOP_EVENTS_X=/tmp/not-this\0"
                              "STAGETOP_EVENT=/tmp/nor-this\0"
                              "STAGETOP_EVENTS=/tmp/st/events\0"
                              "STAGELOAD_TRACE=/tmp/sl.jsonl\0"
                              "STAGETOP_EVENTS=/tmp/second\0"; /* getenv takes the first */

static void script_job(fake_proc *p)
{
    static const char *const argv[] = {"python3", "STAGETOP_EVENTS=/tmp/argv", "train.py"};
    fake_darwin_set_argv(p, "/opt/homebrew/bin/python3.12", 3, argv);
    p->env = JOB_ENV;
    p->env_len = sizeof JOB_ENV - 1;
}

/* environ_var of pid's id: its status, buf filled. */
static int env_of(st_backend *b, st_proc_id id, const char *name, char *buf, size_t len,
                  st_error *err)
{
    assert_non_null(P->environ_var); /* the backend reads an environment */
    memset(buf, 'x', len);
    return P->environ_var(b, id, name, buf, len, err);
}

static void test_found(void **state)
{
    st_backend *b = *state;
    char buf[256];
    st_error err;

    script_job(fake_darwin_find(100));
    assert_int_equal(env_of(b, id_of(100), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/st/events");
    assert_int_equal(env_of(b, id_of(100), "STAGELOAD_TRACE", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/sl.jsonl");
    /* The longer name has its own value; the shorter one too. */
    assert_int_equal(env_of(b, id_of(100), "STAGETOP_EVENTS_X", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/not-this");
    assert_int_equal(env_of(b, id_of(100), "STAGETOP_EVENT", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/nor-this");
    /* Truncated to len - 1, as the Linux backend does. */
    assert_int_equal(env_of(b, id_of(100), "STAGETOP_EVENTS", buf, 8, &err), ST_OK);
    assert_string_equal(buf, "/tmp/st");
    /* The command line is still argv alone. */
    assert_int_equal(P->command(b, id_of(100), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "python3 STAGETOP_EVENTS=/tmp/argv train.py");
}

static void test_absent(void **state)
{
    st_backend *b = *state;
    char buf[256];
    st_error err;
    fake_proc *p = fake_darwin_find(101);
    static const char env[] = "PATH=/usr/bin:/bin\0STAGETOP_EVENTS_X=/tmp/x\0=/tmp/noname\0"
                              "STAGETOP_EVENTS\0\0STAGELOAD_TRACEX=/tmp/y\0";
    static const char *const argv[] = {"sh", "-c", "STAGETOP_EVENTS=/tmp/argv exec job"};

    fake_darwin_set_argv(p, "/bin/sh", 3, argv);
    p->env = env;
    p->env_len = sizeof env - 1;
    /* Only look-alikes: a longer name, an entry without '=', argv's. */
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "");
    assert_int_equal(env_of(b, id_of(101), "STAGELOAD_TRACE", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "");
    /* What is there is found. */
    assert_int_equal(env_of(b, id_of(101), "PATH", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/usr/bin:/bin");
    /* An empty environment. */
    p->env = "";
    p->env_len = 0;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "");
    /* No room: nothing written, not an error. */
    assert_int_equal(P->environ_var(b, id_of(101), "STAGETOP_EVENTS", buf, 0, &err), ST_OK);
}

/* Processes whose environment this user may not read. */
static void test_not_readable(void **state)
{
    st_backend *b = *state;
    char buf[256];
    st_error err;

    for (int32_t pid = 100; pid <= 104; pid++)
        script_job(fake_darwin_find(pid));
    /* Another user's: XNU answers EINVAL; the process is there. */
    fake_darwin_find(102)->other_user = 1;
    assert_int_equal(env_of(b, id_of(102), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_EPERM);
    assert_string_equal(buf, "");
    assert_non_null(strstr(err.msg, "102"));
    /* A restricted process: its environment is left out of the area. */
    fake_darwin_find(103)->env_restricted = 1;
    assert_int_equal(env_of(b, id_of(103), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_EPERM);
    assert_string_equal(buf, "");
    assert_non_null(strstr(err.msg, "left out"));
    /* ... but its argv is read as before. */
    assert_int_equal(P->command(b, id_of(103), buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "python3 STAGETOP_EVENTS=/tmp/argv train.py");
    /* A zombie has exited. */
    fake_darwin_find(104)->zombie = 1;
    assert_int_equal(env_of(b, id_of(104), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_ESRCH);
    assert_string_equal(buf, "");
    /* Gone, and a reused pid: the block read is not the watched process's. */
    assert_int_equal(env_of(b, (st_proc_id){4242, 1}, "STAGETOP_EVENTS", buf, sizeof buf, &err),
                     ST_ESRCH);
    assert_string_equal(buf, "");
    st_proc_id old = {100, id_of(100).start - 7 * SEC};
    assert_int_equal(env_of(b, old, "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_ESRCH);
    assert_string_equal(buf, "");
    /* The readable one still reads. */
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/st/events");
}

/* An area larger than the buffer: XNU keeps its end, so where the
 * environment starts is lost; no variable is taken from it. */
static void test_area_cut(void **state)
{
    st_backend *b = *state;
    char buf[256];
    st_error err;
    static char env[6000];
    fake_proc *p = fake_darwin_find(101);
    size_t n = 0;

    P->close(b); /* a backend whose buffer is 4096 bytes (kern.argmax) */
    fake_darwin_knobs_get()->argmax = 4096;
    assert_int_equal(P->open(&b, &err), ST_OK);
    *state = b;
    n += (size_t)snprintf(env, sizeof env, "BIG=") + 1;
    memset(env + n - 1, 'y', 4500);
    n += 4500;
    env[n - 1] = '\0';
    n += (size_t)snprintf(env + n, sizeof env - n, "STAGETOP_EVENTS=/tmp/late") + 1;
    p->env = env;
    p->env_len = n;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_EIO);
    assert_string_equal(buf, "");
    /* A small one is read whole by the same backend. */
    script_job(fake_darwin_find(102));
    assert_int_equal(env_of(b, id_of(102), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/st/events");
}

/* Malformed bytes: bounded, and a value that runs off the end is refused. */
static void test_malformed(void **state)
{
    st_backend *b = *state;
    char buf[256];
    st_error err;
    fake_proc *p = fake_darwin_find(101);
    static const char cut_value[] = "\x01\x00\x00\x00/bin/sh\0\0sh\0STAGETOP_EVENTS=/tmp/ev";
    static const char cut_name[] = "\x01\x00\x00\x00/bin/sh\0\0sh\0HOME=/\0STAGETOP_EV";
    static const char whole[] = "\x01\x00\x00\x00/bin/sh\0\0sh\0STAGETOP_EVENTS=/tmp/ev\0";
    static const char huge_argc[] = "\x7f\xff\xff\x7f/bin/sh\0\0sh\0STAGETOP_EVENTS=/tmp/ev\0";
    static const char negative[] = "\xff\xff\xff\xff/bin/sh\0sh\0STAGETOP_EVENTS=/tmp/ev\0";
    static const char short_buf[] = "\x01\x00";

    p->raw_args = whole;
    p->raw_len = sizeof whole - 1;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "/tmp/ev");
    p->raw_args = cut_value; /* ends inside the value, with no NUL */
    p->raw_len = sizeof cut_value - 1;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_EIO);
    assert_string_equal(buf, "");
    p->raw_args = cut_name; /* ends inside a name: not found */
    p->raw_len = sizeof cut_name - 1;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "");
    /* argc says more strings than there are: all of them are argv. */
    p->raw_args = huge_argc;
    p->raw_len = sizeof huge_argc - 1;
    assert_int_not_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_OK);
    assert_string_equal(buf, "");
    p->raw_args = negative;
    p->raw_len = sizeof negative - 1;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_EIO);
    assert_string_equal(buf, "");
    p->raw_args = short_buf;
    p->raw_len = 2;
    assert_int_equal(env_of(b, id_of(101), "STAGETOP_EVENTS", buf, sizeof buf, &err), ST_EIO);
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_found),
        T(test_absent),
        T(test_not_readable),
        T(test_area_cut),
        T(test_malformed),
    };
    return cmocka_run_group_tests_name("darwin backend (shim): a process's environment", tests,
                                       NULL, NULL);
}
