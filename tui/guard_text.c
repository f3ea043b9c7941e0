/* guard_text.c: the armed budgets in words (guard_text.h). */
#include "guard_text.h"

#include <stdio.h>

#include "stagetop/guard.h"
#include "stagetop/units.h"

size_t tui_guard_armed(const st_run_view *rv, int shortform, char *buf, size_t len)
{
    const st_guard_opts *g = &rv->guard_opts;
    size_t o = 0;
    char b[32];
    if (len == 0)
        return 0;
    buf[0] = '\0';
    if (!rv->guard_active || (!g->has_swap_budget && !g->has_kill_free))
        return 0;
#define ADD(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__), o = o < len ? o : len - 1)
    if (shortform) {
        ADD("guard");
        if (g->has_swap_budget)
            ADD(" swap+%s%s", st_format_bytes_as((double)g->swap_budget, ST_UNITS_COMPACT, b, sizeof b),
                rv->guard_no_swap ? "(!)" : "");
        if (g->has_kill_free)
            ADD(" free<%.1f%%%s", g->kill_free_c / 100.0, rv->guard_level_crossed ? "(!)" : "");
        ADD(" %s", g->action == ST_GUARD_KILL ? "kill" : "pause");
    } else {
        if (g->has_swap_budget)
            ADD("--swap-budget %s", st_format_bytes(g->swap_budget, b, sizeof b));
        if (g->has_kill_free)
            ADD("%s--kill-free %.1f%%", o ? ", " : "", g->kill_free_c / 100.0);
        ADD(" (then %s the job)", g->action == ST_GUARD_KILL ? "kill" : "pause");
    }
#undef ADD
    return o;
}

int tui_guard_caveat(const st_run_view *rv, int i, char *buf, size_t len)
{
    const st_guard_opts *g = &rv->guard_opts;
    int k = 0;
    if (rv->guard_no_swap && k++ == i) {
        snprintf(buf, len, "--swap-budget cannot trigger: no swap is configured");
        return 1;
    }
    if (rv->guard_level_crossed && k++ == i) {
        snprintf(buf, len, "--kill-free %.1f%% is crossed at the start (level %.1f%%)",
                 g->kill_free_c / 100.0, rv->level_start_c / 100.0);
        return 1;
    }
    return 0;
}
