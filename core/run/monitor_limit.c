/* monitor_limit.c: the memory limit that binds the job and the kernel's
 * OOM killer (docs/metrics.md, "The limit that binds"): the cgroup walked
 * at the start and when it changes (the platform's limit_find), the room
 * under its limit once per sample (one read: the limit_free lane), the
 * OOM-kill counters when a member leaves and at the end, and what the exit
 * event says of them. */
#include "monitor_internal.h"
#include "stagetop/json.h"
#include "stagetop/units.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#define LIMIT_LOOK_S 1.0   /* the root's /proc/PID/cgroup read again (a moved job) */
#define LIMIT_WALK_S 10.0  /* walked again whatever it says (a limit changed) */

void st_monitor_limit_open(st_monitor *m, double now)
{
    st_cg_watch_init(&m->limit);
    m->limit_next = now + LIMIT_LOOK_S;
    m->limit_walk = now + LIMIT_WALK_S;
    if (m->plat->limit_find)
        (void)m->plat->limit_find(m->b, m->tree.root.pid, &m->limit, 1);
}

void st_monitor_limit_close(st_monitor *m)
{
    st_cg_watch_free(&m->limit);
}

int st_monitor_limit_meta(const st_monitor *m, struct st_jw *w, int any)
{
    const st_cg_watch *l = &m->limit;
    if (!l->walked)
        return 0;
    if (any)
        st_jw_char(w, ',');
    st_jw_lit(w, "\"cgroup\":");
    st_jw_str(w, l->job_cgroup);
    if (l->has_limit) {
        st_jw_lit(w, ",\"memory_limit\":");
        st_jw_u64(w, l->limit);
        st_jw_lit(w, ",\"memory_limit_cgroup\":");
        st_jw_str(w, l->cgroup);
        st_jw_lit(w, ",\"memory_limit_file\":");
        st_jw_str(w, l->limit_file);
    }
    return 1;
}

/* The kills counted so far; a rise is kept (m->oom_kills). */
static void read_kills(st_monitor *m)
{
    uint64_t k = st_cg_oom_kills(&m->limit);
    if (k > m->oom_kills)
        m->oom_kills = k;
}

void st_monitor_limit_sample(st_monitor *m, double now, st_sample *s)
{
    st_cg_watch *l = &m->limit;
    const st_tree *t = &m->tree; /* a root that has exited shows the root cgroup: not a move */
    int root_live = t->root_alive && t->n_members > 0 && t->members[0].id.pid == t->root.pid &&
                    !((t->members[0].valid & ST_PM_STATE) && t->members[0].state == 'Z');
    if (m->plat->limit_find && root_live && (now >= m->limit_next || l->stale)) {
        int force = now >= m->limit_walk;
        m->limit_next = now + LIMIT_LOOK_S;
        if (force)
            m->limit_walk = now + LIMIT_WALK_S;
        (void)m->plat->limit_find(m->b, m->tree.root.pid, l, force);
    }
    if (l->has_limit && st_cg_read_usage(l)) {
        s->limit_free = st_cg_room(l);
        s->valid |= ST_F_LIMIT_FREE;
    }
    if (l->walked && (s->valid & ST_F_PROCS) && m->has_last && s->procs < m->last.procs)
        read_kills(m); /* a member left: was it the OOM killer? */
}

void st_monitor_limit_exit(st_monitor *m, st_event *ev)
{
    const st_cg_watch *l = &m->limit;
    char lim[32], where[100];
    if (!l->walked)
        return;
    read_kills(m);
    if (!m->oom_kills)
        return;
    const char *cg = l->has_limit ? l->cgroup : l->job_cgroup;
    size_t n = strlen(cg);
    char note[320];
    snprintf(where, sizeof where, "%s%.90s", n > 90 ? "..." : "", n > 90 ? cg + n - 90 : cg);
    st_format_bytes(l->limit, lim, sizeof lim);
    if (m->job.launched && m->job.exit_code > 128 && !m->job.kill_asked &&
        st_cg_oom_killed(m->job.exit_code - 128, 0, m->oom_kills)) { /* SIGKILL, and a kill counted */
        if (l->has_limit)
            snprintf(note, sizeof note, "killed by the kernel's OOM killer at the memory limit of %s (%s)",
                     where, lim);
        else
            snprintf(note, sizeof note, "killed by the kernel's OOM killer (cgroup %s)", where);
        st_event_set_str(ev->name, sizeof ev->name, "oom_kill");
        m->oom_root = 1;
        ev->has |= ST_EVF_NAME;
    } else {
        snprintf(note, sizeof note, "the kernel's OOM killer killed %llu process%s in %s%s%s%s",
                 (unsigned long long)m->oom_kills, m->oom_kills == 1 ? "" : "es", where,
                 l->has_limit ? " (limit " : "", l->has_limit ? lim : "", l->has_limit ? ")" : "");
    }
    st_event_set_str(m->oom_note, sizeof m->oom_note, note);
    st_event_set_str(ev->note, sizeof ev->note, m->oom_note);
    ev->has |= ST_EVF_NOTE;
}
