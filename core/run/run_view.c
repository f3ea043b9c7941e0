/* run_view.c: the read-only snapshot of a run (run_view.h) for a live
 * monitor and for a trace, its warnings list and the numbers derived from
 * the samples (swap growth rate, time to the swap budget). */
#include "stagetop/run_view.h"
#include "stagetop/lanes.h"

#include <stdio.h>
#include <string.h>

#include "monitor_internal.h"

static const st_sample *view_at(st_samples_view s, size_t i)
{
    return i < s.a_len ? &s.a[i] : i - s.a_len < s.b_len ? &s.b[i - s.a_len] : NULL;
}

int st_run_swap_rate(st_samples_view s, double *rate)
{
    size_t n = s.a_len + s.b_len, lo = 0, hi = n;
    const st_sample *last = n ? view_at(s, n - 1) : NULL;
    if (!last || !st_sample_has(last, ST_F_SWAP) || last->t_ms < 2000)
        return 0;
    uint32_t win = (uint32_t)(ST_RUN_SWAP_RATE_WINDOW_S * 1000.0);
    uint32_t want = last->t_ms > win ? last->t_ms - win : 0;
    while (lo < hi) { /* the first sample at or after want */
        size_t mid = lo + (hi - lo) / 2;
        if (view_at(s, mid)->t_ms < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    const st_sample *old = view_at(s, lo);
    if (!old || old == last || !st_sample_has(old, ST_F_SWAP) || last->t_ms - old->t_ms < 1000)
        return 0;
    *rate = ((double)last->swap_used - (double)old->swap_used) * 1000.0 / (last->t_ms - old->t_ms);
    return 1;
}

double st_run_budget_eta(uint64_t base, uint64_t budget, uint64_t swap_now, double rate)
{
    if (!(rate > 0.0))
        return -1.0;
    double left = (double)base + (double)budget - (double)swap_now;
    return left <= 0.0 ? 0.0 : left / rate;
}

/* An entry of the list when e says something (msg not ""). */
static void add_warning(st_run_view *v, int source, int info, const st_error *e)
{
    if (!e->msg[0] || v->n_warnings >= ST_WARN_SOURCES)
        return;
    st_run_warning *w = &v->warnings[v->n_warnings++];
    w->source = source;
    w->info = info;
    w->e = *e;
}

const st_run_warning *st_run_view_find(const st_run_view *v, int source)
{
    for (size_t i = 0; i < v->n_warnings; i++)
        if (v->warnings[i].source == source)
            return &v->warnings[i];
    return NULL;
}

const st_run_warning *st_run_view_warning(const st_run_view *v)
{
    static const int order[] = {ST_WARN_GUARD, ST_WARN_RECORD, ST_WARN_FOLLOW, ST_WARN_GPU,
                                ST_WARN_LANES};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const st_run_warning *w = st_run_view_find(v, order[i]);
        if (w && !w->info)
            return w;
    }
    return NULL;
}

/* What the header says beside the definition, from the last sample: the
 * age of the proportional corrections it carries, or that its definition
 * counts a shared page per process (live and replay alike). */
static void footprint_words(st_run_view *v)
{
    const st_sample *s = v->last;
    v->footprint_carried = s && st_sample_has(s, ST_F_FOOTPRINT_AGE);
    v->footprint_age_s = v->footprint_carried ? st_lane_value(ST_LANE_FOOTPRINT_AGE, s) : 0;
    v->footprint_per_process =
        s && st_sample_has(s, ST_F_PROCS) && st_lanes_shared_per_process(v->footprint_metric, s->procs);
}

static void derive(st_run_view *v, uint64_t swap_base)
{
    v->has_swap_rate = st_run_swap_rate(v->samples, &v->swap_rate);
    if (!v->has_swap_rate)
        v->swap_rate = 0;
    v->budget_eta_s = -1.0;
    if (v->guard_active && v->guard_opts.has_swap_budget && v->last &&
        st_sample_has(v->last, ST_F_SWAP))
        v->budget_eta_s = st_run_budget_eta(swap_base, v->guard_opts.swap_budget,
                                            v->last->swap_used, v->swap_rate);
}

void st_monitor_view(const st_monitor *m, double now, st_run_view *out)
{
    st_run_view *v = out;
    memset(v, 0, sizeof *v);
    v->meta = &m->meta;
    v->interval = m->opts.interval;
    v->footprint_metric = m->meta.footprint_metric; /* the definition in force (tree_share.c) */
    v->peak_metric = m->plat ? m->plat->peak_metric : NULL;
    v->root_pid = m->tree.root.pid;
    v->uptime_s = (m->t_end > 0 ? m->t_end : now) - m->t0; /* how long it ran, once ended */

    v->samples = st_ring_view(&m->ring);
    v->samples_total = m->ring.total;
    v->last = st_ring_last(&m->ring);
    v->dropped = m->dropped;
    v->stages_folded = m->stages_folded;
    v->summary = &m->summary;
    footprint_words(v);

    v->members = m->tree.members;
    v->n_members = m->tree.n_members;
    v->root_alive = m->tree.root_alive;
    v->kernel_peak = m->tree.kernel_peak;
    v->has_kernel_peak = m->tree.has_kernel_peak;
    v->eperm_count = m->tree.eperm_count;
    v->has_gpu_lane = m->gpu != NULL;
    v->gpu_pids = m->gpu_pids;
    v->gpu_bytes = m->gpu_bytes;
    v->gpu_n = m->gpu_n;
    v->share = &m->tree.share;
    v->hist = &m->hist;

    v->events = m->events.v;
    v->n_events = m->events.len;

    v->sys = m->sys;
    v->sys_start = m->sys_start;

    v->guard_active = m->guard_on;
    v->guard_opts = m->guard.o;
    v->guard_tripped = m->guard_tripped;
    v->verdict = m->verdict;
    v->pageins_total = m->tree.rates.total_majflt;
    v->cpu_total_ns = m->tree.rates.total_cpu_ns;
    v->pressure_is_level = m->plat->pressure_is_level;
    if (m->guard_on && m->guard.o.has_swap_budget && (m->sys_start.valid & ST_SYS_SWAPTOTAL) &&
        m->sys_start.swap_total == 0)
        v->guard_no_swap = 1;
    if (m->guard_on && m->guard.o.has_kill_free && (m->sys_start.valid & ST_SYS_LEVEL) &&
        m->sys_start.level_c < m->guard.o.kill_free_c) {
        v->guard_level_crossed = 1;
        v->level_start_c = m->sys_start.level_c;
    }
    v->has_guard_base = m->guard.has_base;
    v->guard_swap_base = m->guard.swap_base;

    v->job_pid = m->job.pid;
    v->job_launched = m->job.launched;
    v->job_state = m->job.state;
    v->paused_by_us = m->job.paused_by_us;
    v->exit_code = m->job.exit_code;
    v->stop_sig = m->job.stop_sig;
    v->signalled = m->job.signalled;
    v->refused = m->job.refused;
    v->refusal = m->job.refusal;
    v->read_only = m->job.read_only;
    v->watch_only = m->job.watch_only;
    v->env_follow = m->env_note;
    v->kill_asked = m->job.kill_asked;
    v->grace_s = m->job.grace_s;
    /* -p: a root stopped by someone else (state T, not our pause) is shown
     * stopped, never running; its signal is not known (SIGSTOP said). */
    if (!m->job.launched && v->job_state == ST_JOB_RUNNING && m->tree.n_members > 0 &&
        m->tree.members[0].id.pid == m->tree.root.pid &&
        (m->tree.members[0].valid & ST_PM_STATE) && m->tree.members[0].state == 'T')
        v->job_state = ST_JOB_STOPPED;

    const st_cg_watch *l = &m->limit;
    if ((v->limit.has_cgroup = l->walked))
        snprintf(v->limit.cgroup, sizeof v->limit.cgroup, "%.95s", l->job_cgroup);
    if ((v->limit.has_limit = l->walked && l->has_limit)) {
        v->limit.limit = l->limit;
        snprintf(v->limit.limit_cgroup, sizeof v->limit.limit_cgroup, "%.95s", l->cgroup);
        snprintf(v->limit.limit_file, sizeof v->limit.limit_file, "%.31s", l->limit_file);
    }
    v->oom_note = m->oom_note;
    v->oom_root = m->oom_root;

    v->cpu_per_sample = m->cpu_per_sample;
    derive(v, m->guard.has_base ? m->guard.swap_base : m->sys_start.swap_used);

    static const int shown[] = {ST_WARN_GUARD, ST_WARN_RECORD, ST_WARN_FOLLOW, ST_WARN_GPU, ST_WARN_PACE};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        add_warning(v, shown[i], 0, &m->warn[shown[i]]);
    if (m->tree.eperm_count) {
        st_error e;
        st_error_set(&e, ST_EPERM, 0, "%llu member(s) not readable (EPERM)",
                     (unsigned long long)m->tree.eperm_count);
        add_warning(v, ST_WARN_EPERM, 1, &e);
    }
    if (!m->gpu)
        add_warning(v, ST_WARN_NO_GPU, 1, &m->warn[ST_WARN_NO_GPU]);
    const char *note = m->plat->lanes_note ? m->plat->lanes_note(m->b) : NULL;
    if (note && *note) {
        st_error e;
        st_error_set(&e, ST_EPERM, 0, "%.200s", note);
        add_warning(v, ST_WARN_LANES, 0, &e);
    }
}

void st_trace_run_view(const st_trace *t, size_t n_samples, size_t n_events, double interval,
                   st_run_view *out)
{
    st_run_view *v = out;
    memset(v, 0, sizeof *v);
    if (n_samples > t->n_samples)
        n_samples = t->n_samples;
    if (n_events > t->events.len)
        n_events = t->events.len;
    v->replay = 1;
    v->meta = &t->meta;
    v->interval = interval;
    v->footprint_metric = t->meta.footprint_metric;
    v->root_pid = t->meta.pid;
    v->samples.a = t->samples;
    v->samples.a_len = n_samples;
    v->samples_total = t->n_samples;
    v->last = n_samples ? &t->samples[n_samples - 1] : NULL;
    v->dropped = t->dropped_samples;
    v->summary = &t->summary;
    footprint_words(v);
    v->events = t->events.v;
    v->n_events = n_events;
    v->sys_start.swap_used = t->summary.has_swap ? t->summary.swap_start : 0;
    if (t->meta.swap_total) {
        v->sys.swap_total = t->meta.swap_total;
        v->sys.valid = ST_SYS_SWAPTOTAL;
    }
    v->job_pid = t->meta.pid;
    v->job_state = ST_JOB_EXITED;
    v->refusal = "";
    st_trace_limit_of(&t->meta, &v->limit);
    v->oom_note = "";
    for (size_t i = 0; i < n_events; i++) /* the exit's note: the OOM killer's (monitor_limit.c) */
        if (t->events.v[i].kind == ST_EV_EXIT && (t->events.v[i].has & ST_EVF_NOTE)) {
            v->oom_note = t->events.v[i].note;
            v->oom_root = (t->events.v[i].has & ST_EVF_NAME) && !strcmp(t->events.v[i].name, "oom_kill");
        }
    derive(v, v->sys_start.swap_used);
}

int st_run_view_gpu_of(const st_run_view *v, int32_t pid, uint64_t *bytes)
{
    for (size_t i = 0; i < v->gpu_n; i++) {
        if (v->gpu_pids[i] == pid) {
            *bytes = v->gpu_bytes[i];
            return 1;
        }
    }
    return 0;
}

int st_run_view_share_of(const st_run_view *v, st_proc_id id, uint64_t *alone, uint64_t *shared)
{
    return v->share && st_tree_share_of(v->share, id, alone, shared);
}

size_t st_run_view_history_of(const st_run_view *v, st_proc_id id, uint32_t *kib, size_t cap)
{
    return v->hist ? st_member_hist_get(v->hist, id, kib, cap) : 0;
}
_Static_assert(ST_RUN_HIST_MAX == ST_MEMBER_HIST_N && ST_RUN_HIST_NONE == ST_MEMBER_HIST_NONE,
               "run_view.h's history bounds are member_hist.h's");
