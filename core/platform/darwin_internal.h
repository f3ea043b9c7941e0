/* darwin_internal.h: internal to the macOS backend (platform_darwin.c and
 * darwin_sys.c); not a public contract. */
#ifndef STAGETOP_DARWIN_INTERNAL_H
#define STAGETOP_DARWIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/platform.h"

/* What the system reads keep between samples. */
typedef struct st_dw_sys {
    uint64_t mem_total;
    int has_mem_total;
    uint32_t tb_numer, tb_denom; /* mach_timebase_info: ns = abs * numer / denom */
    uint64_t page_size;          /* host_page_size: the compressor counts these; 0: unknown */
} st_dw_sys;

/* Read the time base, the page size and hw.memsize once. */
void st_dw_sys_init(st_dw_sys *s);
/* Mach absolute time units (ri_user_time, ri_system_time) in nanoseconds. */
uint64_t st_dw_abs_to_ns(const st_dw_sys *s, uint64_t abs);
/* The backend table's read_system. */
int st_dw_read_system(st_dw_sys *s, st_sys_mem *out, st_error *err);

#endif
