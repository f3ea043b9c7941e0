/* cgroup_limit.c: memory.max, memory.events and the limit that binds
 * (cgroup_limit.h).  No I/O: the text comes from the caller. */
#include "stagetop/cgroup_limit.h"
#include "stagetop/units.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* A decimal uint64 of p[0..n): 1 and *out, 0 when not one (or overflow). */
static int parse_u64(const char *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 20)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        unsigned d = (unsigned)(p[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

int st_cg_parse_max(const char *buf, size_t len, uint64_t *bytes)
{
    if (!buf)
        return -1;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        len--;
    if (len == 3 && memcmp(buf, "max", 3) == 0)
        return 0;
    return parse_u64(buf, len, bytes) ? 1 : -1;
}

int st_cg_parse_key(const char *buf, size_t len, const char *key, uint64_t *out)
{
    size_t klen = key ? strlen(key) : 0;
    if (!buf || klen == 0)
        return 0;
    size_t i = 0;
    while (i < len) {
        const char *l = buf + i;
        const char *nl = memchr(l, '\n', len - i);
        size_t llen = nl ? (size_t)(nl - l) : len - i;
        if (llen > klen && memcmp(l, key, klen) == 0 && l[klen] == ' ')
            return parse_u64(l + klen + 1, llen - klen - 1, out) ? 1 : -1;
        i += llen + 1;
    }
    return 0;
}

int st_cg_binding(const st_cg_level *lv, size_t n, uint64_t *room)
{
    int best = -1;
    uint64_t least = 0;
    for (size_t i = 0; i < n; i++) {
        if (!lv[i].has_max)
            continue;
        uint64_t r = lv[i].current < lv[i].max ? lv[i].max - lv[i].current : 0;
        if (best < 0 || r < least) {
            best = (int)i;
            least = r;
        }
    }
    if (best >= 0 && room)
        *room = least;
    return best;
}

void st_cg_headroom_text(const st_cg_level *lv, size_t n, char *buf, size_t len)
{
    uint64_t room = 0;
    int i = st_cg_binding(lv, n, &room);
    if (len)
        buf[0] = '\0';
    if (i < 0 || !len)
        return;
    char lim[32], left[32];
    st_format_bytes(lv[i].max, lim, sizeof lim);
    st_format_bytes(room, left, sizeof left);
    snprintf(buf, len, "limit %s (%s): %s left", lim, lv[i].path && lv[i].path[0] ? lv[i].path : "/",
             room ? left : "none");
}

int st_cg_oom_killed(int sig, uint64_t oom_kill_before, uint64_t oom_kill_after)
{
    return sig == SIGKILL && oom_kill_after > oom_kill_before;
}

void st_cg_end_text(int sig, uint64_t oom_kill_before, uint64_t oom_kill_after, char *buf,
                    size_t len)
{
    if (st_cg_oom_killed(sig, oom_kill_before, oom_kill_after))
        snprintf(buf, len, "killed by the kernel's OOM killer (memory.events oom_kill %llu -> %llu)",
                 (unsigned long long)oom_kill_before, (unsigned long long)oom_kill_after);
    else if (sig == SIGKILL)
        snprintf(buf, len, "killed (SIGKILL)");
    else
        snprintf(buf, len, "ended by signal %d", sig);
}
