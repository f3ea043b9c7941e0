/* test_layout.c: every terminal size from 40x10 to 300x100 gets
 * non-overlapping, on-screen boxes; tiny sizes say "too small". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../tui/layout.h"

/* All boxes of a layout that are present (h > 0). */
static int boxes(const tui_layout *L, tui_box *b)
{
    int n = 0;
    const tui_box *all[] = {&L->header, &L->window, &L->axis, &L->events, &L->events_label,
                            &L->list, &L->status};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]->h > 0)
            b[n++] = *all[i];
    for (int i = 0; i < L->n_lanes; i++) {
        b[n++] = L->label[i];
        b[n++] = L->plot[i];
    }
    return n;
}

static int overlap(tui_box a, tui_box b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static void check_size(int cols, int rows, int lanes, int list_rows)
{
    tui_layout L;
    tui_box b[32];
    assert_int_equal(tui_layout_compute(cols, rows, lanes, list_rows, &L), 1);
    assert_int_equal(L.too_small, 0);
    assert_int_equal(L.n_lanes, lanes);
    int n = boxes(&L, b);
    for (int i = 0; i < n; i++) {
        assert_true(b[i].w >= 1 && b[i].h >= 1);
        assert_true(b[i].x >= 0 && b[i].y >= 0);
        assert_true(b[i].x + b[i].w <= cols && b[i].y + b[i].h <= rows);
        for (int j = i + 1; j < n; j++)
            if (overlap(b[i], b[j]))
                fail_msg("%dx%d lanes %d list %d: boxes %d and %d overlap", cols, rows, lanes,
                         list_rows, i, j);
    }
    /* the parts every size shows */
    assert_true(L.header.y == 0 && L.header.w == cols);
    assert_true(L.status.y == rows - 1 && L.status.h == 1 && L.status.w == cols);
    for (int i = 0; i < lanes; i++) {
        assert_true(L.plot[i].w >= 10);
        assert_true(L.label[i].w >= 14);
        assert_int_equal(L.plot[i].h, L.label[i].h);
        assert_int_equal(L.plot[i].y, L.label[i].y);
        assert_true(L.graph ? L.plot[i].h >= 2 : L.plot[i].h == 1);
        if (i > 0)
            assert_true(L.plot[i].y > L.plot[i - 1].y); /* top to bottom, in order */
    }
    /* the axis and the events row line up with the plots */
    assert_true(L.axis.h == 1);
    assert_true(L.axis.x == L.plot[0].x && L.axis.w == L.plot[0].w);
    assert_true(L.axis.y > L.plot[lanes - 1].y);
    if (L.events.h)
        assert_true(L.events.x == L.plot[0].x && L.events.w == L.plot[0].w);
    /* a list with processes to show gets its title and at least one row */
    if (list_rows > 0)
        assert_true(L.list.h >= 2);
}

static void test_every_size(void **state)
{
    (void)state;
    const int lists[] = {0, 1, 5, 50};
    for (int lanes = 3; lanes <= 4; lanes++)
        for (size_t k = 0; k < 4; k++)
            for (int cols = 40; cols <= 300; cols++)
                for (int rows = 10; rows <= 100; rows++)
                    check_size(cols, rows, lanes, lists[k]);
}

static void test_small_and_large_modes(void **state)
{
    (void)state;
    tui_layout L;
    assert_int_equal(tui_layout_compute(40, 10, 3, 5, &L), 1);
    assert_int_equal(L.graph, 0);        /* short: one-row sparklines */
    assert_int_equal(L.events.h, 0);     /* no room for the event row */
    assert_int_equal(tui_layout_compute(200, 60, 3, 20, &L), 1);
    assert_int_equal(L.graph, 1);        /* tall: graphs */
    assert_true(L.plot[0].h >= 8);
    assert_true(L.events.h == 1);
    assert_true(L.list.h >= 21);         /* title + 20 processes */
    assert_int_equal(tui_layout_compute(300, 100, 4, 3, &L), 1);
    assert_true(L.plot[0].h <= 15);      /* capped */
}

static void test_too_small(void **state)
{
    (void)state;
    tui_layout L;
    const int sizes[][2] = {{1, 1}, {0, 0}, {-3, 5}, {5, -3}, {29, 40}, {100, 4}, {1, 100}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_int_equal(tui_layout_compute(sizes[i][0], sizes[i][1], 3, 5, &L), 0);
        assert_int_equal(L.too_small, 1);
        if (sizes[i][0] >= 1 && sizes[i][1] >= 1) /* the message row */
            assert_true(L.status.y == sizes[i][1] - 1 && L.status.w == sizes[i][0]);
        else
            assert_int_equal(L.status.h, 0);
    }
    /* the minimum: 30 columns, lanes + 2 rows */
    assert_int_equal(tui_layout_compute(30, 5, 3, 5, &L), 1);
    assert_int_equal(tui_layout_compute(30, 5, 4, 5, &L), 0);
    assert_int_equal(tui_layout_compute(1000, 2000, 99, 5, &L), 1);
    assert_int_equal(L.n_lanes, TUI_MAX_LANES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_size),
        cmocka_unit_test(test_small_and_large_modes),
        cmocka_unit_test(test_too_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
