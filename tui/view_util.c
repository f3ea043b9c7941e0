/* view_util.c: drawing helpers of the screens (live and replay): colour
 * pairs and their attributes, safe text at a place, the centred box of the
 * help and the guard's alert. */
#include "view.h"
#include "sanitize.h"
#include "viewdraw.h"

#include <curses.h>

#include "stagetop/lanes.h"

void tui_view_colors(const tui_view *v)
{
    if (!v->color || !has_colors())
        return;
    start_color();
    use_default_colors();
    for (int i = 0; i < ST_LANE_COUNT; i++)
        if (st_lanes[i].screen_rank)
            init_pair((short)(TUI_PAIR_LANE + i), (short)st_lanes[i].colour, -1);
    init_pair(TUI_PAIR_WARN, COLOR_YELLOW, -1);
    init_pair(TUI_PAIR_BAD, COLOR_RED, -1);
    init_pair(TUI_PAIR_GOOD, COLOR_GREEN, -1);
    init_pair(TUI_PAIR_BAR, COLOR_BLACK, COLOR_CYAN);
    init_pair(TUI_PAIR_DIM, COLOR_BLUE, -1);
}

attr_t tui_attr(const tui_view *v, int pair)
{
    if (v->color)
        return (attr_t)COLOR_PAIR(pair);
    /* NO_COLOR: meaning through weight and reverse video only */
    switch (pair) {
    case TUI_PAIR_BAD: return A_BOLD;
    case TUI_PAIR_BAR: return A_REVERSE;
    default: return A_NORMAL;
    }
}

int tui_put(int y, int x, int w, const char *s, attr_t a)
{
    char buf[4096];
    if (w <= 0)
        return 0;
    int cols = tui_text_fit(s, w, buf, sizeof buf);
    attrset(a);
    mvaddstr(y, x, buf);
    attrset(A_NORMAL);
    return cols;
}

void tui_frame_box(const tui_view *v, int y0, int x0, int h, int w)
{
    attrset(A_NORMAL);
    for (int y = 0; y < h; y++)
        mvhline(y0 + y, x0, ' ', w);
    if (v->ascii) {
        mvhline(y0, x0, '-', w);
        mvhline(y0 + h - 1, x0, '-', w);
        mvvline(y0, x0, '|', h);
        mvvline(y0, x0 + w - 1, '|', h);
    } else {
        mvhline(y0, x0, ACS_HLINE, w);
        mvhline(y0 + h - 1, x0, ACS_HLINE, w);
        mvvline(y0, x0, ACS_VLINE, h);
        mvvline(y0, x0 + w - 1, ACS_VLINE, h);
        mvaddch(y0, x0, ACS_ULCORNER);
        mvaddch(y0, x0 + w - 1, ACS_URCORNER);
        mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
        mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
    }
}

void tui_view_help(const tui_view *v, const char *const *lines, int n)
{
    int w = 60 < COLS - 2 ? 60 : COLS - 2, h = n + 2 < LINES ? n + 2 : LINES;
    if (w < 10 || h < 3)
        return;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
    tui_frame_box(v, y0, x0, h, w);
    for (int i = 0; i < n && i < h - 2; i++)
        tui_put(y0 + 1 + i, x0 + 2, w - 4, lines[i], i == 0 ? A_BOLD : A_NORMAL);
}
