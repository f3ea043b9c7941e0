/* monitor_internal.h: internal to the monitor (core/run/monitor.c and
 * core/run/monitor_events.c); not a public contract. */
#ifndef STAGETOP_MONITOR_INTERNAL_H
#define STAGETOP_MONITOR_INTERNAL_H

#include "stagetop/monitor.h"

/* Open a follower of path whose polls take slices of a quarter interval. */
int st_mon_open_follower(st_follow **fp, const char *path, double interval, st_error *err);
void st_mon_close_follower(st_follow **fp);
/* The first record-stream failure becomes ST_WARN_RECORD. */
void st_mon_note_record_error(st_monitor *m, const st_error *e);
/* List (bounded: limits.h ST_KEEP_*), summary, record stream. */
int st_mon_add_event(st_monitor *m, const st_event *ev, st_error *err);
/* Before a sample: one slice of each followed file. */
void st_mon_poll_follow(st_monitor *m, double now);
/* At the end: what each followed file still holds, its last line too. */
void st_mon_finish_follow(st_monitor *m, double now);

#endif
