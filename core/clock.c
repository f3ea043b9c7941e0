/* clock.c: the program's clocks (clock.h), a base utility: the monitor, the
 * screens and replay measure their deadlines on st_now(). */
#include "stagetop/clock.h"

static double seconds_of(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return -1.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double st_now(void)
{
    return seconds_of(CLOCK_MONOTONIC);
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
