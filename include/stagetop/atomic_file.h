/* atomic_file.h: replace a file's contents atomically: the one writer of
 * every file stagetop makes (trace export, plot, report, diff, metrics).
 *
 * A temporary file beside the target (".NAME.PID-RANDOM" in the target's
 * directory, created with O_EXCL, so never an existing file or a symlink;
 * mode 0666 less the umask, as for any new file), written whole, renamed
 * over the target.  A reader sees the old contents or the new ones, never a
 * mix; a failure leaves the old file and removes the temporary one.  A
 * process killed between creating and renaming leaves the temporary file
 * behind.
 *
 * Not every target is a file to replace: "-" is stdout, and an existing
 * FIFO, character device or terminal (or a symlink to one, such as
 * /proc/self/fd/1, /dev/stdout: then the descriptor's file, even a regular
 * one, truncated) is opened and written in place, never replaced (a FIFO
 * nothing reads within ST_ATOMIC_FIFO_WAIT_S is refused; a write error, as
 * /dev/full's ENOSPC, is the writer's error).  A directory or any other kind of node is
 * refused.  A symlink to a regular file is replaced by the new file (the
 * file it named untouched). */
#ifndef STAGETOP_ATOMIC_FILE_H
#define STAGETOP_ATOMIC_FILE_H

#include <stddef.h>
#include "stagetop/error.h"

#define ST_ATOMIC_FIFO_WAIT_S 5.0 /* how long a FIFO target may wait for its reader */

enum st_atomic_flags {
    ST_ATOMIC_SYNC = 1u << 0  /* fsync the file before the rename and the directory after
                                 (durable across a crash; costs milliseconds) */
};

/* Write len bytes of data to path atomically.  ST_EINVAL for an empty name
 * or one ending in '/', ST_EIO with the step and the reason ("cannot create
 * a file in DIR: ...", "renaming into PATH: ..."). */
int st_atomic_write(const char *path, const char *data, size_t len, unsigned flags, st_error *err);

/* The same in steps, for a writer that streams: st_atomic_open creates the
 * temporary file (fd open for writing, close-on-exec), the caller writes to
 * fd, then st_atomic_commit (sync as asked, close, rename; on failure the
 * temporary file is removed) or st_atomic_abort (close, remove).  Exactly
 * one of them after a successful open. */
typedef struct st_atomic_file {
    int fd;
    int in_place;         /* 1: fd is the target itself (stdout, a FIFO, a device) */
    unsigned flags;
    const char *path;     /* the caller's, kept until commit or abort */
    char dir[4096];
    char tmp[4096 + 80];
} st_atomic_file;

int st_atomic_open(st_atomic_file *af, const char *path, unsigned flags, st_error *err);
int st_atomic_commit(st_atomic_file *af, st_error *err);
void st_atomic_abort(st_atomic_file *af);

/* Could path be written now?  What st_atomic_open would refuse, without
 * writing anything: a temporary file made and removed for a regular target,
 * only a write-permission check for a FIFO or a device (opening a FIFO
 * would end its reader's input). */
int st_atomic_check(const char *path, st_error *err);

#endif
