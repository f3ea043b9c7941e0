/* linux_limit.c: platform.h's limit_find for Linux: the job's
 * /proc/PID/cgroup and the memory controller's mounts of
 * /proc/self/mountinfo (read once), walked by cgroup_limit.c. */
#include "linux_procs.h"
#include "stagetop/cgroup_limit.h"

#include <stdio.h>
#include <string.h>

int st_lx_limit_find(st_backend *b, int32_t pid, st_cg_watch *w, int force)
{
    char path[64];
    ssize_t n;
    if (!w->has_mounts) {
        n = st_lx_read_path(b, "/proc/self/mountinfo");
        if (n > 0)
            st_cg_parse_mounts(b->buf, (size_t)n, &w->mounts);
        w->has_mounts = 1;
    }
    snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    n = st_lx_read_path(b, path);
    if (n <= 0)
        return -1;
    if (!force && !w->stale && w->walked && (size_t)n == w->text_len && memcmp(b->buf, w->text, (size_t)n) == 0)
        return 0;
    w->text_len = (size_t)n < sizeof w->text ? (size_t)n : sizeof w->text - 1;
    memcpy(w->text, b->buf, w->text_len);
    w->text[w->text_len] = '\0';
    return st_cg_walk(w, w->text, w->text_len) ? 1 : -1;
}
