/* darwin_internal.h: internal to the macOS backend (platform_darwin.c,
 * darwin_sys.c, darwin_args.c, darwin_mps.c and darwin_vm.c); not a public contract. */
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
/* platform.h's start_time: the identity's p_starttime as seconds. */
int st_dw_start_time(st_backend *b, st_proc_id id, double *out, st_error *err);
/* The backend table's read_system. */
int st_dw_read_system(st_dw_sys *s, st_sys_mem *out, st_error *err);

/* The KERN_PROCARGS2 buffer (darwin_args.c): kern.argmax bytes, allocated
 * on first use. */
typedef struct st_dw_args {
    char *buf;
    size_t cap;
} st_dw_args;

void st_dw_args_free(st_dw_args *a);
/* sysctl KERN_PROCARGS2 of pid into a->buf: 0 and *n (the bytes the kernel
 * wrote), or -1 with errno (EINVAL: another user's process, a zombie, no
 * such pid). */
int st_dw_args_read(st_dw_args *a, int32_t pid, size_t *n);
/* argv of the area p[0..n) joined by spaces into buf (truncated to len-1):
 * 0, or -1 when no byte of argv was found (malformed). */
int st_dw_args_join(const char *p, size_t n, char *buf, size_t len);
/* Read pid's area and join its argv (the backend's command): 0 or -1. */
int st_dw_args_command(st_dw_args *a, int32_t pid, char *buf, size_t len);
/* The value of name in pid's environment as its area holds it, truncated
 * to len-1 (buf "" when not set): ST_OK; ST_EPERM when it may not be read
 * (another user's process, a zombie, or the environment left out of the
 * area); ST_EIO when the area was cut or is malformed.  The caller checks
 * the identity after it. */
int st_dw_args_environ(st_dw_args *a, int32_t pid, const char *name, char *buf, size_t len,
                       st_error *err);

/* The MPS cap's machine numbers (darwin_mps.c).  How long the Metal probe
 * may take: a first MTLCreateSystemDefaultDevice loads the framework. */
#define ST_DW_MPS_TIMEOUT_MS 3000
/* recommendedMaxWorkingSetSize from a child that loads Metal, waited for
 * timeout_ms at most (then killed and reaped): out->has_recommended, or
 * out->why. */
void st_dw_mps_recommended(st_mps_device *out, int timeout_ms);
/* iogpu.wired_limit_mb in bytes when set (0, the default, or absent: not). */
void st_dw_mps_wired(st_mps_device *out);
/* Both, for the table's mps_device. */
void st_dw_mps_device(st_mps_device *out);

/* A process's Metal and compressed memory (darwin_vm.c): TASK_VM_INFO
 * through task_name_for_pid. */
enum st_dw_vm_status {
    ST_DW_VM_READ,    /* read: compressed, and metal when has_metal */
    ST_DW_VM_NO_PORT, /* task_name_for_pid refused (or the process is a zombie or gone) */
    ST_DW_VM_NO_INFO  /* the port was given but task_info failed (the task ended) */
};
typedef struct st_dw_vm_reading {
    int status;          /* enum st_dw_vm_status */
    int has_metal;       /* the answer has rev3's ledgers */
    uint64_t metal;      /* ledger_tag_graphics_footprint + _compressed, bytes */
    uint64_t compressed; /* task_vm_info.compressed, bytes */
} st_dw_vm_reading;
/* What the backend keeps: off once a member's port was refused, and the
 * note that says so ("" until then). */
typedef struct st_dw_vm {
    int off;
    char note[160];
} st_dw_vm;
/* Read pid (before the caller's identity check); nothing once off. */
void st_dw_vm_read(const st_dw_vm *v, int32_t pid, st_dw_vm_reading *r);
/* Put reading r of pid into *out (ST_PM_METAL, ST_PM_COMPRESSED), for a
 * live member whose identity was checked after the read (exiting: its
 * kinfo_proc has P_WEXIT); a refused port of a member not exiting turns the
 * lanes off and leaves the note. */
void st_dw_vm_fill(st_dw_vm *v, int32_t pid, int exiting, const st_dw_vm_reading *r,
                   st_proc_mem *out);
/* The note ("" when there is nothing to say). */
const char *st_dw_vm_note(const st_dw_vm *v);

#endif
