/* view.h: the live screen's state and its drawing (curses), shared by the
 * event loop (live.c) and the frame-time benchmark.  One frame draws the
 * whole screen from a run view (st_run_view) into curses' virtual screen (wnoutrefresh);
 * the caller sends it with doupdate(), which writes only what changed. */
#ifndef STAGETOP_TUI_VIEW_H
#define STAGETOP_TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/run_view.h"
#include "layout.h"
#include "proc_table.h"
#include "tui.h"

enum tui_prompt { TUI_PROMPT_NONE, TUI_PROMPT_KILL, TUI_PROMPT_QUIT, TUI_PROMPT_QUIT_LAUNCHED,
                  TUI_PROMPT_WIDE, TUI_PROMPT_MARK, TUI_PROMPT_FILTER, TUI_PROMPT_SEARCH };

/* Columns of one lane computed for a window, reused while the window
 * slides: a finished column (older than the newest sample's) never changes. */
typedef struct tui_lane_cache {
    double *v;          /* values of columns col0 .. col0 + n - 1 */
    int cap, n;
    int64_t col0;
    int64_t final_end;  /* columns before this one were final when computed */
    unsigned per_col;
    uint64_t ring_total;/* samples_total when computed */
} tui_lane_cache;

typedef struct tui_cmd_entry {
    st_proc_id id;
    double read_at;     /* monotonic time of the reading */
    char text[320];     /* the command line, control characters made visible */
} tui_cmd_entry;

typedef struct tui_view {
    int ascii, color;
    tui_layout L;
    unsigned per_col;        /* zoom: samples per column */
    unsigned lane_set;       /* lanes shown (valid bits; --lanes, key l); 0: the default */
    int frozen;              /* graphs stay on a fixed window */
    int64_t frozen_end;      /* the window's last column while frozen */
    uint32_t frozen_t_ms;    /* live: the newest sample's time when frozen (later ones
                              * are not drawn, even in a column not yet full) */
    int has_frozen_t;
    int fit;                 /* live: the whole run fits the window, again each frame
                                (key f; zoom, freeze and pan end it) */
    int clock_axis;          /* the time axis in local clock time, not seconds ago (key T) */
    double wall0;            /* live: the wall time (epoch seconds) of t = 0, */
    double tz_off;           /* and local time minus UTC, seconds (read once) */
    int has_wall0;
    /* the header's repetitions of the current stage (stage_table.h's
     * st_stage_repeats), computed again only when a stage window opens */
    const st_summary *rep_of;
    size_t rep_stages, rep_nth, rep_done;
    int64_t rep_ms;
    int help;                /* the help box is open */
    int stages;              /* the stage table is open (key s) */
    int drawn_stages;        /* it was on the last frame */
    int log;                 /* the job's output is open (key o) */
    int drawn_log;
    int log_scroll;          /* lines scrolled back from its end */
    const char *job_log;     /* the launched job's log, or NULL */
    int prompt;              /* enum tui_prompt */
    char input[64];          /* TUI_PROMPT_MARK, _FILTER, _SEARCH: the text typed so far (raw bytes) */
    size_t input_len;
    char msg[256];           /* the last message, shown for a while */
    int msg_error;
    double msg_until;
    char warn[256];          /* the monitor's last warning, and until when */
    double warn_until;       /* it is shown */
    tui_lane_cache lanes[TUI_MAX_LANES];
    const st_monitor *mon;   /* a live run, asked for command lines
                                (st_monitor_command); NULL in a replay */
    tui_cmd_entry *cmds;     /* command lines of listed processes, in (pid, start) order */
    size_t n_cmds, cap_cmds;
    tui_ptab pt;             /* the process list: its sort, tree, filter, selection, scroll */
    tui_pt_member *pm;       /* the members as the table reads them (the last ordering's) */
    size_t n_pm, cap_pm;
    char search[64];         /* the last search (key /; F3: the next match) */
    int search_miss;         /* it matched no process */
    double cpu_mark, wall_mark, cpu_pct; /* stagetop's own CPU use */
    double frame_s;          /* duration of the last frame */
    uint64_t frames;
    /* What each screen row of a plot shows now (cells, colour pair), so a
     * row that did not change is not drawn again; 0 in row_ok: unknown. */
    unsigned char *row_cells;
    short *row_pair;
    unsigned char *row_ok;
    int row_cols, row_rows;
    int full;                /* next frame: erase and draw everything */
    int drawn_help;          /* the help box was on the last frame */
} tui_view;

/* Zero the state for options o (ASCII, colour). */
void tui_view_init(tui_view *v, const tui_opts *o);
void tui_view_free(tui_view *v);

/* Set up colour pairs (after the screen is started; no-op without colour). */
void tui_view_colors(const tui_view *v);

/* Recompute the layout for the current terminal size (after KEY_RESIZE);
 * the next frame is drawn in full. */
void tui_view_resize(tui_view *v, const st_run_view *rv);

/* Draw one frame of the run view rv at monotonic time now into stdscr and
 * wnoutrefresh() it. */
void tui_view_draw(tui_view *v, const st_run_view *rv, double now);

/* Show a message in the status line for a few seconds (error: in red). */
void tui_view_message(tui_view *v, double now, int error, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The mark prompt's line editing: a printable key (or a byte of a UTF-8
 * character) is appended, Backspace removes the last character.  Returns
 * 1 when ch was taken. */
int tui_view_input_key(tui_view *v, int ch);

/* Zoom: dir > 0 fewer samples per column (in), < 0 more (out). */
void tui_view_zoom(tui_view *v, int dir);
/* Samples per column so that the whole run fits the window (what the
 * ring still holds of a run longer than --history), following the newest
 * sample (replay's f, the live screen's f). */
void tui_view_fit(tui_view *v, const st_run_view *rv);
/* Freeze or unfreeze the graphs at the newest column. */
void tui_view_freeze(tui_view *v, const st_run_view *rv);
/* Move a frozen window by dir quarters of its width (left < 0). */
void tui_view_pan(tui_view *v, const st_run_view *rv, int dir);

/* The process list (tui/proc_list.c; drawn by tui_panel_list).  Order the run view's members into
 * v->pt (command lines read through the monitor); 0, or -1 out of memory. */
int tui_list_order(tui_view *v, const st_run_view *rv, double now);
/* The columns on screen now, in their order (what < and > step through);
 * how many.  1 when the table's sort puts the smallest first. */
int tui_list_cols(const tui_view *v, const st_run_view *rv, int cols[TUI_COL_COUNT]);
int tui_list_ascending(const tui_ptab *t);
/* What tells row's process apart, before its command: "[NAME] " where its
 * own name (comm) is not its command's, "#N " the N-th started of siblings
 * showing the same command and name; "" neither. */
void tui_list_tag(const tui_view *v, const tui_pt_row *row, char *out, size_t len);
/* The keys (tui/list_keys.c).  A key of the list (the selection's moves, < > I M P sort, t tree, \
 * filter, / search, F3 next match, Esc clears the filter): 1 when taken. */
int tui_list_key(tui_view *v, const st_run_view *rv, int ch, double now);
/* A key while the filter or search prompt is open: 1 when taken. */
int tui_list_prompt_key(tui_view *v, const st_run_view *rv, int ch, double now);

/* Draw a centred box with n lines of text (the first in bold): the help. */
void tui_view_help(const tui_view *v, const char *const *lines, int n);
/* A blank box with a frame (ASCII or line drawing) at (y0, x0), h x w. */
void tui_frame_box(const tui_view *v, int y0, int x0, int h, int w);

/* Sizes as they fit in lanes: "1.23G", "512M", "980K", "12B". */
char *tui_short_bytes(uint64_t bytes, char *buf, size_t len);

#endif
