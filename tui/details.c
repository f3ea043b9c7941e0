/* details.c: the details box of the process list's selected process
 * (Enter; Esc or Enter closes it; docs/screen.md, "Details"): its pid,
 * parent, state, start time, whole command line wrapped, footprint (alone
 * and shared where the tree read it), RSS, swap, GPU, a Mac member's Metal
 * memory against PyTorch's MPS cap (view_cap.c), CPU, page-ins and its
 * own footprint over the graphs' window, from the monitor's per-member
 * history (st_run_view_history_of).  The command line and the start time
 * are asked of the monitor once, when the box opens; the numbers follow
 * each sample.  A process that exits while the box is open keeps its last
 * numbers, marked. */
#include "sanitize.h"
#include "spark.h"
#include "view.h"
#include "viewdraw.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "stagetop/clock.h"
#include "stagetop/units.h"

/* The member of rv that is id, or NULL. */
static const st_proc_mem *member_of(const st_run_view *rv, st_proc_id id)
{
    for (size_t i = 0; i < rv->n_members; i++)
        if (rv->members[i].id.pid == id.pid && rv->members[i].id.start == id.start)
            return &rv->members[i];
    return NULL;
}

static void open_box(tui_view *v, const st_run_view *rv, double now)
{
    tui_details *d = &v->det;
    tui_ptab *t = &v->pt;
    if (tui_list_order(v, rv, now) != 0 || t->sel_row >= t->n_rows)
        return;
    const st_proc_mem *p = v->pm[t->rows[t->sel_row].m].p;
    memset(d, 0, sizeof *d);
    d->open = 1;
    d->id = p->id;
    d->last = *p;
    char raw[sizeof d->cmd / 2];
    if (!v->mon || st_monitor_command(v->mon, p->id, raw, sizeof raw, NULL) != ST_OK)
        snprintf(raw, sizeof raw, "?");
    tui_sanitize(raw, strlen(raw), v->ascii, -1, d->cmd, sizeof d->cmd);
    d->has_start = v->mon && st_monitor_start_time(v->mon, p->id, &d->start, NULL) == ST_OK;
}

int tui_details_key(tui_view *v, const st_run_view *rv, int ch, double now)
{
    tui_details *d = &v->det;
    if (d->open) { /* its own keys only, while it is open */
        if (tui_is_enter(ch) || ch == 27 || ch == 'q' || ch == 'Q')
            d->open = 0;
        return 1;
    }
    if (!tui_is_enter(ch) || rv->replay || v->L.list.h <= 1 || !rv->n_members)
        return 0;
    open_box(v, rv, now);
    return 1;
}

static const char *state_word(char s)
{
    switch (s) {
    case 'R': return "running";
    case 'S': return "sleeping";
    case 'D': return "waiting for the disk or memory";
    case 'T': return "stopped";
    case 't': return "stopped by a tracer";
    case 'Z': return "exited, not reaped";
    case 'X': return "dead";
    case 'I': return "idle";
    default: return "";
    }
}

/* Wrap the safe text s into rows of at most w columns, at spaces where a
 * row has one, else between characters: the rows drawn from row y on
 * (at most max), how many rows it takes (drawn or not). */
static int draw_wrapped(const char *s, int y, int x, int w, int max)
{
    int n = 0;
    while (*s) {
        char row[1024];
        tui_text_fit(s, w, row, sizeof row);
        size_t len = strlen(row);
        if (len == 0) /* one character wider than the row */
            break;
        if (s[len]) { /* more follows: end the row at its last space, if any */
            char *sp = strrchr(row, ' ');
            if (sp && sp > row) {
                len = (size_t)(sp - row) + 1;
                row[len] = '\0';
            }
        }
        if (n < max)
            tui_put(y + n, x, w, row, A_NORMAL);
        n++;
        s += len;
    }
    return n ? n : 1;
}

/* "2026-12-04 18:03:12 (12m03s ago)" of a wall-clock time, local time. */
static void fmt_start(double start, char *buf, size_t len)
{
    time_t t = (time_t)floor(start);
    struct tm tm;
    char when[40] = "?", ago[40];
    if (localtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    double age = st_wall_now() - start;
    st_format_duration(age > 0 ? age : 0, ago, sizeof ago);
    snprintf(buf, len, "%s (%s ago)", when, ago);
}

/* The process's own footprint over the graphs' window (the samples of its
 * columns, newest at the right; when frozen, the window it shows), as a
 * sparkline of at most w columns, each the largest of its samples: into
 * out, with its smallest and largest and the seconds it covers. */
static void window_spark(const tui_view *v, const st_run_view *rv, st_proc_id id, int w, char *out,
                         size_t len, double *lo, double *hi, double *span)
{
    uint32_t kib[ST_RUN_HIST_MAX];
    size_t n = st_run_view_history_of(rv, id, kib, ST_RUN_HIST_MAX);
    double cols[1024];
    int plot_w = v->L.plot[0].w > 0 ? v->L.plot[0].w : w;
    uint64_t per = v->per_col ? v->per_col : 1, want = (uint64_t)plot_w * per, back = 0;
    if (v->frozen) { /* the columns after the frozen window's end are not in it */
        int64_t behind = tui_newest_col(v, rv) - v->frozen_end;
        back = behind > 0 ? (uint64_t)behind * per : 0;
    }
    if (w > 1024)
        w = 1024;
    if (w > plot_w)
        w = plot_w;
    *lo = INFINITY;
    *hi = -INFINITY;
    *span = (double)want * rv->interval;
    out[0] = '\0';
    if (w < 1)
        return;
    /* sample j of the window (0 oldest, want - 1 newest) is kib[n - back - want + j]:
     * kept for j >= first (at most n of them, whatever the zoom) */
    uint64_t first = back + want > n ? back + want - n : 0;
    for (int c = 0; c < w; c++) {
        uint64_t a = want * (uint64_t)c / (uint64_t)w, b = want * (uint64_t)(c + 1) / (uint64_t)w;
        double m = NAN;
        for (uint64_t j = a > first ? a : first; j < b; j++) {
            uint64_t from_end = back + want - j; /* 1: the newest kept */
            if (kib[n - from_end] == ST_RUN_HIST_NONE)
                continue;
            double x = (double)kib[n - from_end] * 1024.0;
            m = isnan(m) || x > m ? x : m;
        }
        cols[c] = m;
        if (!isnan(m)) {
            *lo = m < *lo ? m : *lo;
            *hi = m > *hi ? m : *hi;
        }
    }
    if (*hi < *lo)
        return;
    tui_spark(cols, w, 0, *hi > 0 ? *hi : 1, v->ascii, out, len);
}

/* The lines of numbers (label and value pairs) into rows[]: how many. */
static int number_rows(const tui_view *v, const st_run_view *rv, char rows[][200])
{
    const tui_details *d = &v->det;
    const st_proc_mem *p = &d->last;
    char a[32], b[32], c[32];
    int n = 0;
    char st[64] = "-";
    if ((p->valid & ST_PM_STATE) && p->state > ' ')
        snprintf(st, sizeof st, "%c %s", p->state, state_word(p->state));
    snprintf(rows[n++], 200, "pid %ld   parent %ld   state %s%s", (long)p->id.pid, (long)p->ppid, st,
             d->gone ? "   (exited: its last numbers)" : "");
    char when[96] = "not known here";
    if (d->has_start)
        fmt_start(d->start, when, sizeof when);
    snprintf(rows[n++], 200, "started %s", when);
    tui_fmt_mem(p, ST_PM_FOOTPRINT, p->footprint, a, sizeof a);
    uint64_t alone, shared;
    if (st_run_view_share_of(rv, p->id, &alone, &shared))
        snprintf(rows[n++], 200, "footprint %s   alone %s   shared %s", a,
                 st_format_bytes(alone, b, sizeof b), st_format_bytes(shared, c, sizeof c));
    else
        snprintf(rows[n++], 200, "footprint %s   alone/shared: not read", a);
    tui_fmt_mem(p, ST_PM_RSS, p->rss, a, sizeof a);
    tui_fmt_mem(p, ST_PM_SWAP, p->swap, b, sizeof b);
    uint64_t g = 0;
    if (st_run_view_gpu_of(rv, p->id.pid, &g))
        st_format_bytes(g, c, sizeof c);
    else
        snprintf(c, sizeof c, "-");
    snprintf(rows[n++], 200, "RSS %s   swap %s   GPU %s", a, b, c);
    if (tui_cap_member(rv, p, rows[n], 200)) /* macOS: its Metal memory against the MPS cap */
        n++;
    if (p->valid & ST_PM_RATES)
        snprintf(rows[n++], 200, "CPU %.1f %%   page-ins %.0f/s", p->cpu_c / 100.0, p->pageins_c / 100.0);
    else
        snprintf(rows[n++], 200, "CPU -   page-ins -");
    return n;
}

void tui_details_draw(tui_view *v, const st_run_view *rv)
{
    tui_details *d = &v->det;
    const st_proc_mem *now = member_of(rv, d->id);
    if (now)
        d->last = *now;
    d->gone = !now;
    int w = COLS - 4 < 100 ? COLS - 4 : 100;
    if (w < 20 || LINES < 8)
        return;
    int inner = w - 4;
    char rows[8][200];
    int nr = number_rows(v, rv, rows);
    char spark[1024 * 3 + 1], lo_s[32], hi_s[32], span_s[32], label[120];
    double lo, hi, span;
    int label_w = 34;
    window_spark(v, rv, d->id, inner - label_w, spark, sizeof spark, &lo, &hi, &span);
    st_format_duration(span, span_s, sizeof span_s);
    if (hi >= lo)
        snprintf(label, sizeof label, "footprint, last %s (%s-%s): ", span_s,
                 tui_short_bytes((uint64_t)lo, lo_s, sizeof lo_s), tui_short_bytes((uint64_t)hi, hi_s, sizeof hi_s));
    else
        snprintf(label, sizeof label, "footprint, last %s: no samples", span_s);
    /* the box: title, numbers, sparkline, "command", its rows, the keys */
    int cmd_rows = draw_wrapped(d->cmd, 0, 0, inner, 0);
    int h = 1 + nr + 1 + 1 + cmd_rows + 1; /* the frame, numbers, sparkline, "command:", rows */
    if (h > LINES)
        h = LINES;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2, y = y0 + 1, last = y0 + h - 1; /* the frame's row */
    tui_frame_box(v, y0, x0, h, w);
    char title[64];
    snprintf(title, sizeof title, " process %ld ", (long)d->id.pid);
    tui_put(y0, x0 + 2, w - 4, title, A_BOLD);
    for (int i = 0; i < nr && y < last; i++)
        tui_put(y++, x0 + 2, inner, rows[i], A_NORMAL);
    if (y < last) {
        int lw = tui_put(y, x0 + 2, inner, label, A_NORMAL);
        tui_put(y, x0 + 2 + lw, inner - lw, spark, tui_attr(v, TUI_PAIR_LANE + ST_LANE_FOOTPRINT));
        y++;
    }
    if (y < last)
        tui_put(y++, x0 + 2, inner, "command:", A_BOLD);
    if (y < last)
        y += draw_wrapped(d->cmd, y, x0 + 2, inner, last - y);
    tui_put(y0 + h - 1, x0 + 2, w - 4, " Esc or Enter: close ", A_NORMAL);
}
