/* core_driver: the core without the screen, as one small program.
 *
 *   core_driver TRACE.jsonl CMD [ARG...]
 *
 * Starts CMD as a job (jobctl), watches its tree through the native backend
 * (tree, monitor, guard, events) at 0.1 s, streams the samples to TRACE.jsonl
 * (trace record), then loads the file back (trace load) and prints its
 * summary as JSON on stdout.  Exits with the job's exit code, or 70 when
 * the core reports an error (the message on stderr).
 *
 * mk/macos-build.mk links it with every object of the core against Apple's
 * libSystem (zig cc -target aarch64-macos / x86_64-macos), so a call the
 * Mac does not have fails to link on Linux; tests/darwin/macos_build.sh also
 * builds and runs it natively, so the program itself keeps working. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../core/run/monitor_internal.h" /* the tests look inside */
#include "stagetop/platform.h"
#include "stagetop/trace.h"

static int fail(const char *what, const st_error *e)
{
    fprintf(stderr, "core_driver: %s: %s\n", what, e->msg);
    return 70;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: core_driver TRACE.jsonl CMD [ARG...]\n");
        return 2;
    }
    st_error e;
    st_job job;
    if (st_job_spawn(&job, argv + 2, &e) != ST_OK)
        return fail("spawn", &e);

    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.interval = 0.1;
    o.no_gpu = 1;
    o.record_path = argv[1];
    o.command = argv[2];

    st_monitor m;
    if (st_monitor_open(&m, &st_platform_native, &o, job.pid, &job, st_now(), &e) != ST_OK)
        return fail("watch", &e);
    st_monitor_start(&m, st_now());
    int rc = 0;
    while (m.job.state != ST_JOB_EXITED) {
        double now = st_now();
        if (now < st_monitor_deadline(&m)) {
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        if (st_monitor_step(&m, now, &e) != ST_OK) {
            rc = fail("sample", &e);
            break;
        }
    }
    int code = m.job.exit_code;
    if (st_monitor_close(&m, 0, &e) != ST_OK && rc == 0)
        rc = fail("close", &e);
    if (rc)
        return rc;

    st_trace t;
    st_trace_init(&t);
    if (st_trace_load_file(argv[1], &t, &e) != ST_OK) {
        st_trace_free(&t);
        return fail(argv[1], &e);
    }
    char *json = st_summary_to_json(&t.summary, &t.meta);
    if (json)
        printf("%s\n", json);
    free(json);
    st_trace_free(&t);
    return json ? code : 70;
}
