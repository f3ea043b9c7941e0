/* nvml_probe.c: what a real NVML writes, for docs/gpu.md's layout rule and
 * cost figures.  Independent of core/platform/gpu_nvml.c: it dlopens
 * libnvidia-ml.so.1, prints the driver version, and for each GPU calls
 * nvmlDeviceGetComputeRunningProcesses_v3 into a buffer of 0xA5 bytes and
 * reports how many bytes the driver wrote for how many entries (24 per
 * entry or 32), with the entries read at that stride.  Then it times
 * `iters` readings of memory info + compute + graphics lists (what
 * st_gpu_read does per GPU).  One JSON object on stdout.
 * Usage: nvml_probe [iters] */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*fn_void)(void);
typedef int (*fn_str)(char *, unsigned);
typedef int (*fn_count)(unsigned *);
typedef int (*fn_handle)(unsigned, void **);
typedef int (*fn_procs)(void *, unsigned *, void *);
typedef int (*fn_mem)(void *, unsigned long long *);

static void *sym(void *dl, const char *name)
{
    void *p = dlsym(dl, name);
    if (!p) {
        printf("{\"error\": \"no %s\"}\n", name);
        exit(1);
    }
    return p;
}
#define SYM(dl, name, fp) do { void *p_ = sym((dl), (name)); memcpy(&(fp), &p_, sizeof p_); } while (0)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    void *dl = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        printf("{\"error\": \"dlopen: %s\"}\n", dlerror());
        return 1;
    }
    fn_void init, shutdown;
    fn_str driver;
    fn_count count;
    fn_handle handle;
    fn_procs compute, graphics;
    fn_mem meminfo;
    SYM(dl, "nvmlInit_v2", init);
    SYM(dl, "nvmlShutdown", shutdown);
    SYM(dl, "nvmlDeviceGetCount_v2", count);
    SYM(dl, "nvmlDeviceGetHandleByIndex_v2", handle);
    SYM(dl, "nvmlDeviceGetComputeRunningProcesses_v3", compute);
    SYM(dl, "nvmlDeviceGetGraphicsRunningProcesses_v3", graphics);
    SYM(dl, "nvmlDeviceGetMemoryInfo", meminfo);
    int r = init();
    if (r) {
        printf("{\"error\": \"nvmlInit_v2 %d\"}\n", r);
        return 1;
    }
    char ver[96] = "unknown";
    void *dv = dlsym(dl, "nvmlSystemGetDriverVersion"); /* the fake has none */
    if (dv) {
        memcpy(&driver, &dv, sizeof dv);
        driver(ver, sizeof ver);
    }
    unsigned n = 0;
    count(&n);
    printf("{\"driver\": \"%s\", \"devices\": [", ver);
    for (unsigned d = 0; d < n; d++) {
        void *h = NULL;
        handle(d, &h);
        unsigned char buf[64 * 32];
        memset(buf, 0xA5, sizeof buf);
        unsigned cnt = 48; /* the driver thinks: 48 entries of 24 bytes (1152 of 2048) */
        r = compute(h, &cnt, buf);
        size_t end = sizeof buf;
        while (end > 0 && buf[end - 1] == 0xA5)
            end--;
        size_t stride = (r == 0 && cnt && end > 24u * cnt) ? 32 : 24;
        printf("%s{\"index\": %u, \"rc\": %d, \"entries\": %u, \"bytes_written\": %zu, "
               "\"stride\": %zu, \"procs\": [", d ? ", " : "", d, r, cnt, end, stride);
        for (unsigned i = 0; r == 0 && i < cnt; i++) {
            unsigned pid;
            unsigned long long used;
            memcpy(&pid, buf + i * stride, 4);
            memcpy(&used, buf + i * stride + 8, 8);
            printf("%s[%u, %llu]", i ? ", " : "", pid, used);
        }
        /* cost of one reading of this GPU: memory info + both lists */
        double t0 = now_s();
        for (int k = 0; k < iters; k++) {
            unsigned long long m[3];
            unsigned c = 48;
            meminfo(h, m);
            compute(h, &c, buf);
            c = 48;
            graphics(h, &c, buf);
        }
        double us = (now_s() - t0) / (iters > 0 ? iters : 1) * 1e6;
        printf("], \"reading_us\": %.1f, \"iters\": %d}", us, iters);
    }
    printf("]}\n");
    shutdown();
    dlclose(dl);
    return 0;
}
