/* trace_record.c: the JSONL record stream in stageload's record types.
 * Each line is built in memory and written with one write(2) on an
 * O_APPEND descriptor, so a run killed between two calls leaves whole
 * lines only.  (A short write, e.g. on a full disk, is retried; a line
 * can then only be torn if the process dies between the two calls.) */
#include "stagetop/trace.h"
#include "stagetop/json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct st_recorder {
    int fd;
    int own;       /* we opened fd */
    char label[256];
    st_jw line;    /* reused for every line */
};

int st_recorder_open(st_recorder **out, const char *path, int fd, st_error *err)
{
    *out = NULL;
    if (fd < 0 && (!path || !*path))
        return st_error_set(err, ST_EINVAL, EINVAL, "record: no file name");
    st_recorder *r = calloc(1, sizeof *r);
    if (!r)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    snprintf(r->label, sizeof r->label, "%s", path ? path : (fd == 1 ? "stdout" : "record stream"));
    if (fd >= 0) {
        r->fd = fd;
    } else {
        r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
        if (r->fd < 0) {
            int e = errno;
            free(r);
            return st_error_set(err, ST_EIO, e, "cannot open %s: %s", path, strerror(e));
        }
        r->own = 1;
    }
    st_jw_init(&r->line, -1);
    *out = r;
    return ST_OK;
}

/* Write the line buffered in r->line plus a newline, whole. */
static int emit(st_recorder *r, st_error *err)
{
    st_jw_char(&r->line, '\n');
    if (r->line.err) {
        int e = r->line.err;
        st_jw_reset(&r->line);
        return st_error_set(err, ST_ENOMEM, e, "record %s: out of memory", r->label);
    }
    const char *p = r->line.buf;
    size_t left = r->line.len;
    while (left > 0) {
        ssize_t k = write(r->fd, p, left);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                usleep(1000);
                continue;
            }
            int e = errno;
            st_jw_reset(&r->line);
            return st_error_set(err, ST_EIO, e, "writing %s: %s", r->label, strerror(e));
        }
        if (k == 0) {
            st_jw_reset(&r->line);
            return st_error_set(err, ST_EIO, EIO, "writing %s: nothing written", r->label);
        }
        p += k;
        left -= (size_t)k;
    }
    st_jw_reset(&r->line);
    return ST_OK;
}

int st_recorder_start(st_recorder *r, const st_trace_meta *meta, st_error *err)
{
    int n = 1;
    st_jw_reset(&r->line);
    st_jw_lit(&r->line, "{\"type\":\"start\"");
    if (meta)
        st_jw_meta_members(&r->line, meta, &n);
    st_jw_char(&r->line, '}');
    return emit(r, err);
}

int st_recorder_sample(st_recorder *r, const st_sample *s, st_error *err)
{
    st_jw_reset(&r->line);
    st_jw_lit(&r->line, "{\"type\":\"sample\",");
    st_jw_sample_members(&r->line, s);
    st_jw_char(&r->line, '}');
    return emit(r, err);
}

int st_recorder_event(st_recorder *r, const st_event *ev, st_error *err)
{
    st_jw_reset(&r->line);
    st_jw_lit(&r->line, "{\"type\":\"event\",");
    st_jw_event_members(&r->line, ev);
    st_jw_char(&r->line, '}');
    return emit(r, err);
}

int st_recorder_end(st_recorder *r, const st_summary *s, st_error *err)
{
    st_jw_reset(&r->line);
    st_jw_lit(&r->line, "{\"type\":\"end\"");
    if (s) {
        st_jw_lit(&r->line, ",\"summary\":");
        st_jw_summary(&r->line, s, NULL);
    }
    st_jw_char(&r->line, '}');
    return emit(r, err);
}

void st_recorder_close(st_recorder *r)
{
    if (!r)
        return;
    if (r->own && r->fd >= 0)
        close(r->fd);
    st_jw_free(&r->line);
    free(r);
}
