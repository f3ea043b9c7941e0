/* job_events.c: the events file of a job stagetop starts ($STAGETOP_EVENTS)
 * (`stagetop mark` and `stagetop stage` append to it: tui/cmd_mark.c).
 *
 * The file lives in a private directory (mkdtemp, mode 0700) and is created
 * with O_EXCL, mode 0600: only the user (and the job) can write it.  The
 * monitor follows it exactly like --events (plain lines or stageload JSONL,
 * docs/trace-format.md); it is removed at the end unless --keep-events, or
 * the job is left running (the directory must outlive the job's writes). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_job_events_create(cli_job_events *je)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || tmp[0] != '/')
        tmp = "/tmp";
    memset(je, 0, sizeof *je);
    if ((size_t)snprintf(je->dir, sizeof je->dir, "%s/stagetop-XXXXXX", tmp) >= sizeof je->dir) {
        fprintf(stderr, "stagetop: TMPDIR is too long for the job's events file\n");
        return -1;
    }
    if (!mkdtemp(je->dir)) {
        fprintf(stderr, "stagetop: cannot make a private directory in %s: %s\n", tmp,
                strerror(errno));
        je->dir[0] = '\0';
        return -1;
    }
    snprintf(je->path, sizeof je->path, "%s/events", je->dir);
    int fd = open(je->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "stagetop: %s: %s\n", je->path, strerror(errno));
        rmdir(je->dir);
        je->dir[0] = je->path[0] = '\0';
        return -1;
    }
    close(fd);
    return 0;
}

void cli_job_events_end(cli_job_events *je, int keep, int job_alive)
{
    if (!je->path[0])
        return;
    if (keep) {
        fprintf(stderr, "stagetop: the job's events file is kept: %s\n", je->path);
    } else if (job_alive) {
        /* The job may still append to $STAGETOP_EVENTS: removing the
         * private directory would let anyone make that path again (a
         * symlink to a file of the user's) and receive its writes.  The
         * directory stays, only the user can make anything in it. */
        fprintf(stderr, "stagetop: the job's events file stays while the job runs: %s "
                "(remove its directory when the job is over)\n", je->path);
    } else {
        unlink(je->path);
        rmdir(je->dir);
    }
    je->dir[0] = je->path[0] = '\0';
}
