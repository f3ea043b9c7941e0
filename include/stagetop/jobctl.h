/* jobctl.h: starting, pausing, resuming and killing the watched job
 * (core/run/jobctl.c: spawn, reap; core/run/jobsig.c: the signal rules).
 *
 * Safety rules (docs/guard.md, "Safety"): only members of the watched tree, by
 * (pid, start), are signalled; never pid <= 1, stagetop itself or one of its
 * ancestors.  Pause stops the root first, then its descendants, then
 * rescans for children that appeared meanwhile.  Kill sends SIGTERM (and
 * SIGCONT, so a stopped process can act on it), then SIGKILL to what is left
 * once the grace period has passed (st_job_poll). */
#ifndef STAGETOP_JOBCTL_H
#define STAGETOP_JOBCTL_H

#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/peak.h"
#include "stagetop/platform.h"
#include "stagetop/tree.h"

/* ST_JOB_STOPPED: the launched root was stopped by someone other than
 * stagetop (the terminal's SIGTTIN/SIGTTOU/SIGTSTP, a kill -STOP): shown as
 * stopped, never as running, until it is continued. */
enum st_job_state { ST_JOB_RUNNING, ST_JOB_PAUSED, ST_JOB_KILLING, ST_JOB_EXITED, ST_JOB_STOPPED };

typedef struct st_job {
    int32_t pid;          /* the root */
    int launched;         /* 1: stagetop started it (own process group, waitable) */
    int state;            /* enum st_job_state */
    int paused_by_us;     /* resume it when stagetop exits */
    double kill_deadline; /* when SIGKILL follows SIGTERM */
    double grace_s;       /* default 5 */
    int exit_code;        /* launched job: its code, or 128+N for signal N */
    int signalled;        /* processes signalled by the last action */
    int refused;          /* processes that refused (EPERM) in the last action */
    st_job_peak peak;     /* launched job: kernel peaks kept at reaping, its cgroup */
    char refusal[160];    /* why the first of them refused ("" when none) */
    int read_only;        /* 1: p, k and the guard never signal (a wide tree) */
    char watch_only[96];  /* -p of pid 1 or of one of stagetop's ancestors: why it is
                           * never signalled ("" otherwise); unlike read_only, nothing
                           * lifts it (st_monitor_allow_signals, --allow-wide) */
    int kill_asked;       /* st_job_kill reached the job (the user's or the guard's kill) */
    int subreaper;        /* launched where the platform can: stagetop reaps its orphans */
    int stop_sig;         /* ST_JOB_STOPPED: the signal that stopped the root */
    int tty_fd;           /* >= 0: the terminal whose foreground the job holds (headless) */
    int gate_fd;          /* >= 0: held before exec (st_spawn_opts.hold): the gate's write end */
    int exec_fd;          /* >= 0: held: where the child says its exec failed (EOF: it ran) */
} st_job;

/* A tree is "wide" when it contains stagetop or holds more than
 * ST_JOB_WIDE_PCT percent of the machine's processes (and at least
 * ST_JOB_WIDE_MIN of them, so a small container's one job is not wide):
 * it is then watched read-only unless the user allows signals. */
#define ST_JOB_WIDE_PCT 50
#define ST_JOB_WIDE_MIN 16

typedef struct st_job_scope {
    uint32_t tree_n;  /* processes in the tree (root included) */
    uint32_t all_n;   /* processes on the machine (that stagetop can see) */
    int has_self;     /* stagetop is in the tree */
    int wide;         /* the rule above */
} st_job_scope;

/* How a job starts: its whole environment and its standard files, given
 * explicitly (stagetop's own environment and descriptors are never
 * changed to start it). */
typedef struct st_spawn_opts {
    char *const *envp;  /* the job's environment; NULL: stagetop's own */
    int fd_in;          /* becomes the job's stdin; -1: stagetop's own */
    int fd_out;         /* ... stdout (may be 2: the job's output on stagetop's stderr) */
    int fd_err;         /* ... stderr */
    int tty_fd;         /* >= 0: a terminal whose foreground the job's group gets, as a
                           shell gives it (st_job_poll gives it back when the job ends) */
    int hold;           /* 1: the child waits, set up and in its own group (cgroup), before
                           exec, until st_job_release; st_job_abandon: it never runs */
} st_spawn_opts;
void st_spawn_opts_init(st_spawn_opts *o); /* all inherited, no terminal */

/* Start argv in its own process group (setpgid), with o's environment and
 * files (o NULL: inherited), default signal dispositions and an empty
 * signal mask.  The
 * exec failing (no such command) is reported here as ST_ESRCH/ST_EPERM with
 * the reason ("cannot run 'X': No such file or directory"), not as a child
 * exiting 127.  Where the platform can (st_platform's become_subreaper:
 * Linux), the caller becomes a child subreaper, so the job's orphaned
 * processes are reaped by st_job_poll.  Where it can,
 * the job runs in a cgroup v2 of its own, and every process of the job
 * stagetop reaps leaves its kernel peak in job->peak (core/run/peak.c). */
int st_job_spawn(st_job *job, char *const argv[], st_error *err);
int st_job_spawn_with(st_job *job, char *const argv[], const st_spawn_opts *o, st_error *err);
/* A held job (o->hold): nothing of the command has run yet.  The child is
 * forked, in its process group and cgroup, its files and environment in
 * place, and blocks reading a close-on-exec pipe.  A command that execvp
 * would surely not find or may not run (none on PATH, not executable, a
 * directory) is refused by st_job_spawn_with as without hold, before
 * anything is written.  The job's pid is known, so a start record naming
 * it can be written before the command runs; then:
 * st_job_release lets it exec and waits until it has (or failed: a bad #!
 * line, ...: "cannot run 'NAME': reason", the child exits 127 and
 * st_job_poll reaps it); without a held child it does nothing (ST_OK).
 * st_job_abandon ends a launched job that must not run on (the start
 * could not be recorded): a held child is killed before its exec (it also
 * exits on its own when the gate closes: stagetop's death never releases
 * it), a released one with its whole group; the root is reaped, the
 * terminal and the cgroup given up.  Nothing is left running. */
int st_job_release(st_job *job, const char *name, st_error *err);
void st_job_abandon(st_job *job);
/* Give a terminal's foreground back to stagetop's group, if the job held it. */
void st_job_release_terminal(st_job *job);
/* While the job is stopped (paused, or ^Z), the terminal it was given is
 * stagetop's (take), and the job's again when it resumes (give): as a shell
 * does, so ^C reaches stagetop instead of waiting in the stopped job. */
void st_job_take_terminal(st_job *job);
void st_job_give_terminal(st_job *job);
/* Watch an existing process (not started by stagetop).  pid 1 and
 * stagetop's ancestors are watched only: job->watch_only says why, and
 * pause, resume and kill refuse (ST_EPERM) without signalling anyone. */
void st_job_attach(st_job *job, int32_t pid);

/* May pid be the root of a watched job (-p)?  ST_EINVAL with a message
 * naming it when it is pid <= 0, stagetop itself or a thread id (Linux:
 * its Tgid differs; *tgid, when not NULL, gets the process it belongs to,
 * or pid).  pid 1 and stagetop's ancestors may be watched, read-only
 * (st_job_attach). */
int st_job_check_target(int32_t pid, int32_t *tgid, st_error *err);

/* Measure root's tree against the whole machine (one list_all snapshot). */
int st_job_scope_of(const st_platform *plat, st_backend *b, st_proc_id root,
                    st_job_scope *out, st_error *err);

/* Each sets job->signalled / job->refused (and job->refusal) for this
 * action and returns ST_EPERM (naming the first refusal) when any process
 * refused; a process already gone is not an error, but an action that
 * reached none of the processes it was meant for is (ST_ESRCH, "0 of N").
 * A read-only job is never signalled (ST_EPERM).  Pause refuses a job
 * being killed (ST_EINVAL); resume and kill refresh the membership first,
 * and when that fails they still signal the members last known (and
 * return the refresh's error).  A second kill does not move the SIGKILL
 * deadline. */
int st_job_pause(st_job *job, st_tree *tree, st_error *err);
int st_job_resume(st_job *job, st_tree *tree, st_error *err);
int st_job_kill(st_job *job, st_tree *tree, double now, st_error *err);

/* Reap a launched job without blocking (sets EXITED and exit_code), and
 * send SIGKILL to survivors once a kill's grace period is over.  Returns 1
 * when the job has just been seen to exit, else 0 (or an error).  After
 * st_job_kill, a job counts as exited once its root has exited and its
 * process group and member list are empty, or once the grace period is
 * over (SIGKILL sent);
 * exit_code is the root's.  Otherwise a job runs while its tree has
 * members: after the root exits (launched: reaped, exit_code set) the
 * survivors are still the job, and it exits with the last of them.  An
 * attached job's exit_code stays -1.  A launched job with the subreaper
 * reaps every child of stagetop (the root and every orphan, whatever its
 * group or session), keeping each one's wait4 peak: none is left a zombie.
 * A launched root stopped or continued by someone else moves the job to
 * ST_JOB_STOPPED and back. */
int st_job_poll(st_job *job, st_tree *tree, double now, st_error *err);

#endif
