/* view.c: the live screen's state (zoom, freeze, messages, the row cache,
 * the layout) and its frame: what is drawn where and when.  The panels are
 * in view_panels.c, the lanes in view_lanes.c, the helpers in view_util.c. */
#include "view.h"
#include "sanitize.h"
#include "spark.h"
#include "viewdraw.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stagetop/grow.h"
#include "stagetop/clock.h"
#include "stagetop/stage_table.h"
#include "stagetop/units.h"

void tui_view_init(tui_view *v, const tui_opts *o)
{
    memset(v, 0, sizeof *v);
    v->ascii = o->ascii;
    v->color = o->color;
    v->job_log = o->job_log;
    v->lane_set = o->lanes;
    v->per_col = 1;
    v->wall_mark = -1;
    tui_ptab_init(&v->pt);
    if (o->sort > 0 && o->sort <= TUI_COL_COUNT)
        v->pt.sort = o->sort - 1;
    v->pt.tree = o->tree;
}

void tui_view_free(tui_view *v)
{
    for (int i = 0; i < TUI_MAX_LANES; i++)
        free(v->lanes[i].v);
    free(v->cmds);
    tui_ptab_free(&v->pt);
    free(v->pm);
    free(v->row_cells);
    free(v->row_pair);
    free(v->row_ok);
    memset(v, 0, sizeof *v);
}

/* Lane i of a graph layout down to one row (its blank row under it kept);
 * the rows it frees go to the other lanes (at most 15 graph rows each),
 * then to the process list.  Everything under it moves up. */
static void one_row_lane(tui_layout *L, int i)
{
    int n = L->n_lanes, h[TUI_MAX_LANES], freed = L->label[i].h - 1;
    if (!L->graph || freed <= 0)
        return;
    for (int j = 0; j < n; j++)
        h[j] = j == i ? 1 : L->label[j].h;
    for (int grew = 1; freed > 0 && grew;) {
        grew = 0;
        for (int j = 0; j < n && freed > 0; j++)
            if (j != i && h[j] < 15) {
                h[j]++;
                freed--;
                grew = 1;
            }
    }
    int y = L->label[0].y;
    for (int j = 0; j < n; j++) {
        L->label[j].y = L->plot[j].y = y;
        L->label[j].h = L->plot[j].h = h[j];
        y += h[j] + 1;
    }
    if (L->axis.h) {
        L->window.y = L->axis.y = y;
        y++;
    }
    if (L->events.h) {
        L->events_label.y = L->events.y = y;
        y++;
    }
    if (L->list.h > 0) {
        L->list.y = y;
        L->list.h = L->rows - 1 - y;
    }
}

void tui_view_resize(tui_view *v, const st_run_view *rv)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    int ids[TUI_MAX_LANES], lanes = tui_lanes_shown(v, rv, ids);
    tui_layout L = v->L;
    tui_layout_compute(cols, rows, lanes, (int)rv->n_members, &v->L);
    /* A system without swap: the swap lane is one row saying so. */
    if ((rv->sys.valid & ST_SYS_SWAPTOTAL) && rv->sys.swap_total == 0 && rv->last &&
        st_sample_has(rv->last, ST_F_SWAP) && rv->last->swap_used == 0)
        one_row_lane(&v->L, 1);
    if (memcmp(&L, &v->L, sizeof L) != 0)
        v->full = 1;
}

/* Make the row cache fit the screen; a new one knows nothing. */
static void row_cache_fit(tui_view *v)
{
    int cols = v->L.cols > 0 ? v->L.cols : 1, rows = v->L.rows > 0 ? v->L.rows : 1;
    if (cols == v->row_cols && rows == v->row_rows && v->row_cells)
        return;
    free(v->row_cells);
    free(v->row_pair);
    free(v->row_ok);
    v->row_cells = malloc((size_t)cols * (size_t)rows);
    v->row_pair = calloc((size_t)rows, sizeof *v->row_pair);
    v->row_ok = calloc((size_t)rows, 1);
    v->row_cols = cols;
    v->row_rows = rows;
    if (!v->row_cells || !v->row_pair || !v->row_ok) {
        free(v->row_cells);
        free(v->row_pair);
        free(v->row_ok);
        v->row_cells = NULL;
        v->row_pair = NULL;
        v->row_ok = NULL;
        v->row_cols = v->row_rows = 0;
    }
}

/* Clear the screen for a frame: all of it, or all but the plots' cells
 * (which view_lanes.c redraws only where they changed). */
static void clear_for_frame(tui_view *v)
{
    int full = v->full || v->help || v->drawn_help || v->stages || v->drawn_stages ||
               v->log || v->drawn_log ||
               v->L.too_small || !v->row_ok;
    if (full) {
        erase();
        if (v->row_ok)
            memset(v->row_ok, 0, (size_t)v->row_rows);
        v->full = 0;
        return;
    }
    for (int y = 0; y < v->L.rows; y++) {
        int plot_x = -1;
        for (int i = 0; i < v->L.n_lanes; i++)
            if (y >= v->L.plot[i].y && y < v->L.plot[i].y + v->L.plot[i].h)
                plot_x = v->L.plot[i].x;
        if (plot_x < 0) {
            move(y, 0);
            clrtoeol();
        } else {
            attrset(A_NORMAL);
            mvhline(y, 0, ' ', plot_x);
        }
    }
}

void tui_view_message(tui_view *v, double now, int error, const char *fmt, ...)
{
    va_list ap;
    char raw[sizeof v->msg];
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* messages carry paths and error text: make them safe as well */
    tui_sanitize(raw, strlen(raw), v->ascii, -1, v->msg, sizeof v->msg);
    v->msg_error = error;
    v->msg_until = now + (error ? 8.0 : 5.0);
}

int tui_view_input_key(tui_view *v, int ch)
{
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        while (v->input_len > 0 && ((unsigned char)v->input[--v->input_len] & 0xC0) == 0x80) {
        } /* a UTF-8 character's continuation bytes go with it */
        v->input[v->input_len] = '\0';
        return 1;
    }
    if (ch < 32 || ch > 255 || ch == 127)
        return 0;
    if (v->input_len + 1 < sizeof v->input) {
        v->input[v->input_len++] = (char)ch;
        v->input[v->input_len] = '\0';
    }
    return 1;
}

void tui_view_zoom(tui_view *v, int dir)
{
    static const unsigned steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
    size_t n = sizeof steps / sizeof steps[0], i = 0;
    v->fit = 0;
    while (i + 1 < n && steps[i] < v->per_col)
        i++;
    if (dir > 0 && i > 0)
        i--;
    else if (dir < 0 && i + 1 < n)
        i++;
    if (v->frozen && steps[i] != v->per_col) /* keep the same right edge in time */
        v->frozen_end = (int64_t)(((uint64_t)(v->frozen_end + 1) * v->per_col) / steps[i]) - 1;
    v->per_col = steps[i];
}

void tui_view_fit(tui_view *v, const st_run_view *rv)
{
    int w = v->L.plot[0].w > 1 ? v->L.plot[0].w : 1;
    v->frozen = 0;
    v->has_frozen_t = 0;
    v->per_col = 1;
    uint64_t last = (uint64_t)tui_newest_col(v, rv), first = 0;
    size_t kept = rv->samples.a_len + rv->samples.b_len;
    if (!rv->replay && kept && rv->samples_total > kept) { /* the ring forgot the start */
        const st_sample *old = rv->samples.a_len ? rv->samples.a : rv->samples.b;
        first = tui_sample_k(old->t_ms, (uint32_t)lround(rv->interval * 1000.0));
    }
    uint64_t span = last > first ? last - first : 0;
    v->per_col = (unsigned)(span / (uint64_t)w + 1 < 10000 ? span / (uint64_t)w + 1 : 10000);
}

void tui_view_freeze(tui_view *v, const st_run_view *rv)
{
    v->fit = 0;
    v->frozen = !v->frozen;
    v->has_frozen_t = 0;
    if (v->frozen) {
        v->frozen_end = tui_newest_col(v, rv);
        if (rv->last && !rv->replay) { /* what came after is not drawn */
            v->frozen_t_ms = rv->last->t_ms;
            v->has_frozen_t = 1;
        }
    }
}

void tui_view_pan(tui_view *v, const st_run_view *rv, int dir)
{
    if (!v->frozen)
        return;
    int w = v->L.plot[0].w > 4 ? v->L.plot[0].w : 4;
    int64_t end = v->frozen_end + dir * (w / 4), newest = tui_newest_col(v, rv);
    int64_t first = w - 1; /* the window's first column is the run's first */
    if (v->has_frozen_t) { /* live: never past the frozen moment, and a run shorter */
        newest = tui_frozen_col(v, rv); /* than the window stays where it is */
        if (first > newest)
            first = newest;
    }
    v->frozen_end = end > newest ? newest : end < first ? first : end;
}

void tui_view_draw(tui_view *v, const st_run_view *rv, double now)
{
    double t0 = st_now();
    if (v->fit && !rv->replay) /* key f: the run grows, the window follows */
        tui_view_fit(v, rv);
    const st_summary *sm = rv->summary;
    if (sm && (sm != v->rep_of || sm->n_stages != v->rep_stages)) { /* a window opened */
        st_stage_repeats(sm, &v->rep_nth, &v->rep_done, &v->rep_ms);
        v->rep_of = sm;
        v->rep_stages = sm->n_stages;
    }
    row_cache_fit(v);
    clear_for_frame(v);
    v->drawn_help = v->help;
    v->drawn_stages = v->stages;
    v->drawn_log = v->log;
    if (v->L.too_small) {
        tui_put_too_small(v);
    } else {
        tui_panel_header(v, rv);
        tui_lanes_draw(v, rv, now);
        tui_panel_list(v, rv, now);
        tui_panel_status(v, rv, now);
        if (v->stages)
            tui_stage_table_draw(v, rv->summary, v->L.label[0].y);
        if (v->log)
            tui_log_box_draw(v, v->job_log, v->log_scroll, v->L.label[0].y);
        if (rv->guard_tripped && rv->job_state == ST_JOB_PAUSED && !v->help)
            tui_panel_alert(v, rv);
        if (v->help)
            tui_panel_help(v);
    }
    wnoutrefresh(stdscr);
    v->frame_s = st_now() - t0;
    v->frames++;
}

