/* event_line.h: the plain-text event lines a job may write to the file
 * named by $STAGETOP_EVENTS (or any --events file), beside stageload's JSONL:
 *
 *   stage NAME            a stage starts (NAME: the rest of the line)
 *   mark TEXT             a mark with a note
 *   load NAME [BYTES]     a model/weights load (BYTES: 123, 8G, 512MiB)
 *   release NAME [BYTES]  its release
 *
 * Words are separated by spaces or tabs; a trailing CR is ignored.  A line
 * may start with "@SECONDS " (the monotonic clock's seconds, st_now()'s, when
 * the line was made: `stagetop stage|mark` write it); the follower places it
 * there on the run's clock.  A line without one takes its arrival time.
 * docs/trace-format.md ("Events from the job") is the user's description. */
#ifndef STAGETOP_EVENT_LINE_H
#define STAGETOP_EVENT_LINE_H

#include <stddef.h>
#include "stagetop/error.h"
#include "stagetop/events.h"

/* Is this line meant as plain text?  (Its first non-blank byte is not '{'.) */
int st_event_line_is_plain(const char *line, size_t len);

/* Parse one plain line into ev (t_ms 0; the caller sets the time).
 * ST_OK, or ST_EINVAL with a message naming what is wrong. */
int st_event_line_parse(const char *line, size_t len, st_event *ev, st_error *err);
/* The same, and *at_s the line's "@SECONDS" stamp (-1 without one; a bad
 * stamp is ST_EINVAL).  at_s may be NULL. */
int st_event_line_parse_at(const char *line, size_t len, st_event *ev, double *at_s, st_error *err);

/* Format a plain line for kind ("stage" or "mark") and text into buf,
 * stamped "@SECONDS " with at_s when at_s >= 0 (the monotonic clock's
 * seconds now: st_now()): control characters become spaces, so one call is
 * one line ending in '\n'.  Returns the line's length, or 0 when it does
 * not fit or the kind is unknown. */
size_t st_event_line_format(const char *kind, const char *text, double at_s, char *buf, size_t size);

#endif
