/* monitor_pace.c: the sampling pace of a run (monitor_internal.h): a run
 * whose samples cost more CPU than its interval allows backs off, and says
 * so (docs/stagetop.1, --interval). */
#include "monitor_internal.h"

#include "stagetop/clock.h"

#include <stdio.h>

/* The run's clock stops while the machine sleeps (clock.h), so a laptop's
 * sleep leaves no gap in t: it is said by a "sleep" event at the first
 * sample after it, with the seconds asleep (docs/trace-format.md), when the
 * machine's sleep counter grew by ST_SLEEP_MIN_S or more since the last
 * sample. */
#define ST_SLEEP_MIN_S 1.0
void st_monitor_note_sleep(st_monitor *m, uint32_t t_ms)
{
    double z = st_slept_total();
    if (z < 0)
        return;
    if (m->slept >= 0 && z - m->slept >= ST_SLEEP_MIN_S) {
        st_event ev;
        st_event_init(&ev, t_ms, ST_EV_SLEEP);
        ev.seconds = z - m->slept;
        ev.has |= ST_EVF_SECONDS;
        snprintf(ev.note, sizeof ev.note, "the machine slept %.1f s", ev.seconds);
        ev.has |= ST_EVF_NOTE;
        st_monitor_add_event(m, &ev, NULL);
    }
    m->slept = z;
}

/* Back off when a sample costs more than half its period in stagetop's own
 * CPU (500 processes at --interval 0.01 took 98 % of a core and missed
 * deadlines): sample every 2nd, 4th, ... deadline (the grid t0 + k *
 * interval stays), at most ST_PACE_MAX_STRIDE, and say so; come back
 * when a sample costs under an eighth of the shorter period. */
#define ST_PACE_MAX_STRIDE 64u
void st_monitor_pace(st_monitor *m)
{
    double period = m->opts.interval * m->stride;
    uint32_t was = m->stride;
    if (m->ring.total < 5)
        return;
    if (m->cpu_per_sample > 0.5 * period && m->stride < ST_PACE_MAX_STRIDE)
        m->stride *= 2;
    else if (m->stride > 1 && m->cpu_per_sample < 0.125 * period / 2)
        m->stride /= 2;
    if (m->stride == was)
        return;
    if (m->stride == 1)
        st_error_clear(&m->warn[ST_WARN_PACE]);
    else
        st_error_set(&m->warn[ST_WARN_PACE], ST_EAGAIN, 0,
                     "a sample takes %.1f ms of stagetop's CPU, over half of --interval %g s: "
                     "sampling every %g s instead", m->cpu_per_sample * 1e3, m->opts.interval,
                     m->opts.interval * m->stride);
}
