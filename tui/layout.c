/* layout.c: boxes of the live screen for a terminal size. */
#include "layout.h"

#include <string.h>

static tui_box box(int x, int y, int w, int h)
{
    tui_box b = {x, y, w, h};
    return b;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int tui_layout_compute(int cols, int rows, int n_lanes, int list_rows, tui_layout *L)
{
    memset(L, 0, sizeof *L);
    L->cols = cols;
    L->rows = rows;
    int n = clampi(n_lanes, 1, TUI_MAX_LANES);
    L->n_lanes = n;
    if (cols < 1 || rows < 1) {
        L->too_small = 1;
        return 0;
    }
    L->status = box(0, rows - 1, cols, 1);
    if (cols < TUI_MIN_COLS || rows < n + 2) {
        L->too_small = 1;
        return 0;
    }
    if (list_rows < 0)
        list_rows = 0;

    int header_h = rows >= 20 ? 2 : 1;
    int body = rows - header_h - 1; /* rows between header and status */
    int rem = body - n;             /* lanes take one row each at least */
    int axis_h = rem >= 1 ? 1 : 0;
    rem -= axis_h;
    int list_h = rem >= 2 ? 2 : 0;  /* title and one process */
    rem -= list_h;
    int events_h = rem >= 1 && rows >= 16 ? 1 : 0;
    rem -= events_h;
    /* The list grows first, to what it needs but at most 2/5 of the body. */
    int list_cap = list_rows + 1 < body * 2 / 5 ? list_rows + 1 : body * 2 / 5;
    if (list_h > 0 && list_cap > list_h) {
        int grow = list_cap - list_h < rem ? list_cap - list_h : rem;
        list_h += grow;
        rem -= grow;
    }
    /* Then the lanes: multi-row graphs once each gets 3 rows (2 for the
     * graph, 1 blank under it), at most 16. */
    int lane_h = 1 + rem / n;
    if (lane_h >= 3) {
        L->graph = 1;
        if (lane_h > 16)
            lane_h = 16;
    } else {
        lane_h = 1;
    }

    L->header = box(0, 0, cols, header_h);
    int label_w = L->graph ? clampi(cols / 4, 14, 26) : clampi(cols * 2 / 5, 14, 34);
    int plot_x = label_w + 1, plot_w = cols - plot_x;
    int y = header_h;
    for (int i = 0; i < n; i++) {
        int h = L->graph ? lane_h - 1 : 1;
        L->label[i] = box(0, y, label_w, h);
        L->plot[i] = box(plot_x, y, plot_w, h);
        y += lane_h;
    }
    if (axis_h) {
        L->window = box(0, y, label_w, 1);
        L->axis = box(plot_x, y, plot_w, 1);
        y++;
    }
    if (events_h) {
        L->events_label = box(0, y, label_w, 1);
        L->events = box(plot_x, y, plot_w, 1);
        y++;
    }
    if (list_h > 0 && y < rows - 1)
        L->list = box(0, y, cols, rows - 1 - y); /* and what is left over */
    return 1;
}
