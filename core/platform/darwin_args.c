/* darwin_args.c: a process's KERN_PROCARGS2 area, for the macOS backend
 * (darwin_internal.h): its argv, joined for the command line.
 *
 * The area, as XNU answers sysctl {CTL_KERN, KERN_PROCARGS2, pid}: an int
 * argc, the exec path, NUL padding, argc NUL-terminated argument strings,
 * then the environment.  Other users' processes and zombies are refused
 * (EINVAL).  On Linux this file is compiled only by the unit tests, against
 * the shim in tests/darwin/shim. */
#include "darwin_internal.h"

#include <errno.h>
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
