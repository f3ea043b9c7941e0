/* sleep_clock.c: an LD_PRELOAD library that makes the machine look as if
 * it had slept, for tests/e2e/sleep_event.sh.  A test cannot suspend the
 * machine; what a suspend does to the clocks is written in clock_gettime(2):
 * CLOCK_MONOTONIC "does not count time that the system is suspended",
 * CLOCK_BOOTTIME "is identical to CLOCK_MONOTONIC, except that it also
 * includes any time that the system is suspended".  So a sleep of S
 * seconds is CLOCK_BOOTTIME running S seconds ahead of CLOCK_MONOTONIC:
 * once the file named by $ST_FAKE_SLEEP holds S, every CLOCK_BOOTTIME
 * reading is S seconds later; the other clocks are left alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static gettime_fn real;
    if (!real)
        real = (gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    int rc = real(id, ts);
    const char *path = getenv("ST_FAKE_SLEEP");
    if (rc != 0 || id != CLOCK_BOOTTIME || !path)
        return rc;
    FILE *f = fopen(path, "r");
    double s = 0;
    if (f) {
        if (fscanf(f, "%lf", &s) != 1)
            s = 0;
        fclose(f);
    }
    if (s > 0) {
        long long ns = ts->tv_nsec + (long long)((s - (double)(long long)s) * 1e9);
        ts->tv_sec += (time_t)s + (time_t)(ns / 1000000000);
        ts->tv_nsec = (long)(ns % 1000000000);
    }
    return rc;
}
