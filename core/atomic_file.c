/* atomic_file.c: temp file beside the target + rename (atomic_file.h). */
#include "stagetop/atomic_file.h"
#include "stagetop/fd_sync.h"
#include "stagetop/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A name of an open descriptor: /proc/..., /dev/fd/N, /dev/stdout,
 * /dev/stderr (a regular file in /dev/shm is not one). */
static int is_fd_name(const char *p)
{
    return strncmp(p, "/proc/", 6) == 0 || strncmp(p, "/dev/fd/", 8) == 0 ||
           strcmp(p, "/dev/stdout") == 0 || strcmp(p, "/dev/stderr") == 0;
}

/* path is such a name, or a symlink whose target is. */
static int names_a_descriptor(const char *path)
{
    char to[256];
    if (is_fd_name(path))
        return 1;
    ssize_t n = readlink(path, to, sizeof to - 1);
    if (n <= 0)
        return 0;
    to[n] = '\0';
    return is_fd_name(to);
}

/* A target that is not a regular file (a FIFO, a character device, a
 * terminal, a link to one such as /proc/self/fd/1): opened and written in
 * place, never replaced.  A FIFO is opened without blocking (no reader:
 * ENXIO, refused) and then written blocking. */
static int open_in_place(st_atomic_file *af, const char *path, const struct stat *sb, st_error *err)
{
    if (S_ISDIR(sb->st_mode))
        return st_error_set(err, ST_EIO, EISDIR, "%s is a directory", path);
    if (!S_ISFIFO(sb->st_mode) && !S_ISCHR(sb->st_mode) && !S_ISREG(sb->st_mode))
        return st_error_set(err, ST_EIO, EINVAL,
                            "%s is not a regular file, a FIFO or a character device", path);
    int fd = -1, e = 0;
    for (int waited = 0;; waited += 50) {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (S_ISREG(sb->st_mode) ? O_TRUNC : 0));
        e = fd < 0 ? errno : 0;
        if (fd >= 0 || e != ENXIO || waited >= (int)(ST_ATOMIC_FIFO_WAIT_S * 1000))
            break;
        struct timespec ts = { 0, 50 * 1000000L }; /* a FIFO whose reader is not there yet */
        nanosleep(&ts, NULL);
    }
    if (fd < 0) {
        if (e == ENXIO)
            return st_error_set(err, ST_EIO, e, "%s: a FIFO that nothing read within %g s", path,
                                ST_ATOMIC_FIFO_WAIT_S);
        return st_error_set(err, ST_EIO, e, "cannot open %s: %s", path, strerror(e));
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    af->fd = fd;
    af->in_place = 1;
    return ST_OK;
}

int st_atomic_open(st_atomic_file *af, const char *path, unsigned flags, st_error *err)
{
    struct stat sb;
    af->fd = -1;
    af->flags = flags;
    af->path = path;
    af->tmp[0] = '\0';
    af->in_place = 0;
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return st_error_set(err, ST_EINVAL, EINVAL, "bad file name '%s'", path ? path : "");
    if (strcmp(path, "-") == 0) { /* stdout, in place */
        int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
        if (fd < 0)
            return st_error_set(err, ST_EIO, errno, "stdout: %s", strerror(errno));
        af->fd = fd;
        af->in_place = 1;
        return ST_OK;
    }
    /* stat follows a symlink: a link to a regular file is replaced (the file
     * it names untouched), a link to a device or a FIFO is written through;
     * so is the name of a descriptor, or a link to one (/proc/self/fd/1,
     * /dev/stdout: the descriptor's file, whatever it is). */
    if (stat(path, &sb) == 0 && (!S_ISREG(sb.st_mode) || names_a_descriptor(path)))
        return open_in_place(af, path, &sb, err);
    const char *slash = strrchr(path, '/');
    int nd;
    if (!slash)
        nd = snprintf(af->dir, sizeof af->dir, ".");
    else if (slash == path)
        nd = snprintf(af->dir, sizeof af->dir, "/");
    else
        nd = snprintf(af->dir, sizeof af->dir, "%.*s", (int)(slash - path), path);
    if (nd < 0 || (size_t)nd >= sizeof af->dir)
        return st_error_set(err, ST_EINVAL, ENAMETOOLONG, "path too long: %s", path);
    const char *base = slash ? slash + 1 : path;
    /* O_EXCL: never an existing file, never through a symlink; the mode is
     * 0666 less the umask, as for any new file. */
    double t = st_now();
    unsigned long long salt = t > 0 ? (unsigned long long)(t * 1e9) : 0;
    int fd = -1, e = 0;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        int nt = snprintf(af->tmp, sizeof af->tmp, "%s/.%.64s.%ld-%llx", af->dir, base, (long)getpid(),
                          (salt + (unsigned long long)attempt * 0x9E3779B97F4A7C15ull) & 0xffffffffffull);
        if (nt < 0 || (size_t)nt >= sizeof af->tmp)
            return st_error_set(err, ST_EINVAL, ENAMETOOLONG, "path too long: %s", path);
        fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        e = fd < 0 ? errno : 0;
        if (fd < 0 && e != EEXIST)
            break;
    }
    if (fd < 0) {
        af->tmp[0] = '\0';
        return st_error_set(err, ST_EIO, e, "cannot create a file in %s: %s", af->dir, strerror(e));
    }
    af->fd = fd;
    return ST_OK;
}

int st_atomic_check(const char *path, st_error *err)
{
    struct stat sb;
    if (path && strcmp(path, "-") == 0)
        return ST_OK;
    if (path && *path && stat(path, &sb) == 0 && (!S_ISREG(sb.st_mode) || names_a_descriptor(path))) {
        if (S_ISDIR(sb.st_mode))
            return st_error_set(err, ST_EIO, EISDIR, "%s is a directory", path);
        if (!S_ISFIFO(sb.st_mode) && !S_ISCHR(sb.st_mode) && !S_ISREG(sb.st_mode))
            return st_error_set(err, ST_EIO, EINVAL,
                                "%s is not a regular file, a FIFO or a character device", path);
        if (access(path, W_OK) != 0)
            return st_error_set(err, ST_EIO, errno, "cannot write %s: %s", path, strerror(errno));
        return ST_OK;
    }
    st_atomic_file af;
    int rc = st_atomic_open(&af, path, 0, err);
    if (rc == ST_OK)
        st_atomic_abort(&af);
    return rc;
}

void st_atomic_abort(st_atomic_file *af)
{
    if (af->fd >= 0)
        close(af->fd);
    af->fd = -1;
    if (af->tmp[0])
        unlink(af->tmp);
    af->tmp[0] = '\0';
    af->in_place = 0; /* written in place: what reached it stays */
}

int st_atomic_commit(st_atomic_file *af, st_error *err)
{
    const char *what = "syncing";
    int e = 0;
    if (af->in_place) { /* no sync (a pipe or a device has none), no rename */
        if (close(af->fd) != 0 && errno != EINTR)
            e = errno;
        af->fd = -1;
        af->in_place = 0;
        if (e)
            return st_error_set(err, ST_EIO, e, "closing %s: %s", af->path, strerror(e));
        return ST_OK;
    }
    if ((af->flags & ST_ATOMIC_SYNC) && fsync(af->fd) != 0)
        e = errno;
    if (close(af->fd) != 0 && !e) { /* NFS and quotas may report here */
        e = errno;
        what = "closing";
    }
    af->fd = -1;
    if (!e && rename(af->tmp, af->path) != 0) {
        e = errno;
        what = "renaming into";
    }
    if (e) {
        st_atomic_abort(af);
        return st_error_set(err, ST_EIO, e, "%s %s: %s", what, af->path, strerror(e));
    }
    af->tmp[0] = '\0';
    if (af->flags & ST_ATOMIC_SYNC) { /* make the rename itself durable (best effort) */
        int dfd = open(af->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    return ST_OK;
}

int st_atomic_write(const char *path, const char *data, size_t len, unsigned flags, st_error *err)
{
    st_atomic_file af;
    int rc = st_atomic_open(&af, path, flags, err);
    if (rc != ST_OK)
        return rc;
    int e = st_fd_write_all(af.fd, data, len);
    if (e) {
        st_atomic_abort(&af);
        return st_error_set(err, ST_EIO, e, "writing %s: %s", path, strerror(e));
    }
    return st_atomic_commit(&af, err);
}
