/* peak-probe: start a command through st_job_spawn (its own cgroup v2 where
 * stagetop could make one), reap it through st_job_poll, and print the
 * kernel peaks core/run/peak.c kept and the summary's kernel_peak and source.
 * It needs neither curses nor cJSON, so it also builds where only a C
 * compiler is (a cgroup v2 machine without the project's dependencies):
 *
 *   cc -std=c11 -Iinclude -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
 *      -DST_VERSION='"x"' -o peak-probe tests/tools/peak_probe.c
 *      (every core .c file but platform_darwin.c) -ldl -lm -lpthread
 *   ./peak-probe spike --go G --exit E --report R   (G, E existing files)
 *
 * docs/metrics.md quotes its output on such a machine.  Exit 0, or 1 when
 * the command cannot be started. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "stagetop/jobctl.h"

int main(int argc, char **argv)
{
    st_job job;
    st_error e;
    st_tree none; /* st_job_poll reads the tree only for a kill */
    st_summary s;
    struct stat sb;
    char dir[sizeof job.peak.grp.dir];

    if (argc < 2) {
        fprintf(stderr, "usage: peak-probe COMMAND [ARG...]\n");
        return 2;
    }
    memset(&none, 0, sizeof none);
    if (st_job_spawn(&job, argv + 1, &e) != ST_OK) {
        fprintf(stderr, "peak-probe: %s\n", e.msg);
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", job.peak.grp.dir);
    printf("cgroup: %s%s\n", job.peak.grp.active ? dir : "none: ", job.peak.grp.why);
    while (st_job_poll(&job, &none, 0.0, &e) != 1) {
        struct timespec ts = { 0, 10 * 1000000L };
        nanosleep(&ts, NULL);
    }
    st_peak_finish(&job.peak);
    st_summary_init(&s);
    st_peak_feed(&job.peak, &s);
    printf("exit %d\n", job.exit_code);
    if (job.peak.has_wait4)
        printf("wait4 %llu\n", (unsigned long long)job.peak.wait4);
    if (job.peak.has_lifetime)
        printf("lifetime_max %llu\n", (unsigned long long)job.peak.lifetime);
    if (job.peak.has_cgroup)
        printf("cgroup %llu\n", (unsigned long long)job.peak.cgroup);
    printf("cgroup directory left: %s\n", dir[0] && stat(dir, &sb) == 0 ? "yes" : "no");
    if (s.has_kernel_peak)
        printf("kernel_peak %llu kernel_peak_source %s\n", (unsigned long long)s.kernel_peak,
               s.kernel_peak_source);
    st_summary_free(&s);
    return 0;
}
