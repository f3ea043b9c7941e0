/* cmd_watch.c: watching a tree (-p PID, -- CMD, or one picked): the
 * screen or headless mode, from the checks before anything starts to the
 * closing summary; the terminal and the job restored before it returns. */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"
#include "outputs.h"

extern char **environ;

/* The screen's options: ASCII (asked, or a non-UTF-8 locale), NO_COLOR. */
void cli_screen_opts(tui_opts *to, int ascii, const char *export_dir)
{
    memset(to, 0, sizeof *to);
    const char *lc = setlocale(LC_ALL, "");
    to->ascii = ascii || !lc || (!strstr(lc, "UTF-8") && !strstr(lc, "utf8") && !strstr(lc, "UTF8"));
    to->color = getenv("NO_COLOR") == NULL || getenv("NO_COLOR")[0] == '\0';
    to->export_dir = export_dir;
    to->wake_fd = cli_wake_fd();
    to->got_signal = &cli_signal;
}

void cli_scope(st_monitor *m, const cli_args *a)
{
    st_job_scope sc;
    st_error e;
    st_run_view wv;
    st_monitor_view(m, st_now(), &wv);
    if (a->headless && wv.env_follow && wv.env_follow[0])
        cli_say("%s", wv.env_follow); /* -p: the stage files its environment names */
    if (wv.watch_only && wv.watch_only[0]) { /* pid 1, an ancestor: nothing lifts it */
        if (a->headless)
            cli_say("%s: watching it read-only (no pause, kill or guard)", wv.watch_only);
        return;
    }
    if (st_monitor_scope(m, &sc, &e) != ST_OK) {
        cli_say("cannot measure the tree (%s): watching it read-only", e.msg);
        st_monitor_allow_signals(m, a->allow_wide);
        return;
    }
    if (!sc.wide || a->allow_wide)
        return;
    st_monitor_allow_signals(m, 0);
    if (a->headless) {
        st_run_view rv;
        st_monitor_view(m, st_now(), &rv);
        fprintf(stderr, "stagetop: pid %ld's tree %s (%u of %u processes): watching it "
                "read-only, p, k and the guard signal nothing (--allow-wide to allow)\n",
                (long)rv.root_pid, sc.has_self ? "holds stagetop itself" : "is most of the machine",
                sc.tree_n, sc.all_n);
    }
}


int cli_watch(cli_args *a)
{
    const st_platform *plat = &st_platform_native;
    st_monitor *m = NULL;
    st_run_view rv;
    st_job job;
    st_error e;
    char logpath[512] = "", cmdline[512] = "";
    cli_job_events jev = {"", ""};
    int rc, keep_paused = 0;
    tui_opts to;
    cli_screen_opts(&to, a->ascii, a->export_dir);
    to.lanes = a->lanes;
    to.sort = a->sort;
    to.tree = a->tree;

    if (!a->headless && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
        /* Decided before anything starts: no job runs unwatched. */
        fprintf(stderr, "stagetop: the live screen needs a terminal (stdin and stdout); nothing "
                        "was started: add --headless to run without one\n");
        return CLI_EXIT_USAGE;
    }
    if (!a->pid && !a->cmd) {
        rc = tui_pick(plat, &to, &a->pid, &e);
        if (rc == ST_EAGAIN) /* the user quit the picker, or a signal ended it */
            return cli_signal ? 128 + cli_signal : CLI_EXIT_OK;
        if (rc != ST_OK) {
            cli_say("%s", e.msg);
            return CLI_EXIT_WATCH;
        }
    }
    if (!a->cmd && st_job_check_target(a->pid, NULL, &e) != ST_OK) {
        cli_say("%s", e.msg); /* pid 1, self, an ancestor, a thread */
        return CLI_EXIT_USAGE;
    }
    if (!a->cmd && cli_check_zombie(plat, a->pid, ""))
        return CLI_EXIT_WATCH;
    tui_outputs outs; /* --metrics, --notify: checked before a job starts (holds nothing yet) */
    if (tui_outputs_open(&outs, a->metrics_path, a->metrics_labels, a->n_metrics_labels, a->notify, !a->headless, &e) != ST_OK) {
        cli_say("%s", e.msg);
        return CLI_EXIT_WATCH;
    }
    if (a->cmd) {
        if (a->wait_free >= 0) {
            rc = cli_wait_free(plat, a->wait_free, a->start_timeout, a->mon.interval);
            if (rc != 0)
                return rc;
        }
        size_t off = 0;
        for (char **p = a->cmd; *p && off + 1 < sizeof cmdline; p++)
            off += (size_t)snprintf(cmdline + off, sizeof cmdline - off, "%s%s", p == a->cmd ? "" : " ", *p);
        a->mon.command = cmdline;
        if (cli_job_events_create(&jev) != 0)
            return CLI_EXIT_WATCH;
        a->mon.job_events_path = jev.path;
        rc = cli_spawn_job(a, &job, logpath, sizeof logpath);
        if (rc != 0) {
            cli_job_events_end(&jev, 0, 0);
            return rc;
        }
        a->mon.job_log = logpath[0] ? logpath : NULL;
        a->mon.job_env = environ; /* the job's: stagetop's, its MPS ratios unchanged (cli_spawn.c) */
        to.job_log = a->mon.job_log;
        a->pid = job.pid;
    }
    a->mon.whole_run = a->report_path || a->plot_path; /* their numbers: the whole run's */
    m = st_monitor_new();
    rc = m ? st_monitor_open(m, plat, &a->mon, a->pid, a->cmd ? &job : NULL, st_now(), &e)
           : st_error_set(&e, ST_ENOMEM, 0, "out of memory");
    if (rc != ST_OK) {
        st_monitor_free(m);
        if (a->cmd) { /* its start could not be recorded: the held job never runs */
            st_job_abandon(&job);
            cli_log_drop_empty(logpath, a->job_log != NULL); /* nor an empty log of it */
        }
        cli_job_events_end(&jev, 0, 0);
        cli_say("%s%s", e.msg, a->cmd ? " (the job was not started)" : "");
        return e.code == ST_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_WATCH;
    }
    if (a->cmd)
        cli_release_job(a, &job);
    tui_outputs_bind(&outs, m);
    a->outs = to.outs = &outs;
    if (!a->cmd)
        cli_scope(m, a);
    st_monitor_start(m, st_now());
    if (a->headless) {
        rc = cli_headless(m, a);
    } else {
        rc = tui_live(m, &to, &keep_paused, &e);
        if (rc != ST_OK) {
            cli_say("%s", e.msg);
            rc = CLI_EXIT_WATCH;
        } else {
            rc = cli_exit_code(m, cli_signal);
        }
        st_monitor_view(m, st_now(), &rv);
        if (cli_signal && rv.job_launched && rv.job_state != ST_JOB_EXITED)
            rc = cli_headless(m, a); /* as headless: stop the job it started */
    }
    tui_outputs_close(&outs);
    char *resume = keep_paused ? cli_resume_command(m) : NULL;
    st_monitor_finish(m); /* the final numbers: kernel peaks, last stage closed */
    /* --report/--plot: of the .jsonl record once it has its end (as
     * `stagetop report/plot` of it), else of the whole run, now */
    int from_record = cli_end_from_record(m, a);
    int orc = from_record ? 0 : cli_end_outputs(m, a);
    if (orc && rc == CLI_EXIT_OK)
        rc = orc;
    st_monitor_view(m, st_now(), &rv);
    int32_t pid = rv.job_pid;
    int launched_alive = rv.job_launched && rv.job_state != ST_JOB_EXITED;
    sigset_t ttou, old_mask; /* in a terminal's background under `stty tostop`, these writes */
    sigemptyset(&ttou);      /* would stop stagetop (SIGTTOU): blocked, the kernel lets them through */
    sigaddset(&ttou, SIGTTOU);
    sigprocmask(SIG_BLOCK, &ttou, &old_mask);
    if (!launched_alive)
        cli_log_drop_empty(logpath, a->job_log != NULL);
    if (rv.job_launched && !launched_alive && rv.exit_code != 0 && logpath[0] && !rv.kill_asked) {
        fprintf(stderr, "stagetop: the job failed (exit status %d); the last lines of its output "
                        "(%s):\n", rv.exit_code, logpath);
        cli_log_tail(stderr, logpath, 10);
    }
    if (!a->quiet) {
        cli_closing c = {a->mon.record_path, logpath, a->report_path, a->plot_path, cli_signal,
                         a->cmd ? job.peak.grp.where : NULL};
        cli_closing_summary(stderr, &rv, &c);
    }
    if (st_monitor_close(m, keep_paused, &e) != ST_OK) {
        cli_say("%s", e.msg);
        if (rc == CLI_EXIT_OK)
            rc = CLI_EXIT_WATCH;
    }
    st_monitor_free(m);
    if (from_record && (orc = cli_end_outputs_record(a)) != 0 && rc == CLI_EXIT_OK)
        rc = orc;
    cli_job_events_end(&jev, a->keep_events, launched_alive);
    if (keep_paused)
        fprintf(stderr, "stagetop: job %ld left paused as asked; resume with: %s\n", (long)pid,
                resume ? resume : "kill -CONT on every process of the job");
    free(resume);
    if (launched_alive && !cli_signal)
        fprintf(stderr, "stagetop: job %ld is still running%s%s\n", (long)pid,
                logpath[0] ? "; its output: " : "", logpath);
    fflush(stderr);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    return rc;
}
