/* darwin_sys.c: the macOS backend's system numbers (sysctl, host
 * statistics) and its unit conversions (see darwin_internal.h).
 *
 * CPU times.  proc_pid_rusage's ri_user_time and ri_system_time are Mach
 * absolute time units, not nanoseconds: XNU's fill_task_rusage
 * (osfmk/kern/bsd_kern.c) copies task_power_info's total_user/total_system,
 * which come from recount's `ru_user_time_mach` / `ru_system_time_mach`
 * ("Basic time tracking, in units of Mach time", osfmk/kern/recount.h lines
 * 107-109 in apple-oss-distributions/xnu at 1031c584), unconverted.  One
 * unit is numer/denom ns (mach_timebase_info): 1/1 on Intel
 * (osfmk/i386/rtclock.c, clock_timebase_info: `info->numer = info->denom =
 * 1`), and on Apple Silicon 10^9 / the timebase frequency reduced
 * (osfmk/arm/rtclock.c lines 105-119, timebase_callback: numer =
 * NSEC_PER_SEC * timebase_den, denom = timebase_num), which for the 24 MHz
 * timebase of M1 and later is 125/3.  Not confirmed on a Mac.
 *
 * Compressed memory: host_statistics64(HOST_VM_INFO64)'s
 * compressor_page_count (pages the compressor uses to hold the compressed
 * data; vm_stat's "Pages occupied by compressor") times host_page_size.
 *
 * The GPU's system memory: darwin_gpu.c (IOKit, loaded on the first read). */
#include "darwin_internal.h"
#include "stagetop/sample.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#include <mach/mach.h>
#include <mach/mach_time.h>

#define DW_AT(type, field, off) _Static_assert(offsetof(type, field) == (off), #field " at " #off)
DW_AT(vm_statistics64_data_t, compressor_page_count, 128);
_Static_assert(sizeof(vm_statistics64_data_t) == 152, "vm_statistics64 is 152 bytes");

void st_dw_sys_init(st_dw_sys *s)
{
    mach_timebase_info_data_t tb;
    vm_size_t ps = 0;
    uint64_t mem = 0;
    size_t len = sizeof mem;
    memset(s, 0, sizeof *s);
    s->tb_numer = s->tb_denom = 1;
    if (mach_timebase_info(&tb) == KERN_SUCCESS && tb.numer > 0 && tb.denom > 0) {
        s->tb_numer = tb.numer;
        s->tb_denom = tb.denom;
    }
    if (host_page_size(mach_host_self(), &ps) == KERN_SUCCESS && ps > 0)
        s->page_size = (uint64_t)ps;
    if (sysctlbyname("hw.memsize", &mem, &len, NULL, 0) == 0 && len == sizeof mem && mem > 0) {
        s->mem_total = mem;
        s->has_mem_total = 1;
    }
}

void st_dw_sys_free(st_dw_sys *s)
{
    st_dw_gpu_free(&s->gpu);
}

uint64_t st_dw_abs_to_ns(const st_dw_sys *s, uint64_t abs)
{
    /* abs * numer / denom without overflow for any abs (numer, denom < 2^32) */
    uint64_t q = abs / s->tb_denom, r = abs % s->tb_denom;
    return q * s->tb_numer + r * s->tb_numer / s->tb_denom;
}

/* vm.swapusage, kern.memorystatus_level (percent) and
 * kern.memorystatus_vm_pressure_level (1 normal, 2 warning, 4 critical),
 * the compressor's pages.  Each is optional; ST_EIO only when none of swap,
 * level and RAM can be read at all. */
int st_dw_read_system(st_dw_sys *s, st_sys_mem *out, st_error *err)
{
    struct xsw_usage xsu;
    vm_statistics64_data_t vm;
    mach_msg_type_number_t count = HOST_VM_INFO64_COUNT;
    int level = -1, pressure = 0, last_errno = 0;
    size_t len;

    memset(out, 0, sizeof *out);
    if (!s->has_mem_total) {
        uint64_t mem = 0;
        len = sizeof mem;
        if (sysctlbyname("hw.memsize", &mem, &len, NULL, 0) == 0 && len == sizeof mem && mem) {
            s->mem_total = mem;
            s->has_mem_total = 1;
        } else {
            last_errno = errno;
        }
    }
    if (s->has_mem_total) {
        out->mem_total = s->mem_total;
        out->valid |= ST_SYS_MEMTOTAL;
    }
    len = sizeof xsu;
    if (sysctlbyname("vm.swapusage", &xsu, &len, NULL, 0) == 0 && len == sizeof xsu) {
        out->swap_total = xsu.xsu_total;
        out->swap_used = xsu.xsu_used;
        out->valid |= ST_SYS_SWAP | ST_SYS_SWAPTOTAL;
    } else {
        last_errno = errno;
    }
    len = sizeof level;
    if (sysctlbyname("kern.memorystatus_level", &level, &len, NULL, 0) == 0 &&
        len == sizeof level && level >= 0 && level <= 100) {
        out->level_c = (uint16_t)(level * 100);
        out->valid |= ST_SYS_LEVEL;
    } else {
        last_errno = errno;
    }
    len = sizeof pressure;
    if (sysctlbyname("kern.memorystatus_vm_pressure_level", &pressure, &len, NULL, 0) == 0 &&
        len == sizeof pressure && (pressure == 1 || pressure == 2 || pressure == 4)) {
        out->pressure_c = (uint16_t)(pressure * 100);
        out->valid |= ST_SYS_PRESSURE;
    }
    memset(&vm, 0, sizeof vm);
    if (s->page_size && host_statistics64(mach_host_self(), HOST_VM_INFO64, (host_info64_t)&vm, &count) ==
                            KERN_SUCCESS && count >= HOST_VM_INFO64_COUNT) {
        out->compressed = (uint64_t)vm.compressor_page_count * s->page_size;
        out->valid |= ST_SYS_COMPRESSED;
    }
    st_dw_gpu_read(&s->gpu, out); /* darwin_gpu.c: optional, as the compressor */
    if (!(out->valid & (ST_SYS_SWAP | ST_SYS_LEVEL | ST_SYS_MEMTOTAL)))
        return st_error_set(err, ST_EIO, last_errno,
                            "cannot read vm.swapusage, kern.memorystatus_level or hw.memsize");
    return ST_OK;
}
