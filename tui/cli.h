/* cli.h: the front end's shared pieces (argument parsing lives in main.c):
 * the parsed command line, the signal self-pipe, headless mode and the
 * trace commands.  Only the front end prints and exits. */
#ifndef STAGETOP_CLI_H
#define STAGETOP_CLI_H

#include <signal.h>
#include <stdint.h>
#include "stagetop/monitor.h"

/* Exit codes (DESIGN.md §4). */
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
    double wait_free;       /* percent, < 0 none */
    double start_timeout;   /* seconds */
    int on_budget_set;      /* --on-budget given */
    int allow_wide;         /* --allow-wide: a wide tree may be signalled */
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

/* Wait (printing why, on stderr) until the memory-available level is at
 * least pct, or give up after timeout_s.  0 ready, CLI_EXIT_NOROOM, or
 * 128+N on a signal. */
int cli_wait_free(const st_platform *plat, double pct, double timeout_s, double interval);

/* Headless mode: sample until the job ends or a signal; returns the exit
 * code. */
int cli_headless(st_monitor *m, const cli_args *a);

/* `stagetop summary FILE|-`. */
int cli_summary(const char *path);

/* `stagetop plot FILE -o OUT.svg` (OUT "-" = stdout). */
int cli_plot(const char *path, const char *out);

/* "kill -CONT PID..." naming every member of the tree (children first),
 * malloc'd; NULL when out of memory. */
char *cli_resume_command(const st_monitor *m);
/* A watched (not launched) tree that is wide (st_job_scope_of: it holds
 * stagetop, or more than ST_JOB_WIDE_PCT % of the processes) becomes
 * read-only unless --allow-wide; headless says so on stderr. */
void cli_scope(st_monitor *m, const cli_args *a);
/* Exit code for the end of a watched run (shared by headless and the
 * screen): 128+N after signal N; 3 the guard killed the job; a launched
 * job's own code when it ended by itself, 0 when it ended after the user's
 * kill (k in the screen: ended as asked). */
int cli_exit_code(const st_monitor *m, int signo);

#endif
