/* trace_stream.c: the one reader of traces (trace_stream.h): lines read in
 * bounded chunks, records fed to the importer as their lines complete, a
 * JSON document loaded at its end; st_trace_load_file on top of it. */
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

int st_trace_stream_fd(st_trace_stream *s, int fd, int own, unsigned flags, st_error *err)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    s->own = own;
    s->flags = flags;
    s->max_line = ST_TRACE_MAX_LINE;
    if (!(s->buf = malloc(ST_TRACE_STREAM_CHUNK))) {
        st_trace_stream_close(s);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    }
    s->cap = ST_TRACE_STREAM_CHUNK;
    return ST_OK;
}

int st_trace_stream_open(st_trace_stream *s, const char *path, double fifo_wait_s, st_error *err)
{
    int fd = STDIN_FILENO, own = 0;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (!path)
        return st_error_set(err, ST_EINVAL, EINVAL, "no file name");
    if (strcmp(path, "-") != 0) {
        /* Non-blocking, so that a FIFO without a writer does not hang
         * open(); blocking again once it has one. */
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            int e = errno;
            return st_error_set(err, ST_EIO, e, "%s", strerror(e));
        }
        own = 1;
    }
    struct stat st;
    int rc = ST_OK;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        rc = st_error_set(err, ST_EIO, EISDIR, "is a directory");
    else if (own && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        rc = wait_fifo(fd, path, fifo_wait_s, err);
    if (rc == ST_OK && own) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    if (rc != ST_OK) {
        if (own)
            close(fd);
        return rc;
    }
    return st_trace_stream_fd(s, fd, own, 0, err);
}

void st_trace_stream_allow(st_trace_stream *s, uint64_t bytes)
{
    s->allow = bytes;
    s->limited = bytes > 0;
}

void st_trace_stream_close(st_trace_stream *s)
{
    if (s->own && s->fd >= 0)
        close(s->fd);
    free(s->buf);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

/* Is there something to read now (ST_TS_LIVE)? */
static int readable(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int k;
    while ((k = poll(&p, 1, 0)) < 0 && errno == EINTR)
        ;
    return k != 0; /* (an error: let read() say what it is) */
}

/* Move the unread bytes to the front, make room (at least need bytes of
 * buffer, and always some free space), read once: 1, 0 at the end (eof
 * set) or when nothing is there now (ST_TS_LIVE / ST_TS_TAIL, or the
 * allowance is spent), or an error naming the line being read. */
static int fill(st_trace_stream *s, size_t need, st_error *err)
{
    if (s->eof || (s->limited && s->allow == 0))
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
    if ((s->flags & ST_TS_LIVE) && !readable(s->fd))
        return 0;
    for (;;) {
        ssize_t k = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && (s->flags & (ST_TS_LIVE | ST_TS_TAIL)))
            return 0; /* nothing now */
        if (k < 0)
            return st_error_set(err, ST_EIO, errno, "line %zu: read error: %s", s->lineno + 1,
                                strerror(errno));
        if (k == 0 && !(s->flags & ST_TS_TAIL))
            s->eof = 1;
        s->len += (size_t)k;
        s->nread += (uint64_t)k;
        if (s->limited)
            s->allow = (uint64_t)k >= s->allow ? 0 : s->allow - (uint64_t)k;
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
    s->cut = 0;
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
            if (have > s->max_line) { /* cut, like one whose end is not read yet */
                *len = s->max_line + 1;
                s->cut = 1;
            }
            return 1;
        } else if (have > s->max_line) { /* cut: the importer reports it */
            *line = s->buf + s->pos;
            *len = s->max_line + 1;
            s->pos += s->max_line + 1;
            s->skipping = 1;
            s->cut = 1;
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
        if (rc == 0 && !s->eof)
            return 0; /* the rest of the line is not there yet */
        scan = s->pos + kept;
    }
}

/* ---- records ---- */

int st_trace_reader_fd(st_trace_reader *r, int fd, int own, unsigned flags, int strict, st_error *err)
{
    memset(r, 0, sizeof *r);
    r->strict = strict;
    return st_trace_stream_fd(&r->s, fd, own, flags, err);
}

void st_trace_reader_close(st_trace_reader *r)
{
    st_trace_stream_close(&r->s);
    memset(r, 0, sizeof *r);
    r->s.fd = -1;
}

/* A bad line: the error when strict, else counted and kept as the last. */
static int bad_line(st_trace_reader *r, int rc, const st_error *e, st_error *err)
{
    if (r->strict || rc == ST_ENOMEM) {
        if (err && e != err)
            *err = *e;
        return rc;
    }
    r->bad++;
    r->last_bad = *e;
    return ST_OK;
}

/* Whitespace-only or non-'{' data where a file's first value should be:
 * the importer's message ("empty trace", "not a trace: ..."). */
static int not_a_trace(st_trace_reader *r, st_error *err)
{
    const char *p;
    size_t n;
    int rc = st_trace_stream_peek(&r->s, ST_TRACE_STREAM_CHUNK, &p, &n, err);
    if (rc == ST_OK) {
        size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
            i++;
        if ((i == n && r->s.eof) || (i < n && p[i] != '{')) {
            st_trace scratch;
            rc = st_trace_load_mem(p, n, &scratch, err);
            st_trace_free(&scratch);
            return rc == ST_OK ? ST_EPARSE : rc;
        }
    }
    return rc == ST_OK ? 1 : rc;
}

/* A document: read to its end, then loaded in place of t's records. */
static int load_doc(st_trace_reader *r, st_trace *t, st_error *err)
{
    st_trace d;
    int rc;
    if (!(r->s.flags & (ST_TS_LIVE | ST_TS_TAIL))) {
        rc = st_trace_load_doc_fd(r->s.fd, r->s.buf + r->s.pos, r->s.len - r->s.pos, &d, err);
    } else {
        for (;;) {
            if (r->s.len - r->s.pos >= ST_TRACE_MAX_INPUT)
                return st_error_set(err, ST_EINVAL, EFBIG, "larger than %llu GiB", ST_TRACE_MAX_INPUT >> 30);
            size_t have = r->s.len - r->s.pos;
            const char *p;
            size_t n;
            if ((rc = st_trace_stream_peek(&r->s, have + ST_TRACE_STREAM_CHUNK, &p, &n, err)) != ST_OK)
                return rc;
            if (r->s.eof)
                break;
            if (n == have)
                return ST_OK; /* the rest is not there yet */
        }
        rc = st_trace_load_mem(r->s.buf + r->s.pos, r->s.len - r->s.pos, &d, err);
    }
    r->ended = 1;
    r->s.pos = r->s.len;
    if (rc != ST_OK)
        return rc;
    st_trace_free(t);
    *t = d;
    r->doc_loaded = 1;
    return ST_OK;
}

int st_trace_reader_poll(st_trace_reader *r, st_trace *t, uint64_t bytes, st_error *err)
{
    const char *p, *line;
    size_t n, len;
    int rc = ST_OK;
    st_error e;
    if (r->ended)
        return ST_OK;
    st_trace_stream_allow(&r->s, bytes);
    int decided = r->kind == ST_TRACE_MORE;
    while (r->kind == ST_TRACE_MORE) {
        size_t have = r->s.len - r->s.pos;
        if ((rc = st_trace_stream_peek(&r->s, have + 1, &p, &n, err)) != ST_OK)
            return rc;
        r->kind = st_trace_detect(p, n, r->s.eof);
        if (r->kind == ST_TRACE_MORE && n == have && !r->s.eof)
            return ST_OK; /* nothing more now */
    }
    if (decided && r->strict && r->kind == ST_TRACE_LINES && (rc = not_a_trace(r, err)) != 1)
        return rc;
    if (r->kind == ST_TRACE_DOC)
        return load_doc(r, t, err);
    if (r->s.lineno == 0 && r->s.len - r->s.pos >= 3 && memcmp(r->s.buf + r->s.pos, "\xEF\xBB\xBF", 3) == 0)
        r->s.pos += 3; /* a byte order mark */
    st_error_clear(&e);
    while ((rc = st_trace_stream_next(&r->s, &line, &len, &e)) == 1) {
        int k = st_trace_feed_line(t, line, len, r->s.lineno, &e);
        if (k == ST_ENOMEM && !strstr(e.msg, "line")) {
            char msg[sizeof e.msg];
            snprintf(msg, sizeof msg, "%s", e.msg);
            st_error_set(&e, ST_ENOMEM, ENOMEM, "line %zu: %s", r->s.lineno, msg);
        }
        if (k != ST_OK && k != ST_ENOMEM && r->s.eof && r->s.pos == r->s.len && r->s.len > 0 &&
            r->s.buf[r->s.len - 1] != '\n' && r->s.lineno > 1) {
            /* The last line, without its newline, is not a record: a copy
             * of a running record, a full disk.  Keep what precedes it and
             * say so (torn_line); a bad line elsewhere stays an error. */
            t->torn_line = r->s.lineno;
            snprintf(t->torn_msg, sizeof t->torn_msg, "%.199s", e.msg);
            k = ST_OK;
        }
        if (k != ST_OK && (k = bad_line(r, k, &e, err)) != ST_OK)
            return k;
        st_error_clear(&e);
    }
    if (rc < 0) {
        if (err)
            *err = e;
        return rc;
    }
    if (r->s.eof) {
        r->ended = 1;
        if (t->format == ST_FMT_UNKNOWN)
            t->format = ST_FMT_JSONL;
    }
    return ST_OK;
}

/* Read a whole file; fold > 0: summary-only (st_trace->fold); pass: its
 * callback on each sample (NULL: none). */
static int load_file(const char *path, st_trace *out, size_t fold, const st_trace_pass *pass,
                     st_error *err)
{
    st_trace_reader r;
    st_trace_init(out);
    out->fold = fold;
    out->pass = pass;
    memset(&r, 0, sizeof r);
    int rc = st_trace_stream_open(&r.s, path, ST_TRACE_FIFO_WAIT_S, err);
    if (rc != ST_OK)
        return rc;
    r.strict = 1;
    while (rc == ST_OK && !r.ended)
        rc = st_trace_reader_poll(&r, out, 0, err);
    if (rc == ST_OK && !r.doc_loaded && out->folded)
        st_trace_fold_end(out);
    else if (rc == ST_OK && !r.doc_loaded)
        st_trace_finish(out); /* (a document is finished by its loader) */
    else if (rc != ST_OK)
        st_trace_free(out);
    out->pass = NULL;
    st_trace_reader_close(&r);
    return rc;
}

int st_trace_load_file(const char *path, st_trace *out, st_error *err)
{
    return load_file(path, out, 0, NULL, err);
}

int st_trace_summary_file(const char *path, st_trace *out, st_error *err)
{
    struct stat st;
    /* Only a regular file can be read again should the folding fail. */
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        int rc = load_file(path, out, ST_TRACE_FOLD, NULL, err);
        if (rc != ST_OK || !out->fold_failed)
            return rc;
        st_trace_free(out); /* out of time order once samples were let go */
    }
    return load_file(path, out, 0, NULL, err);
}

int st_trace_pass_file(const char *path, const st_trace_pass *pass, st_trace *out, st_error *err)
{
    return load_file(path, out, 0, pass, err);
}

int st_trace_fold_pass_file(const char *path, const st_trace_pass *pass, st_trace *out,
                            st_error *err)
{
    if (pass && pass->drop)
        return st_error_set(err, ST_EINVAL, EINVAL, "a folded read keeps its samples to fold them");
    return load_file(path, out, ST_TRACE_FOLD, pass, err);
}

/* Feed the lines of buf[0, n) to t, the last one even without its newline
 * when at_end (errors ignored). */
static void feed_lines(st_trace *t, const char *buf, size_t n, int at_end)
{
    size_t lineno = 0;
    st_error e;
    for (const char *p = buf, *end = buf + n, *nl; p < end; p = nl + 1) {
        nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !at_end)
            break;
        if (!nl)
            nl = end;
        (void)st_trace_feed_line(t, p, (size_t)(nl - p), ++lineno, &e);
    }
}

int st_trace_read_ends(const char *path, st_trace *t, const st_trace_pass *pass)
{
    enum { G = ST_TRACE_ENDS_BYTES };
    struct stat st;
    char *buf = NULL;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int ok = 0, fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(buf = malloc(2 * G)))
        goto out;
    size_t size = (size_t)st.st_size, head = size <= 2 * G ? size : G;
    if (pread(fd, buf, head, 0) != (ssize_t)head)
        goto out;
    t->pass = pass;
    feed_lines(t, buf, head, head == size);
    if (head < size) {
        const char *nl;
        if (pread(fd, buf, G, (off_t)(size - G)) != G || !(nl = memchr(buf, '\n', G)))
            goto out;
        feed_lines(t, nl + 1, G - (size_t)(nl + 1 - buf), 1);
    }
    t->pass = NULL;
    st_trace_finish(t); /* the events sorted */
    ok = 1;
out:
    t->pass = NULL;
    free(buf);
    close(fd);
    return ok;
}
