/* atomic_file.h: replace a file's contents atomically.
 *
 * The same steps as the trace export's (core/trace_export.c): a temporary
 * file beside the target (".NAME.PID-RANDOM", created with O_EXCL, so never
 * an existing file or a symlink), written whole, renamed over the target.  A
 * reader sees the old contents or the new ones, never a mix; a failure
 * leaves the old file and removes the temporary one.  A process killed
 * between creating and renaming leaves the temporary file behind. */
#ifndef STAGETOP_ATOMIC_FILE_H
#define STAGETOP_ATOMIC_FILE_H

#include <stddef.h>
#include "stagetop/error.h"

enum st_atomic_flags {
    ST_ATOMIC_SYNC = 1u << 0  /* fsync the file before the rename and the directory after
                                 (durable across a crash; costs milliseconds) */
};

/* Write len bytes of data to path atomically, mode 0666 less the umask.
 * ST_EINVAL for an empty name or one ending in '/', ST_EIO with the step
 * and the reason ("cannot create a file in DIR: ...", "renaming into
 * PATH: ..."). */
int st_atomic_write(const char *path, const char *data, size_t len, unsigned flags, st_error *err);

#endif
