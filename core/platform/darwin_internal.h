/* darwin_internal.h: internal to the macOS backend (platform_darwin.c,
 * darwin_sys.c, darwin_args.c, darwin_mps.c, darwin_vm.c and darwin_gpu.c); not a
 * public contract. */
#ifndef STAGETOP_DARWIN_INTERNAL_H
#define STAGETOP_DARWIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/platform.h"

/* The system's GPU memory (darwin_gpu.c): IOKit and CoreFoundation loaded
 * at run time, never linked.  Their types and the calls used, as Apple's
 * headers declare them (IOKitUser-100222.0.4 IOKitLib.h; xnu-11417.101.15
 * iokit/IOKit/IOTypes.h:207 and :216-218, io_object_t a mach_port_t in
 * user space; CF-1153.18 CFBase.h:386-389 and :393, CFNumber.h:49-54): kept
 * here, so that the fake of tests/darwin/fake_iokit.c is checked against
 * the same signatures. */
typedef uint32_t st_io_object;       /* io_object_t, io_iterator_t, io_service_t */
typedef const void *st_cf_type;      /* CFTypeRef, CFStringRef, CFDictionaryRef, ... */
typedef unsigned long st_cf_type_id; /* CFTypeID (not __LLP64__) */
typedef long st_cf_index;            /* CFIndex: CFNumberType's type */
#define ST_CF_NUMBER_SINT64 4        /* kCFNumberSInt64Type (CFNumber.h:54) */
#define ST_CF_STRING_UTF8 0x08000100u /* kCFStringEncodingUTF8 (CFString.h:129) */
/* IOKitLib.h:1329, :443, :392, :1187, :267 */
typedef st_cf_type (*st_io_service_matching_fn)(const char *name);
typedef int (*st_io_get_matching_services_fn)(uint32_t main_port, st_cf_type matching,
                                              st_io_object *existing);
typedef st_io_object (*st_io_iterator_next_fn)(st_io_object iterator);
typedef st_cf_type (*st_io_create_cf_property_fn)(st_io_object entry, st_cf_type key,
                                                  st_cf_type allocator, uint32_t options);
typedef int (*st_io_object_release_fn)(st_io_object object);
/* CFString.h:195; CFDictionary.h:532, :217; CFNumber.h:123, :82;
 * CFBase.h:577, :586 */
typedef st_cf_type (*st_cf_string_create_fn)(st_cf_type alloc, const char *cstr, uint32_t encoding);
typedef const void *(*st_cf_dictionary_get_value_fn)(st_cf_type dict, const void *key);
typedef st_cf_type_id (*st_cf_get_type_id_of_fn)(void);
typedef unsigned char (*st_cf_number_get_value_fn)(st_cf_type number, st_cf_index type,
                                                   void *value);
typedef st_cf_type_id (*st_cf_get_type_id_fn)(st_cf_type cf);
typedef void (*st_cf_release_fn)(st_cf_type cf);

#define ST_DW_IOKIT_PATH "/System/Library/Frameworks/IOKit.framework/IOKit"
#define ST_DW_CF_PATH "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
#define ST_DW_GPU_MAX 8 /* accelerators kept (an Apple Silicon Mac has one) */

typedef struct st_dw_gpu {
    int state;           /* 0: not tried yet; 1: ready; -1: off for the run (note says why) */
    void *iokit, *cf;    /* dlopen handles */
    st_io_create_cf_property_fn create_property;
    st_io_object_release_fn object_release;
    st_cf_dictionary_get_value_fn dict_get;
    st_cf_type_id dict_type, number_type; /* CFDictionary's and CFNumber's, read once */
    st_cf_number_get_value_fn number_get;
    st_cf_get_type_id_fn type_of;
    st_cf_release_fn release;
    st_cf_type k_stats, k_in_use; /* "PerformanceStatistics", "In use system memory" */
    st_io_object services[ST_DW_GPU_MAX];
    size_t n_services;
    char note[96];       /* why the lane is off ("" while it is not) */
    char joined[300];    /* the backend's lanes note: darwin_vm.c's and this one */
} st_dw_gpu;

/* Add the system's GPU memory to *out (ST_SYS_GPU_SYSTEM): loads IOKit and
 * finds the accelerators on the first call; nothing once off. */
void st_dw_gpu_read(st_dw_gpu *g, st_sys_mem *out);
/* Give back the accelerators, the strings and the libraries. */
void st_dw_gpu_free(st_dw_gpu *g);

/* What the system reads keep between samples. */
typedef struct st_dw_sys {
    uint64_t mem_total;
    int has_mem_total;
    uint32_t tb_numer, tb_denom; /* mach_timebase_info: ns = abs * numer / denom */
    uint64_t page_size;          /* host_page_size: the compressor counts these; 0: unknown */
    st_dw_gpu gpu;               /* the IOAccelerator reading (darwin_gpu.c) */
} st_dw_sys;

/* Read the time base, the page size and hw.memsize once. */
void st_dw_sys_init(st_dw_sys *s);
/* What st_dw_read_system holds (the GPU reading's). */
void st_dw_sys_free(st_dw_sys *s);
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
/* The backend's lanes_note: v's note and the GPU reading's, joined into
 * g->joined ("" when neither has anything to say). */
const char *st_dw_lanes_note(st_dw_gpu *g, const st_dw_vm *v);

#endif
