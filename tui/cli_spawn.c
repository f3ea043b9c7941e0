/* cli_spawn.c: starting the job (-- CMD) with its own environment
 * ($STAGETOP_EVENTS) and standard files. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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

/* Start the job, held before its exec (st_spawn_opts.hold: cli_release_job
 * lets it run once its start is recorded), with its own environment and
 * files, stagetop's untouched:
 * with a screen, stdin is /dev/null and its output goes to the job log;
 * headless with --jsonl, its stdout goes to stagetop's stderr (stdout
 * carries the records, stagetop's alone); headless on a terminal where
 * stagetop is in the foreground, the job gets the foreground, as a shell
 * gives it (it can read the terminal; ^C and ^Z go to it). */
int cli_spawn_job(cli_args *a, st_job *job, char *logpath, size_t loglen)
{
    st_error e;
    st_spawn_opts so;
    int logfd = -1, nullfd = -1, rc = CLI_EXIT_WATCH;
    char *own = NULL, **env = NULL;
    memset(job, 0, sizeof *job);
    job->grace_s = a->mon.grace_s;
    st_spawn_opts_init(&so);
    so.hold = 1;
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
    if (st_job_spawn_with(job, a->cmd, &so, &e) != ST_OK)
        cli_say("%s", e.msg);
    else
        rc = 0;
out:
    free(env);
    free(own);
    if (nullfd >= 0)
        close(nullfd);
    if (logfd >= 0)
        close(logfd);
    return rc;
}

/* The start is recorded: the held job runs now.  Headless, where it runs
 * (its cgroup, or why none); with a screen the closing summary says it
 * ("ran in").  An exec that fails only now (a bad #! line) is said; the
 * job then exits 127 and the watch ends with it. */
void cli_release_job(const cli_args *a, st_job *job)
{
    st_error e;
    if (st_job_release(job, a->cmd[0], &e) != ST_OK)
        cli_say("%s", e.msg);
    else if (a->headless)
        cli_say("job %ld runs in %s", (long)job->pid, job->peak.grp.where);
}
