/* clock.h: the one clock of the program.  Deadlines, stage times, rates
 * and the guard are measured on st_now(); what a person reads as a date
 * comes from st_wall_now(); stagetop's own cost from st_cpu_self().
 * Backends may read their own kernel clocks. */
#ifndef STAGETOP_CLOCK_H
#define STAGETOP_CLOCK_H

#include <time.h>

/* Monotonic seconds (CLOCK_MONOTONIC). */
double st_now(void);
/* Wall-clock seconds since the epoch, with a fraction (CLOCK_REALTIME). */
double st_wall_now(void);
/* Wall-clock whole seconds since the epoch, as time(2). */
time_t st_wall_time(void);
/* CPU seconds this process has used (CLOCK_PROCESS_CPUTIME_ID); -1 when
 * the system cannot say. */
double st_cpu_self(void);

#endif
