/* fd_sync.h: push a file's data to stable storage, as far as the system
 * lets a program ask for it. */
#ifndef STAGETOP_FD_SYNC_H
#define STAGETOP_FD_SYNC_H

#include <stddef.h>

/* The file's data (not its timestamps) to the disk.  Where the system has
 * F_FULLFSYNC (macOS: fsync leaves the data in the drive's cache), that
 * first, falling back to fsync where the file system refuses it; else
 * fdatasync on Linux, fsync elsewhere.  0, or -1 with errno. */
int st_fd_sync_data(int fd);

/* Write all n bytes of p to fd: again after EINTR, and after EAGAIN (a
 * non-blocking descriptor, a full pipe) 1 ms later; a write of 0 bytes is
 * EIO.  0, or the errno. */
int st_fd_write_all(int fd, const void *p, size_t n);

#endif
