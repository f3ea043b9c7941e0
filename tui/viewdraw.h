/* viewdraw.h: drawing pieces shared by view.c and view_lanes.c (curses). */
#ifndef STAGETOP_TUI_VIEWDRAW_H
#define STAGETOP_TUI_VIEWDRAW_H

#include <curses.h>
#include <stdint.h>
#include "stagetop/run_view.h"
#include "view.h"

/* Colour pairs (with NO_COLOR only BAD and BAR keep an attribute: bold,
 * reverse). */
enum tui_pair {
    TUI_PAIR_WARN = 1, TUI_PAIR_BAD, TUI_PAIR_GOOD, TUI_PAIR_BAR, TUI_PAIR_DIM,
    TUI_PAIR_LANE /* + lane id: the lane's colour (the lane table's) */
};

/* A key that is Enter: newline, carriage return or curses' KEY_ENTER (the
 * screens' prompts, the details box and the picker alike). */
static inline int tui_is_enter(int ch)
{
    return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

/* The attribute for a pair under the view's colour setting. */
attr_t tui_attr(const tui_view *v, int pair);

/* Draw safe UTF-8 text s at (y, x), at most w columns, with attribute a.
 * Returns the columns drawn. */
int tui_put(int y, int x, int w, const char *s, attr_t a);
/* "terminal too small (COLSxROWS)" at the top left, where it fits (the
 * live screen and replay alike). */
void tui_put_too_small(const tui_view *v);
/* A process's field v in bytes (st_format_bytes) when p->valid has bit,
 * else "-" (the process list and the details box). */
void tui_fmt_mem(const st_proc_mem *p, unsigned bit, uint64_t v, char *buf, size_t len);

/* The absolute column of the newest sample at the current zoom. */
int64_t tui_newest_col(const tui_view *v, const st_run_view *rv);
/* The column of the newest sample drawn: the frozen moment's while a live
 * view is frozen, else the newest's. */
int64_t tui_frozen_col(const tui_view *v, const st_run_view *rv);
/* The clock axis's start (key T): the wall time of t = 0 (epoch seconds)
 * and local time's offset from UTC then. */
void tui_view_wall0(tui_view *v, double wall0);
/* The time axis under w columns whose last is column end: seconds before
 * the right edge, or with the clock axis on (key T, a live run) the local
 * time of the ticks (spark.h: tui_axis_time).  Returns the bytes written. */
size_t tui_axis_row(const tui_view *v, const st_run_view *rv, int64_t end, int w, char *buf, size_t len);

/* The stage of the latest stage event (raw text), or NULL. */
const char *tui_current_stage(const st_run_view *rv);
/* The header's words on the footprint, live and replay alike: "footprint =
 * DEFINITION", with the age of the proportional corrections its last
 * sample carries ("(3s old)") or, where the definition counts a shared page
 * per process and the tree has more than one, ", shared pages counted per
 * process" (docs/metrics.md, "Counted once"); "" with no definition. */
void tui_footprint_words(const st_run_view *rv, int ascii, char *buf, size_t size);

/* The stage table (key `s`): a box from row y0 down to the status line,
 * the latest stages that fit; one row's text for stage i (tests). */
void tui_stage_table_draw(const tui_view *v, const st_summary *s, int y0);
/* The job's output (key o): the tail of the log at path, scroll lines back
 * from the end, over the lanes from row y0 (tui/logbox.c). */
void tui_log_box_draw(const tui_view *v, const char *path, int scroll, int y0);
void tui_stage_row(const st_summary *s, size_t i, int ascii, char *out, size_t len);

/* The live screen's panels (view_panels.c): the header, the process list
 * (largest footprint first, command lines read through the view), the
 * status line, the keys' help and the guard's alert. */
void tui_panel_header(const tui_view *v, const st_run_view *rv);
void tui_panel_list(tui_view *v, const st_run_view *rv, double now);
void tui_panel_status(tui_view *v, const st_run_view *rv, double now);
void tui_panel_help(const tui_view *v);
void tui_panel_alert(const tui_view *v, const st_run_view *rv);

/* Draw the lanes, the window label, the time axis and the event row. */
void tui_lanes_draw(tui_view *v, const st_run_view *rv, double now);
/* The lanes on screen for rv, in slot order (ids into the lane table).
 * v->lane_set == 0 (the default): the table's screen lanes, each one not
 * always shown once the run reads it (the GPU lane: a GPU reader is open,
 * or the samples have GPU readings).  Otherwise the lanes whose valid bit
 * is in v->lane_set (--lanes, key l): the screen lanes in their order, then
 * the others in the table's order.  Returns how many: the layout's lane
 * count (live and replay). */
int tui_lanes_shown(const tui_view *v, const st_run_view *rv, int ids[TUI_MAX_LANES]);
/* The bits of the lanes shown now (the default set when v->lane_set is 0). */
unsigned tui_lanes_mask(const tui_view *v, const st_run_view *rv);
/* PyTorch's MPS cap on the screen (view_cap.c; docs/screen.md): the cap of
 * a Mac job that used Metal, when its advice has one (1); where it goes on
 * the footprint or metal lane whose graph spans lo..hi over rows rows
 * (TUI_CAP_LINE: row, counted from the top, as tui_graph_heights puts the
 * value; TUI_CAP_OFF_SCALE: above hi), with the label's text; the line
 * drawn over the empty cells of row r at (y, x); a member's Metal memory
 * and the cap, for the details box (0: no Metal memory).  tui_cap_place_at:
 * the same for a cap already known (tui_cap_bytes, once a frame; 0: none). */
enum { TUI_CAP_NONE, TUI_CAP_LINE, TUI_CAP_OFF_SCALE };
int tui_cap_bytes(const st_run_view *rv, uint64_t *cap);
int tui_cap_place(const st_run_view *rv, int lane_id, double lo, double hi, int rows, int *row,
                  char *text, size_t tlen, char *sh, size_t slen);
int tui_cap_place_at(uint64_t cap, int lane_id, double lo, double hi, int rows, int *row,
                     char *text, size_t tlen, char *sh, size_t slen);
void tui_cap_line(tui_view *v, int y, int x, const int *heights, int w, int rows, int r);
int tui_cap_member(const st_run_view *rv, const st_proc_mem *p, char *buf, size_t len);
/* Key l: CPU and page-ins in or out of the lanes shown. */
void tui_lanes_toggle_activity(tui_view *v, const st_run_view *rv);  /* then lay out again */


/* Start the curses screen on stdin/stdout (cbreak, no echo, keypad,
 * non-blocking getch, hidden cursor).  ST_EINVAL when there is no
 * terminal. */
int tui_term_start(const tui_opts *o, SCREEN **scr, st_error *err);
/* The same on any input (replay - reads keys from /dev/tty); no tty check. */
int tui_term_start_on(FILE *in, SCREEN **scr, st_error *err);
/* Restore the terminal (and its cursor) and free the screen. */
void tui_term_end(SCREEN *scr);

/* Wait up to ms (-1: no limit) until one of fds[0..n) (-1: not watched) can
 * be read: ready[i] says which.  select(2), never poll(2), on every
 * platform: XNU answers poll() on /dev/tty with POLLNVAL (poll is built on
 * kqueue, and the controlling terminal's device does not register with it:
 * xnu bsd/kern/sys_generic.c:1788-1790 poll_nocancel, an EV_ERROR
 * registration is POLLNVAL; bsd/miscfs/specfs/spec_vnops.c:913,922-929 and
 * 3106-3110, a D_TTY device without CDEVSW_SELECT_KQUEUE gets EINVAL;
 * bsd/dev/arm64/conf.c:180-182, cttysw registers no such flag), while
 * select() reaches its tty (bsd/kern/tty_tty.c:235 cttyselect).  Returns
 * select's value (-1 with errno: EINTR for a signal, EBADF for a descriptor
 * at or above FD_SETSIZE). */
int tui_term_wait(const int *fds, int *ready, int n, int ms);
/* select() has no POLLHUP: a terminal that went away reads as ready with no
 * key (EOF or EIO).  Call after each wait with whether the keys' descriptor
 * was ready and how many keys were read: 1 once it was ready with no key
 * TUI_TERM_EMPTY_MAX times in a row (the terminal went away); *empty
 * (start at 0) counts them. */
#define TUI_TERM_EMPTY_MAX 3
int tui_term_gone(int *empty, int ready, int keys);

/* ncurses 6.4 reads outside a line's cells (valgrind: invalid read in
 * doupdate) when it draws the bottom-right cell of a terminal one column
 * wide (the insert-character trick for the last cell uses column - 1).  So
 * nothing is drawn while the terminal is that narrow (tui_term_drawable),
 * and keys are read from a 1x1 pad (tui_term_keys): getch() on stdscr would
 * first refresh stdscr, which a resize has touched.  The pad is freed by
 * delscreen(); keypad and nodelay are on.  curses must not resize the
 * screen by itself either: with its own SIGWINCH handler, doupdate() reads
 * the new size and resizes before it draws, so a resize to one column that
 * lands between tui_term_drawable() and doupdate() drew that cell anyway
 * (the flaky valgrind fault test; tests/faults/ncurses_onecol.c shows the
 * ncurses bug alone).  tui_term_start_on() therefore installs a SIGWINCH
 * handler that only interrupts select() (tui_term_end() puts the default
 * back), and tui_term_sync_size() alone resizes (after select() returns, a
 * SIGWINCH included), queueing KEY_RESIZE when the size changed
 * (returns 1). */
WINDOW *tui_term_keys(void);
int tui_term_drawable(void);
int tui_term_sync_size(void);

#endif
