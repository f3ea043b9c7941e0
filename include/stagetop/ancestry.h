/* ancestry.h: stagetop's own line of ancestors, for jobctl's rule "never
 * signal pid <= 1, stagetop itself or one of its ancestors" (docs/guard.md,
 * "Safety").
 *
 * The chain is self, parent (getppid), then each parent's parent through
 * the platform table's identify_parent (Linux: /proc/PID/stat; macOS: the
 * kern.proc.pid sysctl), up to pid 1.  A platform without identify_parent,
 * or a parent that cannot be read, ends the chain there. */
#ifndef STAGETOP_ANCESTRY_H
#define STAGETOP_ANCESTRY_H

#include <stdint.h>
#include "stagetop/platform.h"

#define ST_ANCESTRY_MAX 128

typedef struct st_ancestry {
    int32_t pid[ST_ANCESTRY_MAX]; /* self, parent, grandparent, ... */
    int n;
} st_ancestry;

/* Fill a with self, parent and their ancestors read through plat/b (b may
 * be NULL: a backend of plat is opened for the walk and closed). */
void st_ancestry_build(st_ancestry *a, const st_platform *plat, st_backend *b, int32_t self,
                       int32_t parent);
/* NULL when pid may be signalled, else why not ("pid 1 (init)", "not a
 * process", "stagetop itself", "an ancestor of stagetop"). */
const char *st_ancestry_why(const st_ancestry *a, int32_t pid);

#endif
