/* test_proc_table.c: the process list's order, tree, filter and selection
 * (tui/proc_table.c, pure). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../tui/proc_table.h"

enum { N = 6 };
static st_proc_mem pm[N];
static tui_pt_member mm[N];
static const char *cmds[N] = {"/usr/bin/python3 job.py", "/usr/bin/python3 job.py",
                              "/usr/bin/python3 job.py", "/bin/sleep 30", "/usr/bin/python3 job.py",
                              "/usr/bin/python3 job.py"};

static void setup_members(void)
{
    /* root 100; 101, 102, 103 its children; 104 child of 101; 105 orphan (ppid 1) */
    int32_t pids[N] = {100, 101, 102, 103, 104, 105}, ppids[N] = {1, 100, 100, 100, 101, 1};
    uint64_t fp[N] = {10u << 20, 50u << 20, 30u << 20, 1u << 20, 70u << 20, 5u << 20};
    memset(pm, 0, sizeof pm);
    for (int i = 0; i < N; i++) {
        pm[i].id.pid = pids[i];
        pm[i].id.start = (uint64_t)(1000 + i);
        pm[i].ppid = ppids[i];
        pm[i].footprint = fp[i];
        pm[i].valid = ST_PM_FOOTPRINT | ST_PM_COMM;
        snprintf(pm[i].comm, sizeof pm[i].comm, "%s", i == 2 ? "loader-2" : i == 3 ? "sleep" : "python3");
        mm[i].p = &pm[i];
        mm[i].cmd = cmds[i];
    }
}

static int32_t pid_at(const tui_ptab *t, size_t r)
{
    return pm[t->rows[r].m].id.pid;
}

static void sorted_root_first_largest_next(void **state)
{
    (void)state;
    setup_members();
    tui_ptab t;
    tui_ptab_init(&t);
    assert_int_equal(tui_ptab_order(&t, mm, N, 100), 0);
    assert_int_equal(t.n_rows, N);
    int32_t want[N] = {100, 104, 101, 102, 105, 103};
    for (int i = 0; i < N; i++)
        assert_int_equal(pid_at(&t, (size_t)i), want[i]);
    /* a 4 KiB difference on 50 MiB is not shown: 101 and a grown 102 tie, by pid */
    pm[2].footprint = (50u << 20) + 4096;
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(pid_at(&t, 2), 101);
    assert_int_equal(pid_at(&t, 3), 102);
    t.invert = 1;
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(pid_at(&t, 0), 100); /* the root stays first */
    assert_int_equal(pid_at(&t, 1), 103);
    tui_ptab_free(&t);
}

static void tree_children_under_parents(void **state)
{
    (void)state;
    setup_members();
    tui_ptab t;
    tui_ptab_init(&t);
    t.tree = 1;
    assert_int_equal(tui_ptab_order(&t, mm, N, 100), 0);
    assert_int_equal(t.n_rows, N);
    int32_t want[N] = {100, 101, 104, 102, 105, 103};
    uint16_t depth[N] = {0, 1, 2, 1, 1, 1};
    for (int i = 0; i < N; i++) {
        assert_int_equal(pid_at(&t, (size_t)i), want[i]);
        assert_int_equal(t.rows[i].depth, depth[i]);
    }
    assert_int_equal(t.rows[4].orphan, 1);
    assert_int_equal(t.rows[1].orphan, 0);
    char b[64];
    tui_pt_branch(&t.rows[2], 1, b, sizeof b);
    assert_string_equal(b, "|  `- ");
    tui_pt_branch(&t.rows[5], 1, b, sizeof b);
    assert_string_equal(b, "`- ");
    tui_ptab_free(&t);
}

static void filter_names_and_selection_follows(void **state)
{
    (void)state;
    setup_members();
    tui_ptab t;
    tui_ptab_init(&t);
    tui_ptab_order(&t, mm, N, 100);
    tui_ptab_move(&t, 2); /* 101 */
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.sel.pid, 101);
    pm[1].footprint = 1; /* it drops to the end: the selection goes with it */
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(pid_at(&t, t.sel_row), 101);
    assert_int_equal(t.sel_row, N - 1);
    snprintf(t.filter, sizeof t.filter, "LOADER");
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.n_rows, 2); /* the root, and the one named loader-2 */
    assert_int_equal(pid_at(&t, 1), 102);
    assert_int_equal(t.rows[1].named, 1);
    t.filter[0] = '\0';
    tui_ptab_order(&t, mm, N, 100);
    /* 101 and 102 run "python3 job.py" under 100, but 102 shows its own
     * name (loader-2): told apart by it, neither is numbered */
    for (size_t r = 0; r < t.n_rows; r++)
        if (pid_at(&t, r) >= 101 && pid_at(&t, r) <= 103)
            assert_int_equal(t.rows[r].dup, 0);
    snprintf(pm[2].comm, sizeof pm[2].comm, "python3"); /* now the two look alike */
    tui_ptab_order(&t, mm, N, 100);
    for (size_t r = 0; r < t.n_rows; r++) { /* numbered in start order: 101 first */
        if (pid_at(&t, r) == 101)
            assert_int_equal(t.rows[r].dup, 1);
        if (pid_at(&t, r) == 102)
            assert_int_equal(t.rows[r].dup, 2);
        if (pid_at(&t, r) == 103)
            assert_int_equal(t.rows[r].dup, 0);
    }
    assert_string_equal(tui_pt_short_cmd(cmds[0]), "python3 job.py");
    assert_int_equal(tui_col_parse("cpu"), TUI_COL_CPU);
    assert_int_equal(tui_col_parse("bogus"), -1);
    tui_ptab_free(&t);
}

/* The root's row pinned, the others scrolling under it: the selection is
 * always on screen, and selecting the root (Home) shows the list's start. */
static void scroll_follows_selection_root_pinned(void **state)
{
    (void)state;
    setup_members();
    tui_ptab t;
    tui_ptab_init(&t);
    tui_ptab_order(&t, mm, N, 100);
    tui_ptab_scroll(&t, 3, 1); /* the root and two rows: rows 1 and 2 */
    assert_int_equal(t.top, 1);
    tui_ptab_end(&t);
    tui_ptab_scroll(&t, 3, 1);
    assert_int_equal(t.sel_row, N - 1);
    assert_int_equal(t.top, N - 2); /* rows 4 and 5 */
    tui_ptab_move(&t, -2);
    tui_ptab_scroll(&t, 3, 1);
    assert_int_equal(t.top, 3); /* the selection (3) at the top of the scrolled rows */
    tui_ptab_home(&t);
    tui_ptab_scroll(&t, 3, 1);
    assert_int_equal(t.sel_row, 0);
    assert_int_equal(t.top, 1); /* back to the start, not left at rows 3-4 */
    tui_ptab_free(&t);
}

/* The rows are made again only when something they are made of changed:
 * not for a change the screen does not show, nor for the root's own value
 * (it is first anyway); for a shown value, a new name, a command read
 * again with other text, the sort, the tree or the filter. */
static void rows_kept_until_a_shown_value_changes(void **state)
{
    (void)state;
    setup_members();
    tui_ptab t;
    tui_ptab_init(&t);
    assert_int_equal(tui_ptab_order(&t, mm, N, 100), 0);
    uint64_t n = t.reorders;
    assert_int_equal(n, 1);
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, n); /* nothing changed */
    pm[1].footprint += 4096;          /* 50 MiB + 4 KiB is shown "50.0 MiB" */
    pm[0].footprint = 900u << 20;     /* the root's own value */
    pm[3].cpu_c = 5000;               /* not the sorted column */
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, n);
    pm[2].footprint = 80u << 20; /* shown: 102 goes first */
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, ++n);
    assert_int_equal(pid_at(&t, 1), 102);
    mm[3].cmd_ver++; /* read again, another text */
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, ++n);
    snprintf(pm[4].comm, sizeof pm[4].comm, "worker");
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, ++n);
    t.tree = 1;
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, ++n);
    snprintf(t.filter, sizeof t.filter, "sleep");
    tui_ptab_order(&t, mm, N, 100);
    assert_int_equal(t.reorders, ++n);
    assert_int_equal(t.n_rows, 2);
    tui_ptab_order(&t, mm, N - 1, 100); /* a member left */
    assert_int_equal(t.reorders, ++n);
    tui_ptab_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorted_root_first_largest_next),
        cmocka_unit_test(tree_children_under_parents),
        cmocka_unit_test(filter_names_and_selection_follows),
        cmocka_unit_test(scroll_follows_selection_root_pinned),
        cmocka_unit_test(rows_kept_until_a_shown_value_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
