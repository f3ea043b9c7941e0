/* darwin_gpu.c: the system's GPU memory on a Mac, the gpu_system lane
 * (docs/metrics.md, "The system's GPU memory").
 *
 * The number: each IOAccelerator service of the IORegistry (the GPU
 * driver's, AGXAccelerator on Apple Silicon) has a PerformanceStatistics
 * dictionary whose "In use system memory" is the system memory the GPU
 * uses, in bytes; "Alloc system memory" beside it is what the driver has
 * allocated (nvtop shows that one as the GPU's used memory:
 * src/extract_gpuinfo_apple.m line 146 in Syllo/nvtop at 3d4a953; Scalene
 * reads "In use system memory" from `ioreg -r -d 1 -w 0 -c IOAccelerator`,
 * scalene/scalene_apple_gpu.py lines 14 and 17 in plasma-umass/scalene at
 * 12036f0).  Apple documents neither key and publishes no source for the
 * driver: unverified until a Mac confirms it (docs/macos.md's first-run
 * check against `ioreg -r -c IOAccelerator`).  The lane is the sum over the
 * services that have the key.
 *
 * The calls, as IOKitLib.h declares them (IOKitUser-100222.0.4): the
 * services of a class through IOServiceMatching (:1329; one reference of
 * the dictionary is consumed by) IOServiceGetMatchingServices (:443; a
 * NULL iterator: the match succeeded and found none), walked with
 * IOIteratorNext (:392; each one released by the caller with
 * IOObjectRelease, :267); a property, created in the caller's task, with
 * IORegistryEntryCreateCFProperty (:1187; released with CFRelease).
 * kIOMainPortDefault is MACH_PORT_NULL (:107-112: "the NULL argument
 * indicates use the default"), kCFAllocatorDefault NULL (CF-1153.18
 * CFBase.h:464-466).  The dictionary's value is read with
 * CFDictionaryGetValue (CFDictionary.h:532, not owned) and
 * CFNumberGetValue as kCFNumberSInt64Type (CFNumber.h:123, false when
 * lossy), each object's type checked first (CFGetTypeID, CFBase.h:577).
 *
 * IOKit and CoreFoundation are loaded at run time (dlopen, as NVML and
 * Metal are: no framework at link time) on the first reading, and the
 * accelerators found then are kept for the run (a Mac's GPU does not come
 * and go).  A library, an entry point or the class that is not there
 * turns the lane off for the run, said once (the backend's lanes_note).
 *
 * On Linux this file is compiled only by the unit tests, against the shim
 * in tests/darwin/shim and the fake IOKit of tests/darwin/fake_iokit.c. */
#include "darwin_internal.h"
#include "stagetop/sample.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define NO_LANE ": no gpu_system lane"

/* dlsym into a function pointer of type *slot (ISO C has no cast from
 * void * to a function pointer: copied, as darwin_mps.c does). */
static int sym(void *lib, const char *name, void *slot, size_t size)
{
    void *p = lib ? dlsym(lib, name) : NULL;
    if (!p)
        return 0;
    memcpy(slot, &p, size);
    return 1;
}
#define SYM(lib, name, slot) sym(lib, name, &(slot), sizeof(slot))

static void off(st_dw_gpu *g, const char *why, const char *what)
{
    g->state = -1;
    snprintf(g->note, sizeof g->note, "%s%s" NO_LANE, why, what ? what : "");
}

/* Load the libraries, make the two keys, find the accelerators. */
static void gpu_open(st_dw_gpu *g)
{
    st_io_service_matching_fn matching = NULL;
    st_io_get_matching_services_fn services = NULL;
    st_io_iterator_next_fn next = NULL;
    st_cf_string_create_fn string = NULL;
    st_cf_get_type_id_of_fn dict_type = NULL, number_type = NULL;
    static const char *const names[] = {
        "IOServiceMatching", "IOServiceGetMatchingServices", "IOIteratorNext",
        "IORegistryEntryCreateCFProperty", "IOObjectRelease",
        "CFStringCreateWithCString", "CFDictionaryGetValue", "CFDictionaryGetTypeID",
        "CFNumberGetTypeID", "CFNumberGetValue", "CFGetTypeID", "CFRelease"};
    int got[12];

    g->state = 1;
    g->iokit = dlopen(ST_DW_IOKIT_PATH, RTLD_NOW | RTLD_LOCAL);
    g->cf = g->iokit ? dlopen(ST_DW_CF_PATH, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!g->iokit || !g->cf) {
        off(g, g->iokit ? "CoreFoundation" : "IOKit", " could not be loaded (dlopen)");
        return;
    }
    got[0] = SYM(g->iokit, names[0], matching);
    got[1] = SYM(g->iokit, names[1], services);
    got[2] = SYM(g->iokit, names[2], next);
    got[3] = SYM(g->iokit, names[3], g->create_property);
    got[4] = SYM(g->iokit, names[4], g->object_release);
    got[5] = SYM(g->cf, names[5], string);
    got[6] = SYM(g->cf, names[6], g->dict_get);
    got[7] = SYM(g->cf, names[7], dict_type);
    got[8] = SYM(g->cf, names[8], number_type);
    got[9] = SYM(g->cf, names[9], g->number_get);
    got[10] = SYM(g->cf, names[10], g->type_of);
    got[11] = SYM(g->cf, names[11], g->release);
    for (size_t i = 0; i < sizeof got / sizeof got[0]; i++)
        if (!got[i]) {
            off(g, "no ", names[i]);
            return;
        }
    g->dict_type = dict_type(); /* a type's id does not change in a run */
    g->number_type = number_type();
    g->k_stats = string(NULL, "PerformanceStatistics", ST_CF_STRING_UTF8);
    g->k_in_use = string(NULL, "In use system memory", ST_CF_STRING_UTF8);
    if (!g->k_stats || !g->k_in_use) {
        off(g, "CFStringCreateWithCString failed", NULL);
        return;
    }
    st_io_object it = 0, s;
    st_cf_type match = matching("IOAccelerator");
    if (!match || services(0, match, &it) != 0 || !it) { /* 0: KERN_SUCCESS */
        off(g, "no IOAccelerator service in the IORegistry", NULL);
        if (it)
            g->object_release(it);
        return;
    }
    while ((s = next(it)) != 0) {
        if (g->n_services < ST_DW_GPU_MAX)
            g->services[g->n_services++] = s;
        else
            g->object_release(s);
    }
    g->object_release(it);
    if (!g->n_services)
        off(g, "no IOAccelerator service in the IORegistry", NULL);
}

/* Service s's "In use system memory" into *v: 1 when it has one. */
static int in_use(const st_dw_gpu *g, st_io_object s, uint64_t *v)
{
    st_cf_type stats = g->create_property(s, g->k_stats, NULL, 0);
    int64_t n = -1;
    if (!stats)
        return 0;
    if (g->type_of(stats) == g->dict_type) {
        st_cf_type num = g->dict_get(stats, g->k_in_use);
        if (num && g->type_of(num) == g->number_type &&
            !g->number_get(num, ST_CF_NUMBER_SINT64, &n))
            n = -1;
    }
    g->release(stats);
    if (n < 0)
        return 0;
    *v = (uint64_t)n;
    return 1;
}

void st_dw_gpu_read(st_dw_gpu *g, st_sys_mem *out)
{
    uint64_t sum = 0, v;
    int any = 0;
    if (g->state == 0)
        gpu_open(g);
    if (g->state != 1)
        return;
    for (size_t i = 0; i < g->n_services; i++)
        if (in_use(g, g->services[i], &v)) {
            sum += v;
            any = 1;
        }
    if (any) {
        out->gpu_system = sum;
        out->valid |= ST_SYS_GPU_SYSTEM;
    }
}

void st_dw_gpu_free(st_dw_gpu *g)
{
    for (size_t i = 0; i < g->n_services; i++)
        g->object_release(g->services[i]);
    if (g->release) {
        if (g->k_stats)
            g->release(g->k_stats);
        if (g->k_in_use)
            g->release(g->k_in_use);
    }
    if (g->cf)
        dlclose(g->cf);
    if (g->iokit)
        dlclose(g->iokit);
    memset(g, 0, sizeof *g);
}

const char *st_dw_lanes_note(st_dw_gpu *g, const st_dw_vm *v)
{
    const char *a = st_dw_vm_note(v), *b = g->note;
    snprintf(g->joined, sizeof g->joined, "%s%s%s", a, *a && *b ? "; " : "", b);
    return g->joined;
}
