/* gpu_once.c: one st_gpu_open + st_gpu_read through core/platform/gpu_nvml.c, for a
 * GPU machine (see docs/gpu.md).  Prints the devices and each pid's bytes,
 * or the reason there is no GPU lane.  Usage: gpu_once [PID...]
 * ($ST_NVML_LIB names the library, as for stagetop). */
#include <stdio.h>
#include <stdlib.h>

#include "stagetop/gpu.h"

int main(int argc, char **argv)
{
    st_gpu *g = NULL;
    st_error err;
    const st_gpu_device *d = NULL;
    size_t n = argc > 1 ? (size_t)argc - 1 : 0;
    int32_t *pids = calloc(n + 1, sizeof *pids);
    uint64_t *per = calloc(n + 1, sizeof *per), total = 0;
    if (!pids || !per)
        return 1;
    for (size_t i = 0; i < n; i++)
        pids[i] = (int32_t)atol(argv[i + 1]);
    if (st_gpu_open(&g, getenv("ST_NVML_LIB"), &err) != ST_OK) {
        printf("{\"open\": %d, \"msg\": \"%s\"}\n", err.code, err.msg);
        return 2;
    }
    int rc = st_gpu_read(g, pids, n, &total, per, &err);
    printf("{\"read\": %d, \"msg\": \"%s\", \"total\": %llu, \"per_pid\": {", rc,
           rc ? err.msg : "", (unsigned long long)total);
    for (size_t i = 0; i < n; i++)
        printf("%s\"%d\": %llu", i ? ", " : "", (int)pids[i], (unsigned long long)per[i]);
    printf("}, \"devices\": [");
    size_t nd = st_gpu_devices(g, &d);
    for (size_t i = 0; i < nd; i++)
        printf("%s{\"name\": \"%s\", \"used\": %llu, \"total\": %llu}", i ? ", " : "", d[i].name,
               (unsigned long long)d[i].used, (unsigned long long)d[i].total);
    printf("]}\n");
    st_gpu_close(g);
    free(pids);
    free(per);
    return rc == ST_OK ? 0 : 3;
}
