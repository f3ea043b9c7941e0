/* monitor_access.c: a monitor's storage (the type is opaque outside
 * core/run, monitor.h) and what a front end may ask of it besides its view. */
#include "monitor_internal.h"

#include <stdlib.h>

st_monitor *st_monitor_new(void)
{
    return calloc(1, sizeof(st_monitor));
}

void st_monitor_free(st_monitor *m)
{
    free(m);
}

int st_monitor_command(const st_monitor *m, st_proc_id id, char *buf, size_t len, st_error *err)
{
    if (!m->plat || !m->plat->command || !m->b)
        return st_error_set(err, ST_ENOTSUP, 0, "no live process to read");
    return m->plat->command(m->b, id, buf, len, err);
}

int st_monitor_start_time(const st_monitor *m, st_proc_id id, double *wall, st_error *err)
{
    if (!m->plat || !m->plat->start_time || !m->b)
        return st_error_set(err, ST_ENOTSUP, 0, "no start time on this platform");
    return m->plat->start_time(m->b, id, wall, err);
}
