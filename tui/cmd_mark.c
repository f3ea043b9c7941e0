/* cmd_mark.c: `stagetop mark [TEXT...]` and `stagetop stage NAME`, run by
 * the job itself: one line appended to $STAGETOP_EVENTS (tui/job_events.c
 * makes that file). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "stagetop/clock.h"
#include "stagetop/event_line.h"

#define MARK_WAIT_S 5 /* `stagetop mark` waits this long at most for a FIFO's reader */

int cli_mark(int argc, char **argv)
{
    const char *kind = argv[1]; /* "mark" or "stage" */
    int is_stage = strcmp(kind, "stage") == 0;
    if (argc >= 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)) {
        printf("usage: stagetop %s %s\n  appends \"@TIME %s %s\" to $STAGETOP_EVENTS, the events "
               "file of a job\n  that stagetop started (stagetop [options] -- CMD)\n",
               kind, is_stage ? "NAME" : "[TEXT...]", kind, is_stage ? "NAME" : "TEXT");
        return CLI_EXIT_OK;
    }
    if (is_stage && argc < 3) {
        fprintf(stderr, "stagetop: usage: stagetop stage NAME\n");
        return CLI_EXIT_USAGE;
    }
    char text[1024] = "";
    size_t off = 0;
    for (int i = 2; i < argc; i++) {
        int n = snprintf(text + off, sizeof text - off, "%s%s", i > 2 ? " " : "", argv[i]);
        if (n < 0 || (size_t)n >= sizeof text - off) {
            fprintf(stderr, "stagetop: %s: the text is too long (at most %zu bytes)\n", kind,
                    sizeof text - 1);
            return CLI_EXIT_USAGE;
        }
        off += (size_t)n;
    }
    const char *path = getenv("STAGETOP_EVENTS");
    if (!path || !*path) {
        fprintf(stderr, "stagetop: %s: STAGETOP_EVENTS is not set: run this inside a job that "
                "stagetop started (stagetop [options] -- CMD)\n", kind);
        return CLI_EXIT_WATCH;
    }
    char line[1100];
    /* Stamped now, when the job asks: the stage starts here, not when
     * stagetop next reads the file (docs/job-events.md). */
    size_t len = st_event_line_format(kind, text, st_now(), line, sizeof line);
    if (len == 0) {
        fprintf(stderr, "stagetop: %s: cannot format the line\n", kind);
        return CLI_EXIT_USAGE;
    }
    /* No O_CREAT: the file is stagetop's; a missing one means the run is
     * over.  Never blocking for ever: a FIFO (--events FIFO, or a variable
     * pointed at one) without a reader, or whose reader stopped reading, is
     * waited for MARK_WAIT_S at most. */
    int fd, waited_ms = 0;
    while ((fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)) < 0 &&
           errno == ENXIO && waited_ms < MARK_WAIT_S * 1000) {
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
        waited_ms += 50;
    }
    if (fd < 0) {
        if (errno == ENXIO)
            fprintf(stderr, "stagetop: %s: %s: a FIFO that nothing read within %d s\n", kind, path,
                    MARK_WAIT_S);
        else
            fprintf(stderr, "stagetop: %s: %s: %s\n", kind, path, strerror(errno));
        return CLI_EXIT_WATCH;
    }
    ssize_t w;
    for (;;) {
        w = write(fd, line, len); /* one write: lines of concurrent writers do not mix */
        if (w >= 0 || (errno != EINTR && errno != EAGAIN))
            break;
        struct pollfd p = { .fd = fd, .events = POLLOUT };
        if (errno == EAGAIN && poll(&p, 1, MARK_WAIT_S * 1000) == 0) { /* a full FIFO */
            errno = ETIMEDOUT;
            break;
        }
    }
    int e = errno;
    close(fd);
    if (w != (ssize_t)len) {
        fprintf(stderr, "stagetop: %s: %s: %s\n", kind, path,
                w >= 0 ? "short write" : e == ETIMEDOUT ? "a FIFO that nothing read" : strerror(e));
        return CLI_EXIT_WATCH;
    }
    return CLI_EXIT_OK;
}
