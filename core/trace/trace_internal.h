/* trace_internal.h: the trace module's records in JSON, shared between
 * its files (core/trace/), its tests and the fuzzer; not an
 * API for the rest of stagetop (use trace.h).  The codec under it is
 * json.h. */
#ifndef STAGETOP_TRACE_INTERNAL_H
#define STAGETOP_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/events.h"
#include "stagetop/json.h"
#include "stagetop/sample.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"

/* ---- trace records read by both the JSONL and the document reader ---- */

/* "an object", "a string", ... for messages. */
const char *st_jr_type_name(int ty);
/* A number token for WHAT "KEY", or fail naming what was there. */
int st_trace_want_num(st_jr *r, const char *what, const char *key, const char **tok, size_t *n);
/* A byte count (integer 0..2^53) for WHAT "KEY". */
int st_trace_want_bytes(st_jr *r, const char *what, const char *key, uint64_t *out);
/* The members of a sample / event / start-record (meta) / summary object,
 * after its '{' and n members already read (a "type" member is skipped).
 * Meta: known keys of another type and unknown keys go to m->extra;
 * *is_stageload is set when a "stageload" key is seen.  Summary: begins
 * at its '{'; only kernel_peak is kept (into sum). */
int st_trace_parse_sample(st_jr *r, int n, st_sample *s);
int st_trace_parse_event(st_jr *r, int n, st_event *ev);
int st_trace_parse_meta(st_jr *r, int n, struct st_trace_meta *m, int *is_stageload);
int st_trace_parse_summary(st_jr *r, st_summary *sum);

/* ---- trace pieces written by both the exporter and the recorder ---- */

/* The members of a sample object (no braces): "t":..,"footprint":..,... */
void st_jw_sample_members(st_jw *w, const st_sample *s);
/* The members of an event object (no braces): "kind":..,"t":..,... */
void st_jw_event_members(st_jw *w, const st_event *ev);
/* The members of a meta object (no braces); *n counts members written so
 * far (for commas) and is updated.  Extra keys are re-validated. */
void st_jw_meta_members(st_jw *w, const struct st_trace_meta *m, int *n);
/* A JSONL record's line, without its newline, into w (reset first): what
 * the recorder writes and the tap reads back (trace_record.c).  end: the
 * command that replaced the start record's (NULL or "": none). */
void st_trace_line_start(st_jw *w, const struct st_trace_meta *meta);
void st_trace_line_sample(st_jw *w, const st_sample *s);
void st_trace_line_event(st_jw *w, const st_event *ev);
void st_trace_line_end(st_jw *w, const char *command, const st_summary *s, uint64_t dropped_samples);
/* (The summary object, st_jw_summary, is public: trace.h.) */
/* The bounded summary writer (st_trace_summary_max) is public too: trace.h. */

/* Write the whole JSON document (docs/trace-format.md) to w. */
void st_jw_trace_doc(st_jw *w, const struct st_trace_meta *meta, const st_sample *a, size_t a_len,
                     const st_sample *b, size_t b_len, const st_event_list *events,
                     const st_summary *summary, uint64_t dropped_samples);

/* ---- reading a file (trace_load.c, trace_import.c) ---- */

/* Read a JSON document from fd whole, after the bytes already read
 * (prefix), and import it (st_trace_load_mem). */
int st_trace_load_doc_fd(int fd, const char *prefix, size_t plen, st_trace *out, st_error *err);

/* A string member into out (size bytes, truncated at a UTF-8 boundary);
 * *set = 1 when it was a string, 0 for null; an error names what/key. */
int st_trace_want_str(st_jr *r, const char *what, const char *key, char *out, size_t size, int *set);

#endif
