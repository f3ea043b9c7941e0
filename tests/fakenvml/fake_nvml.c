/* fake_nvml.c: a stand-in libnvidia-ml.so.1 for machines without an NVIDIA
 * GPU.  It exports NVML's entry points with NVML's calling conventions and
 * serves a table read from the file named by $FAKE_NVML_SCRIPT when
 * nvmlInit is called (the table is reset on each first init).  Built by
 * mk/gpu.mk in three flavours:
 *   FAKE_API=3 (default) all symbols: _v2 init/count/handle, _v3/_v2/plain
 *              process lists;
 *   FAKE_API=2 no _v3 and no _v2 init/count/handle (older drivers);
 *   FAKE_API=1 only the unversioned symbols (16-byte process entries).
 *
 * Script lines ('#' starts a comment; sizes are bytes, or N with K/M/G):
 *   device USED TOTAL NAME...          a GPU (index = order of the lines)
 *   proc DEV PID BYTES|na c|g          a process on GPU DEV, compute or graphics
 *                                      (na: usedGpuMemory = ULLONG_MAX)
 *   layout 24|32                       entry size written by _v2/_v3 (R535: 32)
 *   driver VERSION                     what nvmlSystemGetDriverVersion says
 *                                      (absent: the symbol answers "not supported")
 *   fail CALL CODE [after K]           CALL (init count handle name memory
 *                                      compute graphics) returns CODE after
 *                                      K successful calls
 *   insufficient N                     the next N process-list calls that pass
 *                                      a buffer say NVML_ERROR_INSUFFICIENT_SIZE
 * $FAKE_NVML_LOG, if set, gets a line per init/shutdown ("init RC"). */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_API
#define FAKE_API 3
#endif

#define EXPORT __attribute__((visibility("default")))
#define MAX_DEV 8
#define MAX_PROC 512

enum call { C_INIT, C_COUNT, C_HANDLE, C_NAME, C_MEMORY, C_COMPUTE, C_GRAPHICS, C_N };
static const char *const call_name[C_N] = {"init", "count", "handle", "name",
                                           "memory", "compute", "graphics"};

struct fdev {
    char name[96];
    unsigned long long used, total;
};
struct fproc {
    int dev;
    unsigned pid;
    unsigned long long bytes;
    int graphics;
};

/* The API has no context argument: the fake's state is file-scope. */
static struct {
    int inited;
    int ndev, nproc;
    struct fdev dev[MAX_DEV];
    struct fproc proc[MAX_PROC];
    int layout;
    char driver[32];
    int fail_code[C_N];
    long fail_after[C_N];
    long calls[C_N];
    long insufficient;
} F;

typedef struct nvmlMemory_st {
    unsigned long long total, free, used;
} nvmlMemory_t;

static void log_line(const char *what, int rc)
{
    const char *path = getenv("FAKE_NVML_LOG");
    if (!path)
        return;
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s %d\n", what, rc);
        fclose(f);
    }
}

static unsigned long long parse_size(const char *s)
{
    char *end;
    if (strcmp(s, "na") == 0)
        return ULLONG_MAX;
    unsigned long long v = strtoull(s, &end, 10);
    switch (toupper((unsigned char)*end)) {
    case 'K': v <<= 10; break;
    case 'M': v <<= 20; break;
    case 'G': v <<= 30; break;
    default: break;
    }
    return v;
}

static void load_script(void)
{
    memset(&F, 0, sizeof F);
    F.layout = 24;
    const char *path = getenv("FAKE_NVML_SCRIPT");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        line[strcspn(line, "\r\n")] = '\0';
        char a[64] = "", b[64] = "", c[64] = "", d[64] = "", e[64] = "";
        int nf = sscanf(line, "%63s %63s %63s %63s %63s", a, b, c, d, e);
        if (nf <= 0)
            continue;
        if (strcmp(a, "device") == 0 && nf >= 4 && F.ndev < MAX_DEV) {
            struct fdev *dv = &F.dev[F.ndev++];
            dv->used = parse_size(b);
            dv->total = parse_size(c);
            int off = 0; /* the name is the rest of the line */
            sscanf(line, " %*s %*s %*s %n", &off);
            size_t len = strlen(line + off);
            while (len > 0 && isspace((unsigned char)line[off + len - 1]))
                len--;
            snprintf(dv->name, sizeof dv->name, "%.*s", (int)len, line + off);
        } else if (strcmp(a, "proc") == 0 && nf == 5 && F.nproc < MAX_PROC) {
            struct fproc *p = &F.proc[F.nproc++];
            p->dev = atoi(b);
            p->pid = (unsigned)strtoul(c, NULL, 10);
            p->bytes = parse_size(d);
            p->graphics = e[0] == 'g';
        } else if (strcmp(a, "driver") == 0 && nf == 2) {
            snprintf(F.driver, sizeof F.driver, "%s", b);
        } else if (strcmp(a, "layout") == 0 && nf == 2) {
            F.layout = atoi(b) == 32 ? 32 : 24;
        } else if (strcmp(a, "insufficient") == 0 && nf == 2) {
            F.insufficient = atol(b);
        } else if (strcmp(a, "fail") == 0 && nf >= 3) {
            for (int i = 0; i < C_N; i++)
                if (strcmp(b, call_name[i]) == 0) {
                    F.fail_code[i] = atoi(c);
                    F.fail_after[i] = (nf == 5 && strcmp(d, "after") == 0) ? atol(e) : 0;
                }
        }
    }
    fclose(f);
}

/* The scripted failure of a call, or 0. */
static int scripted(enum call c)
{
    long n = F.calls[c]++;
    return (F.fail_code[c] && n >= F.fail_after[c]) ? F.fail_code[c] : 0;
}

static struct fdev *dev_of(const void *h)
{
    const struct fdev *d = h;
    return (d >= F.dev && d < F.dev + F.ndev) ? (struct fdev *)d : NULL;
}

static int do_init(void)
{
    if (F.inited == 0) {
        load_script();
        int rc = scripted(C_INIT);
        log_line("init", rc);
        if (rc)
            return rc;
    } else {
        log_line("init", 0);
    }
    F.inited++;
    return 0;
}

EXPORT int nvmlInit(void);
int nvmlInit(void) { return do_init(); }
EXPORT int nvmlShutdown(void);
int nvmlShutdown(void)
{
    if (F.inited == 0)
        return 1; /* NVML_ERROR_UNINITIALIZED */
    F.inited--;
    log_line("shutdown", 0);
    return 0;
}

static int do_count(unsigned *n)
{
    if (!F.inited)
        return 1;
    if (!n)
        return 2;
    int rc = scripted(C_COUNT);
    if (rc)
        return rc;
    *n = (unsigned)F.ndev;
    return 0;
}

static int do_handle(unsigned i, void **h)
{
    if (!F.inited)
        return 1;
    if (!h || i >= (unsigned)F.ndev)
        return 2;
    int rc = scripted(C_HANDLE);
    if (rc)
        return rc;
    *h = &F.dev[i];
    return 0;
}

EXPORT int nvmlDeviceGetCount(unsigned *n);
int nvmlDeviceGetCount(unsigned *n) { return do_count(n); }
EXPORT int nvmlDeviceGetHandleByIndex(unsigned i, void **h);
int nvmlDeviceGetHandleByIndex(unsigned i, void **h) { return do_handle(i, h); }
#if FAKE_API >= 3
EXPORT int nvmlInit_v2(void);
int nvmlInit_v2(void) { return do_init(); }
EXPORT int nvmlDeviceGetCount_v2(unsigned *n);
int nvmlDeviceGetCount_v2(unsigned *n) { return do_count(n); }
EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h);
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h) { return do_handle(i, h); }
#endif

EXPORT int nvmlSystemGetDriverVersion(char *buf, unsigned len);
int nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
    if (!F.inited)
        return 1;
    if (!F.driver[0])
        return 3; /* NVML_ERROR_NOT_SUPPORTED */
    if (!buf || strlen(F.driver) + 1 > len)
        return 7;
    memcpy(buf, F.driver, strlen(F.driver) + 1);
    return 0;
}

EXPORT int nvmlDeviceGetName(void *h, char *buf, unsigned len);
int nvmlDeviceGetName(void *h, char *buf, unsigned len)
{
    struct fdev *d = dev_of(h);
    if (!F.inited)
        return 1;
    if (!d || !buf)
        return 2;
    int rc = scripted(C_NAME);
    if (rc)
        return rc;
    if (strlen(d->name) + 1 > len)
        return 7;
    memcpy(buf, d->name, strlen(d->name) + 1);
    return 0;
}

EXPORT int nvmlDeviceGetMemoryInfo(void *h, nvmlMemory_t *m);
int nvmlDeviceGetMemoryInfo(void *h, nvmlMemory_t *m)
{
    struct fdev *d = dev_of(h);
    if (!F.inited)
        return 1;
    if (!d || !m)
        return 2;
    int rc = scripted(C_MEMORY);
    if (rc)
        return rc;
    m->total = d->total;
    m->used = d->used;
    m->free = d->total > d->used ? d->total - d->used : 0;
    return 0;
}

/* Write this device's processes of one kind as `stride`-byte entries. */
static int do_procs(void *h, unsigned *count, void *infos, int graphics, size_t stride)
{
    struct fdev *d = dev_of(h);
    if (!F.inited)
        return 1;
    if (!d || !count)
        return 2;
    int rc = scripted(graphics ? C_GRAPHICS : C_COMPUTE);
    if (rc)
        return rc;
    unsigned n = 0;
    int di = (int)(d - F.dev);
    for (int i = 0; i < F.nproc; i++)
        n += F.proc[i].dev == di && F.proc[i].graphics == graphics;
    if (*count < n || (infos && F.insufficient > 0)) {
        if (infos && F.insufficient > 0)
            F.insufficient--;
        *count = n;
        return n == 0 && !infos ? 0 : 7;
    }
    if (n > 0 && !infos)
        return 2;
    unsigned char *out = infos;
    unsigned k = 0;
    for (int i = 0; i < F.nproc; i++) {
        const struct fproc *p = &F.proc[i];
        if (p->dev != di || p->graphics != graphics)
            continue;
        unsigned char e[32];
        unsigned none = 0xFFFFFFFFu;
        unsigned long long zero = 0;
        memset(e, 0, sizeof e);
        memcpy(e, &p->pid, 4);
        memcpy(e + 8, &p->bytes, 8);
        if (stride >= 24) {
            memcpy(e + 16, &none, 4); /* gpuInstanceId: not MIG */
            memcpy(e + 20, &none, 4); /* computeInstanceId */
        }
        if (stride == 32)
            memcpy(e + 24, &zero, 8); /* usedGpuCcProtectedMemory */
        memcpy(out + (size_t)k * stride, e, stride);
        k++;
    }
    *count = n;
    return 0;
}

EXPORT int nvmlDeviceGetComputeRunningProcesses(void *h, unsigned *c, void *p);
int nvmlDeviceGetComputeRunningProcesses(void *h, unsigned *c, void *p)
{
    return do_procs(h, c, p, 0, 16);
}
EXPORT int nvmlDeviceGetGraphicsRunningProcesses(void *h, unsigned *c, void *p);
int nvmlDeviceGetGraphicsRunningProcesses(void *h, unsigned *c, void *p)
{
    return do_procs(h, c, p, 1, 16);
}
#if FAKE_API >= 2
EXPORT int nvmlDeviceGetComputeRunningProcesses_v2(void *h, unsigned *c, void *p);
int nvmlDeviceGetComputeRunningProcesses_v2(void *h, unsigned *c, void *p)
{
    return do_procs(h, c, p, 0, (size_t)F.layout);
}
EXPORT int nvmlDeviceGetGraphicsRunningProcesses_v2(void *h, unsigned *c, void *p);
int nvmlDeviceGetGraphicsRunningProcesses_v2(void *h, unsigned *c, void *p)
{
    return do_procs(h, c, p, 1, (size_t)F.layout);
}
#endif
#if FAKE_API >= 3
EXPORT int nvmlDeviceGetComputeRunningProcesses_v3(void *h, unsigned *c, void *p);
int nvmlDeviceGetComputeRunningProcesses_v3(void *h, unsigned *c, void *p)
{
    return do_procs(h, c, p, 0, (size_t)F.layout);
}
EXPORT int nvmlDeviceGetGraphicsRunningProcesses_v3(void *h, unsigned *c, void *p);
int nvmlDeviceGetGraphicsRunningProcesses_v3(void *h, unsigned *c, void *p)
{
    return do_procs(h, c, p, 1, (size_t)F.layout);
}
#endif

EXPORT const char *nvmlErrorString(int r);
const char *nvmlErrorString(int r)
{
    switch (r) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 15: return "GPU is lost";
    default: return "Unknown Error";
    }
}
