/* cli.h: the front end's shared pieces (argument parsing: tui/cli_args.c):
 * the parsed command line, the signal self-pipe, headless mode and the
 * trace commands.  Only the front end prints and exits. */
#ifndef STAGETOP_CLI_H
#define STAGETOP_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include "stagetop/metrics.h"
#include "stagetop/monitor.h"
#include "stagetop/trace.h"

/* Exit codes (stagetop(1) EXIT STATUS; docs/design.md). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_WATCH = 1,   /* could not watch: no such process, no permission, I/O */
    CLI_EXIT_USAGE = 2,
    CLI_EXIT_GUARD = 3,   /* the guard stopped the job */
    CLI_EXIT_NOROOM = 4   /* no room to start within --start-timeout */
};

typedef struct cli_args {
    st_monitor_opts mon;
    int32_t pid;            /* -p; 0 none */
    char **cmd;             /* after --; NULL none */
    int headless, jsonl, ascii;
    const char *export_dir;
    const char *job_log;    /* where a launched job's output goes with a screen */
    const char *metrics_path; /* --metrics FILE; NULL none */
    const char *metrics_labels[ST_METRICS_MAX_LABELS]; /* --metrics-label name=value */
    int n_metrics_labels;
    int notify;             /* --notify */
    struct tui_outputs *outs; /* opened by main.c from the two above */
    double wait_free;       /* percent, < 0 none */
    double start_timeout;   /* seconds */
    int on_budget_set;      /* --on-budget given */
    int keep_events;        /* --keep-events: keep the job's $STAGETOP_EVENTS file */
    int allow_wide;         /* --allow-wide: a wide tree may be signalled */
    int quiet;              /* --quiet: no closing summary */
    const char *report_path; /* --report OUT.md: written when the run ends */
    const char *plot_path;   /* --plot OUT.svg: written when the run ends */
    unsigned lanes;         /* --lanes: the screen's lanes (valid bits); 0 the default */
    int sort;               /* --sort: the list's column (enum tui_col) + 1; 0 the default */
    int tree;               /* --tree: the list starts as the tree */
} cli_args;

/* Signals: SIGINT, SIGTERM, SIGHUP and every other signal whose default
 * ends the process (SIGQUIT, SIGUSR1/2, SIGALRM, ..., the real-time ones)
 * set cli_signal and wake the self-pipe; crash signals go to
 * tui_crash_install's handler; SIGPIPE is ignored (a closed --jsonl reader
 * is an I/O error, not death). */
extern volatile sig_atomic_t cli_signal;
int cli_signals_install(void);
/* Read end of the self-pipe (readable after a signal), -1 before install. */
int cli_wake_fd(void);
/* Drain the self-pipe. */
void cli_wake_drain(void);
/* Sleep until `until` (monotonic) or a signal. */
void cli_nap_until(double until);

/* Wait (printing why, on stderr) until the memory-available level is at
 * least pct, or give up after timeout_s.  0 ready, CLI_EXIT_NOROOM, or
 * 128+N on a signal. */
int cli_wait_free(const st_platform *plat, double pct, double timeout_s, double interval);

/* Headless mode: sample until the job ends or a signal; returns the exit
 * code (tui/cli_headless.c). */
int cli_headless(st_monitor *m, const cli_args *a);

/* The watch command line into a (tui/cli_args.c): 0, or CLI_EXIT_USAGE
 * (said on stderr); --help and --version (version_text) print and exit. */
int cli_parse_args(int argc, char **argv, cli_args *a, const char *version_text);
/* Start the job a->cmd (tui/cli_spawn.c), held before its exec: with a
 * screen, stdin /dev/null and its output to the job log (its name into
 * logpath); headless, the terminal's foreground when stagetop has it.  0,
 * or CLI_EXIT_WATCH (said).  cli_release_job lets it run (once its start
 * is recorded), st_job_abandon ends it unrun. */
int cli_spawn_job(cli_args *a, st_job *job, char *logpath, size_t loglen);
void cli_release_job(const cli_args *a, st_job *job);
/* Watch a tree, with the screen or headless, to the end of the run
 * (tui/cmd_watch.c); returns the exit code. */
int cli_watch(cli_args *a);
/* `stagetop replay [--ascii] [--export-dir DIR] FILE|-` (tui/cmd_replay.c). */
int cli_replay(int argc, char **argv);
/* The screen's options: ASCII (asked, or a non-UTF-8 locale), NO_COLOR. */
struct tui_opts;
void cli_screen_opts(struct tui_opts *to, int ascii, const char *export_dir);

/* `stagetop summary [--text] FILE|-` (tui/cmd_summary.c). */
int cli_summary_cmd(int argc, char **argv);
/* `stagetop summary FILE|-`. */
int cli_summary(const char *path);
/* `stagetop summary --text FILE|-`: the summary for a terminal (core's
 * st_report_summary_text, report.h), as wide as the terminal (80 when
 * standard output is not one). */
int cli_summary_text(const char *path);

/* `stagetop plot FILE -o OUT.svg` (OUT "-" = stdout; tui/cmd_plot.c). */
int cli_plot(const char *path, const char *out);
/* The same of a trace in memory, drawn with po (NULL: the defaults): the end
 * of a run's --plot without a record (the whole run's trace). */
struct st_plot_opts;
int cli_plot_trace(const st_trace *t, const char *out, const struct st_plot_opts *po);

/* The events file of a launched job ($STAGETOP_EVENTS): made in a private
 * temp directory (0700) with mode 0600; prints why and returns -1 on failure. */
typedef struct cli_job_events {
    char dir[256];
    char path[300];
} cli_job_events;
int cli_job_events_create(cli_job_events *je);
/* Remove it (and its directory), or keep it and say where it is: kept when
 * asked, and while the job still runs (job_alive), since removing the
 * private directory would let another user make the path again. */
void cli_job_events_end(cli_job_events *je, int keep, int job_alive);
/* `stagetop mark [TEXT...]` and `stagetop stage NAME` (argv[1] is the verb):
 * append one line to $STAGETOP_EVENTS (tui/cmd_mark.c). */
int cli_mark(int argc, char **argv);
/* docs/report.md (tui/cmd_diff.c, tui/cmd_report.c):
 * `stagetop diff [--json] [--fail-peak PCT] A B`: 0, 1 when B's peak
 * footprint is more than PCT % above A's, 2 bad usage or unreadable input;
 * `stagetop report FILE|A B [-o OUT.md]`;
 * `stagetop plot FILE|A B -o OUT.svg`. */
int cli_diff(int argc, char **argv);
int cli_report(int argc, char **argv);
/* One trace's report (as `stagetop report IN -o OUT`), titled label. */
int cli_report_one(const char *in, const char *label, const char *out);
/* The same of a trace in memory, its chart OUT.svg drawn with po (NULL: the
 * defaults): the end of a run's --report without a record. */
int cli_report_trace(const st_trace *t, const char *label, const char *out,
                     const struct st_plot_opts *po);
int cli_plot_cmd(int argc, char **argv);
/* Load what a command needs of a trace, the summary, the meta and the
 * events, not the samples (`diff`, `summary --text`), or say why on stderr
 * (file and line) and return -1 (t must still be freed; tui/say.c): a
 * stagetop record is summed as it is read (st_trace_summary_file), in
 * memory that does not grow with its samples. */
int cli_load_summary(const char *path, st_trace *t);
/* "stagetop: MESSAGE\ntry 'stagetop --help'" on stderr; CLI_EXIT_USAGE
 * (tui/say.c). */
int cli_bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* report's OUT.md chart: OUT.svg beside it (OUT + ".svg" for another name),
 * malloc'd (NULL: out of memory); whether OUT gets one (a regular file or a
 * new name, not a device, FIFO or directory). */
char *cli_report_svg_path(const char *out);
/* --report and --plot checked before a job starts, and no two outputs naming one file (cli_outputs.c): 0, or the
 * exit code after saying why. */
int cli_check_outputs(const cli_args *a);
int cli_report_svg_beside(const char *out);
/* `stagetop doctor [-p PID] [--json] [--no-gpu]` (tui/cmd_doctor.c). */
int cli_doctor(int argc, char **argv);
/* --record-sync never|1s|always -> enum st_rec_sync; -1 for anything else. */
int cli_parse_record_sync(const char *s, int *mode);
/* Before anything starts: --record over an existing file without
 * --overwrite, --events on a device...: say why, return CLI_EXIT_USAGE;
 * 0 when the run may go on. */
int cli_preflight(cli_args *a);
/* 1 (said on stderr, prefixed by who: "" or "doctor: ") when pid is a
 * zombie, which can be neither watched nor checked; 0 otherwise. */
int cli_check_zombie(const st_platform *plat, int32_t pid, const char *who);
/* "stagetop: " + the formatted message + a newline on stderr, made safe by
 * tui_sanitize first (tui/say.c): every line that can carry a job's or a
 * file's bytes goes through it. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void cli_say(const char *fmt, ...);
/* Say that t's last line was cut and left out (t->torn_line), if it was. */
void cli_say_torn(const char *path, const st_trace *t);
/* The launched job's log (--job-log, or a new stagetop-job-TIME.log in the
 * export dir, never through a symlink); its name into path; -1 (said on
 * stderr) on failure. */
int cli_open_job_log(const cli_args *a, char *path, size_t len);

/* "kill -CONT PID..." naming every member of the tree (children first),
 * malloc'd; NULL when out of memory (tui/cli_exit.c); of the monitor's
 * view now, or of rv. */
char *cli_resume_command(const st_monitor *m);
char *cli_resume_text(const st_run_view *rv);
/* A watched (not launched) tree that is wide (st_job_scope_of: it holds
 * stagetop, or more than ST_JOB_WIDE_PCT % of the processes) becomes
 * read-only unless --allow-wide; headless says so on stderr. */
void cli_scope(st_monitor *m, const cli_args *a);
/* Exit code for the end of a watched run (shared by headless and the
 * screen): 128+N after signal N; 3 the guard killed the job; a launched
 * job's own code when it ended by itself, 0 when it ended after the user's
 * kill (k in the screen: ended as asked). */
int cli_exit_code(const st_monitor *m, int signo);

/* The end of a watched run (tui/closing.c). */
typedef struct cli_closing {
    const char *record;     /* --record, or NULL */
    const char *job_log;    /* the job's log, or NULL / "" */
    const char *report, *plot; /* written by cli_end_outputs, or NULL */
    int signo;              /* stagetop ended by this signal, 0 none */
    const char *job_where;  /* where a launched job ran (its cgroup, or why
                               none), or NULL */
} cli_closing;
/* --report / --plot from the finished run (the same code as `stagetop
 * report` and `stagetop plot`, on the run exported to a private temporary
 * trace); says on stderr what failed; 0 or CLI_EXIT_WATCH. */
int cli_end_outputs(st_monitor *m, const cli_args *a);
/* Are --report/--plot drawn from the run's .jsonl record (it holds the
 * whole run; the record stream did not fail)?  Then, after the monitor is
 * closed (the record has its end), cli_end_outputs_record draws them, as
 * `stagetop report/plot RECORD`; cli_end_outputs draws from the history
 * kept and says so when it no longer holds the run's start. */
int cli_end_from_record(st_monitor *m, const cli_args *a);
int cli_end_outputs_record(const cli_args *a);
/* The closing summary on stderr, like /usr/bin/time -v (stagetop(1) SUMMARY). */
void cli_closing_summary(FILE *f, const st_run_view *rv, const cli_closing *c);
/* The last `lines` lines of the job's log on f, control characters made
 * visible; nothing when it cannot be read or is empty. */
void cli_log_tail(FILE *f, const char *path, int lines);
/* An automatic job log (not --job-log) that stayed empty is removed: 1 when
 * it was (path is then ""). */
int cli_log_drop_empty(char *path, int chosen);

/* --help: the usage text, and one line on the GPU lane (tui/usage.c). */
void cli_usage(FILE *f);
void cli_gpu_status(FILE *f);

#endif
