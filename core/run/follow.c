/* follow.c: tail -F of a stageload trace, events onto stagetop's clock. */
#include "stagetop/follow.h"
#include "stagetop/clock.h"
#include "stagetop/event_line.h"
#include "stagetop/trace_stream.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ST_FOLLOW_MAX_POLL (1u << 20) /* bytes read per poll: an endless file never
                                         holds the loop (the rest comes next poll) */
#define ST_FOLLOW_MAX_LINES 20000     /* lines handled per poll, likewise */

/* Only a regular file or a FIFO can be a trace the job writes: a device
 * (/dev/zero, /dev/urandom, a tty), a directory or a socket is refused. */
static int check_kind(const char *path, mode_t mode, st_error *err)
{
    if (S_ISREG(mode) || S_ISFIFO(mode))
        return ST_OK;
    const char *what = S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device"
                     : S_ISDIR(mode) ? "a directory" : S_ISSOCK(mode) ? "a socket" : "a special file";
    return st_error_set(err, ST_EINVAL, EINVAL, "%s is %s, not a regular file or FIFO", path, what);
}

int st_follow_open(st_follow *f, const char *path, st_error *err)
{
    memset(f, 0, sizeof *f);
    f->in.fd = -1;
    f->slice_s = ST_FOLLOW_SLICE_S;
    struct stat st;
    if (stat(path, &st) == 0 && check_kind(path, st.st_mode, err) != ST_OK)
        return ST_EINVAL;
    f->path = strdup(path);
    if (!f->path)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    st_trace_init(&f->scratch);
    return ST_OK;
}

void st_follow_close(st_follow *f)
{
    st_trace_stream_close(&f->in);
    free(f->path);
    st_trace_free(&f->scratch);
    memset(f, 0, sizeof *f);
    f->in.fd = -1;
}

/* (Re)open when the file appeared, was replaced, or shrank. */
static int sync_file(st_follow *f, st_error *err)
{
    struct stat st;
    if (stat(f->path, &st) != 0) {
        if (errno == ENOENT)
            return ST_OK; /* not yet, or being rotated: keep what we have */
        return st_error_set(err, ST_EIO, errno, "%s: %s", f->path, strerror(errno));
    }
    if (check_kind(f->path, st.st_mode, err) != ST_OK)
        return ST_EINVAL;
    int open_now = f->in.fd >= 0;
    int replaced = open_now && (st.st_dev != f->dev || st.st_ino != f->ino);
    int truncated = open_now && !replaced && !f->fifo && st.st_size < f->off;
    if (open_now && !replaced && !truncated)
        return ST_OK;
    st_trace_stream_close(&f->in);
    int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return st_error_set(err, ST_EIO, errno, "%s: %s", f->path, strerror(errno));
    int rc = fstat(fd, &st) != 0 ? st_error_set(err, ST_EIO, errno, "%s: %s", f->path, strerror(errno))
                                   : check_kind(f->path, st.st_mode, err);
    if (rc != ST_OK) { /* replaced by a device between stat() and open() */
        close(fd);
        return rc;
    }
    /* The trace reader's lines, as tail -F reads them: read() = 0 is
     * "nothing yet", a FIFO without data answers EAGAIN. */
    if ((rc = st_trace_stream_fd(&f->in, fd, 1, ST_TS_TAIL, err)) != ST_OK) {
        close(fd);
        return rc;
    }
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->fifo = S_ISFIFO(st.st_mode);
    f->off = 0;
    return ST_OK;
}

static void note_offset(st_follow *f, double now_s, double t)
{
    double off = now_s - t;
    if (!f->has_offset || off < f->offset) {
        f->offset = off;
        f->has_offset = 1;
    }
}

static int shown_kind(int kind)
{
    return kind == ST_EV_STAGE || kind == ST_EV_LOAD || kind == ST_EV_RELOAD ||
           kind == ST_EV_RELEASE || kind == ST_EV_MARK;
}

/* Seconds since the start as the run's millisecond, floored as the
 * monitor stamps its samples (an event and a sample of one instant get one t). */
static uint32_t ms_of(double s)
{
    double ms = s * 1000.0 + 1e-6;
    if (!(ms > 0))
        return 0;
    return ms > 4294967295.0 ? 4294967295u : (uint32_t)ms;
}

/* A plain line stamped "@SECONDS" (`stagetop stage|mark`) happened then, on
 * the monotonic clock whose reading at the run's start is f->clock0; one
 * without a stamp happened when it arrived.  Never before the start nor
 * after now. */
static int handle_plain(st_follow *f, const char *line, size_t len, double now_s,
                        void (*emit)(void *, const st_event *), void *ctx)
{
    st_error e;
    st_event ev;
    double at_s = -1.0;
    if (st_event_line_parse_at(line, len, &ev, &at_s, &e) != ST_OK) {
        f->bad_lines++;
        snprintf(f->last_error, sizeof f->last_error, "line %zu: %.200s", f->lineno, e.msg);
        return 0;
    }
    double t = now_s;
    if (at_s >= 0 && f->has_clock0) {
        t = at_s - f->clock0;
        if (t > now_s)
            t = now_s;
    }
    ev.t_ms = ms_of(t);
    emit(ctx, &ev);
    return 1;
}

static int handle_line(st_follow *f, const char *line, size_t len, double now_s,
                       void (*emit)(void *, const st_event *), void *ctx)
{
    st_error e;
    st_trace *s = &f->scratch;
    int n = 0;
    f->lineno = f->in.lineno;
    if (len == 0)
        return 0;
    if (f->in.cut) { /* longer than any trace line or event line */
        f->bad_lines++;
        snprintf(f->last_error, sizeof f->last_error, "line %zu: longer than %d bytes", f->lineno,
                 ST_TRACE_MAX_LINE);
        return 0;
    }
    if (st_event_line_is_plain(line, len)) /* "stage NAME", "mark TEXT", ... */
        return handle_plain(f, line, len, now_s, emit, ctx);
    s->n_samples = 0;
    s->events.len = 0;
    if (st_trace_feed_line(s, line, len, f->lineno, &e) != ST_OK) {
        f->bad_lines++;
        memcpy(f->last_error, e.msg, sizeof f->last_error);
        return 0;
    }
    for (size_t i = 0; i < s->n_samples; i++)
        note_offset(f, now_s, s->samples[i].t_ms / 1000.0);
    for (size_t i = 0; i < s->events.len; i++) {
        st_event ev = s->events.v[i];
        double t = ev.t_ms / 1000.0;
        note_offset(f, now_s, t);
        if (!shown_kind(ev.kind))
            continue;
        double at = t + f->offset;
        if (at < 0)
            at = 0;
        if (at > now_s)
            at = now_s;
        ev.t_ms = ms_of(at);
        emit(ctx, &ev);
        n++;
    }
    s->n_samples = 0;
    s->events.len = 0;
    return n;
}

/* One slice: lines until the stream has no whole line now, or the slice's
 * time (checked every 256 lines) or line count is spent (f->more set: the
 * rest waits for the next call). */
static int read_slice(st_follow *f, double now_s, void (*emit)(void *, const st_event *), void *ctx,
                      double slice_s, size_t max_lines, int *emitted, st_error *err)
{
    const char *line;
    size_t len, n = 0;
    int rc;
    double until = st_now() + slice_s;
    f->more = 0;
    while ((rc = st_trace_stream_next(&f->in, &line, &len, err)) == 1) {
        *emitted += handle_line(f, line, len, now_s, emit, ctx);
        if (++n >= max_lines || ((n & 255) == 0 && st_now() >= until)) {
            f->more = 1;
            rc = 0;
            break;
        }
    }
    f->off = (off_t)f->in.nread;
    return rc;
}

int st_follow_poll(st_follow *f, double now_s, void (*emit)(void *ctx, const st_event *ev),
                   void *ctx, st_error *err)
{
    int emitted = 0, rc = sync_file(f, err);
    if (rc != ST_OK || f->in.fd < 0)
        return rc;
    st_trace_stream_allow(&f->in, ST_FOLLOW_MAX_POLL);
    rc = read_slice(f, now_s, emit, ctx, f->slice_s > 0 ? f->slice_s : ST_FOLLOW_SLICE_S,
                    ST_FOLLOW_MAX_LINES, &emitted, err);
    if (rc < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        return st_error_set(err, rc, err ? err->sys_errno : 0, "%s: %s", f->path, msg);
    }
    return emitted;
}

int st_follow_finish(st_follow *f, double now_s, void (*emit)(void *ctx, const st_event *ev),
                     void *ctx, double limit_s, st_error *err)
{
    int emitted = 0, rc = sync_file(f, err);
    if (rc != ST_OK || f->in.fd < 0)
        return rc;
    /* No more writes are waited for: read() = 0 is the end, and a last line
     * without its newline is a line (a FIFO without data now: the end too). */
    f->in.flags = (f->in.flags & ~(unsigned)ST_TS_TAIL) | ST_TS_LIVE;
    f->in.limited = 0;
    rc = read_slice(f, now_s, emit, ctx, limit_s, (size_t)-1, &emitted, err);
    if (rc < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        return st_error_set(err, rc, err ? err->sys_errno : 0, "%s: %s", f->path, msg);
    }
    return emitted;
}
