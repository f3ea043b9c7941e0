/* replay.h: the state of `stagetop replay` shared by its loop (replay.c)
 * and its drawing (replay_draw.c); tui.h declares the entry point. */
#ifndef STAGETOP_TUI_REPLAY_H
#define STAGETOP_TUI_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/run_view.h"
#include "stagetop/trace.h"
#include "stagetop/trace_stream.h"
#include "tui.h"
#include "view.h"
#include "viewdraw.h"

typedef struct replay {
    const tui_opts *o;
    const char *name;       /* the path as given, "-" for stdin */
    int follow;             /* reading stdin as it grows */
    int ended;              /* no more data: a file, or the stream's end */
    char read_error[160];   /* why the stream ended early, "" if it did not */
    st_trace_reader rd;     /* stdin: core's trace reader (JSONL as it comes, a document at its end) */
    /* malformed lines: skipped, counted, the last one shown */
    size_t bad;
    char bad_msg[256];
    double bad_until;       /* the status line shows it until then */
    st_trace t;             /* owns every sample, event and the summary */
    double meta_iv;         /* meta.interval when the columns were set */
    char meta_st;           /* meta.stagetop[0] then */
    size_t est_at;          /* samples then */
    double iv;              /* the column interval (seconds) */
    tui_view v;
    int need_fit;           /* fitted while the terminal was too small */
    int quit, dirty;
} replay;

/* Recompute the layout for the terminal size and the summary's rows. */
void rp_relayout(replay *r);

/* The run view of the whole trace read so far (st_trace_run_view). */
void rp_view(const replay *r, st_run_view *out);

/* Draw one frame into curses' virtual screen (wnoutrefresh). */
void rp_draw(replay *r, double now);

#endif
