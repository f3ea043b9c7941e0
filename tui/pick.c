/* pick.c: "stagetop" with no target: the largest process trees of the
 * machine, to pick one from, listed again every two seconds.  Which trees
 * are offered and their footprints are core's (prerun.h: stagetop's
 * ancestors and pid 1 are never offered, wrapper chains collapse to the
 * child that holds the memory); this file only draws them and reads keys. */
#include "sanitize.h"
#include "tui.h"
#include "view.h"
#include "viewdraw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/prerun.h"
#include "stagetop/units.h"

typedef struct picker {
    st_prerun *pr;
    const tui_opts *o;
    size_t n_order;  /* targets of the last listing */
    int sel, top;
    char msg[320];
} picker;

static int list_trees(picker *p, st_error *err)
{
    int rc = st_prerun_list_targets(p->pr, err);
    if (rc != ST_OK)
        return rc;
    p->n_order = st_prerun_n_targets(p->pr);
    if (p->sel >= (int)p->n_order)
        p->sel = p->n_order ? (int)p->n_order - 1 : 0;
    return ST_OK;
}

static void draw(picker *p, const tui_view *v)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    erase();
    if (rows < 4 || cols < 30) {
        tui_put(0, 0, cols - (rows == 1), "terminal too small", A_BOLD);
        wnoutrefresh(stdscr);
        return;
    }
    tui_put(0, 0, cols, "stagetop: pick a process tree to watch", A_BOLD);
    char line[1200];
    snprintf(line, sizeof line, "%7s %14s %6s %10s  %s", "PID", "TREE FOOTPRINT", "PROCS", "OWN",
             "COMMAND");
    attrset(tui_attr(v, TUI_PAIR_BAR));
    mvhline(1, 0, ' ', cols);
    tui_put(1, 0, cols, line, tui_attr(v, TUI_PAIR_BAR));
    int h = rows - 3;
    if (p->sel < p->top)
        p->top = p->sel;
    if (p->sel >= p->top + h)
        p->top = p->sel - h + 1;
    for (int i = 0; i < h && p->top + i < (int)p->n_order; i++) {
        const st_target *r = st_prerun_target(p->pr, (size_t)(p->top + i));
        char tree[32], own[32], raw[1024], cmd[1200];
        st_format_bytes(r->tree, tree, sizeof tree);
        st_format_bytes(r->own, own, sizeof own);
        if (st_prerun_command(p->pr, r->id, raw, sizeof raw, NULL) != ST_OK)
            snprintf(raw, sizeof raw, "?");
        tui_sanitize(raw, strlen(raw), v->ascii, -1, cmd, sizeof cmd);
        int len = snprintf(line, sizeof line, "%7ld %14s %6u %10s  ", (long)r->id.pid, tree,
                           (unsigned)r->procs, own);
        attr_t a = p->top + i == p->sel ? A_REVERSE : A_NORMAL;
        if (a != A_NORMAL) {
            attrset(a);
            mvhline(2 + i, 0, ' ', cols);
        }
        tui_put(2 + i, 0, cols, line, a);
        if (len < cols)
            tui_put(2 + i, len, cols - len, cmd, a);
    }
    if (p->n_order == 0)
        tui_put(2, 0, cols, "no process trees with memory to show", A_NORMAL);
    tui_put(rows - 1, 0, cols,
            p->msg[0] ? p->msg : "up/down select  Enter watch  r refresh  q quit", A_NORMAL);
    wnoutrefresh(stdscr);
}

int tui_pick(const st_platform *plat, const tui_opts *o, int32_t *pid, st_error *err)
{
    picker p;
    SCREEN *scr = NULL;
    tui_view v;
    memset(&p, 0, sizeof p);
    p.o = o;
    int rc = st_prerun_open(&p.pr, plat, err);
    if (rc != ST_OK)
        return rc;
    rc = tui_term_start(o, &scr, err);
    if (rc != ST_OK) {
        st_prerun_close(p.pr);
        return rc;
    }
    WINDOW *keys_in = tui_term_keys();
    tui_view_init(&v, o);
    tui_view_colors(&v);
    double next = 0;
    int done = 0, empty = 0;
    rc = ST_EAGAIN;
    while (!done && !(o->got_signal && *o->got_signal)) {
        double now = st_now();
        if (now >= next) {
            st_error e;
            st_error_clear(&e);
            if (list_trees(&p, &e) != ST_OK)
                snprintf(p.msg, sizeof p.msg, "cannot list processes: %s", e.msg);
            next = now + 2.0;
        }
        if (tui_term_drawable()) {
            draw(&p, &v);
            doupdate();
        }
        int fds[2] = {STDIN_FILENO, o->wake_fd}, ready[2];
        int ms = (int)((next - st_now()) * 1000) + 1;
        int r = tui_term_wait(fds, ready, 2, ms < 0 ? 0 : ms); /* never poll(): viewdraw.h */
        if (r < 0 && errno != EINTR)
            break;
        int ch, rows = LINES, keys = 0;
        tui_term_sync_size();
        while ((ch = wgetch(keys_in)) != ERR && ++keys) {
            int page = rows > 4 ? rows - 3 : 1;
            if (ch == 'q' || ch == 'Q' || ch == 27) {
                done = 1;
                break;
            } else if (ch == KEY_UP || ch == 'k') {
                p.sel--;
            } else if (ch == KEY_DOWN || ch == 'j') {
                p.sel++;
            } else if (ch == KEY_PPAGE) {
                p.sel -= page;
            } else if (ch == KEY_NPAGE) {
                p.sel += page;
            } else if (ch == KEY_HOME || ch == 'g') {
                p.sel = 0;
            } else if (ch == KEY_END || ch == 'G') {
                p.sel = (int)p.n_order - 1;
            } else if (ch == 'r' || ch == 'R') {
                next = 0;
            } else if (tui_is_enter(ch) && p.n_order > 0) {
                *pid = st_prerun_target(p.pr, (size_t)p.sel)->id.pid;
                rc = ST_OK;
                done = 1;
                break;
            }
            if (p.sel >= (int)p.n_order)
                p.sel = (int)p.n_order - 1;
            if (p.sel < 0)
                p.sel = 0;
        }
        if (r > 0 && tui_term_gone(&empty, ready[0], keys))
            break; /* the terminal went away */
    }
    tui_term_end(scr);
    tui_view_free(&v);
    st_prerun_close(p.pr);
    return rc;
}
