/* pick.c: "stagetop" with no target: the largest process trees of the
 * machine, to pick one from.  One listing of every process (list_all +
 * read_proc) every two seconds; each process's tree footprint is its own
 * plus its descendants'.  stagetop itself and its ancestors are not offered
 * (they cannot be paused or killed safely); a process whose tree is (97 %)
 * one child's tree is shown as that child, so wrapper chains (shell, make,
 * sudo) collapse to the process that holds the memory. */
#include "sanitize.h"
#include "tui.h"
#include "view.h"
#include "viewdraw.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/units.h"

typedef struct pick_row {
    st_proc_id id;
    int32_t ppid;
    uint64_t own, tree;
    uint32_t procs;
    int hidden;
} pick_row;

typedef struct picker {
    const st_platform *plat;
    st_backend *b;
    const tui_opts *o;
    pick_row *rows;
    size_t n, cap;
    size_t *order;   /* shown rows, largest tree first */
    size_t n_order;
    int sel, top;
    char msg[320];
} picker;

static int by_pid(const void *a, const void *b)
{
    const pick_row *x = a, *y = b;
    return x->id.pid < y->id.pid ? -1 : x->id.pid > y->id.pid;
}

static pick_row *find(picker *p, int32_t pid)
{
    pick_row key;
    key.id.pid = pid;
    return bsearch(&key, p->rows, p->n, sizeof *p->rows, by_pid);
}

static int by_tree(const void *a, const void *b, void *ctx)
{
    const picker *p = ctx;
    const pick_row *x = &p->rows[*(const size_t *)a], *y = &p->rows[*(const size_t *)b];
    if (x->tree != y->tree)
        return x->tree < y->tree ? 1 : -1;
    return x->id.pid < y->id.pid ? -1 : 1;
}

/* Sort shown rows by tree footprint (merge sort: qsort has no context). */
static void sort_order(picker *p, size_t *v, size_t n, size_t *tmp)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_order(p, v, h, tmp);
    sort_order(p, v + h, n - h, tmp);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = by_tree(&v[j], &v[i], p) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

static int list_trees(picker *p, st_error *err)
{
    st_proc_vec all = {NULL, 0, 0};
    int rc = p->plat->list_all(p->b, &all, err);
    if (rc != ST_OK) {
        st_proc_vec_free(&all);
        return rc;
    }
    if (all.len > p->cap) {
        pick_row *r = realloc(p->rows, all.len * sizeof *r);
        size_t *o = realloc(p->order, 2 * all.len * sizeof *o);
        if (r)
            p->rows = r;
        if (o)
            p->order = o;
        if (!r || !o) {
            st_proc_vec_free(&all);
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
        }
        p->cap = all.len;
    }
    p->n = 0;
    for (size_t i = 0; i < all.len; i++) {
        st_proc_mem pm;
        pick_row *r = &p->rows[p->n];
        memset(r, 0, sizeof *r);
        r->id = all.v[i].id;
        r->ppid = all.v[i].ppid;
        if (p->plat->read_proc(p->b, r->id, &pm, NULL) == ST_OK && (pm.valid & ST_PM_FOOTPRINT))
            r->own = pm.footprint;
        r->tree = r->own;
        r->procs = 1;
        p->n++;
    }
    st_proc_vec_free(&all);
    qsort(p->rows, p->n, sizeof *p->rows, by_pid);
    /* add each process to its ancestors (depth is bounded against loops) */
    for (size_t i = 0; i < p->n; i++) {
        int32_t pp = p->rows[i].ppid;
        for (int depth = 0; pp > 0 && depth < 256; depth++) {
            pick_row *a = find(p, pp);
            if (!a)
                break;
            a->tree += p->rows[i].own;
            a->procs++;
            pp = a->ppid;
        }
    }
    /* A wrapper (a shell, make, sudo, env...) whose tree is one child's tree
     * and little else is shown as that child: chains collapse. */
    for (size_t i = 0; i < p->n; i++) {
        pick_row *a = find(p, p->rows[i].ppid);
        if (a && a->tree > 0 && (double)p->rows[i].tree >= 0.97 * (double)a->tree)
            a->hidden = 1;
    }
    /* stagetop and its ancestors are not offered, nor pid 1 */
    int32_t self = (int32_t)getpid();
    for (int depth = 0; self > 0 && depth < 256; depth++) {
        pick_row *a = find(p, self);
        if (!a)
            break;
        a->hidden = 1;
        self = a->ppid;
    }
    p->n_order = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!p->rows[i].hidden && p->rows[i].id.pid > 1 && p->rows[i].tree > 0)
            p->order[p->n_order++] = i;
    sort_order(p, p->order, p->n_order, p->order + p->cap);
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
        const pick_row *r = &p->rows[p->order[p->top + i]];
        char tree[32], own[32], raw[1024], cmd[1200];
        st_format_bytes(r->tree, tree, sizeof tree);
        st_format_bytes(r->own, own, sizeof own);
        if (p->plat->command(p->b, r->id, raw, sizeof raw, NULL) != ST_OK)
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
    p.plat = plat;
    p.o = o;
    int rc = plat->open(&p.b, err);
    if (rc != ST_OK)
        return rc;
    rc = tui_term_start(o, &scr, err);
    if (rc != ST_OK) {
        plat->close(p.b);
        return rc;
    }
    WINDOW *keys_in = tui_term_keys();
    tui_view_init(&v, o);
    tui_view_colors(&v);
    double next = 0;
    int done = 0;
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
        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = o->wake_fd, .events = POLLIN}};
        int ms = (int)((next - st_now()) * 1000) + 1;
        int r = poll(fds, o->wake_fd >= 0 ? 2 : 1, ms < 0 ? 0 : ms);
        if (r < 0 && errno != EINTR)
            break;
        int ch, rows = LINES;
        tui_term_sync_size();
        while ((ch = wgetch(keys_in)) != ERR) {
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
            } else if ((ch == '\n' || ch == '\r' || ch == KEY_ENTER) && p.n_order > 0) {
                *pid = p.rows[p.order[p.sel]].id.pid;
                rc = ST_OK;
                done = 1;
                break;
            }
            if (p.sel >= (int)p.n_order)
                p.sel = (int)p.n_order - 1;
            if (p.sel < 0)
                p.sel = 0;
        }
    }
    tui_term_end(scr);
    tui_view_free(&v);
    free(p.rows);
    free(p.order);
    plat->close(p.b);
    return rc;
}
