/* atomic_file.c: temp file beside the target + rename (atomic_file.h). */
#include "stagetop/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned st_atomic_mode(void)
{
    static int have;
    static unsigned mode;
    if (!have) { /* umask() can only be read by setting it */
        mode_t old = umask(022);
        umask(old);
        mode = 0666u & ~(unsigned)old;
        have = 1;
    }
    return mode;
}

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
    int nt = snprintf(tmp, sizeof tmp, "%s/.%.64s.XXXXXX", dir, base);
    if (nt < 0 || (size_t)nt >= sizeof tmp)
        return st_error_set(err, ST_EINVAL, ENAMETOOLONG, "path too long: %s", path);
    unsigned mode = st_atomic_mode();
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        return st_error_set(err, ST_EIO, e, "cannot create a file in %s: %s", dir, strerror(e));
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    (void)fchmod(fd, (mode_t)mode);
    const char *what = "writing";
    int e = write_all(fd, data, len);
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
