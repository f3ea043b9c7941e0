/* monitor_opts.c: a run's options, as the command line sets them
 * (include/stagetop/monitor.h): the defaults and the guard's budgets. */
#include "stagetop/monitor.h"
#include "stagetop/limits.h"

#include <string.h>

void st_monitor_opts_default(st_monitor_opts *o)
{
    memset(o, 0, sizeof *o);
    o->interval = ST_INTERVAL_DEFAULT_S;
    o->history_s = ST_HISTORY_DEFAULT_S;
    o->record_fd = -1;
    o->grace_s = ST_GRACE_DEFAULT_S;
}

void st_monitor_opts_swap_budget(st_monitor_opts *o, uint64_t bytes)
{
    o->guard.swap_budget = bytes;
    o->guard.has_swap_budget = 1;
}

void st_monitor_opts_kill_free(st_monitor_opts *o, double pct)
{
    o->guard.kill_free_c = (uint16_t)(pct * 100 + 0.5);
    o->guard.has_kill_free = 1;
}

void st_monitor_opts_on_budget(st_monitor_opts *o, int action)
{
    o->guard.action = action;
}
