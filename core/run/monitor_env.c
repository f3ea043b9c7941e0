/* monitor_env.c: what -p's root brings to a run: whether it may be
 * signalled at all (pid 1 and stagetop's ancestors are watched only), and
 * the stage files that its own environment names ($STAGETOP_EVENTS:
 * `stagetop stage|mark` lines; $STAGELOAD_TRACE: stageload's trace), read
 * through the backend's environ_var, followed as --events would be
 * (docs/job-events.md). */
#include "monitor_internal.h"

#include <stdio.h>
#include <string.h>

int st_monitor_attach(st_monitor *m, int32_t pid, const st_guard_opts *guard, st_error *err)
{
    st_job_attach(&m->job, pid);
    if (m->job.watch_only[0] && st_guard_active(guard)) /* it could never act */
        return st_error_set(err, ST_EINVAL, 0, "%s: watched read-only, so the guard "
                            "(--swap-budget, --kill-free) cannot act on it; watch it without",
                            m->job.watch_only);
    return ST_OK;
}

/* Add one sentence to the run's note ("; " between two). */
static void note(st_monitor *m, const char *text)
{
    size_t n = strlen(m->env_note);
    snprintf(m->env_note + n, sizeof m->env_note - n, "%s%s", n ? "; " : "", text);
}

void st_monitor_env_follow(st_monitor *m, double interval)
{
    static const struct { const char *name; int job; } vars[] = {
        { "STAGETOP_EVENTS", 1 }, /* plain or JSONL lines: as a launched job's */
        { "STAGELOAD_TRACE", 0 }, /* stageload's trace: as --events */
    };
    m->env_note[0] = '\0';
    if (m->job.launched || m->follow || m->job_follow || !m->plat->environ_var)
        return; /* a launched job's file, or --events: what the user gave */
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        char path[1024];
        st_error e;
        st_error_clear(&e);
        if (m->plat->environ_var(m->b, m->tree.root, vars[i].name, path, sizeof path, &e) != ST_OK ||
            !path[0])
            continue; /* not readable (another user's), or not set */
        st_follow **fp = vars[i].job ? &m->job_follow : &m->follow;
        char text[300];
        int pid = (int)m->tree.root.pid;
        if (path[0] != '/')
            snprintf(text, sizeof text, "pid %d's $%s is a relative path (%.120s): not followed "
                     "(--events takes it)", pid, vars[i].name, path);
        else if (st_monitor_open_follower(fp, path, interval, &e) != ST_OK)
            snprintf(text, sizeof text, "pid %d's $%s (%.120s): %.80s: not followed", pid,
                     vars[i].name, path, e.msg);
        else
            snprintf(text, sizeof text, "following pid %d's $%s (%.120s): its stages and "
                     "marks, without --events", pid, vars[i].name, path);
        note(m, text);
    }
}
