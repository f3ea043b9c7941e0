/* proc_list.c: the live screen's process list (curses), drawn from the run
 * view in the order the table decides (proc_table.h: sort, tree, filter,
 * selection, scroll; docs/screen.md, "Process list").  Its keys are
 * list_keys.c's.  A screen row that shows what it showed on the last frame
 * is not drawn again (v->list_seen; docs/performance.md). */
#include "proc_table.h"
#include "sanitize.h"
#include "view.h"
#include "viewdraw.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/grow.h"
#include "stagetop/units.h"

/* ---- command lines, read once and kept ----
 *
 * A member's command line is read when it first shows, then again only
 * when its name (comm) changes (an exec) or its reading is CMD_MAX_AGE_S
 * old, and at most CMD_REREADS_PER_FRAME of those a frame, the oldest
 * first: 500 members cost no more reads a frame than 5 (docs/performance.md). */
#define CMD_MAX_AGE_S 60.0
#define CMD_REREADS_PER_FRAME 4

/* v->cmds is kept in (pid, start) order: the entry of id, or where it goes. */
static size_t cmd_slot(const tui_view *v, st_proc_id id, int *found)
{
    size_t lo = 0, hi = v->n_cmds;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const st_proc_id *x = &v->cmds[mid].id;
        if (x->pid < id.pid || (x->pid == id.pid && x->start < id.start))
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < v->n_cmds && v->cmds[lo].id.pid == id.pid && v->cmds[lo].id.start == id.start;
    return lo;
}

static void cmd_read(tui_view *v, tui_cmd_entry *e, const st_proc_mem *p, double now)
{
    char raw[1024], text[sizeof e->text];
    if (!v->mon || st_monitor_command(v->mon, e->id, raw, sizeof raw, NULL) != ST_OK)
        snprintf(raw, sizeof raw, "?");
    tui_sanitize(raw, strlen(raw), v->ascii, -1, text, sizeof text);
    memset(e->comm, 0, sizeof e->comm);
    if (p->valid & ST_PM_COMM)
        memcpy(e->comm, p->comm, sizeof e->comm);
    e->read_at = now;
    if (e->ver == 0 || strcmp(text, e->text) != 0) { /* the same text: the order stands */
        memcpy(e->text, text, sizeof e->text);
        e->ver++;
    }
}

/* Whether p's entry e is due for another reading, and how much (its age;
 * a changed name counts as older than any age). */
static double cmd_due(const tui_cmd_entry *e, const st_proc_mem *p, double now)
{
    if ((p->valid & ST_PM_COMM) && memcmp(e->comm, p->comm, sizeof e->comm) != 0)
        return 1e18;
    double age = now - e->read_at;
    return age >= CMD_MAX_AGE_S ? age : 0;
}

/* Read the command lines of the members that are new (all of them) and of
 * the few most due; room is made by the caller (cmds_room). */
static void cmds_refresh(tui_view *v, const st_run_view *rv, double now)
{
    size_t due[CMD_REREADS_PER_FRAME], of[CMD_REREADS_PER_FRAME]; /* entry, member */
    double how[CMD_REREADS_PER_FRAME];
    size_t n_due = 0;
    for (size_t i = 0; i < rv->n_members; i++) {
        const st_proc_mem *p = &rv->members[i];
        int found;
        size_t s = cmd_slot(v, p->id, &found);
        if (!found) {
            if (v->n_cmds >= v->cap_cmds)
                continue;
            memmove(&v->cmds[s + 1], &v->cmds[s], (v->n_cmds - s) * sizeof *v->cmds);
            v->n_cmds++;
            memset(&v->cmds[s], 0, sizeof v->cmds[s]);
            v->cmds[s].id = p->id;
            cmd_read(v, &v->cmds[s], p, now);
            for (size_t k = 0; k < n_due; k++) /* the entries after it moved up one */
                due[k] += due[k] >= s;
            continue;
        }
        double d = cmd_due(&v->cmds[s], p, now);
        if (d <= 0)
            continue;
        size_t k = n_due < CMD_REREADS_PER_FRAME ? n_due++ : CMD_REREADS_PER_FRAME;
        if (k == CMD_REREADS_PER_FRAME) { /* full: replace the least due, if this one is more */
            size_t least = 0;
            for (size_t j = 1; j < n_due; j++)
                if (how[j] < how[least])
                    least = j;
            if (how[least] >= d)
                continue;
            k = least;
        }
        due[k] = s;
        of[k] = i;
        how[k] = d;
    }
    for (size_t k = 0; k < n_due; k++)
        cmd_read(v, &v->cmds[due[k]], &rv->members[of[k]], now);
}

static const tui_cmd_entry *cmd_entry(const tui_view *v, st_proc_id id)
{
    int found;
    size_t i = cmd_slot(v, id, &found);
    return found ? &v->cmds[i] : NULL;
}

static int cmds_room(tui_view *v, size_t n)
{
    if (v->n_cmds >= n + 512)
        v->n_cmds = 0; /* forget them all: a big churning tree */
    return st_grow(&v->cmds, &v->cap_cmds, v->n_cmds + n, sizeof *v->cmds, 32);
}

/* ---- the table ---- */

int tui_list_order(tui_view *v, const st_run_view *rv, double now)
{
    size_t n = rv->n_members;
    if (st_grow(&v->pm, &v->cap_pm, n + 1, sizeof *v->pm, 64) != 0 || cmds_room(v, n) != 0)
        return -1;
    cmds_refresh(v, rv, now); /* first every entry, then pointers to them */
    for (size_t i = 0; i < n; i++) {
        tui_pt_member *x = &v->pm[i];
        uint64_t g = 0;
        x->p = &rv->members[i];
        const tui_cmd_entry *e = cmd_entry(v, x->p->id);
        x->cmd = e ? e->text : "";
        x->cmd_ver = e ? e->ver : 0;
        x->has_gpu = st_run_view_gpu_of(rv, x->p->id.pid, &g);
        x->gpu = x->has_gpu ? g : 0;
    }
    v->n_pm = n;
    return tui_ptab_order(&v->pt, v->pm, n, rv->root_pid);
}

int tui_list_cols(const tui_view *v, const st_run_view *rv, int cols[TUI_COL_COUNT])
{
    int w = v->L.list.w, wide = w >= 70, gpu = rv->has_gpu_lane && w >= 81, n = 0;
    cols[n++] = TUI_COL_PID;
    cols[n++] = TUI_COL_FOOTPRINT;
    if (wide) {
        cols[n++] = TUI_COL_RSS;
        cols[n++] = TUI_COL_SWAP;
    }
    if (gpu)
        cols[n++] = TUI_COL_GPU;
    cols[n++] = TUI_COL_STATE;
    cols[n++] = TUI_COL_CPU;
    if (wide)
        cols[n++] = TUI_COL_PAGEINS;
    cols[n++] = TUI_COL_COMMAND;
    return n;
}

int tui_list_ascending(const tui_ptab *t)
{
    int up = t->sort == TUI_COL_PID || t->sort == TUI_COL_STATE || t->sort == TUI_COL_COMMAND;
    return t->invert ? !up : up;
}

/* ---- drawing ---- */

void tui_list_tag(const tui_view *v, const tui_pt_row *row, char *out, size_t len)
{
    const st_proc_mem *p = v->pm[row->m].p;
    char name[80] = "", num[16] = "";
    if (row->named) { /* its own name (comm): control characters made visible */
        char safe[64];
        tui_sanitize(p->comm, strnlen(p->comm, sizeof p->comm), v->ascii, -1, safe, sizeof safe);
        snprintf(name, sizeof name, "[%s] ", safe);
    }
    if (row->dup)
        snprintf(num, sizeof num, "#%u ", (unsigned)row->dup);
    snprintf(out, len, "%s%s", name, num);
}

/* A member's state letter, CPU (% of one core) and page-ins per second
 * over the last interval ("-" before the second sample or unreadable). */
static void fmt_activity(const st_proc_mem *p, char *buf, size_t len)
{
    char cpu[16] = "-", pg[16] = "-";
    if (p->valid & ST_PM_RATES) {
        double c = p->cpu_c / 100.0, f = p->pageins_c / 100.0;
        snprintf(cpu, sizeof cpu, c < 999.95 ? "%.1f" : "%.0f", c);
        if (f < 99999.5)
            snprintf(pg, sizeof pg, "%.0f", f);
        else
            snprintf(pg, sizeof pg, "%.0fk", f / 1000);
    }
    snprintf(buf, len, " %c %6s %7s", (p->valid & ST_PM_STATE) && p->state > ' ' ? p->state : '-', cpu,
             pg);
}

/* " ALONE/SHARED" of one member: smaps_rollup's Private and Shared at its
 * last proportional read (docs/screen.md), "-" when not read (yet). */
#define SHARE_COL_W 21
static void fmt_share(const st_run_view *rv, const st_proc_mem *p, char *buf, size_t len)
{
    uint64_t alone, shared;
    char a[24], s[24], both[56];
    if (st_run_view_share_of(rv, p->id, &alone, &shared))
        snprintf(both, sizeof both, "%s/%s", st_format_bytes(alone, a, sizeof a),
                 st_format_bytes(shared, s, sizeof s));
    else
        snprintf(both, sizeof both, "-");
    snprintf(buf, len, " %*s", SHARE_COL_W - 1, both);
}

/* A column's header word, right-aligned in w columns, the sort's arrow
 * after it when it is the sorted one; appended at line + *o. */
static void head_cell(char *line, size_t len, size_t *o, const char *word, int w, int marked,
                      const char *arrow)
{
    int pad = w - (int)strlen(word) - (marked ? 1 : 0);
    int n = snprintf(line + *o, len - *o, "%*s%s%s", pad > 0 ? pad : 0, "", word, marked ? arrow : "");
    if (n > 0)
        *o = *o + (size_t)n < len ? *o + (size_t)n : len - 1;
}

/* The header up to the command's column (*cmd_x: where COMMAND starts). */
static void header_line(const tui_view *v, int wide, int share, int gpu, char *line, size_t len,
                        int *cmd_x)
{
    const tui_ptab *t = &v->pt;
    const char *arrow = tui_list_ascending(t) ? (v->ascii ? "^" : "\xe2\x96\xb2") : (v->ascii ? "v" : "\xe2\x96\xbc");
    size_t o = 0;
    line[0] = '\0';
    head_cell(line, len, &o, "PID", 7, t->sort == TUI_COL_PID, arrow);
    head_cell(line, len, &o, "FOOTPRINT", 11, t->sort == TUI_COL_FOOTPRINT, arrow);
    if (wide) {
        head_cell(line, len, &o, "RSS", 11, t->sort == TUI_COL_RSS, arrow);
        head_cell(line, len, &o, "SWAP", 11, t->sort == TUI_COL_SWAP, arrow);
    }
    if (share)
        head_cell(line, len, &o, "ALONE/SHARED", SHARE_COL_W, 0, arrow);
    if (gpu)
        head_cell(line, len, &o, "GPU", 11, t->sort == TUI_COL_GPU, arrow);
    /* the state's letter is one column wide: its arrow takes the space after it */
    head_cell(line, len, &o, "S", 2, 0, arrow);
    head_cell(line, len, &o, t->sort == TUI_COL_STATE ? arrow : " ", 1, 0, arrow);
    head_cell(line, len, &o, "CPU%", 6, t->sort == TUI_COL_CPU, arrow);
    if (wide)
        head_cell(line, len, &o, "PGIN/s", 8, t->sort == TUI_COL_PAGEINS, arrow);
    *cmd_x = tui_text_width(line) + 2;
    snprintf(line + o, len - o, "  COMMAND%s", t->sort == TUI_COL_COMMAND ? arrow : "");
}

/* The list's title: which rows of how many are shown, the filter, what
 * the kernel refused; the longest form that fits in room columns. */
static void list_title(const tui_view *v, const st_run_view *rv, int slots, int pinned, int room,
                       char *out, size_t len)
{
    const tui_ptab *t = &v->pt;
    size_t n = t->n_rows, first = t->top + 1, last = t->top + (size_t)slots - (size_t)pinned;
    if (pinned && t->top <= 1)
        first = 1;
    if (!pinned)
        last = t->top + (size_t)slots;
    if (last > n)
        last = n;
    char rows[64], brief[48], filt[120] = "", eperm[64] = "";
    int all = last >= n && first <= 1;
    if (all && t->filter[0])
        snprintf(rows, sizeof rows, "%zu of %zu processes", n, t->n_members);
    else if (all)
        snprintf(rows, sizeof rows, "%zu process%s", n, n == 1 ? "" : "es");
    else
        snprintf(rows, sizeof rows, "rows %zu-%zu of %zu", first, last, n);
    snprintf(brief, sizeof brief, all ? "%zu" : "%zu-%zu/%zu", all ? n : first, last, n);
    if (t->filter[0]) {
        char safe[100];
        tui_sanitize(t->filter, strlen(t->filter), v->ascii, 24, safe, sizeof safe);
        snprintf(filt, sizeof filt, "filter '%s': ", safe);
    }
    if (rv->eperm_count)
        snprintf(eperm, sizeof eperm, ", %llu unreadable (EPERM)", (unsigned long long)rv->eperm_count);
    const char *f = t->filter[0] ? "filter: " : "";
    snprintf(out, len, "%s%s%s", filt, rows, eperm);
    if (tui_text_width(out) <= room)
        return;
    snprintf(out, len, "%s%s", filt, rows);
    if (tui_text_width(out) <= room)
        return;
    snprintf(out, len, "%s%s", f, rows);
    if (tui_text_width(out) <= room)
        return;
    snprintf(out, len, "%s%s", f, brief);
    if (tui_text_width(out) <= room)
        return;
    snprintf(out, len, "%s", brief);
}

/* One row r of the table at screen row y. */
static void draw_row(tui_view *v, const st_run_view *rv, size_t r, int y, int wide, int share, int gpu)
{
    const tui_box *b = &v->L.list;
    const tui_pt_row *row = &v->pt.rows[r];
    const st_proc_mem *p = v->pm[row->m].p;
    char fp[32], rss[32], sw[32], line[400];
    tui_fmt_mem(p, ST_PM_FOOTPRINT, p->footprint, fp, sizeof fp);
    tui_fmt_mem(p, ST_PM_RSS, p->rss, rss, sizeof rss);
    tui_fmt_mem(p, ST_PM_SWAP, p->swap, sw, sizeof sw);
    char g[32] = "", gs[24];
    if (gpu)
        snprintf(g, sizeof g, " %10s", v->pm[row->m].has_gpu ? st_format_bytes(v->pm[row->m].gpu, gs, sizeof gs)
                                                            : "-");
    char sh[64] = "";
    if (share)
        fmt_share(rv, p, sh, sizeof sh);
    char act[48];
    fmt_activity(p, act, sizeof act);
    if (!wide)
        act[9] = '\0'; /* the state and CPU only */
    int len = wide ? snprintf(line, sizeof line, "%7ld %10s %10s %10s%s%s%s  ", (long)p->id.pid, fp, rss,
                              sw, sh, g, act)
                   : snprintf(line, sizeof line, "%7ld %10s%s  ", (long)p->id.pid, fp, act);
    int sel = r == v->pt.sel_row, root = p->id.pid == rv->root_pid;
    attr_t a = (sel ? A_REVERSE : A_NORMAL) | (root ? A_BOLD : A_NORMAL);
    char branch[64] = "", cmd[400] = "", tag[80];
    if (len < b->w) {
        if (v->pt.tree)
            tui_pt_branch(row, v->ascii, branch, sizeof branch);
        tui_list_tag(v, row, tag, sizeof tag);
        snprintf(cmd, sizeof cmd, "%s%s%s%s", branch, row->orphan ? "(orphan) " : "", tag,
                 tui_pt_short_cmd(v->pm[row->m].cmd));
    }
    /* the row as it was drawn last: not drawn again (nor cleared: view.c) */
    char seen[TUI_LIST_SEEN];
    snprintf(seen, sizeof seen, "%d %d %d %d|%s|%s", sel, root, b->x, b->w, line, cmd);
    char *was = y < v->list_rows ? v->list_seen + (size_t)y * TUI_LIST_SEEN : NULL;
    if (was && v->list_ok[y] && strcmp(was, seen) == 0)
        return;
    attrset(sel ? A_REVERSE : A_NORMAL);
    mvhline(y, b->x, ' ', b->w);
    attrset(A_NORMAL);
    tui_put(y, b->x, b->w, line, a);
    if (len < b->w)
        tui_put(y, b->x + len, b->w - len, cmd, sel ? A_REVERSE : A_NORMAL);
    if (was) {
        memcpy(was, seen, sizeof seen);
        v->list_ok[y] = 1;
    }
}

/* A list row with nothing to show: blank once (view.c does not clear a
 * row the list drew). */
static void blank_row(tui_view *v, int y)
{
    if (y < v->list_rows && v->list_ok[y]) {
        move(y, v->L.list.x);
        clrtoeol();
        v->list_ok[y] = 0;
    }
}

void tui_panel_list(tui_view *v, const st_run_view *rv, double now)
{
    const tui_box *b = &v->L.list;
    if (b->h <= 0)
        return;
    int wide = b->w >= 70, gpu = rv->has_gpu_lane && b->w >= 81;
    /* what a member holds alone and shares (its last proportional read),
     * where the line has room for it and 45 columns of command */
    int share = wide && b->w >= SHARE_COL_W + 104 + (gpu ? 11 : 0);
    tui_list_order(v, rv, now);
    tui_ptab *t = &v->pt;
    int slots = b->h - 1;
    int pinned = t->n_rows > 0 && v->pm[t->rows[0].m].p->id.pid == rv->root_pid;
    tui_ptab_scroll(t, slots, pinned);
    char line[400], title[240];
    int cmd_x;
    header_line(v, wide, share, gpu, line, sizeof line, &cmd_x);
    /* the title goes right of COMMAND, or over it where it does not fit there */
    int after = b->w - tui_text_width(line) - 3, over = b->w - cmd_x - 1;
    list_title(v, rv, slots, pinned, after > over ? after : over, title, sizeof title);
    int tw = tui_text_width(title), fits = tw <= after || tw <= over;
    if (fits && tw > after) /* over COMMAND: the header stops before it */
        *strstr(line, "  COMMAND") = '\0';
    attrset(tui_attr(v, TUI_PAIR_BAR));
    mvhline(b->y, b->x, ' ', b->w);
    tui_put(b->y, b->x, b->w, line, tui_attr(v, TUI_PAIR_BAR));
    if (fits)
        tui_put(b->y, b->x + b->w - tw - 1, tw, title, tui_attr(v, TUI_PAIR_BAR));
    attrset(A_NORMAL);
    for (int s = 0; s < slots; s++) {
        size_t r = pinned ? (s == 0 ? 0 : t->top + (size_t)s - 1) : t->top + (size_t)s;
        if (r < t->n_rows)
            draw_row(v, rv, r, b->y + 1 + s, wide, share, gpu);
        else
            blank_row(v, b->y + 1 + s);
    }
}
