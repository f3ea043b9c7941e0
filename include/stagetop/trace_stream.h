/* trace_stream.h: THE reader of traces, in bounded chunks.
 *
 * Every trace stagetop reads goes through here: a file loaded whole
 * (`summary`, `plot`, `diff`, `report`, `replay FILE`: st_trace_load_file),
 * a JSONL stream followed as it comes (`replay -`: st_trace_reader with
 * ST_TS_LIVE) and the job's own events file (`--events`: follow.c reads
 * its lines with ST_TS_TAIL).
 *
 *  - st_trace_stream: lines.  A JSONL trace is never held whole: the
 *    stream keeps one chunk (64 KiB) and the line being read, so memory
 *    follows the samples kept, not the file's size.  A line longer than
 *    ST_TRACE_MAX_LINE is returned cut (cut = 1) and the rest of it
 *    skipped.
 *  - st_trace_reader: records.  It decides once whether the input is a
 *    JSON document or JSONL (st_trace_detect), feeds JSONL lines to the
 *    importer as they complete, and loads a document at its end (up to
 *    ST_TRACE_MAX_INPUT).
 *
 * A FIFO that no writer opens is given up on after a wait, with an error
 * that says so, instead of blocking forever.  Every error names the
 * file's line. */
#ifndef STAGETOP_TRACE_STREAM_H
#define STAGETOP_TRACE_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/trace.h"

#define ST_TRACE_STREAM_CHUNK 65536
#define ST_TRACE_FIFO_WAIT_S 10.0          /* how long st_trace_load_file waits for a FIFO's writer */
#define ST_TRACE_MAX_INPUT (4ULL << 30)    /* bytes in one JSON document */

/* Stream flags. */
#define ST_TS_LIVE 1u /* never block: read only what poll() says is there; next returns 0
                         with eof unset when nothing more is there now */
#define ST_TS_TAIL 2u /* a file someone still writes (tail -F): read() = 0 is "nothing yet",
                         never the end */

typedef struct st_trace_stream {
    int fd, own;
    unsigned flags;
    char *buf;            /* the chunk, then the current line */
    size_t cap, pos, len; /* unread bytes: buf[pos, len) */
    size_t lineno;        /* of the line last returned (1-based) */
    size_t max_line;      /* a longer line is returned cut to max_line + 1 bytes */
    int eof, skipping;    /* skipping: the rest of an over-long line */
    int cut;              /* the line last returned was longer than max_line */
    uint64_t nread;       /* bytes read from fd so far */
    uint64_t allow;       /* bytes that may still be read (st_trace_stream_allow) */
    int limited;          /* allow applies */
} st_trace_stream;

/* Open path ("-": stdin) for reading.  A FIFO: wait up to fifo_wait_s for
 * a writer (ST_EIO "no writer" after that); a directory: ST_EIO. */
int st_trace_stream_open(st_trace_stream *s, const char *path, double fifo_wait_s, st_error *err);
/* Read fd (closed by close when own) with ST_TS_* flags. */
int st_trace_stream_fd(st_trace_stream *s, int fd, int own, unsigned flags, st_error *err);

/* Read at most bytes more (whole reads: the last may pass it by one
 * chunk) until the next call: an endless writer cannot hold the caller. */
void st_trace_stream_allow(st_trace_stream *s, uint64_t bytes);

/* The next line, without its newline, valid until the next call: 1, 0 at
 * the end (eof set) or, ST_TS_LIVE / ST_TS_TAIL, when no whole line is
 * there now; or an error (read failure, ST_ENOMEM). */
int st_trace_stream_next(st_trace_stream *s, const char **line, size_t *len, st_error *err);

/* Read at least want bytes ahead (fewer at the end, or what is there now)
 * without consuming them; *p, *n: what is buffered. */
int st_trace_stream_peek(st_trace_stream *s, size_t want, const char **p, size_t *n, st_error *err);

void st_trace_stream_close(st_trace_stream *s);

/* What the first bytes of a trace are (the one rule for every reader):
 * past a UTF-8 byte order mark and whitespace, an object whose "format"
 * key comes before any "type" key is a document; anything else is JSONL
 * (an error there is the importer's to name).  ST_TRACE_MORE: undecided
 * yet (the first object is not complete and eof is 0). */
enum st_trace_kind { ST_TRACE_MORE = 0, ST_TRACE_LINES, ST_TRACE_DOC };
int st_trace_detect(const char *buf, size_t len, int eof);

/* ---- records ---- */

typedef struct st_trace_reader {
    st_trace_stream s;
    int kind;             /* enum st_trace_kind */
    int strict;           /* the first bad line is the error (a file), else skipped */
    int ended;            /* the input's end was read (a document: loaded) */
    int doc_loaded;       /* a document replaced the trace's records (cleared by the caller) */
    size_t bad;           /* bad lines skipped (not strict) */
    st_error last_bad;    /* the latest one ("line N: ...") */
} st_trace_reader;

/* Read fd (stdin for `replay -`) with ST_TS_* flags; strict: see above. */
int st_trace_reader_fd(st_trace_reader *r, int fd, int own, unsigned flags, int strict, st_error *err);
/* Feed into t what is there now (ST_TS_LIVE: at most `bytes`; 0: no limit):
 * complete JSONL records as they come (nothing is recomputed: the caller
 * runs st_trace_finish or adds to the summary), a document once its end
 * is read (t is replaced, doc_loaded set).  ST_OK, or an error: a read
 * failure, out of memory, a bad line when strict, a bad document. */
int st_trace_reader_poll(st_trace_reader *r, st_trace *t, uint64_t bytes, st_error *err);
void st_trace_reader_close(st_trace_reader *r);

#endif
