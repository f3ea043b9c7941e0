/* darwin_vm.c: a macOS process's Metal and compressed memory, from
 * TASK_VM_INFO through the task's name port (docs/metrics.md, "Metal and
 * compressed memory").  Sources: xnu-11417.101.15.
 *
 * The port: task_name_for_pid (bsd/kern/kern_proc.c:5603) gives it for a
 * process that is not a zombie (:5633) when the caller is that process, root,
 * of the same effective and real uid (:5636-5637) or entitled (:5638), and
 * the MAC policy allows it (mac_proc_check_get_task with TASK_FLAVOR_NAME,
 * :5649): else KERN_FAILURE and MACH_PORT_NULL (:5675-5677).  A name port is
 * enough for this flavor: task_info_from_user (osfmk/kern/task.c:6337)
 * converts the port with convert_port_to_task_name for every flavor but
 * TASK_DYLD_INFO (:6349).
 *
 * The numbers: task_info's TASK_VM_INFO (task.c:5797) fills the fields of
 * each revision the caller's count has room for and returns the count of the
 * last one filled (:6020-6153); a count under TASK_VM_INFO_REV0_COUNT is
 * KERN_INVALID_ARGUMENT (:5925), and so is a task that is no longer active
 * (:5329).  `compressed` is the task's internal_compressed ledger (:5963),
 * the bytes of its pages held by the compressor counted at their
 * uncompressed size (rev0); the graphics-tagged footprint, resident and
 * compressed, is ledger_tag_graphics_footprint + _compressed (:6097-6102,
 * rev3 and later): an older kernel's answer has no Metal number. */
#include "darwin_internal.h"
#include "stagetop/sample.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <mach/mach.h>

/* The offsets read, against the header in use: Apple's in a Mac or Mach-O
 * build (mk/macos-build.mk), the shim's in the unit tests.  The size is not
 * checked: an older SDK's header ends at an earlier revision. */
#define VM_AT(field, off) \
    _Static_assert(offsetof(struct task_vm_info, field) == (off), #field " at " #off)
VM_AT(compressed, 120);
VM_AT(phys_footprint, 144);
VM_AT(ledger_tag_graphics_footprint, 272);
VM_AT(ledger_tag_graphics_footprint_compressed, 280);
_Static_assert(TASK_VM_INFO_REV0_COUNT == 36 && TASK_VM_INFO_REV3_COUNT == 84,
               "TASK_VM_INFO revision counts (osfmk/mach/task_info.h:437-451)");

void st_dw_vm_read(const st_dw_vm *v, int32_t pid, st_dw_vm_reading *r)
{
    mach_port_name_t name = MACH_PORT_NULL;
    task_vm_info_data_t vi;
    mach_msg_type_number_t count = TASK_VM_INFO_COUNT;

    memset(r, 0, sizeof *r);
    r->status = ST_DW_VM_NO_INFO;
    if (v->off)
        return; /* refused once: not asked again */
    if (task_name_for_pid(mach_task_self(), pid, &name) != KERN_SUCCESS || name == MACH_PORT_NULL) {
        r->status = ST_DW_VM_NO_PORT;
        return;
    }
    memset(&vi, 0, sizeof vi);
    kern_return_t kr = task_info(name, TASK_VM_INFO, (task_info_t)(void *)&vi, &count);
    mach_port_deallocate(mach_task_self(), name);
    if (kr != KERN_SUCCESS || count < TASK_VM_INFO_REV0_COUNT) {
        r->status = ST_DW_VM_NO_INFO; /* exited meanwhile: not a refusal */
        return;
    }
    r->status = ST_DW_VM_READ;
    r->compressed = vi.compressed;
    if (count >= TASK_VM_INFO_REV3_COUNT) {
        /* ledger balances are signed; a negative one is a kernel bug, 0 */
        int64_t g = vi.ledger_tag_graphics_footprint, c = vi.ledger_tag_graphics_footprint_compressed;
        r->metal = (uint64_t)(g > 0 ? g : 0) + (uint64_t)(c > 0 ? c : 0);
        r->has_metal = 1;
    }
}

void st_dw_vm_fill(st_dw_vm *v, int32_t pid, int exiting, const st_dw_vm_reading *r,
                   st_proc_mem *out)
{
    if (v->off)
        return;
    if (r->status == ST_DW_VM_NO_PORT) {
        /* An exiting member has no port: exit_with_reason sets P_LEXIT
         * (bsd/kern/kern_exit.c:1607), which KERN_PROC_PID reports as
         * P_WEXIT (kern_sysctl.c:1204-1205), before proc_exit drains the
         * proc's references (kern_exit.c:2207) and long before SZOMB
         * (:2612); meanwhile proc_find finds nothing (kern_proc.c:2182,
         * proc_ref_try_fast refuses P_REF_DEAD, :626; :2195-2196).  That
         * member is left out of this sample's sums.  Any other member of
         * ours whose rusage was read, refused: the kernel or its MAC policy.
         * Said once; the lanes are left out from here on rather than summed
         * over part of the tree. */
        if (exiting)
            return;
        v->off = 1;
        snprintf(v->note, sizeof v->note,
                 "macOS refused the task name port of process %d (task_name_for_pid): "
                 "no metal or tree_compressed lane", (int)pid);
        return;
    }
    if (r->status != ST_DW_VM_READ)
        return;
    out->compressed = r->compressed;
    out->valid |= ST_PM_COMPRESSED;
    if (r->has_metal) {
        out->metal = r->metal;
        out->valid |= ST_PM_METAL;
    }
}

const char *st_dw_vm_note(const st_dw_vm *v)
{
    return v->note;
}
