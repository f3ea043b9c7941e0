/* darwin_args.c: a process's KERN_PROCARGS2 area, for the macOS backend
 * (darwin_internal.h): its argv, joined for the command line, and one
 * variable of its environment (environ_var, for -p's stage files).
 *
 * The area, as XNU answers sysctl {CTL_KERN, KERN_PROCARGS2, pid}
 * (apple-oss-distributions/xnu at tag xnu-11417.101.15, file:line there):
 * an int argc (bsd/kern/kern_sysctl.c, sysctl_procargsx(), 1358-1360 and
 * 1607-1611), the exec path with its NUL ("executable_path=" stripped,
 * 1421-1430), NUL padding to the pointer size (bsd/kern/kern_exec.c,
 * exec_extract_strings(), 6105-6114), argc NUL-ended argument strings
 * (6119), the environment strings (6236-6266), NUL padding again
 * (6275-6284), then XNU's own "apple" strings (pfz=, stack_guard=,
 * malloc_entropy=, ptr_munge=, ...: exec_add_apple_strings(), 6425-6500).
 * Nothing marks where the environment ends: it is searched up to the end
 * of the area, and the first NAME= wins, so a variable of the environment
 * comes before any apple string (none of which is named like ours).
 * Other users' processes (the caller not root), zombies and missing pids
 * are refused with EINVAL (1373-1378, 1439-1447, 1459-1463).  On Linux this
 * file is compiled only by the unit tests, against the shim in
 * tests/darwin/shim. */
#include "darwin_internal.h"

#include "stagetop/env_block.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/sysctl.h>

#define ARGMAX_FALLBACK 262144
#define ARGMAX_LIMIT (8u << 20)

void st_dw_args_free(st_dw_args *a)
{
    free(a->buf);
    a->buf = NULL;
    a->cap = 0;
}

int st_dw_args_read(st_dw_args *a, int32_t pid, size_t *n)
{
    int mib[3] = {CTL_KERN, KERN_PROCARGS2, (int)pid};

    if (!a->buf) {
        int mib_max[2] = {CTL_KERN, KERN_ARGMAX};
        int argmax = 0;
        size_t alen = sizeof argmax;
        if (sysctl(mib_max, 2, &argmax, &alen, NULL, 0) != 0 || argmax < 4096 ||
            (unsigned)argmax > ARGMAX_LIMIT)
            argmax = ARGMAX_FALLBACK;
        a->buf = malloc((size_t)argmax);
        if (!a->buf) {
            errno = ENOMEM;
            return -1;
        }
        a->cap = (size_t)argmax;
    }
    *n = a->cap;
    if (sysctl(mib, 3, a->buf, n, NULL, 0) != 0)
        return -1;
    if (*n > a->cap) {
        errno = EIO;
        return -1;
    }
    return 0;
}

/* Join argv from a KERN_PROCARGS2 buffer: int argc, the exec path, NUL
 * padding, then argc NUL-terminated strings (then the environment).  The
 * buffer is bounded by n whatever it holds.  0 when at least one byte of
 * argv was found, -1 when the buffer is malformed. */
int st_dw_args_join(const char *p, size_t n, char *buf, size_t len)
{
    int argc;
    size_t i = sizeof argc, o = 0;

    if (n < sizeof argc)
        return -1;
    memcpy(&argc, p, sizeof argc);
    if (argc <= 0)
        return -1;
    while (i < n && p[i] != '\0') /* exec path */
        i++;
    while (i < n && p[i] == '\0')
        i++;
    for (int a = 0; a < argc && i < n; a++) {
        if (a > 0 && o + 1 < len)
            buf[o++] = ' ';
        for (; i < n && p[i] != '\0'; i++)
            if (o + 1 < len)
                buf[o++] = p[i];
        i++;
    }
    buf[o] = '\0';
    return o > 0 ? 0 : -1;
}

int st_dw_args_command(st_dw_args *a, int32_t pid, char *buf, size_t len)
{
    size_t n;
    if (st_dw_args_read(a, pid, &n) != 0)
        return -1;
    return st_dw_args_join(a->buf, n, buf, len);
}

int st_dw_args_environ(st_dw_args *a, int32_t pid, const char *name, char *buf, size_t len,
                       st_error *err)
{
    size_t n, i;
    int argc;
    const char *p, *v;
    size_t vlen;

    if (len)
        buf[0] = '\0';
    if (st_dw_args_read(a, pid, &n) != 0) {
        int e = errno;
        if (e == EINVAL) /* kern_sysctl.c 1439-1447: another uid, not root */
            return st_error_set(err, ST_EPERM, e, "process %d: not allowed to read its "
                                "environment (another user's process: run stagetop as that "
                                "user or root)", (int)pid);
        return st_error_set(err, e == ENOMEM ? ST_ENOMEM : ST_EIO, e,
                            "process %d: sysctl kern.procargs2: %s", (int)pid, strerror(e));
    }
    /* A buffer filled to the last byte may hold only the area's end: XNU
     * copies the last bytes of an area larger than the buffer
     * (kern_sysctl.c 1553-1605; the area can exceed kern.argmax, as exec
     * gives it ARG_MAX + a page, kern_exec.c 598-599), and where the
     * environment starts is then lost. */
    if (n >= a->cap)
        return st_error_set(err, ST_EIO, 0, "process %d: its arguments and environment fill "
                            "kern.argmax (%zu bytes): not read", (int)pid, a->cap);
    p = a->buf;
    if (n < sizeof argc)
        return st_error_set(err, ST_EIO, 0, "process %d: KERN_PROCARGS2 too short", (int)pid);
    memcpy(&argc, p, sizeof argc);
    if (argc <= 0)
        return st_error_set(err, ST_EIO, 0, "process %d: KERN_PROCARGS2 gives argc %d",
                            (int)pid, argc);
    /* argv's end as XNU finds it when it leaves the environment out
     * (kern_sysctl.c 1523-1540): the path, the NULs after it, argc
     * strings. */
    i = sizeof argc;
    while (i < n && p[i] != '\0')
        i++;
    while (i < n && p[i] == '\0')
        i++;
    for (int k = 0; k < argc && i < n; k++) {
        const char *nul = memchr(p + i, '\0', n - i);
        i = nul ? (size_t)(nul - p) + 1 : n;
    }
    /* Nothing after argv: XNU left the environment out (1380-1399,
     * 1520-1546: a target that is cs_restricted, CS_RESTRICT, while SIP is
     * on, unless it is the caller itself); a process with an environment
     * always has the apple strings after it. */
    if (i >= n)
        return st_error_set(err, ST_EPERM, 0, "process %d: its environment is left out by "
                            "the kernel (a restricted process: CS_RESTRICT)", (int)pid);
    if (!st_env_block_find(p + i, n - i, name, &v, &vlen))
        return ST_OK;
    if (v + vlen == p + n) /* no NUL: not XNU's, whose area ends in one */
        return st_error_set(err, ST_EIO, 0, "process %d: $%s is cut short", (int)pid, name);
    if (len)
        snprintf(buf, len, "%.*s", (int)(vlen < len ? vlen : len - 1), v);
    return ST_OK;
}
