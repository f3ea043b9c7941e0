/* fake_metal.h: the knobs of tests/darwin/fake_metal.c, the fake Metal
 * framework, Objective-C runtime and iogpu sysctl that
 * core/platform/darwin_mps.c meets on Linux.
 *
 * No Apple source: Metal and the IOGPU family are closed.  What it answers
 * is from Apple's Metal documentation (MTLCreateSystemDefaultDevice returns
 * the default device or nil; recommendedMaxWorkingSetSize is a uint64_t in
 * bytes), the Objective-C runtime's documented entry points
 * (sel_registerName, objc_msgSend), and public write-ups of
 * `sysctl iogpu.wired_limit_mb` (an int, MiB, 0 the default): unverified
 * until a Mac confirms it. */
#ifndef STAGETOP_FAKE_METAL_H
#define STAGETOP_FAKE_METAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct fake_metal_knobs {
    int metal_missing;     /* dlopen of Metal.framework fails */
    int objc_missing;      /* dlopen of libobjc fails */
    int no_device;         /* MTLCreateSystemDefaultDevice returns nil */
    int hang;              /* MTLCreateSystemDefaultDevice never returns */
    int crash;             /* MTLCreateSystemDefaultDevice kills the process (SIGSEGV) */
    uint64_t recommended;  /* recommendedMaxWorkingSetSize, bytes */
    int wired_ok;          /* 0: iogpu.wired_limit_mb is unknown (ENOENT) */
    int wired_mb;          /* its value */
} fake_metal_knobs;

/* Defaults: both libraries load, one device recommending 37.44 GiB (a
 * 48 GiB Mac, issue 27), iogpu.wired_limit_mb known and 0. */
void fake_metal_reset(void);
fake_metal_knobs *fake_metal_knobs_get(void);
/* For fake_darwin.c's sysctlbyname: 1 and *rc when name is the fake's. */
int fake_metal_sysctlbyname(const char *name, void *oldp, size_t *oldlenp, int *rc);

#endif
