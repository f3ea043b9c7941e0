/* Shim of <dlfcn.h> for the macOS backend's unit tests on Linux: the
 * system's header, with dlopen, dlsym and dlclose answered by the fake
 * Metal of tests/darwin/fake_metal.c (core/platform/darwin_mps.c), which
 * hands IOKit's and CoreFoundation's to tests/darwin/fake_iokit.c
 * (core/platform/darwin_gpu.c): the backend files that load anything. */
#ifndef STAGETOP_SHIM_DLFCN_H
#define STAGETOP_SHIM_DLFCN_H

#include_next <dlfcn.h>

void *fake_metal_dlopen(const char *path, int mode);
void *fake_metal_dlsym(void *handle, const char *name);
int fake_metal_dlclose(void *handle);

#define dlopen fake_metal_dlopen
#define dlsym fake_metal_dlsym
#define dlclose fake_metal_dlclose

#endif
