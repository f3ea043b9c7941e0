/* fake_iokit.c: IOKit's registry and CoreFoundation's few objects as
 * core/platform/darwin_gpu.c meets them, answered from the test's knobs
 * (fake_iokit.h says where each answer comes from).  Every object it gives
 * out is counted until it is released: a leak or a double release shows in
 * the knobs. */
#include "fake_iokit.h"
#include "../../core/platform/darwin_internal.h" /* the typedefs of Apple's signatures */

#include <stdlib.h>
#include <string.h>

/* kIOReturnError: iokit_common_err(0x2bc) (xnu-11417.101.15
 * iokit/IOKit/IOReturn.h:141), sys_iokit 0xe0000000 */
#define FAKE_IO_ERROR ((int)0xe00002bcu)

static fake_iokit_knobs K;
static char h_iokit, h_cf;

enum { T_STRING = 7, T_DICT = 18, T_NUMBER = 22, T_MATCHING = 31 };

/* A CF object: created ones are malloc'd and counted; the numbers inside a
 * service's dictionary belong to the dictionary (the Get rule). */
typedef struct fake_cf {
    int type;
    int owned;      /* created for the caller: CFRelease frees it */
    size_t service; /* T_DICT: whose statistics; T_NUMBER: whose value */
    char str[64];   /* T_STRING, T_MATCHING: the text, the class */
} fake_cf;

static fake_cf in_use_num[FAKE_IOKIT_MAX], in_use_str[FAKE_IOKIT_MAX];

/* io objects: the iterator 100, service i 200 + i; held[] counts each. */
#define IT_HANDLE 100u
#define SVC_BASE 200u
static int held[SVC_BASE + FAKE_IOKIT_MAX];
static size_t it_pos;

void fake_iokit_reset(void)
{
    memset(&K, 0, sizeof K);
    memset(held, 0, sizeof held);
    K.n_services = 1;
    K.services[0].has_stats = 1;
    K.services[0].has_in_use = 1;
    K.services[0].in_use = 1200357376;
    K.services[0].alloc = 4272832512;
}

fake_iokit_knobs *fake_iokit_knobs_get(void)
{
    return &K;
}

static fake_cf *new_cf(int type, const char *str)
{
    fake_cf *o = calloc(1, sizeof *o);
    if (!o)
        abort();
    o->type = type;
    o->owned = 1;
    if (str)
        strncpy(o->str, str, sizeof o->str - 1);
    K.cf_held++;
    return o;
}

/* ---- IOKit (IOKitUser IOKitLib.h) ---- */

/* :1329 CFMutableDictionaryRef IOServiceMatching(const char *name) */
static st_cf_type f_IOServiceMatching(const char *name)
{
    return name ? new_cf(T_MATCHING, name) : NULL;
}

/* :443 kern_return_t IOServiceGetMatchingServices(mach_port_t mainPort,
 * CFDictionaryRef matching CF_RELEASES_ARGUMENT, io_iterator_t *existing) */
static int f_IOServiceGetMatchingServices(uint32_t main_port, st_cf_type matching,
                                          st_io_object *existing)
{
    const fake_cf *m = matching;
    int is_accel = m && m->type == T_MATCHING && strcmp(m->str, "IOAccelerator") == 0;
    K.matchings++;
    if (m && m->owned) { /* consumed, whatever the outcome */
        K.cf_held--;
        free((void *)m);
    }
    *existing = 0;
    if (K.matching_fails || main_port != 0)
        return FAKE_IO_ERROR;
    if (is_accel && K.n_services) {
        *existing = IT_HANDLE;
        held[IT_HANDLE]++;
        K.objects_held++;
        it_pos = 0;
    }
    return 0; /* kIOReturnSuccess; no iterator: nothing matched */
}

/* :392 io_object_t IOIteratorNext(io_iterator_t iterator) */
static st_io_object f_IOIteratorNext(st_io_object iterator)
{
    if (iterator != IT_HANDLE || !held[IT_HANDLE] || it_pos >= K.n_services)
        return 0;
    st_io_object s = SVC_BASE + (st_io_object)it_pos++;
    held[s]++;
    K.objects_held++;
    return s;
}

/* :267 kern_return_t IOObjectRelease(io_object_t object) */
static int f_IOObjectRelease(st_io_object object)
{
    if (object >= sizeof held / sizeof held[0] || held[object] <= 0) {
        K.bad_release++;
        return FAKE_IO_ERROR;
    }
    held[object]--;
    K.objects_held--;
    return 0;
}

/* :1187 CFTypeRef IORegistryEntryCreateCFProperty(io_registry_entry_t
 * entry, CFStringRef key, CFAllocatorRef allocator, IOOptionBits options) */
static st_cf_type f_IORegistryEntryCreateCFProperty(st_io_object entry, st_cf_type key,
                                                    st_cf_type allocator, uint32_t options)
{
    const fake_cf *k = key;
    (void)allocator;
    (void)options;
    K.properties++;
    if (entry < SVC_BASE || entry >= SVC_BASE + K.n_services || !held[entry] || !k ||
        k->type != T_STRING || strcmp(k->str, "PerformanceStatistics") != 0)
        return NULL;
    const fake_iokit_service *sv = &K.services[entry - SVC_BASE];
    if (!sv->has_stats)
        return NULL;
    fake_cf *d = new_cf(sv->stats_not_dict ? T_NUMBER : T_DICT, NULL);
    d->service = entry - SVC_BASE;
    return d;
}

/* ---- CoreFoundation (CF-1153.18) ---- */

/* CFString.h:195 CFStringRef CFStringCreateWithCString(CFAllocatorRef alloc,
 * const char *cStr, CFStringEncoding encoding) */
static st_cf_type f_CFStringCreateWithCString(st_cf_type alloc, const char *cstr, uint32_t encoding)
{
    (void)alloc;
    if (!cstr || encoding != ST_CF_STRING_UTF8)
        return NULL;
    return new_cf(T_STRING, cstr);
}

/* CFDictionary.h:532 const void *CFDictionaryGetValue(CFDictionaryRef
 * theDict, const void *key) */
static const void *f_CFDictionaryGetValue(st_cf_type dict, const void *key)
{
    const fake_cf *d = dict, *k = key;
    if (!d || d->type != T_DICT || !k || k->type != T_STRING) {
        K.misuse++;
        return NULL;
    }
    const fake_iokit_service *sv = &K.services[d->service];
    if (strcmp(k->str, "In use system memory") != 0 || !sv->has_in_use)
        return NULL; /* "Alloc system memory" is there too, but never asked for */
    fake_cf *v = sv->in_use_not_number ? &in_use_str[d->service] : &in_use_num[d->service];
    v->type = sv->in_use_not_number ? T_STRING : T_NUMBER;
    v->service = d->service;
    return v;
}

/* CFDictionary.h:217, CFNumber.h:82 CFTypeID ...GetTypeID(void) */
static st_cf_type_id f_CFDictionaryGetTypeID(void) { return T_DICT; }
static st_cf_type_id f_CFNumberGetTypeID(void) { return T_NUMBER; }

/* CFBase.h:577 CFTypeID CFGetTypeID(CFTypeRef cf) */
static st_cf_type_id f_CFGetTypeID(st_cf_type cf)
{
    return cf ? (st_cf_type_id)((const fake_cf *)cf)->type : 0;
}

/* CFNumber.h:123 Boolean CFNumberGetValue(CFNumberRef number, CFNumberType
 * theType, void *valuePtr) */
static unsigned char f_CFNumberGetValue(st_cf_type number, st_cf_index type, void *value)
{
    const fake_cf *n = number;
    if (!n || n->type != T_NUMBER) {
        K.misuse++;
        return 0;
    }
    if (type != ST_CF_NUMBER_SINT64)
        return 0;
    int64_t v = n->owned ? 0 : K.services[n->service].in_use;
    memcpy(value, &v, sizeof v);
    return 1;
}

/* CFBase.h:586 void CFRelease(CFTypeRef cf) */
static void f_CFRelease(st_cf_type cf)
{
    const fake_cf *o = cf;
    if (!o || !o->owned) {
        K.bad_release++;
        return;
    }
    K.cf_held--;
    free((void *)o);
}

void *fake_iokit_dlopen(const char *path, int mode)
{
    (void)mode;
    if (!strcmp(path, ST_DW_IOKIT_PATH)) {
        K.iokit_dlopens++;
        return K.iokit_missing ? NULL : &h_iokit;
    }
    if (!strcmp(path, ST_DW_CF_PATH)) {
        K.cf_dlopens++;
        return K.cf_missing ? NULL : &h_cf;
    }
    return NULL;
}

#define GIVE(fn, type) do { type f_ = fn; memcpy(&p, &f_, sizeof p); } while (0)

void *fake_iokit_dlsym(void *handle, const char *name)
{
    void *p = NULL;
    if (K.missing_symbol && !strcmp(name, K.missing_symbol))
        return NULL;
    if (handle == &h_iokit) {
        if (!strcmp(name, "IOServiceMatching"))
            GIVE(f_IOServiceMatching, st_io_service_matching_fn);
        else if (!strcmp(name, "IOServiceGetMatchingServices"))
            GIVE(f_IOServiceGetMatchingServices, st_io_get_matching_services_fn);
        else if (!strcmp(name, "IOIteratorNext"))
            GIVE(f_IOIteratorNext, st_io_iterator_next_fn);
        else if (!strcmp(name, "IORegistryEntryCreateCFProperty"))
            GIVE(f_IORegistryEntryCreateCFProperty, st_io_create_cf_property_fn);
        else if (!strcmp(name, "IOObjectRelease"))
            GIVE(f_IOObjectRelease, st_io_object_release_fn);
    } else if (handle == &h_cf) {
        if (!strcmp(name, "CFStringCreateWithCString"))
            GIVE(f_CFStringCreateWithCString, st_cf_string_create_fn);
        else if (!strcmp(name, "CFDictionaryGetValue"))
            GIVE(f_CFDictionaryGetValue, st_cf_dictionary_get_value_fn);
        else if (!strcmp(name, "CFDictionaryGetTypeID"))
            GIVE(f_CFDictionaryGetTypeID, st_cf_get_type_id_of_fn);
        else if (!strcmp(name, "CFNumberGetTypeID"))
            GIVE(f_CFNumberGetTypeID, st_cf_get_type_id_of_fn);
        else if (!strcmp(name, "CFNumberGetValue"))
            GIVE(f_CFNumberGetValue, st_cf_number_get_value_fn);
        else if (!strcmp(name, "CFGetTypeID"))
            GIVE(f_CFGetTypeID, st_cf_get_type_id_fn);
        else if (!strcmp(name, "CFRelease"))
            GIVE(f_CFRelease, st_cf_release_fn);
    }
    return p;
}

int fake_iokit_dlclose(void *handle)
{
    if (handle != &h_iokit && handle != &h_cf)
        return -1;
    K.closed++;
    return 0;
}
