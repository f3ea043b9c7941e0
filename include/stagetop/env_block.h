/* env_block.h: one variable of another process's environment, read from
 * the block its system gives (platform module).  A block is NAME=VALUE
 * strings, each ended by a NUL: Linux's /proc/PID/environ, and the
 * environment part of macOS's KERN_PROCARGS2.  The parser is fed from
 * memory (tests/unit/test_env_block.c); the backends read the block. */
#ifndef STAGETOP_ENV_BLOCK_H
#define STAGETOP_ENV_BLOCK_H

#include <stddef.h>

/* The value of the first NAME=... string of buf[0..len) (as getenv finds
 * the first): 1 and *val, *vlen (a span of buf, not NUL-ended when the block
 * was cut short) when found, else 0.  An entry without '=', an empty name,
 * a name holding '=' and a block cut inside "NAME=" find nothing. */
int st_env_block_find(const char *buf, size_t len, const char *name, const char **val,
                      size_t *vlen);

#endif
