/* fake_metal.c: Metal, the Objective-C runtime and iogpu.wired_limit_mb as
 * core/platform/darwin_mps.c meets them, answered from the test's knobs
 * (fake_metal.h).  No Apple source: Apple's Metal documentation,
 * unverified until a Mac confirms it (see fake_metal.h for each answer). */
#include "fake_metal.h"
#include "fake_iokit.h" /* what is not Metal's goes to the fake IOKit */

#include <dlfcn.h> /* the shim's: declares the fake_metal_dl* it maps onto */

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static fake_metal_knobs K;
static int the_device; /* the MTLDevice's identity */
static const char *const selectors[] = {"recommendedMaxWorkingSetSize"};
static char h_metal, h_objc;

void fake_metal_reset(void)
{
    memset(&K, 0, sizeof K);
    K.recommended = 40200896512ull; /* 37.44 GiB */
    K.wired_ok = 1;
}

fake_metal_knobs *fake_metal_knobs_get(void)
{
    return &K;
}

/* MTLCreateSystemDefaultDevice: the device, or nil (no GPU access). */
static void *fake_create(void)
{
    if (K.hang)
        for (;;)
            pause();
    if (K.crash)
        raise(SIGSEGV);
    return K.no_device ? NULL : &the_device;
}

/* sel_registerName: one pointer per name (interned). */
static void *fake_sel(const char *name)
{
    for (size_t i = 0; i < sizeof selectors / sizeof selectors[0]; i++)
        if (!strcmp(name, selectors[i]))
            return (void *)&selectors[i];
    return NULL;
}

/* objc_msgSend(self, sel) for a uint64_t property of the device. */
static uint64_t fake_msg(void *self, void *sel)
{
    if (self == &the_device && sel == (void *)&selectors[0])
        return K.recommended;
    return 0;
}

void *fake_metal_dlopen(const char *path, int mode)
{
    (void)mode;
    if (!strcmp(path, "/System/Library/Frameworks/Metal.framework/Metal"))
        return K.metal_missing ? NULL : &h_metal;
    if (!strcmp(path, "/usr/lib/libobjc.A.dylib"))
        return K.objc_missing ? NULL : &h_objc;
    return fake_iokit_dlopen(path, mode);
}

void *fake_metal_dlsym(void *handle, const char *name)
{
    void *p = NULL;
    void *(*c)(void) = fake_create;
    void *(*s)(const char *) = fake_sel;
    uint64_t (*m)(void *, void *) = fake_msg;
    if (handle == &h_metal && !strcmp(name, "MTLCreateSystemDefaultDevice"))
        memcpy(&p, &c, sizeof p);
    else if (handle == &h_objc && !strcmp(name, "sel_registerName"))
        memcpy(&p, &s, sizeof p);
    else if (handle == &h_objc && !strcmp(name, "objc_msgSend"))
        memcpy(&p, &m, sizeof p);
    else if (handle != &h_metal && handle != &h_objc)
        p = fake_iokit_dlsym(handle, name);
    return p;
}

int fake_metal_dlclose(void *handle)
{
    if (handle != &h_metal && handle != &h_objc)
        return fake_iokit_dlclose(handle);
    return 0;
}

int fake_metal_sysctlbyname(const char *name, void *oldp, size_t *oldlenp, int *rc)
{
    if (strcmp(name, "iogpu.wired_limit_mb") != 0)
        return 0;
    if (!K.wired_ok) {
        errno = ENOENT;
        *rc = -1;
    } else if (!oldp) {
        *oldlenp = sizeof K.wired_mb, *rc = 0;
    } else if (*oldlenp < sizeof K.wired_mb) {
        errno = ENOMEM;
        *rc = -1;
    } else {
        memcpy(oldp, &K.wired_mb, sizeof K.wired_mb);
        *oldlenp = sizeof K.wired_mb;
        *rc = 0;
    }
    return 1;
}
