/* cli_run.c: signals, waiting for room, headless mode, `summary`. */
#include "cli.h"
#include "guard_text.h"
#include "outputs.h"
#include "tui.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/plot.h"
#include "stagetop/prerun.h"
#include "stagetop/trace.h"
#include "stagetop/units.h"

/* The one global of the front end: a signal handler can reach nothing else. */
volatile sig_atomic_t cli_signal;
static int wake_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    int saved = errno;
    cli_signal = sig;
    if (wake_pipe[1] >= 0) {
        char c = 1;
        ssize_t n = write(wake_pipe[1], &c, 1);
        (void)n;
    }
    errno = saved;
}

int cli_signals_install(void)
{
    if (wake_pipe[0] < 0) {
        if (pipe(wake_pipe) != 0)
            return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Every signal whose default ends the process and that can be caught
     * ends stagetop the same way: job resumed (or, launched, stopped),
     * terminal restored, exit 128+N.  The crash signals are tui/crash.c's. */
    static const int ending[] = {
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
        SIGXCPU, SIGXFSZ,
#ifdef SIGIO
        SIGIO,
#endif
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++)
        sigaction(ending[i], &sa, NULL);
#ifdef SIGRTMIN
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        sigaction(sig, &sa, NULL);
#endif
    tui_crash_install();
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    return 0;
}

int cli_wake_fd(void) { return wake_pipe[0]; }

void cli_wake_drain(void)
{
    char buf[64];
    if (wake_pipe[0] >= 0)
        while (read(wake_pipe[0], buf, sizeof buf) > 0) {
        }
}

/* Sleep until `until` (monotonic) or a signal. */
static void nap_until(double until)
{
    double left = until - st_now();
    if (left <= 0)
        return;
    struct pollfd p = {.fd = cli_wake_fd(), .events = POLLIN};
    int ms = (int)ceil(left * 1000.0);
    poll(&p, p.fd >= 0 ? 1 : 0, ms);
}

int cli_wait_free(const st_platform *plat, double pct, double timeout_s, double interval)
{
    st_prerun *pr;
    st_error e;
    int said = 0;
    if (st_prerun_open(&pr, plat, &e) != ST_OK) {
        cli_say("%s", e.msg);
        return CLI_EXIT_WATCH;
    }
    double start = st_now(), step = interval < 0.5 ? 0.5 : interval, said_at = 0;
    int rc = CLI_EXIT_NOROOM;
    for (;;) {
        double level;
        if (cli_signal) {
            rc = 128 + cli_signal;
            break;
        }
        if (st_prerun_level(pr, &level, &e) != ST_OK) {
            fprintf(stderr, "stagetop: --wait-free: the memory level is not readable here\n");
            rc = CLI_EXIT_WATCH;
            break;
        }
        if (level >= pct) {
            if (said)
                fprintf(stderr, "stagetop: memory level %.1f%% >= %.1f%%: starting\n", level, pct);
            rc = 0;
            break;
        }
        double waited = st_now() - start;
        if (waited >= timeout_s) {
            char d[16];
            fprintf(stderr, "stagetop: no room to start: memory level %.1f%% stayed under %.1f%% for %s\n",
                    level, pct, st_format_duration(waited, d, sizeof d));
            break;
        }
        if (!said || waited - said_at >= 30) { /* why, now and every 30 s */
            fprintf(stderr, "stagetop: waiting to start: memory level %.1f%% < %.1f%% (--wait-free)\n",
                    level, pct);
            said_at = waited;
        }
        said = 1;
        nap_until(st_now() + step);
    }
    st_prerun_close(pr);
    return rc;
}

int cli_exit_code(const st_monitor *m, int signo)
{
    st_run_view rv;
    if (signo)
        return 128 + signo;
    st_monitor_view(m, st_now(), &rv);
    if (rv.guard_tripped && rv.verdict.action == ST_GUARD_KILL)
        return CLI_EXIT_GUARD;
    if (rv.job_launched && rv.job_state == ST_JOB_EXITED)
        return rv.kill_asked ? CLI_EXIT_OK : rv.exit_code; /* k: ended as asked */
    return CLI_EXIT_OK;
}

void cli_scope(st_monitor *m, const cli_args *a)
{
    st_job_scope sc;
    st_error e;
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

static char *resume_command(const st_run_view *rv)
{
    size_t len = 16 + (rv->n_members + 1) * 12, off;
    char *s = malloc(len);
    if (!s)
        return NULL;
    off = (size_t)snprintf(s, len, "kill -CONT");
    /* children first, the root last (a root continued first that exits
     * would leave its still-stopped group to the kernel's SIGHUP) */
    for (size_t i = rv->n_members; i-- > 0;)
        if (rv->members[i].id.pid != rv->root_pid)
            off += (size_t)snprintf(s + off, len - off, " %ld", (long)rv->members[i].id.pid);
    if (rv->root_alive || rv->n_members == 0)
        snprintf(s + off, len - off, " %ld", (long)rv->root_pid);
    return s;
}

char *cli_resume_command(const st_monitor *m)
{
    st_run_view rv;
    st_monitor_view(m, st_now(), &rv);
    return resume_command(&rv);
}

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
        char *cmd = resume_command(rv);
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
            nap_until(st_monitor_deadline(m));
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

int cli_summary(const char *path)
{
    st_trace t;
    st_error e;
    st_trace_init(&t);
    /* the summary only: a stagetop record is summed as it is read */
    if (st_trace_summary_file(path, &t, &e) != ST_OK) {
        cli_say("%s: %s", path, e.msg);
        st_trace_free(&t);
        return CLI_EXIT_WATCH;
    }
    cli_say_torn(path, &t);
    char *json = st_summary_to_json(&t.summary, &t.meta);
    int rc = CLI_EXIT_OK;
    if (!json || printf("%s\n", json) < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "stagetop: cannot write the summary\n");
        rc = CLI_EXIT_WATCH;
    }
    free(json);
    st_trace_free(&t);
    return rc;
}

int cli_plot(const char *path, const char *out)
{
    st_trace t;
    st_error e;
    st_plot_opts o;
    int rc = CLI_EXIT_OK;
    st_plot_opts_init(&o);
    st_trace_init(&t);
    if (st_trace_load_file(path, &t, &e) != ST_OK) {
        cli_say("%s: %s", path, e.msg);
        rc = CLI_EXIT_WATCH;
    } else if (cli_say_torn(path, &t), strcmp(out, "-") == 0 ? st_plot_svg(&t, &o, stdout, &e) != ST_OK
                                      : st_plot_svg_file(&t, &o, out, &e) != ST_OK) {
        cli_say("%s: %s", out, e.msg);
        rc = CLI_EXIT_WATCH;
    }
    st_trace_free(&t);
    return rc;
}
