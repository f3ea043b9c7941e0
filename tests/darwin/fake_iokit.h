/* fake_iokit.h: the knobs of tests/darwin/fake_iokit.c, the fake IOKit
 * and CoreFoundation that core/platform/darwin_gpu.c meets on Linux.
 *
 * The calls keep the signatures of Apple's headers (IOKitUser-100222.0.4
 * IOKitLib.h, CF-1153.18; the typedefs of core/platform/darwin_internal.h)
 * and what those headers say of them: IOServiceMatching makes a dictionary
 * that IOServiceGetMatchingServices consumes (IOKitLib.h:1322-1330,
 * :434-445), whose iterator is NULL when nothing matched; IOIteratorNext
 * gives 0 at the end (:386-393); every object returned is released by the
 * caller with IOObjectRelease (:260-268), every property created with
 * IORegistryEntryCreateCFProperty with CFRelease (:1177-1191);
 * CFDictionaryGetValue returns NULL for a missing key (CFDictionary.h:
 * 525-532); CFNumberGetValue is false when the conversion is lossy
 * (CFNumber.h:115-123).  The IOAccelerator class and its
 * PerformanceStatistics keys have no Apple source or documentation: the
 * default services' numbers are an `ioreg` capture of an Apple Silicon Mac
 * ("In use system memory"=1200357376, "Alloc system memory"=4272832512),
 * unverified until a Mac confirms them. */
#ifndef STAGETOP_FAKE_IOKIT_H
#define STAGETOP_FAKE_IOKIT_H

#include <stddef.h>
#include <stdint.h>

#define FAKE_IOKIT_MAX 10

typedef struct fake_iokit_service {
    int has_stats;        /* it has a PerformanceStatistics property */
    int stats_not_dict;   /* ... which is not a dictionary (a number) */
    int has_in_use;       /* the dictionary holds "In use system memory" */
    int in_use_not_number;/* ... as a string */
    int64_t in_use;       /* its value, bytes */
    int64_t alloc;        /* "Alloc system memory" beside it (never the lane) */
} fake_iokit_service;

typedef struct fake_iokit_knobs {
    int iokit_missing, cf_missing;     /* dlopen of the framework fails */
    const char *missing_symbol;        /* dlsym of this name fails */
    int matching_fails;                /* IOServiceGetMatchingServices gives kIOReturnError */
    size_t n_services;                 /* IOAccelerator services in the registry */
    fake_iokit_service services[FAKE_IOKIT_MAX];
    /* what the code did */
    unsigned iokit_dlopens, cf_dlopens, matchings, properties;
    int objects_held;                  /* io objects given out less those released */
    int cf_held;                       /* CF objects created less those released */
    int closed;                        /* dlclose calls */
    int bad_release;                   /* a release of something not held */
    int misuse;                        /* a CF call on an object of another type (a
                                          crash on a Mac: CF checks no types) */
} fake_iokit_knobs;

/* Defaults: both libraries load, one accelerator (the capture above). */
void fake_iokit_reset(void);
fake_iokit_knobs *fake_iokit_knobs_get(void);

/* The fake's part of tests/darwin/shim/dlfcn.h (fake_metal.c hands over
 * what is not Metal's): NULL / -1 when path or handle is not IOKit's or
 * CoreFoundation's. */
void *fake_iokit_dlopen(const char *path, int mode);
void *fake_iokit_dlsym(void *handle, const char *name);
int fake_iokit_dlclose(void *handle);

#endif
