/* fake_taskinfo.h: the scripted XNU of task_name_for_pid, task_info
 * (TASK_VM_INFO) and mach_port_deallocate for the Darwin backend's tests
 * (tests/darwin/fake_taskinfo.c), over fake_darwin.c's process table: a
 * process's VM numbers are set here, its life and its user there. */
#ifndef STAGETOP_FAKE_TASKINFO_H
#define STAGETOP_FAKE_TASKINFO_H

#include <stdint.h>

typedef struct fake_taskinfo_knobs {
    int name_refused;       /* the MAC policy refuses every name port
                               (mac_proc_check_get_task, kern_proc.c:5649) */
    unsigned kernel_count;  /* the newest revision the kernel knows, as its
                               count (0: TASK_VM_INFO_REV7_COUNT); an older
                               kernel fills no field past it */
    /* counters */
    unsigned name_calls, info_calls;
    int ports_held;         /* ports given and not deallocated */
} fake_taskinfo_knobs;

/* No numbers, default knobs, counters 0. */
void fake_taskinfo_reset(void);
fake_taskinfo_knobs *fake_taskinfo_knobs_get(void);
/* pid's task_vm_info numbers: compressed (bytes) and the graphics ledgers
 * (ledger_tag_graphics_footprint, _compressed); a pid never set answers 0. */
void fake_taskinfo_set(int32_t pid, uint64_t compressed, int64_t graphics, int64_t graphics_compressed);

#endif
