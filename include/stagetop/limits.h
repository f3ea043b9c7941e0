/* limits.h: stagetop's named limits and defaults, each written once.
 * The command line (tui/main.c), the monitor (core/run/monitor.c), job control
 * (core/run/jobctl.c) and replay (tui/replay*.c) use these names; the user's
 * side of each is in docs/stagetop.1 and `stagetop --help`.
 *
 * (The longest JSONL line a trace reader accepts is the trace code's own
 * constant, ST_TRACE_MAX_LINE, next to the reader.) */
#ifndef STAGETOP_LIMITS_H
#define STAGETOP_LIMITS_H

/* Seconds between samples (-i/--interval): the range and the default. */
#define ST_INTERVAL_MIN_S 0.01
#define ST_INTERVAL_MAX_S 60.0
#define ST_INTERVAL_DEFAULT_S 0.5

/* Seconds between SIGTERM and SIGKILL on a kill (--grace). */
#define ST_GRACE_DEFAULT_S 5.0
#define ST_GRACE_MAX_S 3600.0

/* Seconds of samples the screen and the export keep (--history: 2 h). */
#define ST_HISTORY_DEFAULT_S 7200.0

/* A live run's events in memory (the record gets every one; the summary's
 * counts stay exact): at most ST_KEEP_EVENTS of the job's events (stage,
 * load, mark...: 376 bytes each) in the event list, with room beside them
 * for stagetop's own (pause, resume, kill, exit, budget: never refused, so
 * the job-end notification cannot be lost); at most ST_KEEP_STAGES stage
 * windows in the summary, the later ones folded into one window named
 * ST_LATER_STAGES.  docs/job-events.md. */
#define ST_KEEP_EVENTS 50000
#define ST_KEEP_OWN_EVENTS 10000
#define ST_KEEP_STAGES 10000
#define ST_LATER_STAGES "(later stages, not kept)"
/* At the end of a run, reading what the job wrote last may take this long. */
#define ST_FOLLOW_FINISH_S 1.0

/* Is s a sampling interval stagetop could have used (a trace's
 * meta.interval is trusted only then)?  NaN is not. */
static inline int st_interval_ok(double s)
{
    return s >= ST_INTERVAL_MIN_S && s <= ST_INTERVAL_MAX_S;
}

#endif
