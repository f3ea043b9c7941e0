/* monitor_rss: stagetop's own memory after N samples.  Drives the real
 * monitor (Linux backend, a real watched process, JSONL record stream to a
 * temp file) with a simulated clock, so 100,000 samples at a 10 ms interval
 * take seconds, not 17 minutes.  Prints VmRSS / VmHWM of this process (the
 * whole of stagetop minus the screen) and CPU per sample.
 *
 *   monitor_rss [SAMPLES] [INTERVAL] [whole]   (defaults 100000, 0.01; whole: with
 *   what --report/--plot keep of the whole run, st_monitor_opts.whole_run) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/run/monitor_internal.h" /* the benchmark looks inside */
#include "../tests/selfstat.h"



int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    double interval = argc > 2 ? atof(argv[2]) : 0.01;
    char rec[] = "/tmp/stagetop-rss-XXXXXX";
    int fd = mkstemp(rec);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    st_monitor m;
    st_monitor_opts o;
    st_error e;
    st_monitor_opts_default(&o);
    o.interval = interval;
    o.no_gpu = 1;
    o.record_path = rec;
    o.record_overwrite = 1; /* mkstemp made it */
    o.whole_run = argc > 3 && strcmp(argv[3], "whole") == 0; /* --report/--plot's series and tap */
    long rss0 = selfstat_kib("VmRSS");
    if (st_monitor_open(&m, &st_platform_native, &o, child, NULL, 0.0, &e) != ST_OK) {
        fprintf(stderr, "monitor_rss: %s\n", e.msg);
        kill(child, SIGKILL);
        return 1;
    }
    double c0 = selfstat_clock(CLOCK_PROCESS_CPUTIME_ID);
    long rss_mid = 0;
    for (long k = 0; k < n; k++) {
        if (st_monitor_step(&m, k * interval, &e) != ST_OK) {
            fprintf(stderr, "monitor_rss: step %ld: %s\n", k, e.msg);
            break;
        }
        if (k == n / 2)
            rss_mid = selfstat_kib("VmRSS");
    }
    double per = (selfstat_clock(CLOCK_PROCESS_CPUTIME_ID) - c0) / (double)n;
    long rss1 = selfstat_kib("VmRSS"), hwm = selfstat_kib("VmHWM");
    size_t ring_cap = m.ring.cap;
    st_monitor_close(&m, 0, NULL);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    unlink(rec);
    printf("samples %ld at %.3fs (ring capacity %zu = --history 2h)\n", n, interval, ring_cap);
    printf("VmRSS before open %ld KiB, at %ld samples %ld KiB, at %ld samples %ld KiB, peak %ld KiB\n",
           rss0, n / 2, rss_mid, n, rss1, hwm);
    printf("CPU per sample %.1f us (tree of 1 + system + ring + summary + JSONL record)\n",
           per * 1e6);
    return 0;
}
