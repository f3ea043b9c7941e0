/* main.c: arguments -> mode (live, launch, pick, headless, replay, summary,
 * plot).  The only place that exits; it restores the terminal and the job
 * first (the screen and headless loops return here). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"
#include "outputs.h"
#include "stagetop/limits.h"
#include "stagetop/units.h"

#ifndef ST_VERSION
#define ST_VERSION "0.0.0"
#endif
#ifndef ST_VERSION_TEXT /* the version, and what a git build is (Makefile) */
#define ST_VERSION_TEXT ST_VERSION
#endif

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "stagetop: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ntry 'stagetop --help'\n");
    return CLI_EXIT_USAGE;
}


enum {
    OPT_HEADLESS = 256, OPT_JSONL, OPT_HISTORY, OPT_EXPORT_DIR, OPT_SWAP_BUDGET, OPT_KILL_FREE,
    OPT_ON_BUDGET, OPT_WAIT_FREE, OPT_START_TIMEOUT, OPT_GRACE, OPT_JOB_LOG, OPT_ASCII,
    OPT_NO_GPU, OPT_EVENTS, OPT_KEEP_EVENTS, OPT_ALLOW_WIDE,
    OPT_OVERWRITE = 400, OPT_RECORD_SYNC
};
enum { OPT_METRICS = 512, OPT_NOTIFY, OPT_METRICS_LABEL }; /* --metrics, --notify (docs/metrics-export.md, notify.md) */
enum { OPT_QUIET = 600, OPT_REPORT, OPT_PLOT }; /* the end of a run (tui/closing.c) */
enum { OPT_LANES = 700 }; /* --lanes (docs/screen.md) */

static int parse_args(int argc, char **argv, cli_args *a)
{
    static const struct option longopts[] = {
        {"pid", required_argument, NULL, 'p'},
        {"interval", required_argument, NULL, 'i'},
        {"record", required_argument, NULL, 'r'},
        {"headless", no_argument, NULL, OPT_HEADLESS},
        {"jsonl", no_argument, NULL, OPT_JSONL},
        {"history", required_argument, NULL, OPT_HISTORY},
        {"export-dir", required_argument, NULL, OPT_EXPORT_DIR},
        {"swap-budget", required_argument, NULL, OPT_SWAP_BUDGET},
        {"kill-free", required_argument, NULL, OPT_KILL_FREE},
        {"on-budget", required_argument, NULL, OPT_ON_BUDGET},
        {"wait-free", required_argument, NULL, OPT_WAIT_FREE},
        {"start-timeout", required_argument, NULL, OPT_START_TIMEOUT},
        {"grace", required_argument, NULL, OPT_GRACE},
        {"job-log", required_argument, NULL, OPT_JOB_LOG},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"lanes", required_argument, NULL, OPT_LANES},
        {"metrics", required_argument, NULL, OPT_METRICS},
        {"metrics-label", required_argument, NULL, OPT_METRICS_LABEL},
        {"notify", no_argument, NULL, OPT_NOTIFY},
        {"no-gpu", no_argument, NULL, OPT_NO_GPU},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"keep-events", no_argument, NULL, OPT_KEEP_EVENTS},
        {"overwrite", no_argument, NULL, OPT_OVERWRITE},
        {"record-sync", required_argument, NULL, OPT_RECORD_SYNC},
        {"allow-wide", no_argument, NULL, OPT_ALLOW_WIDE},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"report", required_argument, NULL, OPT_REPORT},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    st_error e;
    double d;
    uint64_t size;
    int c;
    memset(a, 0, sizeof *a);
    st_monitor_opts_default(&a->mon);
    a->wait_free = -1;
    a->start_timeout = 1800;
    a->export_dir = ".";
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:p:i:r:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'p': {
            char *end;
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end || errno || v < 1 || v > 0x7fffffffL)
                return bad_usage("invalid pid '%s'", optarg);
            a->pid = (int32_t)v;
            break;
        }
        case 'i':
            if (st_parse_double(optarg, ST_INTERVAL_MIN_S, ST_INTERVAL_MAX_S, &a->mon.interval,
                                &e) != ST_OK)
                return bad_usage("--interval: %s (seconds, 0.01..60)", e.msg);
            break;
        case 'r': a->mon.record_path = optarg; break;
        case OPT_HEADLESS: a->headless = 1; break;
        case OPT_JSONL: a->jsonl = 1; break;
        case OPT_HISTORY:
            if (st_parse_duration(optarg, &d, &e) != ST_OK)
                return bad_usage("--history: %s", e.msg);
            if (d <= 0)
                return bad_usage("--history: '%s': must be more than 0 (e.g. 30m, 2h)", optarg);
            a->mon.history_s = d;
            break;
        case OPT_EXPORT_DIR: a->export_dir = optarg; break;
        case OPT_SWAP_BUDGET:
            if (st_parse_size(optarg, &size, &e) != ST_OK)
                return bad_usage("--swap-budget: %s", e.msg);
            st_monitor_opts_swap_budget(&a->mon, size);
            break;
        case OPT_KILL_FREE:
            if (st_parse_double(optarg, 0, 100, &d, &e) != ST_OK)
                return bad_usage("--kill-free: %s (percent, 0..100)", e.msg);
            st_monitor_opts_kill_free(&a->mon, d);
            break;
        case OPT_ON_BUDGET:
            if (strcmp(optarg, "pause") == 0)
                st_monitor_opts_on_budget(&a->mon, ST_GUARD_PAUSE);
            else if (strcmp(optarg, "kill") == 0)
                st_monitor_opts_on_budget(&a->mon, ST_GUARD_KILL);
            else
                return bad_usage("--on-budget: '%s' is neither pause nor kill", optarg);
            a->on_budget_set = 1;
            break;
        case OPT_WAIT_FREE:
            if (st_parse_double(optarg, 0, 100, &a->wait_free, &e) != ST_OK)
                return bad_usage("--wait-free: %s (percent, 0..100)", e.msg);
            break;
        case OPT_START_TIMEOUT:
            if (st_parse_duration(optarg, &a->start_timeout, &e) != ST_OK)
                return bad_usage("--start-timeout: %s", e.msg);
            break;
        case OPT_GRACE:
            if (st_parse_double(optarg, 0, ST_GRACE_MAX_S, &a->mon.grace_s, &e) != ST_OK)
                return bad_usage("--grace: %s", e.msg);
            break;
        case OPT_JOB_LOG: a->job_log = optarg; break;
        case OPT_ASCII: a->ascii = 1; break;
        case OPT_LANES: {
            char bad[80];
            if (tui_lanes_parse(optarg, &a->lanes, bad, sizeof bad) != 0)
                return bad_usage("--lanes: unknown lane '%s' (footprint, rss, swap, level, procs, gpu, "
                                 "pressure, tree_swap, cpu, pageins, compressed)", bad);
            break;
        }
        case OPT_METRICS: a->metrics_path = optarg; break;
        case OPT_METRICS_LABEL:
            if (st_metrics_label_check(optarg, &e) != ST_OK)
                return bad_usage("--metrics-label: %s", e.msg);
            if (a->n_metrics_labels == ST_METRICS_MAX_LABELS)
                return bad_usage("--metrics-label: more than %d labels", ST_METRICS_MAX_LABELS);
            a->metrics_labels[a->n_metrics_labels++] = optarg;
            break;
        case OPT_NOTIFY: a->notify = 1; break;
        case OPT_NO_GPU: a->mon.no_gpu = 1; break;
        case OPT_EVENTS: a->mon.events_path = optarg; break;
        case OPT_KEEP_EVENTS: a->keep_events = 1; break;
        case OPT_OVERWRITE: a->mon.record_overwrite = 1; break;
        case OPT_RECORD_SYNC:
            if (cli_parse_record_sync(optarg, &a->mon.record_sync) != 0)
                return bad_usage("--record-sync: '%s' is not never, 1s or always", optarg);
            break;
        case OPT_ALLOW_WIDE: a->allow_wide = 1; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_REPORT: a->report_path = optarg; break;
        case OPT_PLOT: a->plot_path = optarg; break;
        case 'h':
            cli_usage(stdout);
            cli_gpu_status(stdout);
            exit(CLI_EXIT_OK);
        case 'V': printf("stagetop %s\n", ST_VERSION_TEXT); exit(CLI_EXIT_OK);
        case ':':
            return bad_usage("option '%s' needs a value", argv[optind - 1]);
        default:
            return bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) {
        if (strcmp(argv[optind - 1], "--") != 0)
            return bad_usage("unexpected argument '%s'%s", argv[optind],
                             " (put the command after --)");
        a->cmd = &argv[optind];
    }
    if (a->pid && a->cmd)
        return bad_usage("give either -p PID or -- CMD, not both");
    if (a->jsonl && !a->headless)
        return bad_usage("--jsonl needs --headless");
    if (a->keep_events && !a->cmd)
        return bad_usage("--keep-events needs a command to start (-- CMD)");
    if (a->wait_free >= 0 && !a->cmd)
        return bad_usage("--wait-free needs a command to start (-- CMD)");
    if (a->n_metrics_labels && !a->metrics_path)
        return bad_usage("--metrics-label needs --metrics FILE");
    if (a->n_metrics_labels) { /* a name given twice, labels too long */
        st_metrics probe;
        memset(&probe, 0, sizeof probe);
        for (int i = 0; i < a->n_metrics_labels; i++)
            if (st_metrics_add_label(&probe, a->metrics_labels[i], &e) != ST_OK)
                return bad_usage("--metrics-label: %s", e.msg);
    }
    if (a->headless && !a->pid && !a->cmd)
        return bad_usage("--headless needs -p PID or -- CMD");
    if (!a->on_budget_set)
        st_monitor_opts_on_budget(&a->mon, a->headless ? ST_GUARD_KILL : ST_GUARD_PAUSE);
    if (a->jsonl)
        a->mon.record_fd = STDOUT_FILENO;
    a->mon.gpu_lib = getenv("ST_NVML_LIB"); /* NULL: the default NVML search */
    if (a->mon.gpu_lib && !*a->mon.gpu_lib)
        a->mon.gpu_lib = NULL;
    return 0;
}

extern char **environ;

/* The job's environment: stagetop's, with STAGETOP_EVENTS set to its
 * events file (NULL when none); malloc'd array over environ's strings and
 * one of its own (*own, freed by the caller). */
static char **job_env(const char *events, char **own)
{
    size_t n = 0;
    for (char **p = environ; *p; p++)
        n++;
    char **env = calloc(n + 2, sizeof *env);
    *own = NULL;
    if (!env)
        return NULL;
    size_t k = 0;
    for (char **p = environ; *p; p++)
        if (!events || strncmp(*p, "STAGETOP_EVENTS=", 16) != 0)
            env[k++] = *p;
    if (events) {
        size_t len = strlen(events) + 17;
        if (!(*own = malloc(len))) {
            free(env);
            return NULL;
        }
        snprintf(*own, len, "STAGETOP_EVENTS=%s", events);
        env[k++] = *own;
    }
    env[k] = NULL;
    return env;
}

/* Start the job with its own environment and files, stagetop's untouched:
 * with a screen, stdin is /dev/null and its output goes to the job log;
 * headless with --jsonl, its stdout goes to stagetop's stderr (stdout
 * carries the records, stagetop's alone); headless on a terminal where
 * stagetop is in the foreground, the job gets the foreground, as a shell
 * gives it (it can read the terminal; ^C and ^Z go to it). */
static int spawn_job(cli_args *a, st_job *job, char *logpath, size_t loglen)
{
    st_error e;
    st_spawn_opts so;
    int logfd = -1, nullfd = -1, rc = CLI_EXIT_WATCH;
    char *own = NULL, **env = NULL;
    memset(job, 0, sizeof *job);
    job->grace_s = a->mon.grace_s;
    st_spawn_opts_init(&so);
    if (!a->headless) {
        if ((logfd = cli_open_job_log(a, logpath, loglen)) < 0)
            return CLI_EXIT_WATCH;
        if ((nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
            fprintf(stderr, "stagetop: /dev/null: %s\n", strerror(errno));
            goto out;
        }
        so.fd_in = nullfd;
        so.fd_out = so.fd_err = logfd;
    } else {
        if (a->jsonl)
            so.fd_out = STDERR_FILENO;
        if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp()) {
            so.tty_fd = STDIN_FILENO;
            signal(SIGTTOU, SIG_IGN); /* stagetop still writes to it from the background */
        }
    }
    if (!(env = job_env(a->mon.job_events_path, &own))) {
        fprintf(stderr, "stagetop: out of memory\n");
        goto out;
    }
    so.envp = env;
    if (st_job_spawn_with(job, a->cmd, &so, &e) != ST_OK) {
        cli_say("%s", e.msg);
    } else { /* where it runs (its cgroup, or why none): stderr, or the job's log */
        rc = 0;
        if (logfd < 0) /* with a screen: the closing summary says it ("ran in") */
            cli_say("job %ld runs in %s", (long)job->pid, job->peak.grp.where);
    }
out:
    free(env);
    free(own);
    if (nullfd >= 0)
        close(nullfd);
    if (logfd >= 0)
        close(logfd);
    return rc;
}

/* The screen's options: ASCII (asked, or a non-UTF-8 locale), NO_COLOR. */
static void screen_opts(tui_opts *to, int ascii, const char *export_dir)
{
    memset(to, 0, sizeof *to);
    const char *lc = setlocale(LC_ALL, "");
    to->ascii = ascii || !lc || (!strstr(lc, "UTF-8") && !strstr(lc, "utf8") && !strstr(lc, "UTF8"));
    to->color = getenv("NO_COLOR") == NULL || getenv("NO_COLOR")[0] == '\0';
    to->export_dir = export_dir;
    to->wake_fd = cli_wake_fd();
    to->got_signal = &cli_signal;
}

static int run_watch(cli_args *a)
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
    screen_opts(&to, a->ascii, a->export_dir);
    to.lanes = a->lanes;

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
        rc = spawn_job(a, &job, logpath, sizeof logpath);
        if (rc != 0) {
            cli_job_events_end(&jev, 0, 0);
            return rc;
        }
        a->mon.job_log = logpath[0] ? logpath : NULL;
        to.job_log = a->mon.job_log;
        a->pid = job.pid;
    }
    m = st_monitor_new();
    rc = m ? st_monitor_open(m, plat, &a->mon, a->pid, a->cmd ? &job : NULL, st_now(), &e)
           : st_error_set(&e, ST_ENOMEM, 0, "out of memory");
    if (rc != ST_OK) {
        st_monitor_free(m);
        cli_job_events_end(&jev, 0, 0);
        cli_say("%s", e.msg);
        return e.code == ST_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_WATCH;
    }
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
    int orc = cli_end_outputs(m, a);
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

/* `stagetop replay [--ascii] [--export-dir DIR] FILE|-`. */
static int run_replay(int argc, char **argv)
{
    static const char *const use = "usage: stagetop replay [--ascii] [--export-dir DIR] FILE|-";
    const char *path = NULL, *dir = ".";
    int ascii = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--ascii") == 0) {
            ascii = 1;
        } else if (strcmp(argv[i], "--export-dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s\n  FILE: a stagetop JSON or JSONL trace, or a stageload trace\n"
                   "  -: follow a JSONL stream on stdin (keys from the terminal), e.g.\n"
                   "     ssh mac stagetop --headless --jsonl -p PID | stagetop replay -\n"
                   "keys: left/right move  Home/End start/end  +/- zoom  f fit  space hold/follow\n"
                   "      e export  ? help  q quit\n", use);
            return CLI_EXIT_OK;
        } else if (!path && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            path = argv[i];
        } else {
            return bad_usage("%s", use);
        }
    }
    if (!path)
        return bad_usage("%s", use);
    if (strcmp(path, "-") == 0 && fcntl(STDIN_FILENO, F_GETFD) < 0) { /* before pipe() takes fd 0 */
        fprintf(stderr, "stagetop: stdin is closed: pipe a JSONL stream into 'stagetop replay -'\n");
        return CLI_EXIT_WATCH;
    }
    if (cli_signals_install() != 0) {
        fprintf(stderr, "stagetop: cannot set up signal handling: %s\n", strerror(errno));
        return CLI_EXIT_WATCH;
    }
    tui_opts to;
    st_error e;
    screen_opts(&to, ascii, dir);
    st_error_clear(&e);
    if (tui_replay(path, &to, &e) != ST_OK) {
        cli_say("%s: %s", strcmp(path, "-") == 0 ? "stdin" : path, e.msg);
        return CLI_EXIT_WATCH;
    }
    return cli_signal ? 128 + cli_signal : CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    cli_args a;
    if (argc >= 2 && strcmp(argv[1], "replay") == 0)
        return run_replay(argc, argv);
    if (argc >= 2 && (strcmp(argv[1], "mark") == 0 || strcmp(argv[1], "stage") == 0))
        return cli_mark(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "summary") == 0) {
        if (argc == 4 && (strcmp(argv[2], "--text") == 0 || strcmp(argv[3], "--text") == 0))
            return cli_summary_text(strcmp(argv[2], "--text") == 0 ? argv[3] : argv[2]);
        if (argc != 3 || strcmp(argv[2], "--text") == 0)
            return bad_usage("usage: stagetop summary [--text] FILE|-");
        return cli_summary(argv[2]);
    }
    if (argc >= 2 && strcmp(argv[1], "plot") == 0)
        return cli_plot_cmd(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "diff") == 0)
        return cli_diff(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "report") == 0)
        return cli_report(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "doctor") == 0)
        return cli_doctor(argc, argv);
    int rc = parse_args(argc, argv, &a);
    if (rc == 0)
        rc = cli_preflight(&a);
    if (rc != 0)
        return rc;
    if (cli_signals_install() != 0) {
        fprintf(stderr, "stagetop: cannot set up signal handling: %s\n", strerror(errno));
        return CLI_EXIT_WATCH;
    }
    return run_watch(&a);
}
