/* cli_exit.c: the exit code of a watched run and the command that resumes
 * a paused job. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

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

char *cli_resume_text(const st_run_view *rv)
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
    return cli_resume_text(&rv);
}
