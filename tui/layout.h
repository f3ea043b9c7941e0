/* layout.h: where each part of the live screen goes, for any terminal size
 * (curses-free, pure).
 *
 *   header          1 row (2 rows from 20 rows up)
 *   lanes           one per lane: a label box (name, current, peak) and a
 *                   graph box; 1 row each (sparklines) when the terminal is
 *                   short, a multi-row graph when it is tall
 *   window, axis    one row: the window's span (left) and the time axis
 *                   under the graphs (right); left out when rows are short
 *   events          one row of stage and event markers under the axis
 *                   (when rows allow)
 *   list            the process list: a title row and its entries
 *   status          the last row: keys, message, stagetop's own cost
 * Boxes never overlap and always lie on the screen.  A box with h == 0 is
 * absent.  Below the minimum size (see tui_layout_compute) only `status`
 * is set and too_small is 1: the view then shows "terminal too small". */
#ifndef STAGETOP_TUI_LAYOUT_H
#define STAGETOP_TUI_LAYOUT_H

#include "stagetop/sample.h"

enum { TUI_MAX_LANES = ST_LANE_COUNT }; /* every lane could be on screen */

typedef struct tui_box {
    int x, y, w, h;
} tui_box;

typedef struct tui_layout {
    int cols, rows;
    int too_small;
    int n_lanes;
    int graph;                       /* 1: lanes are multi-row graphs */
    tui_box header;
    tui_box label[TUI_MAX_LANES];    /* left part of each lane */
    tui_box plot[TUI_MAX_LANES];     /* right part: sparkline or graph */
    tui_box window;                  /* left of the axis: the window's span */
    tui_box axis;                    /* under the plots, same columns */
    tui_box events;                  /* under the axis, same columns */
    tui_box events_label;            /* left of the events row */
    tui_box list;                    /* process list, title row first */
    tui_box status;
} tui_layout;

/* Smallest size that shows everything but the list: TUI_MIN_COLS columns
 * and n_lanes + 2 rows. */
enum { TUI_MIN_COLS = 30 };

/* Compute the layout for a cols x rows terminal with n_lanes lanes (1 ..
 * TUI_MAX_LANES; more are clamped) and list_rows processes to list.
 * Returns 1 when the screen is usable, 0 when too small (including any
 * size < 1). */
int tui_layout_compute(int cols, int rows, int n_lanes, int list_rows, tui_layout *out);

#endif
