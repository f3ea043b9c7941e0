/* trace.h: traces on disk (format: docs/trace-format.md).
 *
 *  - export:  one JSON document, streamed to a temporary file in the target
 *             directory, fsync'd and renamed into place (nothing partial is
 *             ever left under the final name or as a stray temp file);
 *  - record:  stageload-compatible JSONL, one write(2) per line, so a run
 *             killed at any moment leaves valid lines up to the last;
 *  - import:  stagetop JSON, stagetop JSONL and stageload traces; every input
 *             is untrusted: errors name the line, nothing crashes. */
#ifndef STAGETOP_TRACE_H
#define STAGETOP_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/events.h"
#include "stagetop/mps_advice.h"
#include "stagetop/sample.h"
#include "stagetop/summary.h"

typedef struct st_trace_meta {
    char stagetop[16];         /* version that wrote it ("" for stageload) */
    char platform[16];         /* "linux", "darwin" */
    char os[128];
    char host[128];
    int32_t pid;               /* 0 when unknown */
    char command[512];
    char start_utc[40];
    double interval;           /* seconds */
    uint64_t mem_total, swap_total;
    char footprint_metric[32];
    char *extra;               /* other start-record keys as the text of a JSON
                                  object ("{...}"), or NULL; owned (free()) */
} st_trace_meta;


void st_trace_meta_free(st_trace_meta *m); /* frees extra */

/* ---- the start record's other keys (meta.extra), one at a time ---- */

enum st_meta_type { ST_META_STR = 1, ST_META_NUM, ST_META_BOOL };

typedef struct st_meta_item {
    char key[48];           /* cut to 47 bytes */
    int type;               /* enum st_meta_type */
    char str[96];           /* STR: the decoded text, cut as asked */
    int truncated;          /* STR: it was cut */
    const char *num;        /* NUM: the number's text in extra (not NUL-terminated) */
    size_t num_len;
    int b;                  /* BOOL: 1 true, 0 false */
} st_meta_item;

typedef struct st_meta_iter {
    const char *extra;
    size_t pos, line;
    int n, done;
} st_meta_iter;

/* Walk m->extra's members in order (core/trace/trace_meta.c).  next gives the
 * next string, number or boolean (objects, arrays and null are passed
 * over) and returns 1, or 0 at the end or when the text is not valid
 * JSON.  A string is cut at a UTF-8 boundary to at most strsz - 1 bytes
 * (strsz <= sizeof item->str). */
void st_meta_iter_init(st_meta_iter *it, const st_trace_meta *m);
int st_meta_iter_next(st_meta_iter *it, st_meta_item *item, size_t strsz);

/* What ran: the command, else the start record's pipeline, mode and steps
 * ("Qwen-Image-2.1 · mode staged · steps 20"), else ""; raw trace text
 * (untrusted: clean or escape it, md.h).  (core/trace/trace_meta.c) */
void st_trace_what(const st_trace_meta *m, char *buf, size_t size);

/* The memory limit that bound the job, as a stagetop record's start says it
 * (meta.extra's "cgroup", "memory_limit", "memory_limit_cgroup",
 * "memory_limit_file"; docs/trace-format.md): the live run fills the same
 * from its cgroup (run_view.h).  Paths are cut to 95 bytes. */
typedef struct st_trace_limit {
    int has_cgroup;         /* the job's memory cgroup was found ... */
    char cgroup[96];        /* ... here */
    int has_limit;          /* a cgroup at or above it had a memory limit ... */
    uint64_t limit;         /* ... of these bytes ... */
    char limit_cgroup[96];  /* ... set here ... */
    char limit_file[32];    /* ... in this file ("memory.max", "memory.limit_in_bytes") */
} st_trace_limit;

/* Those keys of m (all 0 / "" when absent; a memory_limit that is not an
 * integer 0..2^64-1 is none). */
void st_trace_limit_of(const st_trace_meta *m, st_trace_limit *out);

/* The MPS cap's verdict for the trace's job (core/trace/trace_mps.c): the
 * start record's MPS keys and mem_total through st_mps_advise; ST_MPS_NONE
 * (out->line "") unless the job used Metal (a ratio set, or a "metal"
 * lane above zero in s; s may be NULL).  Returns out->kind. */
int st_trace_mps(const st_trace_meta *m, const st_summary *s, st_mps_advice *out);

/* ---- export ---- */

/* Write the JSON document to path atomically (temp file in the same
 * directory, then rename).  On failure nothing is left behind and the error
 * says why (read-only directory, disk full, ...).  A path that is a symlink
 * is replaced by the file, never written through. */
int st_trace_export(const char *path, const st_trace_meta *meta, st_samples_view samples,
                    const st_event_list *events, const st_summary *summary,
                    uint64_t dropped_samples, st_error *err);

/* The summary object alone as JSON text (malloc'd, caller frees). */
char *st_summary_to_json(const st_summary *s, const st_trace_meta *meta);
/* The same object appended to a JSON writer (json.h: core only), for a
 * document that embeds it (`stagetop diff --json`): stageload's keys plus
 * kernel_peak (and peak_gpu when known); with meta non-NULL, a "meta"
 * member first (like stageload's summarize()). */
struct st_jw;
void st_jw_summary(struct st_jw *w, const st_summary *s, const st_trace_meta *meta);
/* The same, bounded: a memory-mode writer holds at most max bytes after it
 * (the stages and outside_stage names that do not fit are left out and
 * counted in "stages_omitted" / "outside_stage_omitted"; readers recompute
 * them from the events anyway).  SIZE_MAX: unbounded. */
void st_trace_summary_max(struct st_jw *w, const st_summary *s, const st_trace_meta *meta, size_t max);

/* ---- record stream (JSONL) ---- */

typedef struct st_recorder st_recorder;

#define ST_REC_OVERWRITE 1u /* replace an existing regular file (a symlink: refused, always) */

/* When the record is pushed to the disk (fdatasync; regular files only). */
enum st_rec_sync {
    ST_REC_SYNC_1S = 0,  /* at most once a second, and at once after an event or the end */
    ST_REC_SYNC_NEVER,   /* left to the kernel's page cache */
    ST_REC_SYNC_ALWAYS   /* after every line */
};

/* Create path for writing (mode 0666 less the umask): never through a
 * symlink (O_NOFOLLOW), never over an existing file unless flags has
 * ST_REC_OVERWRITE (ST_EINVAL "exists").  fd >= 0 instead writes to that
 * descriptor (stdout for --jsonl) and path is only a label.  Sync mode:
 * ST_REC_SYNC_1S until st_recorder_set_sync. */
int st_recorder_open(st_recorder **out, const char *path, int fd, unsigned flags, st_error *err);
void st_recorder_set_sync(st_recorder *r, int mode);
/* Sync now if lines are waiting and the mode allows (1s mode: urgent 1
 * syncs within the second once the last sync is 0.1 s old, else the first
 * line past that does: at most 10 a second whatever the event rate;
 * urgent 2: now); ST_EIO when the disk refuses. */
int st_recorder_sync(st_recorder *r, int urgent, st_error *err);
uint64_t st_recorder_syncs(const st_recorder *r); /* syncs done so far */
/* 1 when the record is a regular file that was deleted (no name left: the
 * lines go on into a file nobody can open), 0 otherwise. */
int st_recorder_deleted(const st_recorder *r);
int st_recorder_start(st_recorder *r, const st_trace_meta *meta, st_error *err);
int st_recorder_sample(st_recorder *r, const st_sample *s, st_error *err);
int st_recorder_event(st_recorder *r, const st_event *ev, st_error *err); /* synced at once */
/* {"type":"end"} (with the summary when non-NULL, and dropped_samples:
 * sampling deadlines that passed unsampled); synced at once. */
/* The watched command changed since the start record (-p follows exec):
 * the end record says it ("command"), and readers take it as the run's. */
void st_recorder_command(st_recorder *r, const char *command);
int st_recorder_end(st_recorder *r, const st_summary *s, uint64_t dropped_samples, st_error *err);
/* Close; does not write "end" (a run that did not end cleanly). */
void st_recorder_close(st_recorder *r);

/* ---- import ---- */

/* Bytes in one line of a trace (JSONL) or of an --events file (JSONL or a
 * plain event line): the one limit of every reader (trace_stream.h). */
#define ST_TRACE_MAX_LINE 65536

enum st_trace_format { ST_FMT_UNKNOWN, ST_FMT_JSON, ST_FMT_JSONL, ST_FMT_STAGELOAD };

typedef struct st_trace {
    st_trace_meta meta;
    st_sample *samples; size_t n_samples, cap_samples; /* sorted by t_ms */
    st_event_list events;                              /* sorted by t_ms */
    st_summary summary;      /* recomputed from samples and events */
    size_t summed_samples, summed_events; /* how many of each the summary holds */
    uint64_t dropped_samples;
    int has_end;             /* saw {"type":"end"} or a complete document */
    int format;              /* enum st_trace_format */
    size_t lines;            /* lines consumed (JSONL) */
    size_t torn_line;        /* JSONL: the last line, cut (no newline, not a record), was
                                left out and the lines before it kept; 0: none */
    char torn_msg[200];      /* why it was not a record (the importer's message) */
    /* Summary-only reading (st_trace_summary_file): a stagetop record's
     * samples are summed as they come, every fold samples, and let go but
     * the last few (the next order check's); 0: every sample is kept. */
    size_t fold;
    size_t folded;           /* samples let go so far */
    int fold_failed;         /* records came out of time order after some were
                                let go: the summary cannot be recomputed */
    void *priv;              /* reader state for st_trace_feed */
    const struct st_trace_pass *pass; /* st_trace_pass_file's callback while it reads, else NULL */
} st_trace;

void st_trace_init(st_trace *t);
void st_trace_free(st_trace *t);

/* Read a whole file ("-" = stdin) or buffer; detects the format. */
int st_trace_load_file(const char *path, st_trace *out, st_error *err);
int st_trace_load_mem(const char *buf, size_t len, st_trace *out, st_error *err);

/* Feed one JSONL line (without the newline) to a trace being followed;
 * lineno is 1-based, for errors.  Recomputes nothing: call
 * st_trace_refresh (or st_trace_finish) to bring the summary up to date. */
int st_trace_feed_line(st_trace *t, const char *line, size_t len, size_t lineno, st_error *err);
/* Sort samples and events by time (stable) and recompute the summary from
 * all of them (an event at the same t as a sample goes first). */
void st_trace_finish(st_trace *t);
/* Bring the summary up to date with the records added since it was last
 * computed: incrementally while they extend the summed ones in time order
 * (the same result as st_trace_finish), else st_trace_finish.  Returns 1
 * when it sorted and recomputed (records may have moved), else 0.  What a
 * followed trace's screen calls after each read (replay). */
int st_trace_refresh(st_trace *t);

/* The summary of a trace file without keeping its samples where it can:
 * a stagetop JSONL record (time-ordered) is summed as it is read, in
 * memory that does not grow with the samples; anything else, stdin, or a
 * record whose lines turn out of order is read whole (st_trace_load_file),
 * with the same result.  out->samples holds at most a few samples. */
int st_trace_summary_file(const char *path, st_trace *out, st_error *err);
#define ST_TRACE_FOLD 65536 /* st_trace_summary_file's fold: 4.7 MB of samples */
/* Sum what was read since the last fold (as st_trace_refresh, holding back
 * the samples of the latest millisecond) and let the summed samples go;
 * called by the importer every t->fold samples. */
void st_trace_fold(st_trace *t);
/* The end of a folded read: the rest summed and the summary finished, or
 * fold_failed set when the records came out of order. */
void st_trace_fold_end(st_trace *t);

/* ---- one pass over a trace file, sample by sample (trace_stream.c) ---- */

/* What st_trace_pass_file calls.  sample: each sample as the importer reads
 * it, in the file's order (a JSON document's samples are not passed: it is
 * read whole, its samples all in out->samples, sorted); a non-zero return
 * stops the read with that error (set err).  drop: the samples passed are
 * not kept (out->samples holds the last one only), so the read's memory
 * does not grow with them. */
typedef struct st_trace_pass {
    int (*sample)(void *ctx, const st_sample *s, st_error *err);
    void *ctx;
    int drop;
} st_trace_pass;

/* Read path ("-": stdin) once as st_trace_load_file does, calling pass on
 * the way: the same trace (meta, events sorted, the end's kernel peak,
 * torn_line), with only the samples that pass keeps; its summary holds
 * those samples only. */
int st_trace_pass_file(const char *path, const st_trace_pass *pass, st_trace *out, st_error *err);
/* A guess from a regular file's ends: its first and last
 * ST_TRACE_ENDS_BYTES (the whole file when it is at most twice that) fed to
 * t (initialised by the caller, freed by it), pass (NULL: none) called on
 * their samples, then st_trace_finish.  1 when read; 0 for "-", a path that
 * is not a regular file (a FIFO is not opened: its writer would see this
 * reader go) or an error.  Lines' errors are ignored: only a guess. */
#define ST_TRACE_ENDS_BYTES 65536
int st_trace_read_ends(const char *path, st_trace *t, const st_trace_pass *pass);
/* The same read folded as st_trace_summary_file's (pass->drop 0): the
 * callback sees every sample and the summary is the whole file's, in
 * memory that does not grow with a stagetop record's samples (out->samples:
 * the last ST_TRACE_FOLD at most); out->fold_failed says the records came
 * out of order once some were let go (read the file whole instead). */
int st_trace_fold_pass_file(const char *path, const st_trace_pass *pass, st_trace *out,
                            st_error *err);

/* ---- a run's record read back as it is written (core/trace/trace_tap.c) ---- */

/* What `stagetop report` of a run's JSONL record would read, kept without
 * the record: each record's line is built as the recorder builds it and fed
 * to the reader in fold mode, so the summary, the events and the meta at
 * the end are the record's reading, exactly; the samples are summed and
 * let go every ST_TRACE_TAP_FOLD (memory: the events and the stages, as a
 * reader of the record keeps them, not the samples).  A failure (out of
 * memory) makes the other calls no-ops and st_trace_tap_end say it. */
typedef struct st_trace_tap st_trace_tap;
#define ST_TRACE_TAP_FOLD 256
int st_trace_tap_open(st_trace_tap **out, const st_trace_meta *meta, st_error *err);
void st_trace_tap_sample(st_trace_tap *tp, const st_sample *s);
void st_trace_tap_event(st_trace_tap *tp, const st_event *ev);
/* The command that replaced the start record's (as st_recorder_command). */
void st_trace_tap_command(st_trace_tap *tp, const char *command);
/* The end record (summary s: its kernel peak; dropped_samples) and the
 * read's end: the trace into out (its samples: the last few only), once.
 * ST_EINVAL when called again or when the records came out of time order;
 * out is then empty (st_trace_init). */
int st_trace_tap_end(st_trace_tap *tp, const st_summary *s, uint64_t dropped_samples, st_trace *out,
                     st_error *err);
void st_trace_tap_free(st_trace_tap *tp);

/* View of an imported trace's samples. */
st_samples_view st_trace_view(const st_trace *t);

#endif
