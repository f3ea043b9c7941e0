/* monitor_gpu.c: the run's GPU lane (monitor_internal.h): NVML opened at
 * the start unless the platform or --no-gpu rules it out, and the tree's
 * GPU memory read for a sample, at most 20 times a second. */
#include "monitor_internal.h"

#include <stdlib.h>

void st_monitor_open_gpu(st_monitor *m)
{
    st_error e;
    if (m->opts.no_gpu) {
        st_error_set(&m->warn[ST_WARN_NO_GPU], ST_ENOTSUP, 0, "GPU lane off (--no-gpu)");
        return;
    }
    if (m->plat->no_gpu_lane) {
        st_error_set(&m->warn[ST_WARN_NO_GPU], ST_ENOTSUP, 0, "%s", m->plat->no_gpu_lane);
        return;
    }
    const char *lib = m->opts.gpu_lib;
    st_error_clear(&e);
    if (st_gpu_open(&m->gpu, lib, &e) != ST_OK) {
        m->gpu = NULL;
        st_error_set(&m->warn[ST_WARN_NO_GPU], ST_ENOTSUP, 0, "%.150s", e.msg[0] ? e.msg : "no GPU lane");
    }
}

void st_monitor_read_gpu(st_monitor *m, double now, st_sample *s)
{
    uint64_t total = 0;
    st_error e;
    /* One NVML reading costs 30-40 us per GPU (measured on an H200): at
     * intervals under 50 ms the GPU is read at most 20 times a second. */
    if (now < m->gpu_next) {
        if (m->has_last && (m->last.valid & ST_F_GPU)) {
            s->gpu = m->last.gpu;
            s->valid |= ST_F_GPU;
        }
        return;
    }
    m->gpu_next = now + 0.05;
    size_t n = m->tree.n_members;
    if (n > m->gpu_cap) {
        size_t cap = n * 2;
        int32_t *p = realloc(m->gpu_pids, cap * sizeof *p);
        if (p)
            m->gpu_pids = p;
        uint64_t *b = p ? realloc(m->gpu_bytes, cap * sizeof *b) : NULL;
        if (b)
            m->gpu_bytes = b;
        if (!p || !b) {
            st_error_set(&m->warn[ST_WARN_GPU], ST_ENOMEM, 0, "GPU: out of memory");
            return;
        }
        m->gpu_cap = cap;
    }
    for (size_t i = 0; i < n; i++)
        m->gpu_pids[i] = m->tree.members[i].id.pid;
    m->gpu_n = 0;
    st_error_clear(&e);
    if (st_gpu_read(m->gpu, m->gpu_pids, n, &total, m->gpu_bytes, &e) == ST_OK) {
        s->gpu = total;
        s->valid |= ST_F_GPU;
        m->gpu_n = n;
        st_error_clear(&m->warn[ST_WARN_GPU]);
    } else {
        st_error_set(&m->warn[ST_WARN_GPU], e.code ? e.code : ST_EIO, e.sys_errno, "GPU: %.150s", e.msg);
    }
}
