/* Shim of macOS <mach/mach.h> for building the macOS backend on Linux
 * (tests/darwin/fake_darwin.c implements these over its scripted kernel).
 * Only what the backend uses: the host's VM statistics and page size.  The
 * struct has XNU's real layout (osfmk/mach/vm_statistics.h, struct
 * vm_statistics64, aligned(8)); darwin_sys.c asserts the offset it reads. */
#ifndef STAGETOP_SHIM_MACH_MACH_H
#define STAGETOP_SHIM_MACH_MACH_H

#include <stdint.h>

typedef int kern_return_t;
typedef unsigned int natural_t;
typedef int integer_t;
typedef natural_t mach_port_t;
typedef mach_port_t host_t;
typedef natural_t mach_msg_type_number_t;
typedef uintptr_t vm_size_t;
typedef integer_t *host_info64_t;
typedef int host_flavor_t;

#define KERN_SUCCESS 0
#define KERN_FAILURE 5
#define HOST_VM_INFO64 4

struct vm_statistics64 {
    natural_t free_count, active_count, inactive_count, wire_count;
    uint64_t zero_fill_count, reactivations, pageins, pageouts, faults, cow_faults, lookups, hits,
        purges;
    natural_t purgeable_count, speculative_count;
    uint64_t decompressions, compressions, swapins, swapouts;
    natural_t compressor_page_count, throttled_count, external_page_count, internal_page_count;
    uint64_t total_uncompressed_pages_in_compressor;
} __attribute__((aligned(8)));
typedef struct vm_statistics64 vm_statistics64_data_t;

#define HOST_VM_INFO64_COUNT \
    ((mach_msg_type_number_t)(sizeof(vm_statistics64_data_t) / sizeof(integer_t)))

host_t mach_host_self(void);
kern_return_t host_statistics64(host_t host, host_flavor_t flavor, host_info64_t info,
                                mach_msg_type_number_t *count);
kern_return_t host_page_size(host_t host, vm_size_t *size);

/* A task's VM numbers through its name port (core/platform/darwin_vm.c). */
#include <mach/task_info.h>

#endif
