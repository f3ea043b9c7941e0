/* cli_headless.c: headless mode: the sampling loop, and what it says on
 * stderr (the armed guard, a tripped one, each warning once). */
#include "cli.h"
#include "guard_text.h"
#include "outputs.h"
#include "tui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "stagetop/units.h"

static void say_guard(const st_run_view *rv)
{
    char v[32], l[32];
    const st_guard_verdict *g = &rv->verdict;
    if (g->reason == ST_GUARD_SWAP) {
        fprintf(stderr, "stagetop: swap grew %s since the start, over the budget of %s: %s\n",
                st_format_bytes((uint64_t)g->value, v, sizeof v),
                st_format_bytes((uint64_t)g->limit, l, sizeof l),
                g->action == ST_GUARD_KILL ? "stopping the job" : "job paused");
        if (g->share_kind != ST_SHARE_NONE) /* the job's share (docs/metrics.md) */
            fprintf(stderr, g->share_kind == ST_SHARE_TREE_SWAP
                                ? "stagetop: %s%s of it is this job's own memory (its swap grew that much)\n"
                                : g->share_kind == ST_SHARE_TREE_COMPRESSED
                                ? "stagetop: the job's compressed memory grew %s%s (compressed bytes are "
                                  "counted at their uncompressed size, so this is not a share of the swap)\n"
                                : "stagetop: the job paged in %s%s meanwhile\n",
                    g->share < 0 ? "-" : "",
                    st_format_bytes((uint64_t)(g->share < 0 ? -g->share : g->share), v, sizeof v));
    } else
        fprintf(stderr, "stagetop: memory level %.2f%% under %.2f%% twice: %s\n", g->value / 100.0,
                g->limit / 100.0, g->action == ST_GUARD_KILL ? "stopping the job" : "job paused");
    if (rv->refused)
        fprintf(stderr, "stagetop: %d process(es) refused the signal (%s)\n", rv->refused,
                rv->refusal);
    if (g->action == ST_GUARD_PAUSE) {
        char *cmd = cli_resume_text(rv);
        fprintf(stderr, "stagetop: resume with: %s (or stop stagetop)\n",
                cmd ? cmd : "kill -CONT on every process of the job");
        free(cmd);
    }
}

/* Each warning of the run's list (run_view.h), once per source; a record
 * stream whose --jsonl reader left is not a warning (the run ends). */
static void say_warnings(const st_run_view *rv, const cli_args *a, int said[ST_WARN_SOURCES])
{
    for (size_t i = 0; i < rv->n_warnings; i++) {
        const st_run_warning *w = &rv->warnings[i];
        if (w->info || said[w->source])
            continue;
        if (w->source == ST_WARN_RECORD && a->jsonl && w->e.sys_errno == EPIPE)
            continue;
        said[w->source] = 1;
        cli_say("%s%s", w->e.msg,
                w->source == ST_WARN_GPU ? " (the GPU lane has gaps)"
                : w->source == ST_WARN_RECORD ? " (sampling goes on)" : "");
    }
}

int cli_headless(st_monitor *m, const cli_args *a)
{
    st_error e;
    st_run_view rv;
    int signo = 0, said_guard = 0, said[ST_WARN_SOURCES] = {0};
    if (a->headless) { /* the first line: every armed budget, and which cannot act */
        char text[256];
        st_monitor_view(m, st_now(), &rv);
        if (tui_guard_armed(&rv, 0, text, sizeof text))
            fprintf(stderr, "stagetop: guard armed: %s\n", text);
        for (int i = 0; tui_guard_caveat(&rv, i, text, sizeof text); i++)
            fprintf(stderr, "stagetop: warning: %s\n", text);
    }
    for (;;) {
        st_monitor_view(m, st_now(), &rv);
        const st_run_warning *rec = st_run_view_find(&rv, ST_WARN_RECORD);
        if (a->jsonl && rec && rec->e.sys_errno == EPIPE && !cli_signal) {
            /* the reader of stdout left (`| head`): end as on SIGPIPE */
            fprintf(stderr, "stagetop: stdout was closed: stopping\n");
            cli_signal = SIGPIPE;
        }
        if (cli_signal && !signo) {
            signo = cli_signal;
            if (!rv.job_launched || rv.job_state == ST_JOB_EXITED)
                break;
            /* stagetop started it: stop it before leaving. */
            if (rv.job_state != ST_JOB_KILLING)
                st_monitor_kill(m, st_now(), &e);
        }
        double now = st_now();
        if (now < st_monitor_deadline(m)) {
            cli_nap_until(st_monitor_deadline(m));
            cli_wake_drain();
            continue;
        }
        if (st_monitor_step(m, now, &e) != ST_OK) {
            cli_say("%s", e.msg);
            return CLI_EXIT_WATCH;
        }
        if (a->outs && tui_outputs_after_sample(a->outs, m, now))
            cli_say("%s (sampling goes on)", a->outs->error);
        st_monitor_view(m, now, &rv);
        tui_crash_job(&rv);
        if (rv.guard_tripped && !said_guard) {
            say_guard(&rv);
            said_guard = 1;
        }
        say_warnings(&rv, a, said);
        if (rv.job_state == ST_JOB_EXITED)
            break;
    }
    return cli_exit_code(m, signo);
}
