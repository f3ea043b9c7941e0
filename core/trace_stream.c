/* trace_stream.c: a trace read in bounded chunks (see trace_stream.h), and
 * st_trace_load_file on top of it: JSONL is fed line by line, a JSON
 * document is handed whole to st_trace_load_mem. */
#include "stagetop/grow.h"
#include "stagetop/trace_stream.h"
#include "trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ST_STREAM_MAX_LINE 65536 /* the importer refuses longer JSONL lines */

/* Wait for a FIFO's first writer (or data); ST_EIO after wait_s. */
static int wait_fifo(int fd, const char *path, double wait_s, st_error *err)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int ms = wait_s <= 0 ? 0 : wait_s > 86400 ? 86400000 : (int)ceil(wait_s * 1000);
    for (;;) {
        int k = poll(&p, 1, ms);
        if (k < 0 && errno == EINTR)
            continue; /* (a signal: the wait restarts, bounded by the caller's own exit) */
        if (k < 0)
            return st_error_set(err, ST_EIO, errno, "%s: %s", path, strerror(errno));
        if (k == 0)
            return st_error_set(err, ST_EIO, ETIMEDOUT,
                                "a FIFO that no writer opened within %.0f s", wait_s);
        return ST_OK;
    }
}

int st_trace_stream_open(st_trace_stream *s, const char *path, double fifo_wait_s, st_error *err)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->max_line = ST_STREAM_MAX_LINE;
    if (!path)
        return st_error_set(err, ST_EINVAL, EINVAL, "no file name");
    if (strcmp(path, "-") == 0) {
        s->fd = STDIN_FILENO;
    } else {
        /* Non-blocking, so that a FIFO without a writer does not hang
         * open(); blocking again once it has one. */
        s->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (s->fd < 0) {
            int e = errno;
            return st_error_set(err, ST_EIO, e, "%s", strerror(e));
        }
        s->own = 1;
    }
    struct stat st;
    int rc = ST_OK;
    if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode))
        rc = st_error_set(err, ST_EIO, EISDIR, "is a directory");
    else if (s->own && fstat(s->fd, &st) == 0 && S_ISFIFO(st.st_mode))
        rc = wait_fifo(s->fd, path, fifo_wait_s, err);
    if (rc == ST_OK && s->own) {
        int fl = fcntl(s->fd, F_GETFL);
        if (fl >= 0)
            (void)fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    if (rc == ST_OK && !(s->buf = malloc(ST_TRACE_STREAM_CHUNK)))
        rc = st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    if (rc != ST_OK) {
        st_trace_stream_close(s);
        return rc;
    }
    s->cap = ST_TRACE_STREAM_CHUNK;
    return ST_OK;
}

void st_trace_stream_close(st_trace_stream *s)
{
    if (s->own && s->fd >= 0)
        close(s->fd);
    free(s->buf);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

/* Move the unread bytes to the front, make room (at least need bytes of
 * buffer, and always some free space), read once: 1, 0 at the end, or an
 * error naming the line being read. */
static int fill(st_trace_stream *s, size_t need, st_error *err)
{
    if (s->eof)
        return 0;
    if (s->pos > 0) {
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->len -= s->pos;
        s->pos = 0;
    }
    if (need < s->len + 1)
        need = s->len + 1;
    if (st_grow(&s->buf, &s->cap, need, 1, ST_TRACE_STREAM_CHUNK) != 0)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "line %zu: out of memory", s->lineno + 1);
    for (;;) {
        ssize_t k = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return st_error_set(err, ST_EIO, errno, "line %zu: read error: %s", s->lineno + 1,
                                strerror(errno));
        if (k == 0)
            s->eof = 1;
        s->len += (size_t)k;
        return k > 0;
    }
}

int st_trace_stream_peek(st_trace_stream *s, size_t want, const char **p, size_t *n, st_error *err)
{
    while (s->len - s->pos < want) {
        int rc = fill(s, want, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            break;
    }
    *p = s->buf + s->pos;
    *n = s->len - s->pos;
    return ST_OK;
}

int st_trace_stream_next(st_trace_stream *s, const char **line, size_t *len, st_error *err)
{
    size_t scan = s->pos;
    for (;;) {
        char *nl = memchr(s->buf + scan, '\n', s->len - scan);
        size_t have = (nl ? (size_t)(nl - s->buf) : s->len) - s->pos;
        if (s->skipping) { /* the tail of an over-long line: drop it */
            if (nl) {
                s->pos = (size_t)(nl - s->buf) + 1;
                s->skipping = 0;
                scan = s->pos;
                continue;
            }
            s->pos = s->len;
        } else if (nl) {
            *line = s->buf + s->pos;
            *len = have;
            s->pos += have + 1;
            s->lineno++;
            return 1;
        } else if (have > s->max_line) { /* cut: the importer reports it */
            *line = s->buf + s->pos;
            *len = s->max_line + 1;
            s->pos += s->max_line + 1;
            s->skipping = 1;
            s->lineno++;
            return 1;
        } else if (s->eof) {
            if (have == 0)
                return 0;
            *line = s->buf + s->pos; /* the last line, without a newline */
            *len = have;
            s->pos = s->len;
            s->lineno++;
            return 1;
        }
        size_t kept = s->len - s->pos; /* scanned already: no newline in it */
        int rc = fill(s, 0, err);
        if (rc < 0)
            return rc;
        scan = s->pos + kept;
    }
}

int st_trace_load_file(const char *path, st_trace *out, st_error *err)
{
    st_trace_stream s;
    const char *p, *line;
    size_t n, len;
    st_trace_init(out);
    int rc = st_trace_stream_open(&s, path, ST_TRACE_FIFO_WAIT_S, err);
    if (rc != ST_OK)
        return rc;
    /* Enough to see the first value's first keys: document or JSONL?  (Past
     * leading whitespace, up to 16 MiB of it: more is read on as JSONL.) */
    size_t want = ST_TRACE_STREAM_CHUNK, skip = 0, ws = 0;
    for (;;) {
        rc = st_trace_stream_peek(&s, want, &p, &n, err);
        if (rc != ST_OK)
            break;
        skip = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        if (ws < skip)
            ws = skip;
        while (ws < n && (p[ws] == ' ' || p[ws] == '\t' || p[ws] == '\r' || p[ws] == '\n'))
            ws++;
        if (ws < n || s.eof || want >= (16u << 20))
            break;
        want *= 2;
    }
    if (rc != ST_OK) {
        /* nothing */
    } else if ((ws == n && s.eof) || (ws < n && p[ws] != '{')) {
        rc = st_trace_load_mem(p, n, out, err); /* "empty trace", "not a trace": line N */
    } else if (ws < n && st_trace_looks_like_doc(p + ws, n - ws)) {
        rc = st_trace_load_doc_fd(s.fd, p, n, out, err);
    } else { /* JSONL (or a chunk of whitespace: read on as JSONL) */
        if (skip)
            s.pos += skip;
        while (rc == ST_OK && (rc = st_trace_stream_next(&s, &line, &len, err)) == 1)
            rc = st_trace_feed_line(out, line, len, s.lineno, err);
        if (rc == ST_ENOMEM && !strstr(err ? err->msg : "line", "line")) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            st_error_set(err, ST_ENOMEM, ENOMEM, "line %zu: %s", s.lineno, msg);
        }
        if (rc == ST_OK) {
            if (out->format == ST_FMT_UNKNOWN)
                out->format = ST_FMT_JSONL;
            st_trace_finish(out);
        } else {
            st_trace_free(out);
        }
    }
    st_trace_stream_close(&s);
    return rc;
}
