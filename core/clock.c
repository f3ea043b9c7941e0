/* clock.c: the program's clocks (clock.h), a base utility: the monitor, the
 * screens and replay measure their deadlines on st_now(). */
#include "stagetop/clock.h"

/* The run's clock stops while the machine sleeps, on both systems, so that
 * a job-side stamp made with Python's time.monotonic() is on it too:
 *  - Linux: CLOCK_MONOTONIC "does not count time that the system is
 *    suspended"; CLOCK_BOOTTIME does (clock_gettime(2)).
 *  - macOS: CLOCK_MONOTONIC "will continue to increment while the system is
 *    asleep"; CLOCK_UPTIME_RAW "does not increment while the system is
 *    asleep. The returned value is identical to the result of
 *    mach_absolute_time()" (Apple's clock_gettime(3)), which is what
 *    Python's time.monotonic() reads there (CPython Python/pytime.c).
 * CLOCK_UPTIME_RAW is Darwin's (time.h, _DARWIN_C_SOURCE): its presence, not
 * a platform test, picks it. */
#ifdef CLOCK_UPTIME_RAW
#define RUN_CLOCK CLOCK_UPTIME_RAW
#define RUN_CLOCK_NAME "CLOCK_UPTIME_RAW"
#define ASLEEP_TOO CLOCK_MONOTONIC
#else
#define RUN_CLOCK CLOCK_MONOTONIC
#define RUN_CLOCK_NAME "CLOCK_MONOTONIC"
#ifdef CLOCK_BOOTTIME
#define ASLEEP_TOO CLOCK_BOOTTIME
#endif
#endif

static double seconds_of(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return -1.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double st_now(void)
{
    return seconds_of(RUN_CLOCK);
}

const char *st_now_clock_name(void)
{
    return RUN_CLOCK_NAME;
}

double st_slept_total(void)
{
#ifdef ASLEEP_TOO
    double run = seconds_of(RUN_CLOCK), all = seconds_of(ASLEEP_TOO);
    if (run < 0 || all < 0)
        return -1.0;
    return all > run ? all - run : 0.0;
#else
    return -1.0;
#endif
}

double st_wall_now(void)
{
    return seconds_of(CLOCK_REALTIME);
}

time_t st_wall_time(void)
{
    return time(NULL);
}

double st_cpu_self(void)
{
    return seconds_of(CLOCK_PROCESS_CPUTIME_ID);
}
