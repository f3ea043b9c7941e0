/* env_block.c: a variable of an environment block (env_block.h). */
#include "stagetop/env_block.h"

#include <string.h>

int st_env_block_find(const char *buf, size_t len, const char *name, const char **val,
                      size_t *vlen)
{
    size_t nlen = name ? strlen(name) : 0;
    if (!buf || nlen == 0 || memchr(name, '=', nlen))
        return 0;
    size_t i = 0;
    while (i < len) {
        const char *e = buf + i;
        const char *nul = memchr(e, '\0', len - i);
        size_t elen = nul ? (size_t)(nul - e) : len - i;
        if (elen > nlen && memcmp(e, name, nlen) == 0 && e[nlen] == '=') {
            *val = e + nlen + 1;
            *vlen = elen - nlen - 1;
            return 1;
        }
        i += elen + 1;
    }
    return 0;
}
