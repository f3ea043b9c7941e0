/* follow.h: follow a stageload JSONL trace that the job itself writes
 * (--events FILE), with `tail -F` semantics: the file may not exist yet, may
 * grow, may be truncated or replaced.  Its stage, load, reload, release and
 * mark events come out with times on stagetop's clock.
 *
 * Clock alignment: a line cannot be read before it was written, so for
 * every line (samples too) arrival - t >= offset, where offset is the job
 * clock's start on stagetop's clock; the smallest arrival - t seen so far is
 * the estimate (it converges within one poll period).  Events from before
 * stagetop's start are placed at t = 0.  A plain line stamped "@SECONDS"
 * (event_line.h) is placed at its stamp (clock0 set), never after now. */
#ifndef STAGETOP_FOLLOW_H
#define STAGETOP_FOLLOW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "stagetop/error.h"
#include "stagetop/events.h"
#include "stagetop/trace.h"
#include "stagetop/trace_stream.h"

typedef struct st_follow {
    char *path;
    st_trace_stream in;    /* the trace reader's lines; in.fd -1 while the file does not exist */
    dev_t dev;
    ino_t ino;
    off_t off;             /* bytes read from this file */
    size_t lineno;
    double offset; int has_offset;
    st_trace scratch;      /* parser state for one line at a time */
    uint64_t bad_lines;    /* lines that did not parse (skipped) */
    char last_error[256];  /* the latest bad line's message */
    int fifo;              /* the file is a FIFO: read(), no offsets */
    double slice_s;        /* seconds one poll may spend on lines (ST_FOLLOW_SLICE_S) */
    int more;              /* the last poll stopped with lines left to read */
    double clock0;         /* the monotonic clock (st_now()) at the run's start: a
                              plain line's "@SECONDS" stamp minus this is its t */
    int has_clock0;        /* set by the caller; without it stamps are ignored */
} st_follow;

#define ST_FOLLOW_SLICE_S 0.05 /* default slice: a flood of events is read between samples */

/* ST_EINVAL when path exists and is neither a regular file nor a FIFO. */
int st_follow_open(st_follow *f, const char *path, st_error *err);
void st_follow_close(st_follow *f);

/* Read what was appended since the last call, in a bounded slice (at most
 * 1 MiB, 20,000 lines and about slice_s seconds a call: the rest waits for
 * the next, more set, so a flood of events cannot hold the caller from its
 * samples, its guard or a signal).  Each complete line that is
 * a stageload event of a kind stagetop shows is converted (t on stagetop's
 * clock, now_s = seconds since stagetop's start at this call) and passed to
 * emit(ctx, ev).  Bad lines are counted and skipped, never fatal.  Returns
 * the number of events emitted, or an error when the file cannot be read. */
int st_follow_poll(st_follow *f, double now_s, void (*emit)(void *ctx, const st_event *ev),
                   void *ctx, st_error *err);
/* At the end of the run: read what is left for up to limit_s seconds (more
 * set when that was not enough), the last line too when it has no newline
 * (nothing more will be appended, as far as stagetop waits).  Returns as
 * st_follow_poll. */
int st_follow_finish(st_follow *f, double now_s, void (*emit)(void *ctx, const st_event *ev),
                     void *ctx, double limit_s, st_error *err);

#endif
