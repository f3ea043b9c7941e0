/* test_notify.c: --notify's decisions and bytes (core/notify.c), with a
 * hand-built run view and `now` as an argument (no sleeping, no terminal). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stagetop/jobctl.h"
#include "stagetop/notify.h"
#include "sizes.h"


/* A hand-built run: what its view (run_view.h) borrows, and the view. */
typedef struct hand_run {
    st_run_view v;
    st_trace_meta meta;
    st_sample last;
    int has_last;
    st_event_list events;
    st_summary summary;
} hand_run;

/* A run with a --kill-free and/or --swap-budget guard, no processes. */
static void run_init(hand_run *m, int kill_free_c, uint64_t swap_budget)
{
    memset(m, 0, sizeof *m);
    snprintf(m->meta.command, sizeof m->meta.command, "python gen.py");
    m->v.job_pid = 4242;
    m->v.job_launched = 1;
    m->v.job_state = ST_JOB_RUNNING;
    if (kill_free_c >= 0) {
        m->v.guard_opts.has_kill_free = 1;
        m->v.guard_opts.kill_free_c = (uint16_t)kill_free_c;
    }
    if (swap_budget) {
        m->v.guard_opts.has_swap_budget = 1;
        m->v.guard_opts.swap_budget = swap_budget;
    }
    m->v.has_guard_base = 1;
    m->v.guard_swap_base = 10 * GIB;
    m->v.guard_active = 1;
    st_event_list_init(&m->events, 0);
}

/* The view as a monitor would give it now. */
static const st_run_view *view_of(hand_run *m)
{
    m->v.meta = &m->meta;
    m->v.last = m->has_last ? &m->last : NULL;
    m->v.events = m->events.v;
    m->v.n_events = m->events.len;
    m->v.summary = &m->summary;
    return &m->v;
}

static void run_sample(hand_run *m, uint16_t level_c, uint64_t swap)
{
    memset(&m->last, 0, sizeof m->last);
    m->last.level_c = level_c;
    m->last.swap_used = swap;
    m->last.valid = ST_F_LEVEL | ST_F_SWAP;
    m->has_last = 1;
}

static void run_event(hand_run *m, int kind, int64_t value, const char *name, const char *note)
{
    st_event ev;
    st_event_init(&ev, 0, kind);
    ev.value = value;
    ev.limit = 500;
    ev.has |= ST_EVF_VALUE | ST_EVF_LIMIT;
    if (name)
        st_event_set_str(ev.name, sizeof ev.name, name);
    if (note)
        st_event_set_str(ev.note, sizeof ev.note, note);
    assert_int_equal(st_event_list_add(&m->events, &ev, NULL), ST_OK);
}

static void test_rate_limit_per_kind(void **state)
{
    (void)state;
    st_notifier n;
    st_notifier_init(&n);
    assert_true(st_notify_allow(&n, ST_NOTIFY_GUARD, 100.0));
    assert_false(st_notify_allow(&n, ST_NOTIFY_GUARD, 100.0 + ST_NOTIFY_GAP_S - 0.001));
    assert_true(st_notify_allow(&n, ST_NOTIFY_EXIT, 100.5)); /* another kind: its own clock */
    assert_true(st_notify_allow(&n, ST_NOTIFY_GUARD, 100.0 + ST_NOTIFY_GAP_S));
    assert_false(st_notify_allow(&n, ST_NOTIFY_GUARD, 100.0 + ST_NOTIFY_GAP_S + 1));
    assert_int_equal(n.held[ST_NOTIFY_GUARD], 2);
    assert_false(st_notify_allow(&n, ST_NOTIFY_NKINDS, 0));
}

static void test_level_band_edge_and_rate(void **state)
{
    (void)state;
    hand_run m;
    st_notifier n;
    st_notify_msg out[4];
    run_init(&m, 1000, 0); /* --kill-free 10 */
    st_notifier_init(&n);
    run_sample(&m, 1501, 0); /* 15.01 %: outside the 5-point band */
    assert_int_equal(st_notify_check(&n, view_of(&m), 0.0, out, 4), 0);
    run_sample(&m, 1500, 0); /* 15.00 %: in */
    assert_int_equal(st_notify_check(&n, view_of(&m), 1.0, out, 4), 1);
    assert_int_equal(out[0].kind, ST_NOTIFY_LEVEL);
    assert_non_null(strstr(out[0].body, "15.00%"));
    assert_non_null(strstr(out[0].title, "python gen.py"));
    run_sample(&m, 1200, 0); /* still in: no repeat */
    assert_int_equal(st_notify_check(&n, view_of(&m), 2.0, out, 4), 0);
    run_sample(&m, 2000, 0); /* out, then in again within 30 s: held back */
    assert_int_equal(st_notify_check(&n, view_of(&m), 3.0, out, 4), 0);
    run_sample(&m, 1400, 0);
    assert_int_equal(st_notify_check(&n, view_of(&m), 4.0, out, 4), 0);
    assert_int_equal(n.held[ST_NOTIFY_LEVEL], 1);
    run_sample(&m, 2000, 0); /* out and in again after 30 s: said again */
    assert_int_equal(st_notify_check(&n, view_of(&m), 31.5, out, 4), 0);
    run_sample(&m, 1400, 0);
    assert_int_equal(st_notify_check(&n, view_of(&m), 32.0, out, 4), 1);
    st_event_list_free(&m.events);
}

static void test_swap_80_percent(void **state)
{
    (void)state;
    hand_run m;
    st_notifier n;
    st_notify_msg out[4];
    run_init(&m, -1, 5 * GIB);
    st_notifier_init(&n);
    uint64_t base = 10 * GIB, at80 = base + 4 * GIB; /* 80 % of 5 GiB */
    run_sample(&m, 5000, at80 - 1);
    assert_int_equal(st_notify_check(&n, view_of(&m), 0.0, out, 4), 0);
    run_sample(&m, 5000, at80);
    assert_int_equal(st_notify_check(&n, view_of(&m), 1.0, out, 4), 1);
    assert_int_equal(out[0].kind, ST_NOTIFY_SWAP);
    assert_non_null(strstr(out[0].body, "80%"));
    run_sample(&m, 5000, at80 + GIB / 8);
    assert_int_equal(st_notify_check(&n, view_of(&m), 2.0, out, 4), 0);
    /* swap shrinking under the base is no growth (and no warning) */
    run_sample(&m, 5000, base - GIB);
    assert_int_equal(st_notify_check(&n, view_of(&m), 40.0, out, 4), 0);
    st_event_list_free(&m.events);
}

static void test_no_guard_no_warnings(void **state)
{
    (void)state;
    hand_run m;
    st_notifier n;
    st_notify_msg out[4];
    run_init(&m, 1000, 0);
    m.v.guard_active = 0; /* no --kill-free, no --swap-budget */
    st_notifier_init(&n);
    run_sample(&m, 100, 100 * GIB);
    assert_int_equal(st_notify_check(&n, view_of(&m), 0.0, out, 4), 0);
    st_event_list_free(&m.events);
}

static void test_guard_and_exit_events(void **state)
{
    (void)state;
    hand_run m;
    st_notifier n;
    st_notify_msg out[4];
    run_init(&m, 500, 0);
    st_notifier_init(&n);
    run_sample(&m, 9000, 0);
    run_event(&m, ST_EV_MARK, 0, NULL, NULL); /* not a trigger */
    assert_int_equal(st_notify_check(&n, view_of(&m), 0.0, out, 4), 0);
    run_event(&m, ST_EV_BUDGET, 420, "level", "pause");
    m.v.guard_tripped = 1;
    assert_int_equal(st_notify_check(&n, view_of(&m), 1.0, out, 4), 1);
    assert_int_equal(out[0].kind, ST_NOTIFY_GUARD);
    assert_non_null(strstr(out[0].body, "4.20% under 5.00%"));
    assert_non_null(strstr(out[0].body, "paused"));
    /* the same event is not said twice; a second one within 30 s is held */
    assert_int_equal(st_notify_check(&n, view_of(&m), 2.0, out, 4), 0);
    run_event(&m, ST_EV_BUDGET, 410, "level", "pause");
    assert_int_equal(st_notify_check(&n, view_of(&m), 3.0, out, 4), 0);
    assert_int_equal(n.held[ST_NOTIFY_GUARD], 1);
    run_event(&m, ST_EV_EXIT, 137, NULL, NULL);
    m.v.job_state = ST_JOB_EXITED;
    m.summary.peak_footprint = 3 * GIB;
    assert_int_equal(st_notify_check(&n, view_of(&m), 4.0, out, 4), 1);
    assert_int_equal(out[0].kind, ST_NOTIFY_EXIT);
    assert_non_null(strstr(out[0].body, "exit status 137"));
    assert_non_null(strstr(out[0].body, "3.00 GiB"));
    assert_non_null(strstr(out[0].body, "4242"));
    st_event_list_free(&m.events);
}

/* A swap crossing says the job's own share where the trace's budget event
 * has it ([lanes]): tree swap growth (Linux), the tree's compressed growth
 * (macOS, [mps]) or bytes paged in (macOS without it). */
static void test_swap_share(void **state)
{
    (void)state;
    static const int kinds[] = {ST_SHARE_TREE_SWAP, ST_SHARE_PAGEINS, ST_SHARE_TREE_COMPRESSED};
    static const char *const says[] = {"; 1.90 GiB of it is the job's own", "; the job paged in 1.90 GiB",
                                       "; the job's compressed memory grew 1.90 GiB"};
    for (int i = 0; i < 3; i++) {
        hand_run m;
        st_notifier n;
        st_notify_msg out[4];
        run_init(&m, -1, 2 * GIB);
        st_notifier_init(&n);
        run_sample(&m, 9000, 12 * GIB + GIB / 10);
        run_event(&m, ST_EV_BUDGET, (int64_t)(2 * GIB + GIB / 10), "swap", "pause");
        m.events.v[m.events.len - 1].nbytes = 2 * GIB - GIB / 10;
        m.events.v[m.events.len - 1].has |= ST_EVF_NBYTES;
        m.v.verdict.share_kind = kinds[i];
        m.v.guard_tripped = 1;
        int k = st_notify_check(&n, view_of(&m), 1.0, out, 4), g = -1;
        for (int j = 0; j < k; j++) /* the guard's message (a swap warning may come too) */
            if (out[j].kind == ST_NOTIFY_GUARD)
                g = j;
        assert_true(g >= 0);
        assert_non_null(strstr(out[g].body, "over the budget of"));
        assert_non_null(strstr(out[g].body, says[i]));
        st_event_list_free(&m.events);
    }
}

/* No byte a terminal acts on survives: C0, ESC, BEL, DEL, C1 (as UTF-8 and
 * raw), bidi overrides, invalid UTF-8; ';' only where asked. */
static void test_clean_hostile(void **state)
{
    (void)state;
    char out[256];
    const char *hostile = "a\033]0;pwn\a b\x9b" "31m c\xc2\x9b" "d \xe2\x80\xae" "gnp.exe\xe2\x81\xa6"
                          "\x7f\ttab\nnl \xff\xfe \xe6\x97\xa5\xe6\x9c\xac \xc3\xa9\033\\";
    size_t n = st_notify_clean(hostile, 1, out, sizeof out);
    assert_int_equal(n, strlen(out));
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)out[i];
        assert_true(c >= 0x20 && c != 0x7f);
        assert_true(c != ';');
    }
    assert_null(strstr(out, "\xc2\x9b"));
    assert_null(strstr(out, "\xe2\x80\xae"));
    assert_null(strstr(out, "\xe2\x81\xa6"));
    assert_non_null(strstr(out, "\xe6\x97\xa5\xe6\x9c\xac")); /* CJK kept */
    assert_non_null(strstr(out, "\xc3\xa9"));                 /* e-acute kept */
    assert_non_null(strstr(out, "tab nl"));
    st_notify_clean("a;b", 0, out, sizeof out);
    assert_string_equal(out, "a;b");
    /* cut on a code point: 4 bytes of room hold "a" and one 2-byte char */
    st_notify_clean("a\xc3\xa9\xc3\xa9", 0, out, 4);
    assert_string_equal(out, "a\xc3\xa9");
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0, k = strlen(needle);
    for (const char *p = hay; (p = strstr(p, needle)); p += k)
        n++;
    return n;
}

static void test_format_plain_and_tmux(void **state)
{
    (void)state;
    st_notify_msg msg;
    char out[ST_NOTIFY_MAX];
    memset(&msg, 0, sizeof msg);
    snprintf(msg.title, sizeof msg.title, "stagetop: job;x\033]");
    snprintf(msg.body, sizeof msg.body, "swap grew\a 1 GiB;\033\\");
    size_t n = st_notify_format(&msg, 0, out, sizeof out);
    assert_int_equal(n, strlen(out));
    const char *want = "\a\033]9;stagetop: job,x?]: swap grew? 1 GiB,?\\\033\\"
                       "\033]777;notify;stagetop: job,x?];swap grew? 1 GiB,?\\\033\\";
    assert_string_equal(out, want);
    assert_int_equal(count(out, "\a"), 1);       /* the bell, once */
    assert_int_equal(count(out, "\033"), 4);     /* two OSC openers, two STs */

    n = st_notify_format(&msg, 1, out, sizeof out);
    assert_int_equal(n, strlen(out));
    assert_true(out[0] == '\a');
    /* each OSC in its own passthrough: ESC P tmux; ESC ESC ] ... ESC ESC \ ESC \ */
    assert_int_equal(count(out, "\033Ptmux;\033\033]9;"), 1);
    assert_int_equal(count(out, "\033Ptmux;\033\033]777;notify;"), 1);
    assert_int_equal(count(out, "\033\033\\\033\\"), 2);
    /* inside a passthrough every ESC is doubled: no lone ESC before its end */
    const char *p = strstr(out, "\033Ptmux;") + 7;
    const char *end = strstr(p, "\033\033\\\033\\");
    for (const char *q = p; q < end; q++)
        if (*q == '\033') {
            assert_true(q[1] == '\033');
            q++;
        }
    assert_int_equal(st_notify_format(&msg, 1, out, 20), 0); /* too small: nothing */
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_limit_per_kind),
        cmocka_unit_test(test_level_band_edge_and_rate),
        cmocka_unit_test(test_swap_80_percent),
        cmocka_unit_test(test_no_guard_no_warnings),
        cmocka_unit_test(test_guard_and_exit_events),
        cmocka_unit_test(test_swap_share),
        cmocka_unit_test(test_clean_hostile),
        cmocka_unit_test(test_format_plain_and_tmux),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
