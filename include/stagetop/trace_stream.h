/* trace_stream.h: reading a trace in bounded chunks, line by line.
 *
 * A JSONL trace is never held whole: the reader keeps one chunk (64 KiB)
 * and the line being read, so the memory of `stagetop summary` (and of
 * anything that loads a trace) follows the samples kept, not the file's
 * size.  A JSON document (stagetop's export) is still read whole (it is
 * one value), up to 4 GiB.  A FIFO that no writer opens is given up on
 * after a wait, with an error that says so, instead of blocking forever.
 * Every error names the file's line. */
#ifndef STAGETOP_TRACE_STREAM_H
#define STAGETOP_TRACE_STREAM_H

#include <stddef.h>
#include "stagetop/error.h"
#include "stagetop/trace.h"

#define ST_TRACE_STREAM_CHUNK 65536
#define ST_TRACE_FIFO_WAIT_S 10.0 /* how long st_trace_load_file waits for a FIFO's writer */

typedef struct st_trace_stream {
    int fd, own;
    char *buf;            /* the chunk, then the current line */
    size_t cap, pos, len; /* unread bytes: buf[pos, len) */
    size_t lineno;        /* of the line last returned (1-based) */
    size_t max_line;      /* a longer line is returned cut to max_line + 1 bytes */
    int eof, skipping;    /* skipping: the rest of an over-long line */
} st_trace_stream;

/* Open path ("-": stdin) for reading.  A FIFO: wait up to fifo_wait_s for
 * a writer (ST_EIO "no writer" after that); a directory: ST_EIO. */
int st_trace_stream_open(st_trace_stream *s, const char *path, double fifo_wait_s, st_error *err);

/* The next line, without its newline, valid until the next call: 1, 0 at
 * the end, or an error (read failure, ST_ENOMEM). */
int st_trace_stream_next(st_trace_stream *s, const char **line, size_t *len, st_error *err);

/* Read at least want bytes ahead (fewer at the end) without consuming
 * them; *p, *n: what is buffered. */
int st_trace_stream_peek(st_trace_stream *s, size_t want, const char **p, size_t *n, st_error *err);

void st_trace_stream_close(st_trace_stream *s);

/* (trace_import.c) Does the first value in buf look like a JSON document
 * (a "format" key before any "type")? */
int st_trace_looks_like_doc(const char *buf, size_t len);

#endif
