/* gpu.h: per-process GPU memory from NVIDIA's NVML, loaded at run time with
 * dlopen("libnvidia-ml.so.1") (never linked).  Absent library, no GPU or an
 * error: st_gpu_open fails with ST_ENOTSUP and a one-line reason; stagetop
 * then has no GPU lane and carries on. */
#ifndef STAGETOP_GPU_H
#define STAGETOP_GPU_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"

typedef struct st_gpu st_gpu;

typedef struct st_gpu_device {
    char name[64];
    uint64_t used, total; /* bytes, whole device */
} st_gpu_device;

/* lib: NULL for the default search ("libnvidia-ml.so.1", then
 * "libnvidia-ml.so"); tests pass the path of a fake. */
int st_gpu_open(st_gpu **out, const char *lib, st_error *err);
void st_gpu_close(st_gpu *g);

/* Sum usedGpuMemory over pids (compute and graphics processes, all
 * devices, each pid once per device).  *per_pid (if non-NULL, n entries)
 * gets each pid's bytes.  ST_OK with *total 0 when none of pids uses a GPU. */
int st_gpu_read(st_gpu *g, const int32_t *pids, size_t n, uint64_t *total,
                uint64_t *per_pid, st_error *err);

/* Devices as of the last st_gpu_read. */
size_t st_gpu_devices(const st_gpu *g, const st_gpu_device **out);

/* The driver version NVML reports (nvmlSystemGetDriverVersion), "" when
 * unknown. */
const char *st_gpu_version(const st_gpu *g);

#endif
