/* Shim of macOS <sys/resource.h> for building core/platform/platform_darwin.c on Linux.
 *
 * Linux's own <sys/resource.h> is included first (#include_next), so code
 * that includes it for getrlimit & co. still works; then the Darwin-only
 * rusage_info flavors are added with their real LP64 layouts (checked below
 * against the offsets in XNU's bsd/sys/resource.h). */
#ifndef STAGETOP_SHIM_SYS_RESOURCE_H
#define STAGETOP_SHIM_SYS_RESOURCE_H

#include_next <sys/resource.h>
#include <stddef.h>
#include <stdint.h>

typedef void *rusage_info_t;

#define RUSAGE_INFO_V0 0
#define RUSAGE_INFO_V1 1
#define RUSAGE_INFO_V2 2
#define RUSAGE_INFO_V3 3
#define RUSAGE_INFO_V4 4
#define RUSAGE_INFO_CURRENT RUSAGE_INFO_V4

#define ST_SHIM_RI_V0_FIELDS                                                   \
    uint8_t ri_uuid[16];                                                       \
    uint64_t ri_user_time;                                                     \
    uint64_t ri_system_time;                                                   \
    uint64_t ri_pkg_idle_wkups;                                                \
    uint64_t ri_interrupt_wkups;                                               \
    uint64_t ri_pageins;                                                       \
    uint64_t ri_wired_size;                                                    \
    uint64_t ri_resident_size;                                                 \
    uint64_t ri_phys_footprint;                                                \
    uint64_t ri_proc_start_abstime;                                            \
    uint64_t ri_proc_exit_abstime;
#define ST_SHIM_RI_V1_FIELDS                                                   \
    ST_SHIM_RI_V0_FIELDS                                                       \
    uint64_t ri_child_user_time;                                               \
    uint64_t ri_child_system_time;                                             \
    uint64_t ri_child_pkg_idle_wkups;                                          \
    uint64_t ri_child_interrupt_wkups;                                         \
    uint64_t ri_child_pageins;                                                 \
    uint64_t ri_child_elapsed_abstime;
#define ST_SHIM_RI_V2_FIELDS                                                   \
    ST_SHIM_RI_V1_FIELDS                                                       \
    uint64_t ri_diskio_bytesread;                                              \
    uint64_t ri_diskio_byteswritten;
#define ST_SHIM_RI_V3_FIELDS                                                   \
    ST_SHIM_RI_V2_FIELDS                                                       \
    uint64_t ri_cpu_time_qos_default;                                          \
    uint64_t ri_cpu_time_qos_maintenance;                                      \
    uint64_t ri_cpu_time_qos_background;                                       \
    uint64_t ri_cpu_time_qos_utility;                                          \
    uint64_t ri_cpu_time_qos_legacy;                                           \
    uint64_t ri_cpu_time_qos_user_initiated;                                   \
    uint64_t ri_cpu_time_qos_user_interactive;                                 \
    uint64_t ri_billed_system_time;                                            \
    uint64_t ri_serviced_system_time;
#define ST_SHIM_RI_V4_FIELDS                                                   \
    ST_SHIM_RI_V3_FIELDS                                                       \
    uint64_t ri_logical_writes;                                                \
    uint64_t ri_lifetime_max_phys_footprint;                                   \
    uint64_t ri_instructions;                                                  \
    uint64_t ri_cycles;                                                        \
    uint64_t ri_billed_energy;                                                 \
    uint64_t ri_serviced_energy;                                               \
    uint64_t ri_interval_max_phys_footprint;                                   \
    uint64_t ri_runnable_time;

struct rusage_info_v0 { ST_SHIM_RI_V0_FIELDS };
struct rusage_info_v1 { ST_SHIM_RI_V1_FIELDS };
struct rusage_info_v2 { ST_SHIM_RI_V2_FIELDS };
struct rusage_info_v3 { ST_SHIM_RI_V3_FIELDS };
struct rusage_info_v4 { ST_SHIM_RI_V4_FIELDS };

/* The real LP64 layouts (XNU bsd/sys/resource.h). */
_Static_assert(sizeof(struct rusage_info_v0) == 96, "rusage_info_v0 is 96 bytes");
_Static_assert(sizeof(struct rusage_info_v1) == 144, "rusage_info_v1 is 144 bytes");
_Static_assert(sizeof(struct rusage_info_v2) == 160, "rusage_info_v2 is 160 bytes");
_Static_assert(sizeof(struct rusage_info_v3) == 232, "rusage_info_v3 is 232 bytes");
_Static_assert(sizeof(struct rusage_info_v4) == 296, "rusage_info_v4 is 296 bytes");
_Static_assert(offsetof(struct rusage_info_v4, ri_user_time) == 16, "ri_user_time at 16");
_Static_assert(offsetof(struct rusage_info_v4, ri_resident_size) == 64, "ri_resident_size at 64");
_Static_assert(offsetof(struct rusage_info_v4, ri_phys_footprint) == 72, "ri_phys_footprint at 72");
_Static_assert(offsetof(struct rusage_info_v4, ri_proc_start_abstime) == 80, "start_abstime at 80");
_Static_assert(offsetof(struct rusage_info_v2, ri_diskio_byteswritten) == 152, "v2 ends at 160");
_Static_assert(offsetof(struct rusage_info_v4, ri_logical_writes) == 232, "ri_logical_writes at 232");
_Static_assert(offsetof(struct rusage_info_v4, ri_lifetime_max_phys_footprint) == 240,
               "ri_lifetime_max_phys_footprint at 240");
_Static_assert(offsetof(struct rusage_info_v4, ri_interval_max_phys_footprint) == 280,
               "ri_interval_max_phys_footprint at 280");

#endif
