/* clock.c: the monotonic clock (clock.h), a base utility: the monitor, the
 * screens and replay measure their deadlines on it. */
#include "stagetop/clock.h"

#include <time.h>

double st_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
