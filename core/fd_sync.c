/* fd_sync.c: a file's data to stable storage (fd_sync.h).
 *
 * macOS: "fsync() will flush all data from the host to the drive ... the
 * drive itself may not physically write the data to the platters for quite
 * some time ... Mac OS X provides the F_FULLFSYNC fcntl" (fsync(2), XNU
 * bsd/man/man2/fsync.2); F_FULLFSYNC is 51 in <sys/fcntl.h> ("fsync + ask
 * the drive to flush to the media") and, by fcntl(2), is "implemented on
 * HFS, MS-DOS (FAT), and Universal Disk Format (UDF) file systems": where it
 * fails, fsync is the best left.  Its cost was not measured (no Mac here):
 * docs/macos.md. */
#include "stagetop/fd_sync.h"
#include <time.h>
#include <errno.h>

#include <fcntl.h>
#include <unistd.h>

int st_fd_sync_data(int fd)
{
#if defined(F_FULLFSYNC)
    if (fcntl(fd, F_FULLFSYNC) == 0)
        return 0;
    return fsync(fd);
#elif defined(__linux__)
    return fdatasync(fd);
#else
    return fsync(fd);
#endif
}

int st_fd_write_all(int fd, const void *buf, size_t left)
{
    const char *p = buf;
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct timespec ts = { 0, 1000000L };
                nanosleep(&ts, NULL);
                continue;
            }
            return errno;
        }
        if (k == 0)
            return EIO;
        p += k;
        left -= (size_t)k;
    }
    return 0;
}
