/* view_util.c: drawing helpers of the screens (live and replay): colour
 * pairs and their attributes, safe text at a place, the centred box of the
 * help and the guard's alert (long lines wrap, nothing is cut); the plot's
 * newest column, the short byte counts that the lanes and the panels
 * share and a process's byte counts ("-" when unread). */
#include "view.h"
#include "sanitize.h"
#include "spark.h"
#include "viewdraw.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "stagetop/lanes.h"
#include "stagetop/units.h"

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

/* Wrap line at spaces into rows of at most w columns (a word longer than a
 * row is cut between characters) into rows[0 .. max_rows).  Returns the
 * rows it made. */
static int wrap_line(const char *line, int w, char rows[][256], int max_rows)
{
    int n = 0;
    const char *p = line;
    if (!*p && max_rows > 0) {
        rows[n++][0] = '\0';
        return n;
    }
    while (*p && n < max_rows) {
        char *row = rows[n++];
        size_t len = 0;
        row[0] = '\0';
        while (*p) {
            while (len == 0 && *p == ' ')
                p++;
            size_t wl = strcspn(p, " ");
            char word[256], trial[512];
            snprintf(word, sizeof word, "%.*s", (int)(wl < 255 ? wl : 255), p);
            snprintf(trial, sizeof trial, "%s%s%s", row, len ? " " : "", word);
            if (tui_text_width(trial) <= w && strlen(trial) < 256) {
                memcpy(row, trial, strlen(trial) + 1);
                len = strlen(row);
                p += wl;
                if (*p == ' ')
                    p++;
                continue;
            }
            if (len == 0) { /* one word wider than a row: cut it */
                tui_text_fit(word, w, row, 256);
                len = strlen(row);
                p += len ? len : wl;
            }
            break;
        }
    }
    return n;
}

void tui_view_help(const tui_view *v, const char *const *lines, int n)
{
    enum { MAX_ROWS = 48 };
    char rows[MAX_ROWS][256];
    int bold[MAX_ROWS];
    int w = 60 < COLS - 2 ? 60 : COLS - 2, nr = 0;
    if (w < 10)
        return;
    for (int i = 0; i < n && nr < MAX_ROWS; i++) {
        int k = wrap_line(lines[i], w - 4, rows + nr, MAX_ROWS - nr);
        for (int j = 0; j < k; j++)
            bold[nr + j] = i == 0;
        nr += k;
    }
    int h = nr + 2 < LINES ? nr + 2 : LINES;
    if (h < 3)
        return;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
    tui_frame_box(v, y0, x0, h, w);
    for (int i = 0; i < nr && i < h - 2; i++)
        tui_put(y0 + 1 + i, x0 + 2, w - 4, rows[i], bold[i] ? A_BOLD : A_NORMAL);
}

int64_t tui_newest_col(const tui_view *v, const st_run_view *rv)
{
    if (!rv->last)
        return 0;
    uint32_t iv = (uint32_t)lround(rv->interval * 1000.0);
    return (int64_t)(tui_sample_k(rv->last->t_ms, iv) / v->per_col);
}

void tui_view_wall0(tui_view *v, double wall0)
{
    time_t wall = (time_t)wall0;
    struct tm g;
    v->wall0 = wall0;
    v->tz_off = 0;
    if (gmtime_r(&wall, &g)) {
        g.tm_isdst = -1;
        time_t back = mktime(&g); /* UTC read as local time: off by the offset */
        if (back != (time_t)-1)
            v->tz_off = difftime(wall, back);
    }
    v->has_wall0 = 1;
}

size_t tui_axis_row(const tui_view *v, const st_run_view *rv, int64_t end, int w, char *buf, size_t len)
{
    double col_s = v->per_col * rv->interval;
    if (!v->clock_axis || !v->has_wall0) /* (a trace without a start time) */
        return tui_axis(w, col_s, v->ascii, buf, len);
    /* the right edge: the last sample slot of column end */
    double right = v->wall0 + v->tz_off + ((double)(end + 1) * v->per_col - 1) * rv->interval;
    return tui_axis_time(w, col_s, 1, right, v->ascii, buf, len);
}

int64_t tui_frozen_col(const tui_view *v, const st_run_view *rv)
{
    if (!v->has_frozen_t)
        return tui_newest_col(v, rv);
    uint32_t iv = (uint32_t)lround(rv->interval * 1000.0);
    return (int64_t)(tui_sample_k(v->frozen_t_ms, iv) / v->per_col);
}

char *tui_short_bytes(uint64_t bytes, char *buf, size_t len)
{
    return st_format_bytes_as((double)bytes, ST_UNITS_COMPACT, buf, len);
}

void tui_fmt_mem(const st_proc_mem *p, unsigned bit, uint64_t v, char *buf, size_t len)
{
    if (p->valid & bit)
        st_format_bytes(v, buf, len);
    else
        snprintf(buf, len, "-");
}

void tui_put_too_small(const tui_view *v)
{
    char msg[64];
    snprintf(msg, sizeof msg, "terminal too small (%dx%d)", v->L.cols, v->L.rows);
    if (v->L.cols > 0 && v->L.rows > 0)
        tui_put(0, 0, v->L.cols - (v->L.rows == 1), msg, A_BOLD);
}
