/* gpu_none.c: the GPU lane of a platform that has none (include/stagetop/gpu.h).
 *
 * The Makefile builds it instead of core/platform/gpu_nvml.c where NVML does not
 * exist (PLAT_SRC_darwin): on macOS, Metal/MPS memory is charged to the
 * process footprint, so there is no separate GPU lane.  Every call says
 * ST_ENOTSUP. */
#include "stagetop/gpu.h"

struct st_gpu {
    int unused;
};

int st_gpu_open(st_gpu **out, const char *lib, st_error *err)
{
    (void)lib;
    if (out)
        *out = NULL;
    return st_error_set(err, ST_ENOTSUP, 0,
                        "no NVML on macOS: Metal memory is inside the footprint");
}

void st_gpu_close(st_gpu *g) { (void)g; }

int st_gpu_read(st_gpu *g, const int32_t *pids, size_t n, uint64_t *total,
                uint64_t *per_pid, st_error *err)
{
    (void)g; (void)pids; (void)n; (void)per_pid;
    if (total)
        *total = 0;
    return st_error_set(err, ST_ENOTSUP, 0, "no NVML on macOS");
}

size_t st_gpu_devices(const st_gpu *g, const st_gpu_device **out)
{
    (void)g;
    if (out)
        *out = NULL;
    return 0;
}

const char *st_gpu_version(const st_gpu *g) { (void)g; return ""; }
