/* cli_args.c: the watch command line (options, -p PID, -- CMD) into
 * cli_args, every bad combination refused before anything starts. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "proc_table.h"
#include "tui.h"
#include "stagetop/limits.h"
#include "stagetop/units.h"

enum {
    OPT_HEADLESS = 256, OPT_JSONL, OPT_HISTORY, OPT_EXPORT_DIR, OPT_SWAP_BUDGET, OPT_KILL_FREE,
    OPT_ON_BUDGET, OPT_WAIT_FREE, OPT_START_TIMEOUT, OPT_GRACE, OPT_JOB_LOG, OPT_ASCII,
    OPT_NO_GPU, OPT_EVENTS, OPT_KEEP_EVENTS, OPT_ALLOW_WIDE,
    OPT_OVERWRITE = 400, OPT_RECORD_SYNC
};
enum { OPT_METRICS = 512, OPT_NOTIFY, OPT_METRICS_LABEL }; /* --metrics, --notify (docs/metrics-export.md, notify.md) */
enum { OPT_QUIET = 600, OPT_REPORT, OPT_PLOT }; /* the end of a run (tui/closing.c) */
enum { OPT_LANES = 700, OPT_SORT, OPT_TREE }; /* --lanes, --sort, --tree (docs/screen.md) */

int cli_parse_args(int argc, char **argv, cli_args *a, const char *version_text)
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
        {"sort", required_argument, NULL, OPT_SORT},
        {"tree", no_argument, NULL, OPT_TREE},
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
                return cli_bad_usage("invalid pid '%s'", optarg);
            a->pid = (int32_t)v;
            break;
        }
        case 'i':
            if (st_parse_double(optarg, ST_INTERVAL_MIN_S, ST_INTERVAL_MAX_S, &a->mon.interval,
                                &e) != ST_OK)
                return cli_bad_usage("--interval: %s (seconds, 0.01..60)", e.msg);
            break;
        case 'r': a->mon.record_path = optarg; break;
        case OPT_HEADLESS: a->headless = 1; break;
        case OPT_JSONL: a->jsonl = 1; break;
        case OPT_HISTORY:
            if (st_parse_duration(optarg, &d, &e) != ST_OK)
                return cli_bad_usage("--history: %s", e.msg);
            if (d <= 0)
                return cli_bad_usage("--history: '%s': must be more than 0 (e.g. 30m, 2h)", optarg);
            a->mon.history_s = d;
            break;
        case OPT_EXPORT_DIR: a->export_dir = optarg; break;
        case OPT_SWAP_BUDGET:
            if (st_parse_size(optarg, &size, &e) != ST_OK)
                return cli_bad_usage("--swap-budget: %s", e.msg);
            st_monitor_opts_swap_budget(&a->mon, size);
            break;
        case OPT_KILL_FREE:
            if (st_parse_double(optarg, 0, 100, &d, &e) != ST_OK)
                return cli_bad_usage("--kill-free: %s (percent, 0..100)", e.msg);
            st_monitor_opts_kill_free(&a->mon, d);
            break;
        case OPT_ON_BUDGET:
            if (strcmp(optarg, "pause") == 0)
                st_monitor_opts_on_budget(&a->mon, ST_GUARD_PAUSE);
            else if (strcmp(optarg, "kill") == 0)
                st_monitor_opts_on_budget(&a->mon, ST_GUARD_KILL);
            else
                return cli_bad_usage("--on-budget: '%s' is neither pause nor kill", optarg);
            a->on_budget_set = 1;
            break;
        case OPT_WAIT_FREE:
            if (st_parse_double(optarg, 0, 100, &a->wait_free, &e) != ST_OK)
                return cli_bad_usage("--wait-free: %s (percent, 0..100)", e.msg);
            break;
        case OPT_START_TIMEOUT:
            if (st_parse_duration(optarg, &a->start_timeout, &e) != ST_OK)
                return cli_bad_usage("--start-timeout: %s", e.msg);
            break;
        case OPT_GRACE:
            if (st_parse_double(optarg, 0, ST_GRACE_MAX_S, &a->mon.grace_s, &e) != ST_OK)
                return cli_bad_usage("--grace: %s", e.msg);
            break;
        case OPT_JOB_LOG: a->job_log = optarg; break;
        case OPT_ASCII: a->ascii = 1; break;
        case OPT_LANES: {
            char bad[80];
            if (tui_lanes_parse(optarg, &a->lanes, bad, sizeof bad) != 0)
                return cli_bad_usage("--lanes: unknown lane '%s' (footprint, rss, swap, level, procs, gpu, "
                                 "pressure, tree_swap, cpu, pageins, compressed, limit_free, "
                                 "footprint_age, metal, tree_compressed, gpu_system)", bad);
            break;
        }
        case OPT_SORT: {
            int col = tui_col_parse(optarg);
            if (col < 0)
                return cli_bad_usage("--sort: unknown column '%s' (pid, footprint, rss, swap, gpu, "
                                     "state, cpu, pageins, command)", optarg);
            a->sort = col + 1;
            break;
        }
        case OPT_TREE: a->tree = 1; break;
        case OPT_METRICS: a->metrics_path = optarg; break;
        case OPT_METRICS_LABEL:
            if (st_metrics_label_check(optarg, &e) != ST_OK)
                return cli_bad_usage("--metrics-label: %s", e.msg);
            if (a->n_metrics_labels == ST_METRICS_MAX_LABELS)
                return cli_bad_usage("--metrics-label: more than %d labels", ST_METRICS_MAX_LABELS);
            a->metrics_labels[a->n_metrics_labels++] = optarg;
            break;
        case OPT_NOTIFY: a->notify = 1; break;
        case OPT_NO_GPU: a->mon.no_gpu = 1; break;
        case OPT_EVENTS: a->mon.events_path = optarg; break;
        case OPT_KEEP_EVENTS: a->keep_events = 1; break;
        case OPT_OVERWRITE: a->mon.record_overwrite = 1; break;
        case OPT_RECORD_SYNC:
            if (cli_parse_record_sync(optarg, &a->mon.record_sync) != 0)
                return cli_bad_usage("--record-sync: '%s' is not never, 1s or always", optarg);
            break;
        case OPT_ALLOW_WIDE: a->allow_wide = 1; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_REPORT: a->report_path = optarg; break;
        case OPT_PLOT: a->plot_path = optarg; break;
        case 'h':
            cli_usage(stdout);
            cli_gpu_status(stdout);
            exit(CLI_EXIT_OK);
        case 'V': printf("stagetop %s\n", version_text); exit(CLI_EXIT_OK);
        case ':':
            return cli_bad_usage("option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) {
        if (strcmp(argv[optind - 1], "--") != 0)
            return cli_bad_usage("unexpected argument '%s'%s", argv[optind],
                             " (put the command after --)");
        a->cmd = &argv[optind];
    }
    if (a->pid && a->cmd)
        return cli_bad_usage("give either -p PID or -- CMD, not both");
    if (a->jsonl && !a->headless)
        return cli_bad_usage("--jsonl needs --headless");
    size_t rl = a->mon.record_path ? strlen(a->mon.record_path) : 0;
    if (a->jsonl && rl && !(rl > 5 && strcmp(a->mon.record_path + rl - 5, ".json") == 0))
        /* one JSONL stream: stdout or the file (a .json record, written at the end, goes with it) */
        return cli_bad_usage("--jsonl writes the JSONL records to stdout, a .jsonl --record to a "
                             "file: give one (--jsonl | tee FILE keeps both; a .json --record goes with --jsonl)");
    if (a->keep_events && !a->cmd)
        return cli_bad_usage("--keep-events needs a command to start (-- CMD)");
    if (a->wait_free >= 0 && !a->cmd)
        return cli_bad_usage("--wait-free needs a command to start (-- CMD)");
    if (a->n_metrics_labels && !a->metrics_path)
        return cli_bad_usage("--metrics-label needs --metrics FILE");
    if (a->n_metrics_labels) { /* a name given twice, labels too long */
        st_metrics probe;
        memset(&probe, 0, sizeof probe);
        for (int i = 0; i < a->n_metrics_labels; i++)
            if (st_metrics_add_label(&probe, a->metrics_labels[i], &e) != ST_OK)
                return cli_bad_usage("--metrics-label: %s", e.msg);
    }
    if (a->headless && (a->sort || a->tree))
        return cli_bad_usage("%s is the screen's process list: not with --headless",
                             a->sort ? "--sort" : "--tree");
    if (a->headless && !a->pid && !a->cmd)
        return cli_bad_usage("--headless needs -p PID or -- CMD");
    if (!a->on_budget_set)
        st_monitor_opts_on_budget(&a->mon, a->headless ? ST_GUARD_KILL : ST_GUARD_PAUSE);
    if (a->jsonl)
        a->mon.record_fd = STDOUT_FILENO;
    a->mon.gpu_lib = getenv("ST_NVML_LIB"); /* NULL: the default NVML search */
    if (a->mon.gpu_lib && !*a->mon.gpu_lib)
        a->mon.gpu_lib = NULL;
    return 0;
}
