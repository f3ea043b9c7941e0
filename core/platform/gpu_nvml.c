/* gpu_nvml.c: per-process GPU memory from NVIDIA's NVML (include/stagetop/gpu.h).
 *
 * libnvidia-ml is loaded at run time with dlopen and its few functions are
 * looked up with dlsym through types declared here (no SDK header, no link
 * dependency), as nvtop does.  Versioned entry points are preferred and the
 * older ones are the fallbacks:
 *   nvmlInit_v2 -> nvmlInit, nvmlDeviceGetCount_v2 -> nvmlDeviceGetCount,
 *   nvmlDeviceGetHandleByIndex_v2 -> nvmlDeviceGetHandleByIndex,
 *   nvmlDeviceGet{Compute,Graphics}RunningProcesses_v3 -> _v2 (both take the
 *   24-byte nvmlProcessInfo_v2_t) -> the unversioned symbol, which keeps the
 *   original ABI: the 16-byte {pid, usedGpuMemory} entry (nvmlProcessInfo_v1_t).
 *
 * The entry-layout hazard: R535-era drivers wrote 32-byte entries through
 * _v3 (an extra usedGpuCcProtectedMemory field) while headers and current
 * drivers use 24 bytes.  Rule implemented here (see docs/gpu.md):
 *   1. the buffer always has room for 32 bytes per entry the driver is told
 *      about, so a 32-byte writer cannot overrun it;
 *   2. before each call every byte is set to SENTINEL (0xA5);
 *   3. after a call returning n entries, `end` = 1 + offset of the last byte
 *      that is not SENTINEL; the stride is the nominal entry size when
 *      end <= nominal * n, else 32 when end <= 32 * n (24-byte versions
 *      only), else the layout is unknown and the read fails (ST_EIO).
 *   A 24-byte writer never touches bytes at or past 24n; a 32-byte writer
 *   always writes entry n-1's last 8 bytes (usedGpuCcProtectedMemory, and
 *   for n > 1 parts of earlier entries) at or past 24n, and those would
 *   have to equal 0xA5A5A5A5A5A5A5A5 (~11.9 EB) to be missed.
 *   pid is at offset 0 and usedGpuMemory at offset 8 in all three layouts. */
#include "stagetop/gpu.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVML's types, declared locally. */
typedef int nvml_ret;
typedef struct nvml_device_s *nvml_dev;
typedef struct nvml_memory {
    unsigned long long total, free, used; /* nvmlMemory_t (v1), bytes */
} nvml_memory;

typedef nvml_ret (*nvml_void_fn)(void);
typedef nvml_ret (*nvml_count_fn)(unsigned *count);
typedef nvml_ret (*nvml_handle_fn)(unsigned index, nvml_dev *dev);
typedef nvml_ret (*nvml_name_fn)(nvml_dev dev, char *name, unsigned len);
typedef nvml_ret (*nvml_mem_fn)(nvml_dev dev, nvml_memory *mem);
typedef nvml_ret (*nvml_procs_fn)(nvml_dev dev, unsigned *count, void *infos);
typedef const char *(*nvml_errstr_fn)(nvml_ret r);
typedef nvml_ret (*nvml_version_fn)(char *version, unsigned len);

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_INSUFFICIENT_SIZE = 7
};

#define GPU_ENTRY_MAX 32u     /* the widest entry a driver has been seen to write */
#define GPU_SENTINEL 0xA5u    /* fill byte for stride detection */
#define GPU_HEADROOM 8u       /* extra entries allocated beyond what NVML asked for */
#define GPU_TRIES 4           /* calls per list before giving up on a growing list */
#define GPU_NAME_LEN 64u

enum { LIST_COMPUTE = 0, LIST_GRAPHICS = 1, LIST_N = 2 };
static const char *const list_name[LIST_N] = {"compute processes", "graphics processes"};

struct st_gpu {
    void *dl;
    char lib[128];                  /* what was loaded, for messages */
    char version[80];               /* driver version, "" when unknown */
    nvml_void_fn shutdown;
    nvml_mem_fn get_memory;
    nvml_errstr_fn error_string;    /* may be NULL */
    nvml_procs_fn procs[LIST_N];    /* graphics may be NULL */
    size_t nominal[LIST_N];         /* 16 (unversioned) or 24 (_v2, _v3) */
    size_t ndev;
    nvml_dev *handles;
    st_gpu_device *devs;
    unsigned char *buf;             /* process entries, cap * GPU_ENTRY_MAX bytes */
    size_t cap;                     /* entries the driver may be told about */
    uint64_t *best;                 /* per pid, bytes on the device being read */
    size_t best_cap;
};

/* dlsym into a function pointer without a void* -> function cast. */
static int load_sym(void *dl, const char *name, void *fnptr, size_t size)
{
    void *p = dlsym(dl, name);
    if (!p || size != sizeof p)
        return 0;
    memcpy(fnptr, &p, sizeof p);
    return 1;
}
#define LOAD(dl, name, fp) load_sym((dl), (name), &(fp), sizeof(fp))

static const char *nvml_strerror(const st_gpu *g, nvml_ret r)
{
    const char *s = g->error_string ? g->error_string(r) : NULL;
    if (s)
        return s;
    switch (r) {
    case 1: return "NVML not initialized";
    case 2: return "invalid argument";
    case NVML_ERROR_NOT_SUPPORTED: return "not supported";
    case NVML_ERROR_NO_PERMISSION: return "insufficient permissions";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "insufficient size";
    case 9: return "driver not loaded";
    case 15: return "GPU is lost";
    default: return "unknown NVML error";
    }
}

static void gpu_free(st_gpu *g)
{
    free(g->handles);
    free(g->devs);
    free(g->buf);
    free(g->best);
    free(g);
}

/* Fail an open: shut NVML down if it was started, unload, free. */
static int open_fail(st_gpu *g, int inited, st_error *err, int code, const char *msg)
{
    st_error_set(err, code, 0, "%s", msg);
    if (inited && g->shutdown)
        g->shutdown();
    if (g->dl)
        dlclose(g->dl);
    gpu_free(g);
    return code;
}

/* Pick the process-list entry points of one kind (compute or graphics). */
static void load_procs(st_gpu *g, int k)
{
    static const char *const base[LIST_N] = {"nvmlDeviceGetComputeRunningProcesses",
                                             "nvmlDeviceGetGraphicsRunningProcesses"};
    static const char *const suffix[] = {"_v3", "_v2", ""};
    static const size_t nominal[] = {24, 24, 16};
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        char name[80];
        strcpy(name, base[k]);
        strcat(name, suffix[i]);
        if (LOAD(g->dl, name, g->procs[k])) {
            g->nominal[k] = nominal[i];
            return;
        }
    }
    g->procs[k] = NULL;
}

static int dlopen_lib(st_gpu *g, const char *lib, st_error *err)
{
    static const char *const defaults[] = {"libnvidia-ml.so.1", "libnvidia-ml.so"};
    char msg[256];
    if (lib) {
        g->dl = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        snprintf(g->lib, sizeof g->lib, "%s", lib);
    } else {
        for (size_t i = 0; i < 2 && !g->dl; i++) {
            g->dl = dlopen(defaults[i], RTLD_NOW | RTLD_LOCAL);
            snprintf(g->lib, sizeof g->lib, "%s", defaults[i]);
        }
        if (!g->dl)
            snprintf(g->lib, sizeof g->lib, "%s", defaults[0]);
    }
    if (g->dl)
        return ST_OK;
    snprintf(msg, sizeof msg, "NVML not found (%s): no GPU lane", g->lib);
    return open_fail(g, 0, err, ST_ENOTSUP, msg);
}

int st_gpu_open(st_gpu **out, const char *lib, st_error *err)
{
    nvml_void_fn init = NULL;
    nvml_count_fn get_count = NULL;
    nvml_handle_fn get_handle = NULL;
    nvml_name_fn get_name = NULL;
    char msg[256];
    unsigned count = 0;
    nvml_ret r;
    st_gpu *g;

    if (!out)
        return st_error_set(err, ST_EINVAL, 0, "st_gpu_open: out is NULL");
    *out = NULL;
    g = calloc(1, sizeof *g);
    if (!g)
        return st_error_set(err, ST_ENOMEM, 0, "NVML: out of memory");
    if (dlopen_lib(g, lib, err) != ST_OK)
        return ST_ENOTSUP; /* g freed, err filled */

    if (!LOAD(g->dl, "nvmlInit_v2", init))
        LOAD(g->dl, "nvmlInit", init);
    if (!LOAD(g->dl, "nvmlDeviceGetCount_v2", get_count))
        LOAD(g->dl, "nvmlDeviceGetCount", get_count);
    if (!LOAD(g->dl, "nvmlDeviceGetHandleByIndex_v2", get_handle))
        LOAD(g->dl, "nvmlDeviceGetHandleByIndex", get_handle);
    LOAD(g->dl, "nvmlShutdown", g->shutdown);
    LOAD(g->dl, "nvmlDeviceGetMemoryInfo", g->get_memory);
    LOAD(g->dl, "nvmlDeviceGetName", get_name);
    LOAD(g->dl, "nvmlErrorString", g->error_string);
    load_procs(g, LIST_COMPUTE);
    load_procs(g, LIST_GRAPHICS);
    {
        const char *missing = !init ? "nvmlInit" : !get_count ? "nvmlDeviceGetCount"
                            : !get_handle ? "nvmlDeviceGetHandleByIndex"
                            : !g->shutdown ? "nvmlShutdown"
                            : !g->get_memory ? "nvmlDeviceGetMemoryInfo"
                            : !g->procs[LIST_COMPUTE] ? "nvmlDeviceGetComputeRunningProcesses"
                            : NULL;
        if (missing) {
            snprintf(msg, sizeof msg, "NVML (%s) lacks %s: no GPU lane", g->lib, missing);
            return open_fail(g, 0, err, ST_ENOTSUP, msg);
        }
    }

    r = init();
    if (r == NVML_SUCCESS) {
        nvml_version_fn get_version = NULL; /* optional: for `stagetop doctor` */
        if (LOAD(g->dl, "nvmlSystemGetDriverVersion", get_version) &&
            get_version(g->version, sizeof g->version) != NVML_SUCCESS)
            g->version[0] = '\0';
        g->version[sizeof g->version - 1] = '\0';
    }
    if (r != NVML_SUCCESS) {
        snprintf(msg, sizeof msg, "NVML init failed: %s (%d): no GPU lane",
                 nvml_strerror(g, r), r);
        return open_fail(g, 0, err, ST_ENOTSUP, msg);
    }
    r = get_count(&count);
    if (r != NVML_SUCCESS) {
        snprintf(msg, sizeof msg, "NVML: cannot count GPUs: %s (%d): no GPU lane",
                 nvml_strerror(g, r), r);
        return open_fail(g, 1, err, ST_ENOTSUP, msg);
    }
    if (count == 0)
        return open_fail(g, 1, err, ST_ENOTSUP, "NVML: no NVIDIA GPU");
    if (count > 1024) {
        snprintf(msg, sizeof msg, "NVML: implausible GPU count %u: no GPU lane", count);
        return open_fail(g, 1, err, ST_ENOTSUP, msg);
    }
    g->handles = calloc(count, sizeof *g->handles);
    g->devs = calloc(count, sizeof *g->devs);
    if (!g->handles || !g->devs)
        return open_fail(g, 1, err, ST_ENOMEM, "NVML: out of memory");

    /* A device NVML will not hand out (no permission, lost) is left out. */
    nvml_ret first_bad = NVML_SUCCESS;
    for (unsigned i = 0; i < count; i++) {
        nvml_dev h = NULL;
        r = get_handle(i, &h);
        if (r != NVML_SUCCESS) {
            if (first_bad == NVML_SUCCESS)
                first_bad = r;
            continue;
        }
        st_gpu_device *d = &g->devs[g->ndev];
        char name[GPU_NAME_LEN + 16] = "";
        if (!get_name || get_name(h, name, sizeof name) != NVML_SUCCESS || !name[0])
            snprintf(name, sizeof name, "GPU %u", i);
        name[sizeof d->name - 1] = '\0';
        memcpy(d->name, name, sizeof d->name);
        g->handles[g->ndev++] = h;
    }
    if (g->ndev == 0) {
        snprintf(msg, sizeof msg, "NVML: no accessible NVIDIA GPU: %s (%d): no GPU lane",
                 nvml_strerror(g, first_bad), first_bad);
        return open_fail(g, 1, err, ST_ENOTSUP, msg);
    }
    *out = g;
    return ST_OK;
}

void st_gpu_close(st_gpu *g)
{
    if (!g)
        return;
    if (g->shutdown)
        g->shutdown();
    if (g->dl)
        dlclose(g->dl);
    gpu_free(g);
}

/* Make room for at least want entries (keeps the buffer between reads). */
static int grow_buf(st_gpu *g, size_t want)
{
    if (want <= g->cap)
        return 1;
    if (want > (size_t)1 << 20)
        return 0;
    unsigned char *nb = realloc(g->buf, want * GPU_ENTRY_MAX);
    if (!nb)
        return 0;
    g->buf = nb;
    g->cap = want;
    return 1;
}

/* 1 + offset of the last byte that differs from the sentinel, 0 if none. */
static size_t written_end(const unsigned char *b, size_t len)
{
    while (len > 0 && b[len - 1] == GPU_SENTINEL)
        len--;
    return len;
}

/* One process list of one device into g->buf.  ST_OK with *n entries of
 * *stride bytes; ST_ENOTSUP when the driver does not support this list;
 * else an error status with err filled. */
static int read_list(st_gpu *g, size_t di, int k, size_t *n, size_t *stride, st_error *err)
{
    nvml_procs_fn fn = g->procs[k];
    nvml_dev dev = g->handles[di];
    unsigned cnt = 0;
    nvml_ret r = NVML_ERROR_INSUFFICIENT_SIZE;

    *n = 0;
    *stride = g->nominal[k];
    if (g->cap == 0) { /* size the array: count 0 asks NVML how many there are */
        r = fn(dev, &cnt, NULL);
        if (r == NVML_SUCCESS && cnt == 0)
            return ST_OK;
        if (r != NVML_SUCCESS && r != NVML_ERROR_INSUFFICIENT_SIZE)
            goto fail;
        if (!grow_buf(g, (size_t)cnt + GPU_HEADROOM))
            return st_error_set(err, ST_ENOMEM, 0, "NVML: no memory for %u process entries", cnt);
    }
    for (int attempt = 0; attempt < GPU_TRIES; attempt++) {
        memset(g->buf, GPU_SENTINEL, g->cap * GPU_ENTRY_MAX);
        cnt = (unsigned)g->cap;
        r = fn(dev, &cnt, g->buf);
        if (r != NVML_ERROR_INSUFFICIENT_SIZE)
            break;
        /* the list grew between calls: room for what NVML now says, and more */
        size_t want = ((size_t)cnt > g->cap ? (size_t)cnt : g->cap) + GPU_HEADROOM;
        if (!grow_buf(g, want))
            return st_error_set(err, ST_ENOMEM, 0, "NVML: no memory for %zu process entries", want);
    }
    if (r == NVML_ERROR_INSUFFICIENT_SIZE)
        return st_error_set(err, ST_EAGAIN, 0,
                            "NVML: %s on GPU %zu (%s): list kept growing (%d calls)",
                            list_name[k], di, g->devs[di].name, GPU_TRIES);
    if (r != NVML_SUCCESS)
        goto fail;
    if (cnt > g->cap)
        return st_error_set(err, ST_EIO, 0, "NVML: %s on GPU %zu: %u entries for room of %zu",
                            list_name[k], di, cnt, g->cap);
    if (cnt > 0) {
        size_t end = written_end(g->buf, g->cap * GPU_ENTRY_MAX);
        if (end <= g->nominal[k] * cnt)
            *stride = g->nominal[k];
        else if (g->nominal[k] == 24 && end <= (size_t)GPU_ENTRY_MAX * cnt)
            *stride = GPU_ENTRY_MAX;
        else
            return st_error_set(err, ST_EIO, 0,
                                "NVML: %s on GPU %zu: %zu bytes written for %u entries "
                                "(unknown entry layout)", list_name[k], di, end, cnt);
    }
    *n = cnt;
    return ST_OK;
fail:
    if (r == NVML_ERROR_NOT_SUPPORTED)
        return ST_ENOTSUP;
    return st_error_set(err, r == NVML_ERROR_NO_PERMISSION ? ST_EPERM : ST_EIO, 0,
                        "NVML: %s on GPU %zu (%s): %s (%d)", list_name[k], di,
                        g->devs[di].name, nvml_strerror(g, r), r);
}

static size_t find_pid(const int32_t *pids, size_t n, uint32_t pid)
{
    for (size_t i = 0; i < n; i++)
        if ((uint32_t)pids[i] == pid)
            return i;
    return n;
}

/* Fold g->buf (n entries of stride bytes) into g->best: a pid seen twice on
 * one device (compute and graphics) is counted once, with its larger value. */
static void fold_entries(st_gpu *g, size_t n, size_t stride, const int32_t *pids, size_t npids)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t pid;
        unsigned long long used;
        memcpy(&pid, g->buf + i * stride, sizeof pid);
        memcpy(&used, g->buf + i * stride + 8, sizeof used);
        if (used == ULLONG_MAX) /* NVML_VALUE_NOT_AVAILABLE */
            continue;
        size_t j = find_pid(pids, npids, pid);
        if (j < npids && used > g->best[j])
            g->best[j] = used;
    }
}

int st_gpu_read(st_gpu *g, const int32_t *pids, size_t n, uint64_t *total,
                uint64_t *per_pid, st_error *err)
{
    size_t lists_read = 0;
    int rc = ST_OK;

    if (total)
        *total = 0;
    if (per_pid && n)
        memset(per_pid, 0, n * sizeof *per_pid);
    if (!g || !total || (n && !pids))
        return st_error_set(err, ST_EINVAL, 0, "st_gpu_read: bad argument");
    if (n > g->best_cap) {
        uint64_t *nb = realloc(g->best, n * sizeof *nb);
        if (!nb)
            return st_error_set(err, ST_ENOMEM, 0, "NVML: out of memory");
        g->best = nb;
        g->best_cap = n;
    }

    for (size_t di = 0; di < g->ndev; di++) {
        st_gpu_device *d = &g->devs[di];
        nvml_memory mem;
        nvml_ret r = g->get_memory(g->handles[di], &mem);
        if (r == NVML_SUCCESS) {
            d->used = mem.used;
            d->total = mem.total;
        } else if (r != NVML_ERROR_NOT_SUPPORTED) {
            rc = st_error_set(err, r == NVML_ERROR_NO_PERMISSION ? ST_EPERM : ST_EIO, 0,
                              "NVML: memory of GPU %zu (%s): %s (%d)", di, d->name,
                              nvml_strerror(g, r), r);
            break;
        }
        if (n == 0)
            continue;
        memset(g->best, 0, n * sizeof *g->best);
        for (int k = 0; k < LIST_N; k++) {
            size_t cnt, stride;
            if (!g->procs[k])
                continue;
            int lr = read_list(g, di, k, &cnt, &stride, err);
            if (lr == ST_ENOTSUP)
                continue;
            if (lr != ST_OK) {
                rc = lr;
                break;
            }
            lists_read++;
            fold_entries(g, cnt, stride, pids, n);
        }
        if (rc != ST_OK)
            break;
        for (size_t j = 0; j < n; j++) {
            *total += g->best[j];
            if (per_pid)
                per_pid[j] += g->best[j];
        }
    }
    if (rc == ST_OK && n > 0 && lists_read == 0)
        rc = st_error_set(err, ST_ENOTSUP, 0,
                          "NVML: per-process GPU memory is not supported on these GPUs");
    if (rc != ST_OK) {
        *total = 0;
        if (per_pid && n)
            memset(per_pid, 0, n * sizeof *per_pid);
    }
    return rc;
}

size_t st_gpu_devices(const st_gpu *g, const st_gpu_device **out)
{
    if (out)
        *out = g ? g->devs : NULL;
    return g ? g->ndev : 0;
}

const char *st_gpu_version(const st_gpu *g)
{
    return g ? g->version : "";
}
