/* fake_taskinfo.c: task_name_for_pid, task_info(TASK_VM_INFO) and
 * mach_port_deallocate as xnu-11417.101.15 answers them, over the process
 * table of fake_darwin.c (fake_taskinfo.h).  Each behaviour cites the
 * source it copies. */
#include "fake_taskinfo.h"
#include "fake_darwin.h"

#include <string.h>
#include <mach/mach.h>

#define FAKE_TI_MAX 64
#define PORT_BASE 0x10000u /* a name port's name: PORT_BASE + pid */

static struct {
    fake_taskinfo_knobs k;
    struct { int32_t pid; uint64_t compressed; int64_t g, gc; } v[FAKE_TI_MAX];
    int n;
} ti;

mach_port_t mach_task_self_ = 0x103; /* our own task port's name (mach_init.h:83) */

void fake_taskinfo_reset(void)
{
    memset(&ti, 0, sizeof ti);
}

fake_taskinfo_knobs *fake_taskinfo_knobs_get(void)
{
    return &ti.k;
}

void fake_taskinfo_set(int32_t pid, uint64_t compressed, int64_t graphics, int64_t graphics_compressed)
{
    int i = 0;
    while (i < ti.n && ti.v[i].pid != pid)
        i++;
    if (i == ti.n) {
        if (ti.n == FAKE_TI_MAX)
            return;
        ti.n++;
    }
    ti.v[i].pid = pid;
    ti.v[i].compressed = compressed;
    ti.v[i].g = graphics;
    ti.v[i].gc = graphics_compressed;
}

/* bsd/kern/kern_proc.c:5603 task_name_for_pid. */
kern_return_t task_name_for_pid(mach_port_name_t target_tport, int pid, mach_port_name_t *tn)
{
    fake_proc *p;
    ti.k.name_calls++;
    *tn = MACH_PORT_NULL; /* every failure copies out MACH_PORT_NULL (:5622, :5675-5676) */
    if (target_tport != mach_task_self_)
        return KERN_FAILURE; /* port_name_to_task: no task (:5620-5624) */
    p = fake_darwin_find(pid);
    /* proc_find (:5627); not a zombie (:5633); the same uid and real uid
     * (:5636-5637: fake_darwin's other_user is another uid); the MAC
     * policy (:5649) */
    if (!p || p->zombie || p->other_user || ti.k.name_refused)
        return KERN_FAILURE; /* :5677 */
    /* exiting: proc_exit drained its references (kern_exit.c:2207), so
     * proc_find's proc_ref_try_fast fails (kern_proc.c:2182, :626, :2195) */
    if (p->exiting)
        return KERN_FAILURE;
    *tn = PORT_BASE + (mach_port_name_t)pid; /* ipc_port_copyout_send (:5655-5658) */
    ti.k.ports_held++;
    return KERN_SUCCESS;
}

/* osfmk/kern/task.c:6337 task_info_from_user (a name port is enough:
 * :6349) and :5312 task_info's TASK_VM_INFO (:5797). */
kern_return_t task_info(task_name_t target_task, task_flavor_t flavor, task_info_t task_info_out,
                        mach_msg_type_number_t *task_info_outCnt)
{
    mach_msg_type_number_t want = *task_info_outCnt;
    mach_msg_type_number_t top = ti.k.kernel_count ? ti.k.kernel_count : TASK_VM_INFO_REV7_COUNT;
    task_vm_info_t vi = (task_vm_info_t)(void *)task_info_out;
    int32_t pid = (int32_t)(target_task - PORT_BASE);
    fake_proc *p;

    ti.k.info_calls++;
    if (target_task < PORT_BASE || flavor != TASK_VM_INFO)
        return KERN_INVALID_ARGUMENT; /* TASK_NULL (:5322-5324); only this flavor is scripted */
    p = fake_darwin_find(pid);
    if (!p || p->zombie)
        return KERN_INVALID_ARGUMENT; /* the task is no longer active (:5329-5332) */
    if (want < TASK_VM_INFO_REV0_COUNT)
        return KERN_INVALID_ARGUMENT; /* :5925-5928 */
    uint64_t compressed = 0;
    int64_t g = 0, gc = 0;
    for (int i = 0; i < ti.n; i++)
        if (ti.v[i].pid == pid) {
            compressed = ti.v[i].compressed;
            g = ti.v[i].g;
            gc = ti.v[i].gc;
        }
    /* rev0: the internal_compressed ledger (:5963); the count says the
     * last revision filled (:6020, :6050, :6054, :6121 ...) */
    vi->resident_size = p->resident;
    vi->compressed = compressed;
    *task_info_outCnt = TASK_VM_INFO_REV0_COUNT;
    if (want >= TASK_VM_INFO_REV1_COUNT && top >= TASK_VM_INFO_REV1_COUNT) {
        vi->phys_footprint = p->footprint; /* :6047-6050 */
        *task_info_outCnt = TASK_VM_INFO_REV1_COUNT;
    }
    if (want >= TASK_VM_INFO_REV2_COUNT && top >= TASK_VM_INFO_REV2_COUNT)
        *task_info_outCnt = TASK_VM_INFO_REV2_COUNT; /* :6052-6054 */
    if (want >= TASK_VM_INFO_REV3_COUNT && top >= TASK_VM_INFO_REV3_COUNT) {
        vi->ledger_tag_graphics_footprint = g; /* :6097-6102 */
        vi->ledger_tag_graphics_footprint_compressed = gc;
        *task_info_outCnt = TASK_VM_INFO_REV3_COUNT; /* :6121 */
    }
    /* rev4 .. rev7 (:6123-6153): fields the backend does not read */
    static const mach_msg_type_number_t later[] = {TASK_VM_INFO_REV4_COUNT, TASK_VM_INFO_REV5_COUNT,
                                                   TASK_VM_INFO_REV6_COUNT, TASK_VM_INFO_REV7_COUNT};
    for (unsigned i = 0; i < sizeof later / sizeof later[0]; i++)
        if (want >= later[i] && top >= later[i])
            *task_info_outCnt = later[i];
    return KERN_SUCCESS;
}

/* mach_port_deallocate: the name's send right released. */
kern_return_t mach_port_deallocate(ipc_space_t task, mach_port_name_t name)
{
    if (task != mach_task_self_ || name < PORT_BASE)
        return KERN_INVALID_ARGUMENT;
    ti.k.ports_held--;
    return KERN_SUCCESS;
}
