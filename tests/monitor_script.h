/* monitor_script.h: the scripted tree the monitor's unit tests watch
 * (test_monitor.c, test_run_view.c), on the shared fake backend
 * (tests/fakeplat.c): a root (1000) and two children alive, a third child
 * already gone; 16 GiB of RAM, 1 GiB of 4 GiB swap used, level 80 %.
 * Header only, included once per test program. */
#ifndef STAGETOP_TESTS_MONITOR_SCRIPT_H
#define STAGETOP_TESTS_MONITOR_SCRIPT_H

#include "../core/run/monitor_internal.h" /* the tests look inside */
#include "fakeplat.h"

#define NPROC 4
static struct st_backend *the_backend; /* the test's handle on what open() made */

static int script(st_backend *b, st_error *err)
{
    (void)err;
    for (int i = 0; i < NPROC; i++) {
        st_proc_mem *p = fakeplat_add(b, 1000 + i, 500 + (uint64_t)i, i == 0 ? 1 : 1000);
        p->footprint = (uint64_t)(i + 1) << 20;
        p->rss = (uint64_t)(i + 2) << 20;
        p->peak = (uint64_t)(i + 3) << 20;
        p->valid = ST_PM_FOOTPRINT | ST_PM_RSS | ST_PM_PEAK;
        b->alive[i] = i < 3; /* root + two children */
    }
    b->sys.mem_total = 16ull << 30;
    b->sys.swap_total = 4ull << 30;
    b->sys.swap_used = 1ull << 30;
    b->sys.level_c = 8000;
    b->sys.valid = ST_SYS_SWAP | ST_SYS_LEVEL | ST_SYS_MEMTOTAL | ST_SYS_SWAPTOTAL;
    the_backend = b;
    return ST_OK;
}

/* Open m on the script at monotonic time t0 (fails the test on error). */
static void open_mon(st_monitor *m, st_monitor_opts *o, double t0)
{
    st_error e;
    fakeplat_on_open(script);
    int rc = st_monitor_open(m, &fakeplat, o, 1000, NULL, t0, &e);
    if (rc != ST_OK)
        fail_msg("open: %s", e.msg);
}

/* How many events of kind the monitor holds. */
static inline int count_kind(const st_monitor *m, int kind)
{
    int n = 0;
    for (size_t i = 0; i < m->events.len; i++)
        n += m->events.v[i].kind == kind;
    return n;
}

#endif
