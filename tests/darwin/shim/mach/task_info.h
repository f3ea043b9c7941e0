/* Shim of macOS <mach/task_info.h> (and of the calls that reach it, which a
 * Mac declares in <mach/mach_traps.h>, <mach/task.h>, <mach/mach_port.h>
 * and <mach/mach_init.h>, all included by <mach/mach.h>), for building the
 * macOS backend on Linux; tests/darwin/fake_taskinfo.c implements the calls
 * over its scripted kernel.
 *
 * struct task_vm_info has XNU's layout: xnu-11417.101.15
 * osfmk/mach/task_info.h:365-428, inside the header's #pragma pack(push, 4)
 * (task_info.h:91, popped at :646), so the 32-bit decompressions of rev5 is
 * followed by ledger_swapins at offset 348 with no padding.  The revision
 * counts are the header's (task_info.h:437-451): each revision's count is
 * the natural_t words up to its last field.  The offsets the backend reads
 * are asserted here and again in core/platform/darwin_vm.c against the real
 * header of the Mach-O build (mk/macos-build.mk). */
#ifndef STAGETOP_SHIM_MACH_TASK_INFO_H
#define STAGETOP_SHIM_MACH_TASK_INFO_H

#include <stddef.h>
#include <stdint.h>

typedef natural_t mach_port_name_t;
typedef mach_port_t task_t, task_name_t, ipc_space_t;
typedef natural_t task_flavor_t;
typedef integer_t *task_info_t;
typedef uint64_t mach_vm_size_t, mach_vm_address_t;

#define MACH_PORT_NULL ((mach_port_t)0)
#define KERN_INVALID_ARGUMENT 4 /* osfmk/mach/kern_return.h:89 */
#define TASK_VM_INFO 22         /* task_info.h:363 */

#pragma pack(push, 4)
struct task_vm_info {
    mach_vm_size_t virtual_size;
    integer_t region_count;
    integer_t page_size;
    mach_vm_size_t resident_size, resident_size_peak;
    mach_vm_size_t device, device_peak, internal, internal_peak, external, external_peak;
    mach_vm_size_t reusable, reusable_peak;
    mach_vm_size_t purgeable_volatile_pmap, purgeable_volatile_resident, purgeable_volatile_virtual;
    mach_vm_size_t compressed, compressed_peak, compressed_lifetime;
    /* added for rev1 */
    mach_vm_size_t phys_footprint;
    /* added for rev2 */
    mach_vm_address_t min_address, max_address;
    /* added for rev3 */
    int64_t ledger_phys_footprint_peak;
    int64_t ledger_purgeable_nonvolatile, ledger_purgeable_novolatile_compressed;
    int64_t ledger_purgeable_volatile, ledger_purgeable_volatile_compressed;
    int64_t ledger_tag_network_nonvolatile, ledger_tag_network_nonvolatile_compressed;
    int64_t ledger_tag_network_volatile, ledger_tag_network_volatile_compressed;
    int64_t ledger_tag_media_footprint, ledger_tag_media_footprint_compressed;
    int64_t ledger_tag_media_nofootprint, ledger_tag_media_nofootprint_compressed;
    int64_t ledger_tag_graphics_footprint, ledger_tag_graphics_footprint_compressed;
    int64_t ledger_tag_graphics_nofootprint, ledger_tag_graphics_nofootprint_compressed;
    int64_t ledger_tag_neural_footprint, ledger_tag_neural_footprint_compressed;
    int64_t ledger_tag_neural_nofootprint, ledger_tag_neural_nofootprint_compressed;
    /* added for rev4 */
    uint64_t limit_bytes_remaining;
    /* added for rev5 */
    integer_t decompressions;
    /* added for rev6 */
    int64_t ledger_swapins;
    /* added for rev7 */
    int64_t ledger_tag_neural_nofootprint_total, ledger_tag_neural_nofootprint_peak;
};
#pragma pack(pop)
typedef struct task_vm_info task_vm_info_data_t;
typedef struct task_vm_info *task_vm_info_t;
#define TASK_VM_INFO_COUNT ((mach_msg_type_number_t)(sizeof(task_vm_info_data_t) / sizeof(natural_t)))
#define TASK_VM_INFO_REV7_COUNT TASK_VM_INFO_COUNT
#define TASK_VM_INFO_REV6_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV7_COUNT - 4))
#define TASK_VM_INFO_REV5_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV6_COUNT - 2))
#define TASK_VM_INFO_REV4_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV5_COUNT - 1))
#define TASK_VM_INFO_REV3_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV4_COUNT - 2))
#define TASK_VM_INFO_REV2_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV3_COUNT - 42))
#define TASK_VM_INFO_REV1_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV2_COUNT - 4))
#define TASK_VM_INFO_REV0_COUNT ((mach_msg_type_number_t)(TASK_VM_INFO_REV1_COUNT - 2))

/* The layout, worked out from the fields above with pack(4). */
_Static_assert(sizeof(struct task_vm_info) == 372, "task_vm_info rev7 is 372 bytes");
_Static_assert(offsetof(struct task_vm_info, compressed) == 120, "compressed at 120");
_Static_assert(offsetof(struct task_vm_info, ledger_tag_graphics_footprint) == 272, "graphics at 272");
_Static_assert(offsetof(struct task_vm_info, decompressions) == 344, "decompressions at 344");
_Static_assert(offsetof(struct task_vm_info, ledger_swapins) == 348, "swapins at 348 (pack 4)");
_Static_assert(TASK_VM_INFO_REV0_COUNT == 36 && TASK_VM_INFO_REV3_COUNT == 84 &&
               TASK_VM_INFO_REV5_COUNT == 87 && TASK_VM_INFO_COUNT == 93, "revision counts");

/* libsyscall/mach/mach/mach_init.h:83: mach_task_self() reads mach_task_self_. */
extern mach_port_t mach_task_self_;
#define mach_task_self() mach_task_self_
/* osfmk/mach/mach_traps.h:357 */
kern_return_t task_name_for_pid(mach_port_name_t target_tport, int pid, mach_port_name_t *tn);
/* mach/task.h (MIG, from osfmk/mach/task.defs routine task_info) */
kern_return_t task_info(task_name_t target_task, task_flavor_t flavor, task_info_t task_info_out,
                        mach_msg_type_number_t *task_info_outCnt);
/* mach/mach_port.h (MIG, osfmk/mach/mach_port.defs routine mach_port_deallocate) */
kern_return_t mach_port_deallocate(ipc_space_t task, mach_port_name_t name);

#endif
