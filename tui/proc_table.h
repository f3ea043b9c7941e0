/* proc_table.h: the process list's rows (curses-free, pure): which members
 * are listed, in what order, with which one selected and which rows are on
 * screen.  The screen (tui/proc_list.c) draws what this decides; the unit
 * test (tests/unit/test_proc_table.c) drives it with made-up members.
 *
 *   sort    one column (enum tui_col), descending for sizes and rates,
 *           ascending for pid, state and command; `invert` flips it.  Rows
 *           are compared on the value as shown (a size rounded as
 *           st_format_bytes writes it, CPU to 0.1 %), ties by pid: a row
 *           moves only when what it shows changes.  The root is always the
 *           first row.
 *   tree    children under their parents (siblings in the sort's order),
 *           the root first; a member whose parent is not in the tree (it
 *           exited and the member was re-parented to stagetop) is shown
 *           under the root, marked `orphan`.
 *   filter  only the rows whose command, name or pid holds the text (case
 *           ignored); the root's row stays (it is pinned).
 *   select  the selection is a process (pid and start), not a row: it
 *           follows its process as rows reorder; when that process leaves,
 *           the row at the same place is selected.  The root's row stays on
 *           screen (pinned first) and the other rows scroll under it;
 *           selecting the root shows the list's start. */
#ifndef STAGETOP_TUI_PROC_TABLE_H
#define STAGETOP_TUI_PROC_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/platform.h"

enum tui_col {
    TUI_COL_PID, TUI_COL_FOOTPRINT, TUI_COL_RSS, TUI_COL_SWAP, TUI_COL_GPU, TUI_COL_STATE,
    TUI_COL_CPU, TUI_COL_PAGEINS, TUI_COL_COMMAND, TUI_COL_COUNT
};

/* The column's header word ("PID", "FOOTPRINT", ... "COMMAND"). */
const char *tui_col_title(int col);
/* --sort's name of a column (pid footprint rss swap gpu state cpu pageins
 * command), and back: the column, or -1 for an unknown name. */
const char *tui_col_name(int col);
int tui_col_parse(const char *name);

/* What the table reads of one member besides its st_proc_mem. */
typedef struct tui_pt_member {
    const st_proc_mem *p;
    const char *cmd;   /* the command line as shown (safe text), "" unknown */
    uint32_t cmd_ver;  /* changes when cmd's text does (its entry was read again) */
    uint64_t gpu;      /* GPU bytes */
    int has_gpu;
} tui_pt_member;

/* One listed row. */
typedef struct tui_pt_row {
    uint32_t m;        /* index into the members */
    uint16_t depth;    /* tree: 0 for the root, else its depth (1 sorted) */
    uint8_t orphan;    /* tree: the parent is not in the tree (shown under the root) */
    uint8_t named;     /* the process's name (comm) differs from its command's */
    uint16_t dup;      /* 1.. among siblings showing the same command (start order); 0 unique */
    uint32_t last;     /* tree: bit d set when the row's ancestor at depth d
                          (or the row itself at its depth) is its parent's last child */
} tui_pt_row;

typedef struct tui_ptab {
    int sort;          /* enum tui_col */
    int invert;
    int tree;
    char filter[64];   /* "" none */
    /* the selection and the scroll */
    st_proc_id sel;    /* the selected process (pid 0: none yet: the root) */
    size_t sel_row;    /* its row in the last ordering */
    size_t top;        /* the first of the scrolling rows on screen (after the pinned root) */
    /* the rows, rebuilt by tui_ptab_order */
    tui_pt_row *rows;
    size_t n_rows, cap_rows;
    size_t n_members;  /* members ordered (before the filter) */
    uint32_t *tmp;     /* scratch */
    size_t cap_tmp;
    struct pt_key *keys; /* scratch: sort keys */
    size_t cap_keys;
    /* what the last ordering was made of (its members' shown values, the
     * sort, tree and filter): the same again keeps the rows */
    struct pt_input *in;
    size_t n_in, cap_in;
    int in_sort, in_invert, in_tree, in_ok;
    int32_t in_root;
    char in_filter[64];
    uint64_t reorders; /* orderings made (not kept): the benchmark's count */
} tui_ptab;

void tui_ptab_init(tui_ptab *t);
void tui_ptab_free(tui_ptab *t);

/* Order members m[0..n) (root_pid first when present) into t->rows by the
 * table's sort, tree and filter, then find the selected process again.
 * When nothing the order is made of changed since the last call (the same
 * members in the same places, each with the same shown value of the sorted
 * column, parent, name and command; the same sort, tree and filter; the
 * root's own value does not count: it is first anyway), the rows are kept
 * as they are.  Returns 0, or -1 when out of memory (the last rows stay). */
int tui_ptab_order(tui_ptab *t, const tui_pt_member *m, size_t n, int32_t root_pid);

/* The short form of a command line: its first word from its last '/'
 * ("/usr/bin/python3 job.py" -> "python3 job.py").  Returns a pointer into
 * cmd. */
const char *tui_pt_short_cmd(const char *cmd);
/* 1 when the process's name (comm) is not its command's program name. */
int tui_pt_named(const st_proc_mem *p, const char *cmd);
/* 1 when member x matches text (case ignored: its command, name or pid). */
int tui_pt_matches(const tui_pt_member *x, const char *text);

/* Selection moves: by delta rows (clamped), to the first (home) or the last
 * (end) row.  `page` is the rows on screen. */
void tui_ptab_move(tui_ptab *t, long delta);
void tui_ptab_home(tui_ptab *t);
void tui_ptab_end(tui_ptab *t);
/* Select the first row from the selection on (wrapping) that matches text;
 * 1 when one did. */
int tui_ptab_search(tui_ptab *t, const tui_pt_member *m, const char *text);

/* Scroll so that the selection is on screen in `slots` rows (the first is
 * the pinned root when row 0 is the root, pinned = 1).  Afterwards the
 * screen shows row 0 (when pinned), then rows top .. top + slots - pinned - 1. */
void tui_ptab_scroll(tui_ptab *t, int slots, int pinned);

/* The tree's branch glyphs of row r ("├─ ", "│  └─ ", ASCII "|- ", "`- ")
 * into out; "" for a sorted list or the root. */
void tui_pt_branch(const tui_pt_row *r, int ascii, char *out, size_t len);

/* The value of a size as shown (st_format_bytes' rounding), to compare. */
double tui_pt_shown_bytes(uint64_t b);

#endif
