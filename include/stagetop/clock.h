/* clock.h: the one clock of the program.  Deadlines, stage times, rates
 * and the guard are measured on st_now(); what a person reads as a date
 * comes from st_wall_now(); stagetop's own cost from st_cpu_self().
 * Backends may read their own kernel clocks. */
#ifndef STAGETOP_CLOCK_H
#define STAGETOP_CLOCK_H

#include <time.h>

/* The run's seconds: monotonic, and stopped while the machine sleeps
 * (Linux CLOCK_MONOTONIC; macOS CLOCK_UPTIME_RAW, mach_absolute_time's), the
 * clock of Python's time.monotonic() on both, so job-side stamps agree. */
double st_now(void);
/* The name of st_now()'s clock ("CLOCK_MONOTONIC", "CLOCK_UPTIME_RAW"). */
const char *st_now_clock_name(void);
/* Seconds the machine has slept since it booted (Linux CLOCK_BOOTTIME -
 * CLOCK_MONOTONIC; macOS CLOCK_MONOTONIC - CLOCK_UPTIME_RAW), -1 when the
 * system cannot say.  Its growth between two samples is a sleep. */
double st_slept_total(void);
/* Wall-clock seconds since the epoch, with a fraction (CLOCK_REALTIME). */
double st_wall_now(void);
/* Wall-clock whole seconds since the epoch, as time(2). */
time_t st_wall_time(void);
/* CPU seconds this process has used (CLOCK_PROCESS_CPUTIME_ID); -1 when
 * the system cannot say. */
double st_cpu_self(void);

#endif
