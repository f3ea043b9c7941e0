/* cgroup_limit.c: memory.max, memory.events and the limit that binds
 * (cgroup_limit.h).  The parsers take text from the caller; the walk reads
 * the cgroup files under the mount points the caller gives. */
#include "stagetop/cgroup_limit.h"
#include "stagetop/units.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* ---- mounts ---- */

/* Field i (0-based) of a mountinfo line l[0..n), unescaped (\040 and the
 * other octal escapes the kernel writes) into out: 1, or 0 when absent. */
static int mi_field(const char *l, size_t n, int i, char *out, size_t size)
{
    size_t p = 0;
    for (int f = 0; f < i; f++) {
        while (p < n && l[p] != ' ')
            p++;
        if (p >= n)
            return 0;
        p++;
    }
    size_t o = 0;
    while (p < n && l[p] != ' ' && o + 1 < size) {
        if (l[p] == '\\' && p + 3 < n && l[p + 1] >= '0' && l[p + 1] <= '3') {
            out[o++] = (char)((l[p + 1] - '0') * 64 + (l[p + 2] - '0') * 8 + (l[p + 3] - '0'));
            p += 4;
        } else {
            out[o++] = l[p++];
        }
    }
    out[o] = '\0';
    return o > 0;
}

/* Does the comma list s hold item? */
static int has_item(const char *s, const char *item)
{
    size_t k = strlen(item);
    for (const char *p = s; *p;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (n == k && memcmp(p, item, k) == 0)
            return 1;
        p += n + (c != NULL);
    }
    return 0;
}

void st_cg_parse_mounts(const char *buf, size_t len, st_cg_mounts *m)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; buf && i < len;) {
        const char *l = buf + i;
        const char *nl = memchr(l, '\n', len - i);
        size_t n = nl ? (size_t)(nl - l) : len - i;
        i += n + 1;
        /* "36 25 0:32 / /sys/fs/cgroup/memory rw,relatime shared:15 - cgroup cgroup rw,memory":
         * the optional fields end at " - ", then fstype, source, super options */
        const char *dash = NULL;
        for (size_t k = 0; k + 2 < n; k++)
            if (l[k] == ' ' && l[k + 1] == '-' && l[k + 2] == ' ') {
                dash = l + k + 3;
                break;
            }
        char type[16], opts[256], root[256], mnt[256];
        if (!dash || !mi_field(dash, n - (size_t)(dash - l), 0, type, sizeof type) ||
            !mi_field(l, n, 3, root, sizeof root) || !mi_field(l, n, 4, mnt, sizeof mnt))
            continue;
        if (strcmp(type, "cgroup2") == 0 && !m->v2[0]) {
            memcpy(m->v2, mnt, sizeof m->v2);
            memcpy(m->v2_root, root, sizeof m->v2_root);
        } else if (strcmp(type, "cgroup") == 0 && !m->v1[0] &&
                   mi_field(dash, n - (size_t)(dash - l), 2, opts, sizeof opts) && has_item(opts, "memory")) {
            memcpy(m->v1, mnt, sizeof m->v1);
            memcpy(m->v1_root, root, sizeof m->v1_root);
        }
    }
}

/* ---- the walk ---- */

#define CG_V1_UNLIMITED (1ull << 62) /* v1's "no limit" is PAGE_COUNTER_MAX pages: 2^63 - a page */

void st_cg_watch_init(st_cg_watch *w)
{
    memset(w, 0, sizeof *w);
    w->usage_fd = -1;
    for (int i = 0; i < ST_CG_OOM_FILES; i++)
        w->oom_fd[i] = -1;
}

/* One read of an open cgroup file from its start: its length, or -1. */
static ssize_t read_fd(int fd, char *buf, size_t size)
{
    ssize_t n;
    do {
        n = pread(fd, buf, size - 1, 0);
    } while (n < 0 && errno == EINTR);
    if (n >= 0)
        buf[n] = '\0';
    return n;
}

static ssize_t read_path(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read_fd(fd, buf, size);
    close(fd);
    return n;
}

/* The oom_kill counter of an open memory.events / memory.oom_control. */
static int oom_read(int fd, uint64_t *v)
{
    char buf[512];
    ssize_t n = read_fd(fd, buf, sizeof buf);
    return n > 0 && st_cg_parse_key(buf, (size_t)n, "oom_kill", v) == 1;
}

/* The largest rise of the open counters since they were opened. */
static uint64_t oom_rise(st_cg_watch *w)
{
    uint64_t most = 0, v;
    for (int i = 0; i < ST_CG_OOM_FILES; i++)
        if (w->oom_fd[i] >= 0 && oom_read(w->oom_fd[i], &v) && v > w->oom_base[i] &&
            v - w->oom_base[i] > most)
            most = v - w->oom_base[i];
    return most;
}

static void close_files(st_cg_watch *w)
{
    if (w->usage_fd >= 0)
        close(w->usage_fd);
    w->usage_fd = -1;
    for (int i = 0; i < ST_CG_OOM_FILES; i++) {
        if (w->oom_fd[i] >= 0)
            close(w->oom_fd[i]);
        w->oom_fd[i] = -1;
    }
}

void st_cg_watch_free(st_cg_watch *w)
{
    close_files(w);
}

/* Open dir/name's oom counter as slot i, its value now the base. */
static void oom_open(st_cg_watch *w, int i, const char *dir, const char *name)
{
    char path[ST_CG_PATH + 300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    w->oom_fd[i] = open(path, O_RDONLY | O_CLOEXEC);
    if (w->oom_fd[i] >= 0 && !oom_read(w->oom_fd[i], &w->oom_base[i])) {
        close(w->oom_fd[i]); /* a kernel before 4.13 (v1): no oom_kill line */
        w->oom_fd[i] = -1;
    }
}

int st_cg_path_of(const char *buf, size_t len, int want_v1, char *out, size_t size)
{
    for (size_t i = 0; i < len;) {
        const char *l = buf + i;
        const char *nl = memchr(l, '\n', len - i);
        size_t n = nl ? (size_t)(nl - l) : len - i;
        i += n + 1;
        const char *c1 = memchr(l, ':', n);
        const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - l)) : NULL;
        if (!c2)
            continue;
        char ctl[128];
        size_t cn = (size_t)(c2 - c1 - 1);
        if (cn >= sizeof ctl)
            continue;
        memcpy(ctl, c1 + 1, cn);
        ctl[cn] = '\0';
        int v2 = cn == 0 && c1 - l == 1 && l[0] == '0';
        if (want_v1 ? !has_item(ctl, "memory") : !v2)
            continue;
        size_t pn = n - (size_t)(c2 + 1 - l);
        if (pn == 0 || pn >= size || c2[1] != '/')
            return 0;
        memcpy(out, c2 + 1, pn);
        out[pn] = '\0';
        return 1;
    }
    return 0;
}

int st_cg_walk(st_cg_watch *w, const char *text, size_t len)
{
    const st_cg_mounts *m = &w->mounts;
    w->oom_before += oom_rise(w); /* what the files closed now had seen */
    close_files(w);
    w->walked = w->has_limit = w->stale = 0;
    w->levels = 0;
    char rel[ST_CG_PATH];
    int v1 = m->v1[0] && st_cg_path_of(text, len, 1, rel, sizeof rel);
    if (!v1 && !(m->v2[0] && st_cg_path_of(text, len, 0, rel, sizeof rel)))
        return 0;
    const char *mnt = v1 ? m->v1 : m->v2, *root = v1 ? m->v1_root : m->v2_root;
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    if (rl && (strncmp(rel, root, rl) != 0 || (rel[rl] && rel[rl] != '/')))
        return 0; /* outside what the mount shows */
    w->version = v1 ? 1 : 2;
    w->limit_file = v1 ? "memory.limit_in_bytes" : "memory.max";
    const char *usage_file = v1 ? "memory.usage_in_bytes" : "memory.current";
    const char *oom_file = v1 ? "memory.oom_control" : "memory.events";
    snprintf(w->job_cgroup, sizeof w->job_cgroup, "%s", rel);
    w->walked = 1;
    size_t end = strlen(rel); /* rel[0..end) is the level: its own, then up */
    if (end == 1)
        end = 0; /* "/": the root itself */
    uint64_t least = 0;
    char dir[ST_CG_PATH + 256], bind_dir[sizeof dir] = "", path[sizeof dir + 32], buf[64];
    for (;;) {
        snprintf(dir, sizeof dir, "%s%.*s", mnt, (int)(end > rl ? end - rl : 0), rel + rl);
        st_cg_level lv = {NULL, 0, 0, 0};
        ssize_t n;
        snprintf(path, sizeof path, "%s/%s", dir, w->limit_file);
        if ((n = read_path(path, buf, sizeof buf)) > 0 && st_cg_parse_max(buf, (size_t)n, &lv.max) == 1)
            lv.has_max = !(v1 && lv.max >= CG_V1_UNLIMITED);
        snprintf(path, sizeof path, "%s/%s", dir, usage_file);
        if (lv.has_max && (n = read_path(path, buf, sizeof buf)) > 0 &&
            st_cg_parse_max(buf, (size_t)n, &lv.current) == 1) {
            uint64_t room;
            if (st_cg_binding(&lv, 1, &room) == 0 && (!w->has_limit || room < least)) {
                least = room;
                w->has_limit = 1;
                w->limit = lv.max;
                w->usage = lv.current;
                snprintf(w->cgroup, sizeof w->cgroup, "%.*s", (int)(end ? end : 1), end ? rel : "/");
                memcpy(bind_dir, dir, sizeof dir);
            }
        }
        if (w->levels == 0)
            oom_open(w, 1, dir, oom_file); /* the job's own */
        w->levels++;
        if (end <= rl)
            break; /* the mount's root was the last */
        while (end > 0 && rel[end - 1] != '/')
            end--;
        end = end > 0 ? end - 1 : 0; /* "/a/b" -> "/a" -> "" (the root) */
        if (end < rl)
            end = rl;
    }
    if (w->has_limit) {
        snprintf(path, sizeof path, "%s/%s", bind_dir, usage_file);
        w->usage_fd = open(path, O_RDONLY | O_CLOEXEC);
        if (strcmp(w->cgroup, w->job_cgroup) != 0)
            oom_open(w, 0, bind_dir, oom_file);
    }
    return 1;
}

int st_cg_read_usage(st_cg_watch *w)
{
    char buf[64];
    uint64_t v;
    if (!w->has_limit || w->usage_fd < 0)
        return 0;
    ssize_t n = read_fd(w->usage_fd, buf, sizeof buf);
    if (n <= 0 || st_cg_parse_max(buf, (size_t)n, &v) != 1) {
        w->stale = 1; /* the cgroup went away: walk again */
        return 0;
    }
    w->usage = v;
    return 1;
}

uint64_t st_cg_room(const st_cg_watch *w)
{
    return w->has_limit && w->usage < w->limit ? w->limit - w->usage : 0;
}

uint64_t st_cg_oom_kills(st_cg_watch *w)
{
    return w->oom_before + oom_rise(w);
}
