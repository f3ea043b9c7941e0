/* error.c: st_error helpers. */
#include "stagetop/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int st_error_set(st_error *err, int code, int sys_errno, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->sys_errno = sys_errno;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void st_error_clear(st_error *err)
{
    if (err) {
        err->code = ST_OK;
        err->sys_errno = 0;
        err->msg[0] = '\0';
    }
}

const char *st_status_name(int code)
{
    switch (code) {
    case ST_OK: return "ok";
    case ST_ESRCH: return "no such process";
    case ST_EPERM: return "permission denied";
    case ST_EINVAL: return "invalid argument";
    case ST_EIO: return "input/output error";
    case ST_ENOMEM: return "out of memory";
    case ST_EPARSE: return "malformed input";
    case ST_ENOTSUP: return "not available";
    case ST_EAGAIN: return "nothing yet";
    default: return "unknown error";
    }
}
