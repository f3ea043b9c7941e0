/* list_keys.c: the process list's keys (docs/screen.md): the selection's
 * moves, the sort, the tree, the filter and the search, on the table that
 * proc_list.c orders and draws. */
#include "proc_table.h"
#include "view.h"
#include "viewdraw.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

/* The selection's process, named after a move (the next ordering finds it
 * again wherever it goes). */
static void name_selection(tui_view *v)
{
    tui_ptab *t = &v->pt;
    if (t->sel_row < t->n_rows)
        t->sel = v->pm[t->rows[t->sel_row].m].p->id;
}

static void search_from(tui_view *v, size_t from)
{
    tui_ptab *t = &v->pt;
    if (!v->search[0] || !t->n_rows)
        return;
    size_t keep = t->sel_row;
    t->sel_row = from % t->n_rows;
    v->search_miss = !tui_ptab_search(t, v->pm, v->search);
    if (v->search_miss)
        t->sel_row = keep;
    else
        name_selection(v);
}

static void set_sort(tui_view *v, int col, double now)
{
    v->pt.sort = col;
    v->pt.invert = 0;
    tui_view_message(v, now, 0, "sorted by %s, %s", tui_col_name(col),
                     tui_list_ascending(&v->pt) ? "smallest first" : "largest first");
}

int tui_list_key(tui_view *v, const st_run_view *rv, int ch, double now)
{
    tui_ptab *t = &v->pt;
    long page = v->L.list.h - 2 > 1 ? v->L.list.h - 2 : 1; /* the rows under the pinned root */
    int cols[TUI_COL_COUNT], n, i;
    switch (ch) {
    case KEY_UP: case KEY_DOWN: case KEY_PPAGE: case KEY_NPAGE: case KEY_HOME: case KEY_END:
        if (tui_list_order(v, rv, now) != 0)
            return 1;
        if (ch == KEY_HOME)
            tui_ptab_home(t);
        else if (ch == KEY_END)
            tui_ptab_end(t);
        else
            tui_ptab_move(t, ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -page : page);
        name_selection(v);
        return 1;
    case '<': case '>':
        n = tui_list_cols(v, rv, cols);
        for (i = 0; i < n && cols[i] != t->sort; i++) {
        }
        i = i == n ? 0 : (i + (ch == '>' ? 1 : n - 1)) % n; /* a column not shown: the first */
        set_sort(v, cols[i], now);
        return 1;
    case 'M': set_sort(v, TUI_COL_FOOTPRINT, now); return 1;
    case 'P': set_sort(v, TUI_COL_CPU, now); return 1;
    case 'I':
        t->invert = !t->invert;
        tui_view_message(v, now, 0, "sorted by %s, %s", tui_col_name(t->sort),
                         tui_list_ascending(t) ? "smallest first" : "largest first");
        return 1;
    case 't':
        t->tree = !t->tree;
        tui_view_message(v, now, 0, t->tree ? "tree: children under their parents (t: sorted list)"
                                            : "sorted list (t: tree)");
        return 1;
    case '\\': case '/':
        v->prompt = ch == '/' ? TUI_PROMPT_SEARCH : TUI_PROMPT_FILTER;
        snprintf(v->input, sizeof v->input, "%s", ch == '/' ? "" : t->filter);
        v->input_len = strlen(v->input);
        v->search_miss = 0;
        return 1;
    case KEY_F(3): /* the next match of the last search */
        if (tui_list_order(v, rv, now) == 0)
            search_from(v, t->sel_row + 1);
        if (v->search_miss)
            tui_view_message(v, now, 1, "no process matches '%s'", v->search);
        return 1;
    case 27:
        if (!t->filter[0])
            return 0;
        t->filter[0] = '\0';
        tui_view_message(v, now, 0, "filter cleared");
        return 1;
    default: return 0;
    }
}

int tui_list_prompt_key(tui_view *v, const st_run_view *rv, int ch, double now)
{
    tui_ptab *t = &v->pt;
    int filter = v->prompt == TUI_PROMPT_FILTER;
    if (!filter && v->prompt != TUI_PROMPT_SEARCH)
        return 0;
    if (tui_is_enter(ch)) {
        v->prompt = TUI_PROMPT_NONE;
        return 1;
    }
    if (ch == 27) { /* Esc: the filter goes; a search leaves the selection where it is */
        v->prompt = TUI_PROMPT_NONE;
        if (filter && t->filter[0]) {
            t->filter[0] = '\0';
            tui_view_message(v, now, 0, "filter cleared");
        }
        return 1;
    }
    if (!filter && ch == KEY_F(3)) {
        if (tui_list_order(v, rv, now) == 0)
            search_from(v, t->sel_row + 1);
        return 1;
    }
    if (!tui_view_input_key(v, ch))
        return 1; /* other keys do nothing while the prompt is open */
    if (filter) {
        snprintf(t->filter, sizeof t->filter, "%s", v->input);
        return 1;
    }
    snprintf(v->search, sizeof v->search, "%s", v->input);
    if (tui_list_order(v, rv, now) == 0)
        search_from(v, t->sel_row); /* the selection stays while it still matches */
    return 1;
}
