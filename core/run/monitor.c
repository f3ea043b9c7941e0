/* monitor.c: one watched run, the single data path of docs/design.md:
 * backend -> tree sample -> ring (+ record stream) -> summary / export. */
#include "monitor_internal.h"
#include "stagetop/json.h"
#include "stagetop/clock.h"
#include "stagetop/lanes.h"
#include "stagetop/limits.h"
#include "stagetop/version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static uint32_t t_ms_at(const st_monitor *m, double now)
{
    /* floor, so a sample taken for deadline k reads t in [k, k+1) intervals
     * (the 1e-6 absorbs floating-point error in t0 + k * interval). */
    double ms = (now - m->t0) * 1000.0 + 1e-6;
    if (!(ms > 0))
        return 0;
    if (ms > 4294967295.0)
        return 4294967295u;
    return (uint32_t)ms;
}

static void fill_meta(st_monitor *m)
{
    st_trace_meta *meta = &m->meta;
    struct utsname u;
    snprintf(meta->stagetop, sizeof meta->stagetop, "%s", st_version());
    snprintf(meta->platform, sizeof meta->platform, "%s", m->plat->name);
    if (uname(&u) == 0)
        snprintf(meta->os, sizeof meta->os, "%.40s %.60s %.20s", u.sysname, u.release, u.machine);
    if (gethostname(meta->host, sizeof meta->host) != 0)
        meta->host[0] = '\0';
    meta->host[sizeof meta->host - 1] = '\0';
    meta->pid = m->tree.root.pid;
    if (m->opts.command)
        snprintf(meta->command, sizeof meta->command, "%s", m->opts.command);
    else if (m->plat->command(m->b, m->tree.root, meta->command, sizeof meta->command, NULL) != ST_OK)
        meta->command[0] = '\0';
    time_t wall = st_wall_time();
    struct tm tm;
    if (gmtime_r(&wall, &tm))
        strftime(meta->start_utc, sizeof meta->start_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    meta->interval = m->opts.interval;
    meta->mem_total = (m->sys.valid & ST_SYS_MEMTOTAL) ? m->sys.mem_total : 0;
    meta->swap_total = (m->sys.valid & ST_SYS_SWAPTOTAL) ? m->sys.swap_total : 0;
    snprintf(meta->footprint_metric, sizeof meta->footprint_metric, "%s",
             st_tree_metric(&m->tree, m->plat->footprint_metric));
    st_jw w; /* the start record's other keys: the job's log, its cgroup, its MPS cap */
    int any = 0;
    st_jw_init(&w, -1);
    st_jw_char(&w, '{');
    if (m->opts.job_log && *m->opts.job_log) {
        st_jw_lit(&w, "\"job_log\":");
        st_jw_str(&w, m->opts.job_log);
        any = 1;
    }
    any |= st_monitor_limit_meta(m, &w, any);
    any |= st_monitor_mps_meta(m, &w, any); /* the MPS cap's numbers (macOS) */
    st_jw_char(&w, '}');
    if (any)
        meta->extra = st_jw_take(&w); /* NULL (out of memory): not said */
    st_jw_free(&w);
}

int st_monitor_open(st_monitor *m, const st_platform *plat, const st_monitor_opts *o,
                    int32_t pid, const st_job *launched_job, double now, st_error *err)
{
    int rc;
    memset(m, 0, sizeof *m);
    m->opts = *o;
    m->plat = plat;
    if (!st_interval_ok(o->interval))
        return st_error_set(err, ST_EINVAL, 0, "interval %g s is out of range %g..%g", o->interval,
                            ST_INTERVAL_MIN_S, ST_INTERVAL_MAX_S);
    rc = plat->open(&m->b, err);
    if (rc != ST_OK)
        return rc;
    double discover = o->discover_s > 0 ? o->discover_s : (o->interval >= 0.5 ? 0 : 0.5);
    rc = st_tree_init(&m->tree, plat, m->b, pid, discover, err);
    if (rc != ST_OK)
        goto fail_backend;
    if (launched_job) {
        m->job = *launched_job;
        m->job.gate_fd = m->job.exec_fd = -1; /* a held job's gate stays its caller's */
        st_peak_bind(&m->job.peak, plat, m->b); /* zombie peaks (macOS) */
        if (m->job.subreaper) /* its orphans re-parent to us: they are the job's */
            (void)st_tree_adopt_orphans_of(&m->tree, (int32_t)getpid(), NULL);
        else /* no subreaper (macOS): its orphans are found by the group it leads */
            (void)st_tree_adopt_group(&m->tree, pid);
        m->job.peak.rates = &m->tree.rates;     /* reaped children's last CPU and page-ins */
        (void)st_tree_use_cgroup(&m->tree, &m->job.peak.grp); /* its own cgroup: one read a sample */
    } else if ((rc = st_monitor_attach(m, pid, &o->guard, err)) != ST_OK)
        goto fail_tree;
    if (m->job.grace_s <= 0)
        m->job.grace_s = o->grace_s > 0 ? o->grace_s : ST_GRACE_DEFAULT_S;
    rc = st_ring_init(&m->ring, st_ring_capacity_for(o->history_s > 0 ? o->history_s : ST_HISTORY_DEFAULT_S,
                                                     o->interval), err);
    if (rc != ST_OK)
        goto fail_tree;
    /* the whole run, for the end's charts (1.1 MiB: kept only when asked) */
    if (o->whole_run && (rc = st_runseries_init(&m->series, 0, 0, err)) != ST_OK) {
        st_ring_free(&m->ring);
        goto fail_tree;
    }
    st_event_list_init(&m->events, ST_KEEP_EVENTS + ST_KEEP_OWN_EVENTS);
    st_summary_init(&m->summary);
    if (plat->read_system(m->b, &m->sys, NULL) == ST_OK)
        m->sys_start = m->sys;
    st_monitor_limit_open(m, now);
    fill_meta(m);
    st_monitor_open_gpu(m);
    if (st_guard_active(&o->guard)) {
        st_guard_init(&m->guard, &o->guard);
        m->guard.page_size = (uint64_t)sysconf(_SC_PAGESIZE); /* a page-in's bytes: the share */
        if (m->sys_start.valid & ST_SYS_SWAP)
            st_guard_set_base(&m->guard, m->sys_start.swap_used);
        m->guard_on = 1;
    }
    struct stat lst; /* the export at the end would replace what is there */
    if (o->record_path && ends_with(o->record_path, ".json") && lstat(o->record_path, &lst) == 0 &&
        (S_ISLNK(lst.st_mode) || !o->record_overwrite)) {
        rc = st_error_set(err, ST_EINVAL, EEXIST, S_ISLNK(lst.st_mode)
                          ? "%s is a symbolic link: not followed, not replaced"
                          : "%s exists: not overwritten (--overwrite replaces it)", o->record_path);
        goto fail_all;
    }
    if (o->record_fd >= 0 || (o->record_path && !ends_with(o->record_path, ".json"))) {
        rc = st_recorder_open(&m->rec, o->record_fd >= 0 ? NULL : o->record_path, o->record_fd,
                              o->record_overwrite ? ST_REC_OVERWRITE : 0, err);
        if (rc != ST_OK)
            goto fail_all;
        st_recorder_set_sync(m->rec, o->record_sync);
        rc = st_recorder_start(m->rec, &m->meta, err);
        if (rc != ST_OK)
            goto fail_all;
    }
    if (o->whole_run && (rc = st_trace_tap_open(&m->tap, &m->meta, err)) != ST_OK)
        goto fail_all;
    if (o->events_path && (rc = st_monitor_open_follower(&m->follow, o->events_path, o->interval, err)) != ST_OK)
        goto fail_all;
    if (o->job_events_path && (rc = st_monitor_open_follower(&m->job_follow, o->job_events_path, o->interval, err)) != ST_OK)
        goto fail_all;
    st_monitor_env_follow(m, o->interval); /* -p: the stage files its environment names */
    m->t0 = now;
    m->slept = st_slept_total();
    m->next_k = 0;
    m->stride = 1;
    m->gpu_next = now;
    return ST_OK;

fail_all:
    if (m->rec)
        st_recorder_close(m->rec);
    m->rec = NULL;
    st_trace_tap_free(m->tap);
    m->tap = NULL;
    st_runseries_free(&m->series);
    st_monitor_close_follower(&m->follow);
    st_monitor_close_follower(&m->job_follow);
    if (m->gpu)
        st_gpu_close(m->gpu);
    st_summary_free(&m->summary);
    st_event_list_free(&m->events);
    st_ring_free(&m->ring);
    st_trace_meta_free(&m->meta);
    st_monitor_limit_close(m);
fail_tree:
    st_tree_free(&m->tree);
    st_member_hist_free(&m->hist);
fail_backend:
    plat->close(m->b);
    m->b = NULL;
    return rc;
}

void st_monitor_start(st_monitor *m, double now)
{
    m->t0 = now;
    m->slept = st_slept_total();
    m->next_k = 0;
    m->gpu_next = now;
}

double st_monitor_deadline(const st_monitor *m)
{
    return m->t0 + (double)m->next_k * m->opts.interval;
}

const char *st_monitor_warning(const st_monitor *m, int source)
{
    return source >= 0 && source < ST_WARN_SOURCES ? m->warn[source].msg : "";
}

void st_monitor_allow_signals(st_monitor *m, int allow)
{
    m->job.read_only = !allow;
}

int st_monitor_scope(const st_monitor *m, st_job_scope *out, st_error *err)
{
    return st_job_scope_of(m->plat, m->b, m->tree.root, out, err);
}

/* -p follows exec: the root's command line, read again at most once a
 * second, kept once in the meta (header, export, report and plot titles). */
static void follow_exec(st_monitor *m, double now)
{
    char cmd[sizeof m->meta.command];
    if (m->opts.command || !m->tree.root_alive || now < m->cmd_next)
        return;
    m->cmd_next = now + 1.0;
    if (m->plat->command(m->b, m->tree.root, cmd, sizeof cmd, NULL) == ST_OK && cmd[0] &&
        strcmp(cmd, m->meta.command) != 0) {
        memcpy(m->meta.command, cmd, sizeof cmd);
        if (m->rec) /* the record's start line keeps the old one: its end says this */
            st_recorder_command(m->rec, cmd);
        st_trace_tap_command(m->tap, cmd);
    }
}

/* Is the watched root a zombie?  The state this sample read (no more I/O);
 * the backend is asked only when the root gave no state. */
static int root_is_zombie(const st_monitor *m)
{
    const st_tree *t = &m->tree;
    if (t->n_members > 0 && t->members[0].id.pid == t->root.pid && (t->members[0].valid & ST_PM_STATE))
        return t->members[0].state == 'Z';
    return m->plat->is_zombie && m->plat->is_zombie(m->b, t->root.pid) == 1;
}

/* The job: reaped (launched), vanished (attached), or past a kill's grace;
 * the exit event when it has just ended. */
static void poll_job(st_monitor *m, double now)
{
    st_error e;
    if (m->job.state == ST_JOB_EXITED)
        return;
    int exited = st_job_poll(&m->job, &m->tree, now, &e) == 1;
    if (!exited && !m->job.launched && !m->tree.root_alive && m->tree.n_members == 0) {
        m->job.state = ST_JOB_EXITED;
        m->job.exit_code = -1;
        exited = 1;
    }
    /* A watched root that has become a zombie (its parent does not reap
     * it), nothing else left: over, not sampled for ever. */
    if (!exited && !m->job.launched && m->tree.n_members <= 1 && root_is_zombie(m)) {
        m->job.state = ST_JOB_EXITED;
        m->job.exit_code = -1;
        exited = 1;
    }
    if (exited) {
        m->t_end = now > m->t0 ? now : m->t0; /* the header's time stops here */
        st_monitor_finish_follow(m, now); /* what the job wrote last is still its own */
        st_peak_feed(&m->job.peak, &m->summary); /* peaks kept at reaping */
        st_event ev;
        st_event_init(&ev, t_ms_at(m, now), ST_EV_EXIT);
        if (m->job.launched) {
            ev.value = m->job.exit_code;
            ev.has |= ST_EVF_VALUE;
        }
        st_monitor_limit_exit(m, &ev); /* the OOM killer's, when it was */
        st_monitor_add_event(m, &ev, NULL);
    }
}

static void apply_guard(st_monitor *m, const st_sample *s, double now)
{
    st_guard_verdict v;
    st_error e;
    if (!m->guard_on || m->job.state == ST_JOB_EXITED || !st_guard_check(&m->guard, s, &v))
        return;
    m->verdict = v;
    m->guard_tripped = 1;
    st_event ev;
    st_event_init(&ev, t_ms_at(m, now), ST_EV_BUDGET);
    st_event_set_str(ev.name, sizeof ev.name, v.reason == ST_GUARD_SWAP ? "swap" : "level");
    st_event_set_str(ev.note, sizeof ev.note, v.action == ST_GUARD_KILL ? "kill" : "pause");
    ev.value = v.value;
    ev.limit = v.limit;
    ev.has |= ST_EVF_NAME | ST_EVF_NOTE | ST_EVF_VALUE | ST_EVF_LIMIT;
    if (v.share_kind != ST_SHARE_NONE && v.share >= 0) { /* the job's share (docs/trace-format.md) */
        ev.nbytes = (uint64_t)v.share;
        ev.has |= ST_EVF_NBYTES;
    }
    st_monitor_add_event(m, &ev, NULL);
    st_error_clear(&e);
    int rc = v.action == ST_GUARD_KILL ? st_monitor_kill(m, now, &e) : st_monitor_pause(m, now, &e);
    if (rc != ST_OK && m->job.signalled == 0) {
        /* Nothing was stopped (another user's processes refuse): say so,
         * and claim nothing (no "job paused", no exit code 3). */
        m->guard_tripped = 0;
        st_error_set(&m->warn[ST_WARN_GUARD], e.code ? e.code : ST_EPERM, e.sys_errno,
                     "budget crossed, but could not %s the job: %.190s",
                     v.action == ST_GUARD_KILL ? "kill" : "pause", e.msg);
    }
}

int st_monitor_step(st_monitor *m, double now, st_error *err)
{
    double cpu0 = st_cpu_self();
    st_sample s;
    st_error e;
    int rc;

    /* Deadlines that passed while we could not run are skipped, not
     * sampled late in a burst: t0 + k*interval never drifts. */
    double since = now - m->t0;
    uint64_t due = since > 0 ? (uint64_t)(since / m->opts.interval + 1e-9) : 0;
    if (m->job.state == ST_JOB_EXITED) {
        /* The run ended with the job: nothing after is the job's (no
         * sample, record, summary or stage time); the clock only moves. */
        m->next_k = due + 1;
        return ST_OK;
    }
    if (due > m->next_k) {
        m->dropped += due - m->next_k;
        m->next_k = due;
    }
    if (m->follow || m->job_follow)
        st_monitor_poll_follow(m, now);
    st_monitor_note_sleep(m, t_ms_at(m, now));
    memset(&s, 0, sizeof s);
    s.t_ms = t_ms_at(m, now);
    rc = st_tree_sample(&m->tree, now, &s, err);
    if (rc != ST_OK)
        return rc;
    /* out of memory: those members' history starts again at a later sample */
    (void)st_member_hist_add(&m->hist, m->tree.members, m->tree.n_members);
    if (m->plat->read_system(m->b, &m->sys, NULL) == ST_OK) {
        st_lanes_from_sys(&s, &m->sys); /* the lane table's system lanes */
        if (!m->summary.has_swap && (m->sys.valid & ST_SYS_SWAP)) {
            /* The run's start for swap growth (docs/metrics.md): the first
             * sample's reading, the summary's swap start, the guard's base. */
            m->sys_start = m->sys;
            if (m->guard_on)
                st_guard_set_base(&m->guard, m->sys.swap_used);
        }
    }
    if (m->gpu)
        st_monitor_read_gpu(m, now, &s);
    st_monitor_limit_sample(m, now, &s); /* the room under the cgroup's limit */
    follow_exec(m, now);
    if (m->tree.has_kernel_peak)
        st_summary_add_kernel_peak_from(&m->summary, m->tree.kernel_peak, ST_PEAK_SAMPLED);

    st_ring_push(&m->ring, &s);
    st_summary_add_sample(&m->summary, &s, NULL);
    if (m->rec && st_recorder_sample(m->rec, &s, &e) != ST_OK)
        st_monitor_note_record_error(m, &e);
    st_runseries_add(&m->series, &s);
    st_trace_tap_sample(m->tap, &s);
    if (m->rec && m->opts.record_path && !m->warn[ST_WARN_RECORD].msg[0] && st_recorder_deleted(m->rec)) {
        char alt[ST_REC_ALT_MAX];
        if (st_monitor_record_taken(m, alt, sizeof alt))
            st_error_set(&m->warn[ST_WARN_RECORD], ST_EIO, EEXIST, /* EEXIST: written beside it */
                         "record: another file was put at %.160s: it is left alone; the trace is "
                         "written at the end to %.200s (a JSON document of the history kept)",
                         m->opts.record_path, alt);
        else
            st_error_set(&m->warn[ST_WARN_RECORD], ST_EIO, ENOENT, /* ENOENT: rewritten at the end */
                         "record: %.200s was deleted: the trace is written again there at the end "
                         "(as a JSON document of the history kept)", m->opts.record_path);
    }
    m->last = s;
    m->has_last = 1;
    m->next_k += m->stride ? m->stride : 1;

    poll_job(m, now);
    apply_guard(m, &s, now);

    double spent = st_cpu_self() - cpu0;
    m->cpu_per_sample = m->ring.total <= 1 ? spent : 0.9 * m->cpu_per_sample + 0.1 * spent;
    st_monitor_pace(m);
    return ST_OK;
}

int st_monitor_event(st_monitor *m, st_event *ev, double now, st_error *err)
{
    if (m->job.state == ST_JOB_EXITED)
        return st_error_set(err, ST_EINVAL, 0, "the run ended with the job: nothing is added after");
    ev->t_ms = t_ms_at(m, now);
    return st_monitor_add_event(m, ev, err);
}

int st_monitor_mark(st_monitor *m, const char *note, double now, st_error *err)
{
    st_event ev;
    st_event_init(&ev, 0, ST_EV_MARK);
    if (note && *note) {
        st_event_set_str(ev.note, sizeof ev.note, note);
        ev.has |= ST_EVF_NOTE;
    }
    return st_monitor_event(m, &ev, now, err);
}

/* Job-control action + its event, with how many processes it reached. */
static int job_event(st_monitor *m, int kind, double now, st_error *err)
{
    st_event ev;
    st_event_init(&ev, 0, kind);
    ev.value = m->job.signalled;
    ev.has |= ST_EVF_VALUE;
    if (m->job.refused) {
        snprintf(ev.note, sizeof ev.note, "%d process(es) refused the signal (EPERM)",
                 m->job.refused);
        ev.has |= ST_EVF_NOTE;
    }
    return st_monitor_event(m, &ev, now, err);
}

int st_monitor_pause(st_monitor *m, double now, st_error *err)
{
    if (m->job.launched)
        poll_job(m, now); /* a root that has just exited is reaped, not signalled */
    if (m->job.state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, 0, "the job has exited");
    int rc = st_job_pause(&m->job, &m->tree, err);
    if (m->job.signalled > 0) {
        st_job_take_terminal(&m->job); /* stopped: the terminal is stagetop's (^C reaches it) */
        job_event(m, ST_EV_PAUSE, now, NULL);
    }
    return rc;
}

int st_monitor_resume(st_monitor *m, double now, st_error *err)
{
    if (m->job.launched)
        poll_job(m, now); /* a root that has just exited is reaped, not signalled */
    if (m->job.state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, 0, "the job has exited");
    if (m->job.state == ST_JOB_PAUSED || m->job.state == ST_JOB_STOPPED)
        st_job_give_terminal(&m->job); /* before it runs: it may read the terminal at once */
    int rc = st_job_resume(&m->job, &m->tree, err);
    if (m->job.signalled > 0)
        job_event(m, ST_EV_RESUME, now, NULL);
    if (m->guard_on && m->guard_tripped) {
        /* The user chose to go on: the budget counts again from here, or
         * the job would be paused again at the next sample. */
        st_guard_rearm(&m->guard);
        if (m->has_last && (m->last.valid & ST_F_SWAP)) {
            st_guard_set_base(&m->guard, m->last.swap_used);
            m->guard.base_at_resume = 1; /* the alert then says "since the resume" */
        }
        m->guard_tripped = 0; /* the alert is answered */
    }
    return rc;
}

int st_monitor_kill(st_monitor *m, double now, st_error *err)
{
    if (m->job.launched)
        poll_job(m, now); /* a root that has just exited is reaped, not signalled */
    if (m->job.state == ST_JOB_EXITED)
        return st_error_set(err, ST_ESRCH, 0, "the job has exited");
    int rc = st_job_kill(&m->job, &m->tree, now, err);
    job_event(m, ST_EV_KILL, now, NULL);
    return rc;
}

void st_monitor_finish(st_monitor *m)
{
    st_job_release_terminal(&m->job);
    st_monitor_finish_follow(m, st_now()); /* what the followed files still hold */
    st_peak_finish(&m->job.peak); /* the job's cgroup: memory.peak, removed */
    st_peak_feed(&m->job.peak, &m->summary);
    st_summary_finish(&m->summary);
}

int st_monitor_close(st_monitor *m, int keep_paused, st_error *err)
{
    int rc = ST_OK;
    st_error e;
    double now = st_now();
    st_error re;
    st_error_clear(&re);
    if (m->job.paused_by_us && !keep_paused && m->job.state != ST_JOB_EXITED &&
        st_monitor_resume(m, now, &re) != ST_OK && re.code != ST_ESRCH)
        rc = st_error_set(err, re.code, re.sys_errno, "%s", re.msg); /* said, then close */
    st_monitor_finish(m);
    if (m->rec) {
        if (st_recorder_end(m->rec, &m->summary, m->dropped, &e) != ST_OK)
            st_monitor_note_record_error(m, &e);
        int deleted = st_recorder_deleted(m->rec);
        st_recorder_close(m->rec);
        m->rec = NULL;
        /* its file was deleted: what the run still holds goes to its name,
         * or beside it when another file was put there (never replaced) */
        char alt[ST_REC_ALT_MAX];
        int taken = deleted && m->opts.record_path && st_monitor_record_taken(m, alt, sizeof alt);
        const char *to = taken ? alt : m->opts.record_path;
        if (deleted && to && st_monitor_export(m, to, &e) != ST_OK && rc == ST_OK)
            rc = st_error_set(err, e.code, e.sys_errno, "%s", e.msg);
        else if (deleted && !taken && m->warn[ST_WARN_RECORD].sys_errno == ENOENT)
            st_error_clear(&m->warn[ST_WARN_RECORD]); /* said during the run, done now */
        else if (taken)
            st_error_set(&m->warn[ST_WARN_RECORD], ST_EIO, EEXIST,
                         "record: another file was put at %.160s (left alone): the trace is in %.200s",
                         m->opts.record_path, alt);
    }
    if (m->opts.record_path && ends_with(m->opts.record_path, ".json") &&
        st_monitor_export(m, m->opts.record_path, &e) != ST_OK && rc == ST_OK)
        rc = st_error_set(err, e.code, e.sys_errno, "%s", e.msg);
    if (rc == ST_OK && m->warn[ST_WARN_RECORD].msg[0])
        rc = st_error_set(err, ST_EIO, 0, "%s", m->warn[ST_WARN_RECORD].msg);
    if (m->gpu)
        st_gpu_close(m->gpu);
    m->gpu = NULL;
    free(m->gpu_pids);
    free(m->gpu_bytes);
    m->gpu_pids = NULL;
    m->gpu_bytes = NULL;
    m->gpu_n = m->gpu_cap = 0;
    st_monitor_close_follower(&m->follow);
    st_monitor_close_follower(&m->job_follow);
    st_summary_free(&m->summary);
    st_event_list_free(&m->events);
    st_ring_free(&m->ring);
    st_runseries_free(&m->series);
    st_trace_tap_free(m->tap);
    m->tap = NULL;
    st_trace_meta_free(&m->meta);
    st_monitor_limit_close(m);
    st_tree_free(&m->tree);
    st_member_hist_free(&m->hist);
    if (m->b)
        m->plat->close(m->b);
    m->b = NULL;
    return rc;
}
