/* Shim of macOS <mach/mach_time.h>: the time base (fake_darwin.c answers
 * with its knobs: 125/3 as on Apple Silicon, or 1/1 as on Intel). */
#ifndef STAGETOP_SHIM_MACH_MACH_TIME_H
#define STAGETOP_SHIM_MACH_MACH_TIME_H

#include <stdint.h>
#include <mach/mach.h>

struct mach_timebase_info {
    uint32_t numer;
    uint32_t denom;
};
typedef struct mach_timebase_info *mach_timebase_info_t;
typedef struct mach_timebase_info mach_timebase_info_data_t;

kern_return_t mach_timebase_info(mach_timebase_info_t info);

#endif
