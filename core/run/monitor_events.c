/* monitor_events.c: the monitor's events (monitor_internal.h): the one path
 * every event takes (list, summary, record), the followed files read in
 * bounded slices between samples, and what they hold at the end. */
#include "stagetop/monitor.h"
#include "stagetop/limits.h"
#include "monitor_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int st_monitor_open_follower(st_follow **fp, const char *path, double interval, st_error *err)
{
    *fp = malloc(sizeof **fp);
    if (!*fp)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    int rc = st_follow_open(*fp, path, err);
    if (rc != ST_OK) {
        free(*fp);
        *fp = NULL;
    } else { /* events are read in slices of a quarter interval (5-100 ms) */
        (*fp)->slice_s = fmin(0.1, fmax(0.005, interval / 4));
    }
    return rc;
}

void st_monitor_close_follower(st_follow **fp)
{
    if (*fp) {
        st_follow_close(*fp);
        free(*fp);
        *fp = NULL;
    }
}

void st_monitor_note_record_error(st_monitor *m, const st_error *e)
{
    if (!m->warn[ST_WARN_RECORD].msg[0]) {
        st_error_set(&m->warn[ST_WARN_RECORD], ST_EIO, e->sys_errno, "record: %.240s", e->msg);
    }
}

static int own_kind(int kind)
{
    return kind == ST_EV_PAUSE || kind == ST_EV_RESUME || kind == ST_EV_KILL || kind == ST_EV_EXIT ||
           kind == ST_EV_BUDGET || kind == ST_EV_SLEEP;
}

/* List, summary, record stream: the one path every event takes.  Memory
 * is bounded (limits.h, ST_KEEP_*): the job's events past ST_KEEP_EVENTS
 * are not kept in the list (counted in events.dropped), stage windows past
 * ST_KEEP_STAGES are folded into one; the summary's counts and the record
 * get every event. */
int st_monitor_add_event(st_monitor *m, const st_event *ev_in, st_error *err)
{
    st_error e;
    /* Time order, kept here for every reader (docs/trace-format.md, "Time
     * order"): an event stamped before a sample already taken (a job's line
     * read late: a flood's lines wait) goes just after that sample, as the
     * run's summary has counted the sample in the stage before. */
    st_event placed = *ev_in;
    const st_event *ev = &placed;
    uint32_t floor = st_summary_event_floor(&m->summary, ev_in->kind, m->last_event_ms);
    if (placed.t_ms < floor)
        placed.t_ms = floor;
    m->last_event_ms = placed.t_ms;
    if (own_kind(ev->kind) || m->events.len - m->own_events < ST_KEEP_EVENTS) {
        size_t before = m->events.len;
        int rc = st_event_list_add(&m->events, ev, err);
        if (rc != ST_OK)
            return rc;
        m->own_events += own_kind(ev->kind) && m->events.len > before;
    } else {
        m->events.dropped++;
    }
    if (ev->kind == ST_EV_STAGE && m->summary.n_stages >= ST_KEEP_STAGES) {
        if (m->stages_folded++ == 0) { /* one window for all the later stages */
            st_event later = *ev;
            st_event_set_str(later.stage, sizeof later.stage, ST_LATER_STAGES);
            st_summary_add_event(&m->summary, &later, NULL);
        }
    } else {
        st_summary_add_event(&m->summary, ev, NULL);
    }
    if (m->rec && st_recorder_event(m->rec, ev, &e) != ST_OK)
        st_monitor_note_record_error(m, &e);
    st_trace_tap_event(m->tap, ev);
    return ST_OK;
}

static void emit_followed(void *ctx, const st_event *ev)
{
    st_monitor_add_event(ctx, ev, NULL);
}

/* Poll one follower; its error (if any) replaces ST_WARN_FOLLOW's.  Returns 1
 * when it reported an error. */
static int poll_one(st_monitor *m, st_follow *f, const char *label, double now)
{
    st_error e;
    st_error_clear(&e);
    f->clock0 = m->t0; /* st_now()'s clock, as `stagetop stage|mark` stamp */
    f->has_clock0 = 1;
    if (st_follow_poll(f, now - m->t0, emit_followed, m, &e) < 0)
        st_error_set(&m->warn[ST_WARN_FOLLOW], e.code ? e.code : ST_EIO, e.sys_errno, "%s: %.230s",
                     label, e.msg);
    else if (f->bad_lines)
        st_error_set(&m->warn[ST_WARN_FOLLOW], ST_EPARSE, 0, "%s: %llu bad line(s), last: %.190s",
                 label, (unsigned long long)f->bad_lines, f->last_error);
    else if (m->events.dropped || m->stages_folded)
        st_error_set(&m->warn[ST_WARN_FOLLOW], ST_ENOMEM, 0,
                     "%s: %llu event(s) not kept in memory, %llu stage(s) folded into one "
                     "(the record has them all)", label, (unsigned long long)m->events.dropped,
                     (unsigned long long)m->stages_folded);
    else
        return 0;
    return 1;
}

/* At the end: what the followed files still hold (their last line too). */
void st_monitor_finish_follow(st_monitor *m, double now)
{
    st_error e;
    st_follow *fs[2] = { m->follow, m->job_follow };
    for (int i = 0; i < 2; i++) {
        if (!fs[i])
            continue;
        st_error_clear(&e);
        fs[i]->clock0 = m->t0;
        fs[i]->has_clock0 = 1;
        if (st_follow_finish(fs[i], now - m->t0, emit_followed, m, ST_FOLLOW_FINISH_S, &e) < 0 ||
            fs[i]->more)
            st_error_set(&m->warn[ST_WARN_FOLLOW], ST_EIO, e.sys_errno,
                         "%s: not read to its end at exit%s%.200s", i ? "STAGETOP_EVENTS" : "events",
                         e.msg[0] ? ": " : " (too much left)", e.msg);
    }
}

void st_monitor_poll_follow(st_monitor *m, double now)
{
    int bad = 0;
    if (m->follow)
        bad |= poll_one(m, m->follow, "events", now);
    if (m->job_follow)
        bad |= poll_one(m, m->job_follow, "STAGETOP_EVENTS", now);
    if (!bad)
        st_error_clear(&m->warn[ST_WARN_FOLLOW]);
}
