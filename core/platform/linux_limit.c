/* linux_limit.c: platform.h's limit_find for Linux: the job's
 * /proc/PID/cgroup and the memory controller's mounts of
 * /proc/self/mountinfo (read once), walked by cgroup_limit.c. */
#include "linux_procs.h"
#include "stagetop/cgroup_limit.h"

#include <stdio.h>
#include <string.h>

#define PF_EXITING_FLAG 0x4u /* include/linux/sched.h: PF_EXITING */

/* Has pid begun to exit (PF_EXITING in /proc/PID/stat's flags, field 9),
 * or gone?  1 also when it cannot be read. */
static int exiting(st_backend *b, int32_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    ssize_t n = st_lx_read_path(b, path);
    if (n <= 0)
        return 1;
    const char *e = b->buf + n, *p = e;
    while (p > b->buf && p[-1] != ')') /* the name may hold ") (": the last ')' */
        p--;
    if (p == b->buf)
        return 1;
    for (int field = 3; field < 9 && p < e; field++) { /* past state .. tpgid */
        while (p < e && *p == ' ')
            p++;
        if (field == 3 && p < e && (*p == 'Z' || *p == 'X'))
            return 1;
        while (p < e && *p != ' ')
            p++;
    }
    while (p < e && *p == ' ')
        p++;
    unsigned long flags = 0;
    for (; p < e && *p >= '0' && *p <= '9'; p++)
        flags = flags * 10 + (unsigned long)(*p - '0');
    return (flags & PF_EXITING_FLAG) != 0;
}

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
    int same = (size_t)n == w->text_len && memcmp(b->buf, w->text, (size_t)n) == 0;
    if (!force && !w->stale && w->walked && same)
        return 0;
    char text[sizeof w->text];
    size_t len = (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    memcpy(text, b->buf, len);
    text[len] = '\0';
    /* A process that is exiting shows the root cgroup ("4:memory:/":
     * do_exit's cgroup_exit moves it out, after PF_EXITING is set) until it
     * is reaped: a change read then is its end, not a move.  Its stat read
     * after the text says whether the text was a live process's. */
    if (w->walked && !same && exiting(b, pid))
        return 0;
    memcpy(w->text, text, len + 1);
    w->text_len = len;
    return st_cg_walk(w, w->text, w->text_len) ? 1 : -1;
}
