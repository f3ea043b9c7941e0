/* atomic_file.h: replace a file's contents atomically: the one writer of
 * every file stagetop makes (trace export, plot, report, diff, metrics).
 *
 * A temporary file beside the target (".NAME.PID-RANDOM" in the target's
 * directory, created with O_EXCL, so never an existing file or a symlink;
 * mode 0666 less the umask, as for any new file), written whole, renamed
 * over the target.  A reader sees the old contents or the new ones, never a
 * mix; a failure leaves the old file and removes the temporary one.  A
 * process killed between creating and renaming leaves the temporary file
 * behind. */
#ifndef STAGETOP_ATOMIC_FILE_H
#define STAGETOP_ATOMIC_FILE_H

#include <stddef.h>
#include "stagetop/error.h"

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
    unsigned flags;
    const char *path;     /* the caller's, kept until commit or abort */
    char dir[4096];
    char tmp[4096 + 80];
} st_atomic_file;

int st_atomic_open(st_atomic_file *af, const char *path, unsigned flags, st_error *err);
int st_atomic_commit(st_atomic_file *af, st_error *err);
void st_atomic_abort(st_atomic_file *af);

#endif
