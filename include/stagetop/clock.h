/* clock.h: the one clock every deadline is measured on. */
#ifndef STAGETOP_CLOCK_H
#define STAGETOP_CLOCK_H

/* Monotonic seconds (CLOCK_MONOTONIC). */
double st_now(void);

#endif
