/* main.c: arguments -> mode (live, launch, pick, headless, replay, summary,
 * plot).  The only place that exits; it restores the terminal and the job
 * first (the screen and headless loops return here). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
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

static void usage(FILE *f)
{
    fprintf(f,
"usage: stagetop -p PID [options]            watch PID and every descendant, live\n"
"       stagetop [options] -- CMD [ARG...]   start CMD in its own process group and watch it\n"
"       stagetop [options]                   pick a process tree from the largest ones\n"
"       stagetop replay FILE|-               view a saved trace; - follows a JSONL stream on stdin\n"
"       stagetop summary FILE|-              print a trace's summary as JSON\n"
"       stagetop plot FILE -o OUT.svg        draw a trace as an SVG chart for a bug report\n"
"       stagetop mark TEXT | stage NAME      (inside a job stagetop started) mark a moment or\n"
"                                            a stage: appends to $STAGETOP_EVENTS\n"
"       stagetop plot A B -o OUT.svg         two traces on one chart (A solid, B dashed)\n"
"       stagetop diff [--json] [--fail-peak PCT] A B\n"
"                                            compare two traces: stages, peaks, swap; with\n"
"                                            --fail-peak exit 1 when B's peak footprint is\n"
"                                            more than PCT %% above A's (2: bad usage/input)\n"
"       stagetop report FILE|A B [-o OUT.md] a trace (or two compared) as Markdown\n"
"       stagetop doctor [-p PID] [--json]    check every number against an independent source\n"
"\n"
"Watches a process tree's memory footprint, the system's swap used and its\n"
"memory-available level; p pauses the job, k kills it, e exports the trace.\n"
"\n"
"options:\n"
"  -p, --pid PID           the root of the tree to watch\n"
"  -i, --interval SEC      seconds between samples, 0.01..60 (default 0.5)\n"
"  -r, --record FILE       stream every record to FILE as JSONL (flushed per line);\n"
"                          a FILE ending in .json gets the JSON trace at the end\n"
"      --overwrite         let --record replace an existing FILE (refused without)\n"
"      --record-sync WHEN  never, 1s or always: how often the record is pushed to\n"
"                          the disk (default 1s: at most once a second, and at\n"
"                          once after an event or a guard action)\n"
"      --headless          no screen; with --jsonl the records go to stdout\n"
"      --jsonl             (headless) write JSONL records to stdout\n"
"      --history DURATION  how much the screen and export keep (default 2h)\n"
"      --export-dir DIR    where `e` writes traces (default .)\n"
"      --swap-budget SIZE  act when swap grows more than SIZE (8G, 512M) above its start\n"
"      --kill-free PCT     act when the memory level stays under PCT for two samples\n"
"      --on-budget ACTION  pause or kill (default: pause with a screen, kill headless)\n"
"      --wait-free PCT     (with CMD) wait until the level is at least PCT to start\n"
"      --start-timeout DURATION  give up waiting after this long (default 30m; exit 4)\n"
"      --grace SEC         seconds between SIGTERM and SIGKILL on kill (default 5)\n"
"      --job-log FILE      (with CMD and a screen) the job's output (default\n"
"                          stagetop-job-TIME.log in the export dir)\n"
"      --events FILE       follow a stageload trace the job writes (its stages and\n"
"                          loads become markers and trace events)\n"
"      --keep-events       (with CMD) keep the job's $STAGETOP_EVENTS file at the end\n"
"      --ascii             ASCII drawing (also with a non-UTF-8 locale)\n"
"      --lanes LIST        the screen's lanes, e.g. footprint,swap,level,cpu,pageins\n"
"                          (default footprint,swap,level and gpu; key l adds CPU and\n"
"                          page-ins); any of footprint rss swap level procs gpu\n"
"                          pressure tree_swap cpu pageins compressed\n"
"      --no-gpu            no GPU lane (NVIDIA, Linux)\n"
"      --metrics FILE      after each sample, replace FILE with the latest values in\n"
"                          Prometheus text format (node_exporter's textfile collector)\n"
"      --notify            bell + desktop notification (OSC 9/777; tmux passthrough)\n"
"                          when the guard acts, the job ends, or a limit is near\n"
"      --allow-wide        let p, k and the guard signal a wide tree (one holding\n"
"                          stagetop, or over half of the machine's processes);\n"
"                          without it such a tree is watched read-only\n"
"  -h, --help              this help\n"
"  -V, --version           the version\n"
"\n"
"keys: p pause/resume  k kill  e export  m mark  space freeze  +/- zoom  ? help  q quit\n"
"exit: the command's own code; 3 the guard stopped it; 4 no room to start;\n"
"      2 bad usage; 1 could not watch; 128+N a signal N ended it\n"
"NO_COLOR turns colour off.  STAGETOP_CGROUP=0: no cgroup v2 of its own for a\n"
"launched job (Linux).  See stagetop(1) and docs/ for what each number means.\n");
}

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

/* One line on the GPU lane: there, or why not. */
static void gpu_status(FILE *f)
{
    st_gpu *g;
    st_error e;
    const char *lib = getenv("ST_NVML_LIB");
    st_error_clear(&e);
    if (st_gpu_open(&g, lib && *lib ? lib : NULL, &e) == ST_OK) {
        const st_gpu_device *d;
        size_t n = st_gpu_devices(g, &d);
        fprintf(f, "GPU lane: NVML found, %zu device(s)%s%s\n", n, n ? ", first: " : "",
                n ? d[0].name : "");
        st_gpu_close(g);
    } else {
        fprintf(f, "GPU lane: %s\n", e.msg[0] ? e.msg : "not available");
    }
}

enum {
    OPT_HEADLESS = 256, OPT_JSONL, OPT_HISTORY, OPT_EXPORT_DIR, OPT_SWAP_BUDGET, OPT_KILL_FREE,
    OPT_ON_BUDGET, OPT_WAIT_FREE, OPT_START_TIMEOUT, OPT_GRACE, OPT_JOB_LOG, OPT_ASCII,
    OPT_NO_GPU, OPT_EVENTS, OPT_KEEP_EVENTS, OPT_ALLOW_WIDE,
    OPT_OVERWRITE = 400, OPT_RECORD_SYNC
};
enum { OPT_METRICS = 512, OPT_NOTIFY }; /* --metrics, --notify (docs/metrics-export.md, notify.md) */
enum { OPT_LANES = 600 }; /* --lanes (docs/screen.md) */

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
        {"notify", no_argument, NULL, OPT_NOTIFY},
        {"no-gpu", no_argument, NULL, OPT_NO_GPU},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"keep-events", no_argument, NULL, OPT_KEEP_EVENTS},
        {"overwrite", no_argument, NULL, OPT_OVERWRITE},
        {"record-sync", required_argument, NULL, OPT_RECORD_SYNC},
        {"allow-wide", no_argument, NULL, OPT_ALLOW_WIDE},
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
    while ((c = getopt_long(argc, argv, "+p:i:r:hV", longopts, NULL)) != -1) {
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
            if (st_parse_duration(optarg, &d, &e) != ST_OK || d <= 0)
                return bad_usage("--history: %s", e.msg);
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
        case 'h':
            usage(stdout);
            gpu_status(stdout);
            exit(CLI_EXIT_OK);
        case 'V': printf("stagetop %s\n", ST_VERSION); exit(CLI_EXIT_OK);
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

/* With a screen, a launched job's output goes to a log file, not over the
 * screen; the child inherits it through a temporary dup2. */
static int spawn_job(cli_args *a, st_job *job, char *logpath, size_t loglen)
{
    st_error e;
    int saved[2] = {-1, -1}, logfd = -1;
    memset(job, 0, sizeof *job);
    job->grace_s = a->mon.grace_s;
    if (!a->headless) {
        if ((logfd = cli_open_job_log(a, logpath, loglen)) < 0)
            return CLI_EXIT_WATCH;
        /* close-on-exec: the job must not inherit the terminal as extra fds */
        saved[0] = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
        saved[1] = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
        dup2(logfd, STDOUT_FILENO);
        dup2(logfd, STDERR_FILENO);
    }
    /* The job (only) gets its events file in its environment. */
    char *had = getenv("STAGETOP_EVENTS") ? strdup(getenv("STAGETOP_EVENTS")) : NULL;
    if (a->mon.job_events_path)
        setenv("STAGETOP_EVENTS", a->mon.job_events_path, 1);
    int rc = st_job_spawn(job, a->cmd, &e);
    if (had)
        setenv("STAGETOP_EVENTS", had, 1);
    else
        unsetenv("STAGETOP_EVENTS");
    free(had);
    if (logfd >= 0) {
        dup2(saved[0], STDOUT_FILENO);
        dup2(saved[1], STDERR_FILENO);
        close(saved[0]);
        close(saved[1]);
        close(logfd);
    }
    if (rc != ST_OK) {
        fprintf(stderr, "stagetop: %s\n", e.msg);
        return CLI_EXIT_WATCH;
    }
    return 0;
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
    st_monitor m;
    st_run_view rv;
    st_job job;
    st_error e;
    char logpath[512] = "", cmdline[512] = "";
    cli_job_events jev = {"", ""};
    int rc, keep_paused = 0;
    tui_opts to;
    screen_opts(&to, a->ascii, a->export_dir);
    to.lanes = a->lanes;

    if (!a->pid && !a->cmd) {
        rc = tui_pick(plat, &to, &a->pid, &e);
        if (rc == ST_EAGAIN) /* the user quit the picker, or a signal ended it */
            return cli_signal ? 128 + cli_signal : CLI_EXIT_OK;
        if (rc != ST_OK) {
            fprintf(stderr, "stagetop: %s\n", e.msg);
            return CLI_EXIT_WATCH;
        }
    }
    if (!a->cmd && st_job_check_target(a->pid, NULL, &e) != ST_OK) {
        fprintf(stderr, "stagetop: %s\n", e.msg); /* pid 1, self, an ancestor, a thread */
        return CLI_EXIT_USAGE;
    }
    tui_outputs outs; /* --metrics, --notify: checked before a job starts (holds nothing yet) */
    if (tui_outputs_open(&outs, a->metrics_path, a->notify, !a->headless, &e) != ST_OK) {
        fprintf(stderr, "stagetop: %s\n", e.msg);
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
            cli_job_events_end(&jev, 0);
            return rc;
        }
        a->pid = job.pid;
    }
    rc = st_monitor_open(&m, plat, &a->mon, a->pid, a->cmd ? &job : NULL, st_now(), &e);
    if (rc != ST_OK) {
        cli_job_events_end(&jev, 0);
        fprintf(stderr, "stagetop: %s\n", e.msg);
        return e.code == ST_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_WATCH;
    }
    tui_outputs_bind(&outs, &m);
    a->outs = to.outs = &outs;
    if (!a->cmd)
        cli_scope(&m, a);
    st_monitor_start(&m, st_now());
    if (a->headless) {
        rc = cli_headless(&m, a);
    } else {
        rc = tui_live(&m, &to, &keep_paused, &e);
        if (rc != ST_OK) {
            fprintf(stderr, "stagetop: %s\n", e.msg);
            rc = CLI_EXIT_WATCH;
        } else {
            rc = cli_exit_code(&m, cli_signal);
        }
        st_monitor_view(&m, st_now(), &rv);
        if (cli_signal && rv.job_launched && rv.job_state != ST_JOB_EXITED)
            rc = cli_headless(&m, a); /* as headless: stop the job it started */
    }
    tui_outputs_close(&outs);
    char *resume = keep_paused ? cli_resume_command(&m) : NULL;
    st_monitor_view(&m, st_now(), &rv);
    int32_t pid = rv.job_pid;
    int launched_alive = rv.job_launched && rv.job_state != ST_JOB_EXITED;
    if (st_monitor_close(&m, keep_paused, &e) != ST_OK) {
        fprintf(stderr, "stagetop: %s\n", e.msg);
        if (rc == CLI_EXIT_OK)
            rc = CLI_EXIT_WATCH;
    }
    cli_job_events_end(&jev, a->keep_events);
    if (keep_paused)
        fprintf(stderr, "stagetop: job %ld left paused as asked; resume with: %s\n", (long)pid,
                resume ? resume : "kill -CONT on every process of the job");
    free(resume);
    if (launched_alive && !cli_signal)
        fprintf(stderr, "stagetop: job %ld is still running%s%s\n", (long)pid,
                logpath[0] ? "; its output: " : "", logpath);
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
        fprintf(stderr, "stagetop: %s: %s\n", strcmp(path, "-") == 0 ? "stdin" : path, e.msg);
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
        if (argc != 3)
            return bad_usage("usage: stagetop summary FILE|-");
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
    if (argc >= 2 && strcmp(argv[1], "plot") == 0) {
        const char *in = NULL, *out = NULL;
        for (int i = 2; i < argc; i++) {
            if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
                out = argv[++i];
            else if (!in)
                in = argv[i];
            else
                return bad_usage("usage: stagetop plot FILE -o OUT.svg");
        }
        if (!in || !out)
            return bad_usage("usage: stagetop plot FILE -o OUT.svg");
        return cli_plot(in, out);
    }
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
