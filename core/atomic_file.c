/* atomic_file.c: temp file beside the target + rename (atomic_file.h). */
#include "stagetop/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Write all of buf; 0 or an errno. */
static int write_all(int fd, const char *p, size_t left)
{
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (k == 0)
            return EIO;
        p += k;
        left -= (size_t)k;
    }
    return 0;
}

int st_atomic_write(const char *path, const char *data, size_t len, unsigned flags, st_error *err)
{
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return st_error_set(err, ST_EINVAL, EINVAL, "bad file name '%s'", path ? path : "");
    char dir[4096], tmp[4096 + 80];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    const char *base = slash ? slash + 1 : path;
    /* O_EXCL: never an existing file, never through a symlink; the mode is
     * 0666 less the umask, as for any new file. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long salt = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 30);
    int fd = -1, e = 0;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        int nt = snprintf(tmp, sizeof tmp, "%s/.%.64s.%ld-%llx", dir, base, (long)getpid(),
                          (salt + (unsigned long long)attempt * 0x9E3779B97F4A7C15ull) & 0xffffffffffull);
        if (nt < 0 || (size_t)nt >= sizeof tmp)
            return st_error_set(err, ST_EINVAL, ENAMETOOLONG, "path too long: %s", path);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        e = fd < 0 ? errno : 0;
        if (fd < 0 && e != EEXIST)
            break;
    }
    if (fd < 0)
        return st_error_set(err, ST_EIO, e, "cannot create a file in %s: %s", dir, strerror(e));
    const char *what = "writing";
    e = write_all(fd, data, len);
    if (!e && (flags & ST_ATOMIC_SYNC) && fsync(fd) != 0) {
        e = errno;
        what = "syncing";
    }
    if (close(fd) != 0 && !e) {
        e = errno;
        what = "closing";
    }
    if (!e && rename(tmp, path) != 0) {
        e = errno;
        what = "renaming into";
    }
    if (e) {
        unlink(tmp);
        return st_error_set(err, ST_EIO, e, "%s %s: %s", what, path, strerror(e));
    }
    if (flags & ST_ATOMIC_SYNC) {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    return ST_OK;
}
