/* view.c: the live screen: header, process list, status line, help, and the
 * view's state (zoom, freeze, messages).  The lanes are in lanes.c. */
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
#include "stagetop/units.h"

void tui_view_init(tui_view *v, const tui_opts *o)
{
    memset(v, 0, sizeof *v);
    v->ascii = o->ascii;
    v->color = o->color;
    v->per_col = 1;
    v->wall_mark = -1;
}

void tui_view_free(tui_view *v)
{
    for (int i = 0; i < TUI_MAX_LANES; i++)
        free(v->lanes[i].v);
    free(v->cmds);
    free(v->order);
    free(v->row_cells);
    free(v->row_pair);
    free(v->row_ok);
    memset(v, 0, sizeof *v);
}

void tui_view_colors(const tui_view *v)
{
    if (!v->color || !has_colors())
        return;
    start_color();
    use_default_colors();
    init_pair(TUI_PAIR_FOOTPRINT, COLOR_CYAN, -1);
    init_pair(TUI_PAIR_SWAP, COLOR_MAGENTA, -1);
    init_pair(TUI_PAIR_LEVEL, COLOR_GREEN, -1);
    init_pair(TUI_PAIR_GPU, COLOR_BLUE, -1);
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

void tui_view_resize(tui_view *v, const st_run_view *rv)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    int lanes = rv->has_gpu_lane ? 4 : 3;
    tui_layout L = v->L;
    tui_layout_compute(cols, rows, lanes, (int)rv->n_members, &v->L);
    v->order_total = UINT64_MAX; /* re-sort */
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
 * (which lanes.c redraws only where they changed). */
static void clear_for_frame(tui_view *v)
{
    int full = v->full || v->help || v->drawn_help || v->stages || v->drawn_stages ||
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

void tui_view_zoom(tui_view *v, int dir)
{
    static const unsigned steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
    size_t n = sizeof steps / sizeof steps[0], i = 0;
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

int64_t tui_newest_col(const tui_view *v, const st_run_view *rv)
{
    if (!rv->last)
        return 0;
    uint32_t iv = (uint32_t)lround(rv->interval * 1000.0);
    return (int64_t)(tui_sample_k(rv->last->t_ms, iv) / v->per_col);
}

void tui_view_freeze(tui_view *v, const st_run_view *rv)
{
    v->frozen = !v->frozen;
    if (v->frozen)
        v->frozen_end = tui_newest_col(v, rv);
}

void tui_view_pan(tui_view *v, const st_run_view *rv, int dir)
{
    if (!v->frozen)
        return;
    int w = v->L.plot[0].w > 4 ? v->L.plot[0].w : 4;
    int64_t end = v->frozen_end + dir * (w / 4), newest = tui_newest_col(v, rv);
    v->frozen_end = end > newest ? newest : end < w - 1 ? w - 1 : end;
}

char *tui_short_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char units[] = "BKMGTP";
    double x = (double)bytes;
    int u = 0;
    while (x >= 1024 && u < 5) {
        x /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%lluB", (unsigned long long)bytes);
    else
        snprintf(buf, len, x < 10 ? "%.2f%c" : x < 100 ? "%.1f%c" : "%.0f%c", x, units[u]);
    return buf;
}

/* ---- header ---- */

static const char *state_text(const st_run_view *rv, char *buf, size_t len, int *pair)
{
    switch (rv->job_state) {
    case ST_JOB_PAUSED: *pair = TUI_PAIR_WARN; return "PAUSED";
    case ST_JOB_KILLING: *pair = TUI_PAIR_BAD; return "KILLING";
    case ST_JOB_EXITED:
        *pair = rv->job_launched && rv->exit_code != 0 ? TUI_PAIR_BAD : TUI_PAIR_WARN;
        if (rv->job_launched)
            snprintf(buf, len, "EXITED %d", rv->exit_code);
        else
            snprintf(buf, len, "EXITED");
        return buf;
    default: *pair = TUI_PAIR_GOOD; return "RUNNING";
    }
}

const char *tui_current_stage(const st_run_view *rv)
{
    for (size_t i = rv->n_events; i-- > 0;)
        if (rv->events[i].kind == ST_EV_STAGE)
            return rv->events[i].stage;
    return NULL;
}

static void draw_header(const tui_view *v, const st_run_view *rv)
{
    const tui_box *b = &v->L.header;
    char st[32], line[1200], cmd[700], up[32], stage[256] = "";
    int pair;
    const char *state = state_text(rv, st, sizeof st, &pair);
    tui_sanitize(rv->meta->command, strnlen(rv->meta->command, sizeof rv->meta->command), v->ascii, -1,
                 cmd, sizeof cmd);
    st_format_duration(rv->uptime_s, up, sizeof up);
    const char *cur = tui_current_stage(rv);
    if (cur) {
        char safe[200];
        tui_sanitize(cur, strnlen(cur, 64), v->ascii, 40, safe, sizeof safe);
        snprintf(stage, sizeof stage, "  stage %s", safe);
    }
    char drop[48] = "";
    uint64_t missed = rv->dropped;
    if (missed)
        snprintf(drop, sizeof drop, "  missed %llu", (unsigned long long)missed);
    int x = 0;
    char tag[48];
    snprintf(tag, sizeof tag, "[%s]", state);
    x += tui_put(b->y, x, b->w, tag, tui_attr(v, pair) | A_BOLD);
    if (b->h >= 2) {
        snprintf(line, sizeof line, " pid %ld  %s", (long)rv->root_pid, cmd);
        tui_put(b->y, x, b->w - x, line, A_BOLD);
        snprintf(line, sizeof line, "%zu procs  up %s  every %gs%s  footprint = %s%s%s",
                 rv->n_members, up, rv->interval, stage, rv->footprint_metric, drop,
                 v->frozen ? "  [FROZEN]" : "");
        tui_put(b->y + 1, 0, b->w, line, A_NORMAL);
    } else {
        snprintf(line, sizeof line, " %ld  %zu procs  %s  %gs%s%s  %s", (long)rv->root_pid,
                 rv->n_members, up, rv->interval, stage, v->frozen ? " [FROZEN]" : "", cmd);
        tui_put(b->y, x, b->w - x, line, A_NORMAL);
    }
}

/* ---- process list ---- */

static int by_footprint(const void *a, const void *b)
{
    const st_proc_mem *x = *(const st_proc_mem *const *)a, *y = *(const st_proc_mem *const *)b;
    if (x->footprint != y->footprint)
        return x->footprint < y->footprint ? 1 : -1;
    return x->id.pid < y->id.pid ? -1 : x->id.pid > y->id.pid;
}

static void sort_members(tui_view *v, const st_run_view *rv)
{
    size_t n = rv->n_members;
    if (v->order_total == rv->samples_total && n <= v->cap_order)
        return;
    if (n > v->cap_order) {
        const st_proc_mem **p = realloc(v->order, n * sizeof *p);
        if (!p)
            return;
        v->order = p;
        v->cap_order = n;
    }
    for (size_t i = 0; i < n; i++)
        v->order[i] = &rv->members[i];
    qsort(v->order, n, sizeof *v->order, by_footprint);
    v->order_total = rv->samples_total;
}

/* The command line of id, read once and kept (re-read every 10 s: exec). */
static const char *command_of(tui_view *v, const st_run_view *rv, st_proc_id id, double now)
{
    tui_cmd_entry *e = NULL;
    for (size_t i = 0; i < v->n_cmds; i++)
        if (v->cmds[i].id.pid == id.pid && v->cmds[i].id.start == id.start) {
            e = &v->cmds[i];
            break;
        }
    if (e && now - e->read_at < 10)
        return e->text;
    if (!e) {
        if (v->n_cmds >= 512)
            v->n_cmds = 0; /* forget them all: a big churning tree */
        if (st_grow(&v->cmds, &v->cap_cmds, v->n_cmds + 1, sizeof *v->cmds, 32) != 0)
            return "";
        e = &v->cmds[v->n_cmds++];
        e->id = id;
    }
    char raw[1024];
    if (st_run_view_command(rv, id, raw, sizeof raw, NULL) != ST_OK)
        snprintf(raw, sizeof raw, "?");
    tui_sanitize(raw, strlen(raw), v->ascii, -1, e->text, sizeof e->text);
    e->read_at = now;
    return e->text;
}

static void fmt_cell(const st_proc_mem *p, unsigned bit, uint64_t val, char *buf, size_t len)
{
    if (p->valid & bit)
        st_format_bytes(val, buf, len);
    else
        snprintf(buf, len, "-");
}

static void draw_list(tui_view *v, const st_run_view *rv, double now)
{
    const tui_box *b = &v->L.list;
    if (b->h <= 0)
        return;
    int wide = b->w >= 70, gpu = rv->has_gpu_lane && b->w >= 81;
    char line[1500], title[200];
    if (wide)
        snprintf(line, sizeof line, "%7s %10s %10s %10s%s  %s", "PID", "FOOTPRINT", "RSS", "SWAP",
                 gpu ? "        GPU" : "", "COMMAND");
    else
        snprintf(line, sizeof line, "%7s %10s  %s", "PID", "FOOTPRINT", "COMMAND");
    attrset(tui_attr(v, TUI_PAIR_BAR));
    mvhline(b->y, b->x, ' ', b->w);
    tui_put(b->y, b->x, b->w, line, tui_attr(v, TUI_PAIR_BAR));
    size_t n = rv->n_members;
    int shown = b->h - 1 < (int)n ? b->h - 1 : (int)n;
    snprintf(title, sizeof title, "%zu process%s%s", n, n == 1 ? "" : "es",
             shown < (int)n ? " (largest first)" : "");
    if (rv->eperm_count)
        snprintf(title + strlen(title), sizeof title - strlen(title), ", %llu unreadable (EPERM)",
                 (unsigned long long)rv->eperm_count);
    int tw = tui_text_width(title);
    if (tw + 2 + tui_text_width(line) <= b->w)
        tui_put(b->y, b->x + b->w - tw - 1, tw, title, tui_attr(v, TUI_PAIR_BAR));
    sort_members(v, rv);
    for (int i = 0; i < shown; i++) {
        const st_proc_mem *p = v->order[i];
        char fp[32], rss[32], sw[32];
        fmt_cell(p, ST_PM_FOOTPRINT, p->footprint, fp, sizeof fp);
        fmt_cell(p, ST_PM_RSS, p->rss, rss, sizeof rss);
        fmt_cell(p, ST_PM_SWAP, p->swap, sw, sizeof sw);
        char g[32] = "", gs[24];
        uint64_t gb;
        if (gpu) {
            g[0] = ' ';
            if (st_run_view_gpu_of(rv, p->id.pid, &gb))
                snprintf(g + 1, sizeof g - 1, "%10s", st_format_bytes(gb, gs, sizeof gs));
            else
                snprintf(g + 1, sizeof g - 1, "%10s", "-");
        }
        int len = wide ? snprintf(line, sizeof line, "%7ld %10s %10s %10s%s  ", (long)p->id.pid,
                                  fp, rss, sw, g)
                       : snprintf(line, sizeof line, "%7ld %10s  ", (long)p->id.pid, fp);
        tui_put(b->y + 1 + i, b->x, b->w, line,
                p->id.pid == rv->root_pid ? A_BOLD : A_NORMAL);
        if (len < b->w)
            tui_put(b->y + 1 + i, b->x + len, b->w - len, command_of(v, rv, p->id, now), A_NORMAL);
    }
}

/* ---- status line ---- */

static void own_cpu(tui_view *v, double now)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return;
    double cpu = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    if (v->wall_mark < 0) {
        v->cpu_mark = cpu;
        v->wall_mark = now;
    } else if (now - v->wall_mark >= 2.0) {
        v->cpu_pct = 100.0 * (cpu - v->cpu_mark) / (now - v->wall_mark);
        v->cpu_mark = cpu;
        v->wall_mark = now;
    }
}

/* A warning from the monitor (guard, record stream, --events, GPU) is shown for
 * ten seconds after it appears or changes; the keys come back after. */
static const char *monitor_warning(tui_view *v, const st_run_view *rv, double now)
{
    const st_run_warning *rw = st_run_view_warning(rv);
    const char *w = rw ? rw->e.msg : "";
    if (strncmp(w, v->warn, sizeof v->warn - 1) != 0) {
        snprintf(v->warn, sizeof v->warn, "%s", w);
        v->warn_until = now + 10.0;
    }
    return w[0] && now < v->warn_until ? w : NULL;
}

static void draw_status(tui_view *v, const st_run_view *rv, double now)
{
    const tui_box *b = &v->L.status;
    char right[96], left[600];
    double us = rv->cpu_per_sample * 1e6;
    const char *warn = monitor_warning(v, rv, now);
    own_cpu(v, now);
    if (us < 1000)
        snprintf(right, sizeof right, " cpu %.1f%%  %.0f%ss/sample", v->cpu_pct, us,
                 v->ascii ? "u" : "µ");
    else
        snprintf(right, sizeof right, " cpu %.1f%%  %.1fms/sample", v->cpu_pct, us / 1000);
    attr_t a = A_NORMAL;
    int prompt = v->prompt != TUI_PROMPT_NONE;
    if (v->prompt == TUI_PROMPT_KILL) {
        snprintf(left, sizeof left, "Kill pid %ld and its %zu process%s? [y/n]",
                 (long)rv->root_pid, rv->n_members, rv->n_members == 1 ? "" : "es");
        a = tui_attr(v, TUI_PAIR_BAD) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_QUIT) {
        snprintf(left, sizeof left, "The job is paused. Resume it before quitting? "
                                    "[y]es [n]o, leave it paused [c]ancel");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_WIDE) {
        snprintf(left, sizeof left, "READ-ONLY: this tree is wide (stagetop or most of the "
                 "machine). Let p, k and the guard signal its %zu processes? [y/n]", rv->n_members);
        a = tui_attr(v, TUI_PAIR_BAD) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_QUIT_LAUNCHED) {
        snprintf(left, sizeof left, "stagetop started this job and it still runs: "
                                    "[k]ill it and quit, [l]eave it running, [c]ancel");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD | A_REVERSE;
    } else if (v->msg[0] && now < v->msg_until) {
        snprintf(left, sizeof left, "%s", v->msg);
        a = v->msg_error ? tui_attr(v, TUI_PAIR_BAD) | A_BOLD : A_BOLD;
    } else if (rv->read_only) {
        snprintf(left, sizeof left, "READ-ONLY (a wide tree: nothing is signalled; p or k asks)"
                 "  e export  m mark  ? help  q quit");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD;
    } else if (warn) {
        tui_sanitize(warn, strlen(warn), v->ascii, -1, left, sizeof left);
        a = tui_attr(v, TUI_PAIR_WARN);
    } else {
        snprintf(left, sizeof left, "p %s  k kill  e export  m mark  s stages  space %s  +/- zoom  ? help  q quit",
                 rv->job_state == ST_JOB_PAUSED ? "resume" : "pause",
                 v->frozen ? "unfreeze" : "freeze");
    }
    int rw = tui_text_width(right);
    int show_right = !prompt && rw <= b->w / 2;
    int lw = b->w - (show_right ? rw : 0);
    if (prompt) {
        attrset(a);
        mvhline(b->y, b->x, ' ', b->w);
    }
    tui_put(b->y, b->x, lw, left, a);
    if (show_right)
        tui_put(b->y, b->x + b->w - rw, rw, right, tui_attr(v, TUI_PAIR_DIM));
}

/* ---- help ---- */

static void draw_help(const tui_view *v)
{
    static const char *const lines[] = {
        "stagetop keys",
        "",
        "p      pause / resume the whole job (SIGSTOP / SIGCONT)",
        "k      kill the job (asks; SIGTERM, later SIGKILL)",
        "e      export the trace as JSON (path shown below)",
        "m      add a mark at this moment",
        "s      the stage table (time, peak, swap, level, loads)",
        "space  freeze the graphs (left/right move them)",
        "+ -    zoom the time window in / out",
        "?      this help",
        "q      quit (asks to resume a job that stagetop paused)",
        "",
        "markers: S stage L load R release M mark P pause",
        "         C resume K kill X exit B budget",
        "",
        "any key closes this help",
    };
    tui_view_help(v, lines, (int)(sizeof lines / sizeof lines[0]));
}

/* ---- the guard's alert: what crossed which limit, and what to do ---- */

static void draw_alert(const tui_view *v, const st_run_view *rv)
{
    const st_guard_verdict *g = &rv->verdict;
    char what[96], limit[96], a[32], b[32];
    if (g->reason == ST_GUARD_SWAP) {
        snprintf(what, sizeof what, "swap grew %s since the job started",
                 st_format_bytes((uint64_t)g->value, a, sizeof a));
        snprintf(limit, sizeof limit, "over the --swap-budget of %s",
                 st_format_bytes((uint64_t)g->limit, b, sizeof b));
    } else {
        snprintf(what, sizeof what, "memory available %.1f%%, two samples in a row",
                 g->value / 100.0);
        snprintf(limit, sizeof limit, "under the --kill-free limit of %.1f%%", g->limit / 100.0);
    }
    const char *const lines[] = {
        "BUDGET CROSSED: job paused",
        "",
        what,
        limit,
        "",
        "Every process of the tree is stopped (SIGSTOP); nothing was lost.",
        "p  resume (the budget then counts from here)",
        "k  kill the job        e  export the trace",
    };
    tui_view_help(v, lines, (int)(sizeof lines / sizeof lines[0]));
}

void tui_view_help(const tui_view *v, const char *const *lines, int n)
{
    int w = 60 < COLS - 2 ? 60 : COLS - 2, h = n + 2 < LINES ? n + 2 : LINES;
    if (w < 10 || h < 3)
        return;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
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
    for (int i = 0; i < n && i < h - 2; i++)
        tui_put(y0 + 1 + i, x0 + 2, w - 4, lines[i], i == 0 ? A_BOLD : A_NORMAL);
}

void tui_view_draw(tui_view *v, const st_run_view *rv, double now)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    row_cache_fit(v);
    clear_for_frame(v);
    v->drawn_help = v->help;
    v->drawn_stages = v->stages;
    if (v->L.too_small) {
        char msg[64];
        snprintf(msg, sizeof msg, "terminal too small (%dx%d)", v->L.cols, v->L.rows);
        if (v->L.cols > 0 && v->L.rows > 0)
            tui_put(0, 0, v->L.cols - (v->L.rows == 1), msg, A_BOLD);
    } else {
        draw_header(v, rv);
        tui_lanes_draw(v, rv, now);
        draw_list(v, rv, now);
        draw_status(v, rv, now);
        if (v->stages)
            tui_stage_table_draw(v, rv->summary, v->L.label[0].y);
        if (rv->guard_tripped && rv->job_state == ST_JOB_PAUSED && !v->help)
            draw_alert(v, rv);
        if (v->help)
            draw_help(v);
    }
    wnoutrefresh(stdscr);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    v->frame_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    v->frames++;
}
