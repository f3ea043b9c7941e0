/* error.h: the one error type of stagetop's core.
 *
 * Everything in core/ that can fail returns an int status (ST_OK or one of
 * ST_E*) and, when the caller passes a non-NULL st_error, fills it with the
 * code, the errno seen (0 if none) and a one-line human message.  The core
 * never prints and never exits; the front end (tui/main.c) decides. */
#ifndef STAGETOP_ERROR_H
#define STAGETOP_ERROR_H

#include <stddef.h>

enum st_status {
    ST_OK = 0,
    ST_ESRCH = -1,   /* no such process (or it exited, or its pid was reused) */
    ST_EPERM = -2,   /* the kernel refused: another user's process */
    ST_EINVAL = -3,  /* bad argument or value out of range */
    ST_EIO = -4,     /* a read or write failed (errno says why) */
    ST_ENOMEM = -5,  /* out of memory */
    ST_EPARSE = -6,  /* malformed input; msg names the line */
    ST_ENOTSUP = -7, /* not available on this system (not an error for samples) */
    ST_EAGAIN = -8   /* nothing yet (e.g. a followed file has no new line) */
};

typedef struct st_error {
    int code;       /* one of enum st_status */
    int sys_errno;  /* errno at the failure, 0 if none */
    char msg[256];  /* one line, no trailing newline */
} st_error;

/* Fill *err (if err != NULL) and return code.  printf-style message. */
int st_error_set(st_error *err, int code, int sys_errno, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Reset *err to ST_OK with an empty message (NULL is allowed). */
void st_error_clear(st_error *err);

/* A static name for a status code ("no such process", ...). */
const char *st_status_name(int code);

#endif
