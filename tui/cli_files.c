/* cli_files.c: the files a watched run writes or follows, checked before a
 * job is started (so a refusal never leaves a job behind): --record over
 * an existing file needs --overwrite, --events must be a regular file or
 * a FIFO; and the launched job's log, created without following a
 * planted symlink. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_parse_record_sync(const char *s, int *mode)
{
    if (strcmp(s, "never") == 0)
        *mode = ST_REC_SYNC_NEVER;
    else if (strcmp(s, "1s") == 0)
        *mode = ST_REC_SYNC_1S;
    else if (strcmp(s, "always") == 0)
        *mode = ST_REC_SYNC_ALWAYS;
    else
        return -1;
    return 0;
}

int cli_preflight(const cli_args *a)
{
    struct stat st;
    const char *rec = a->mon.record_path;
    if (rec && lstat(rec, &st) == 0) {
        const char *why = NULL;
        if (S_ISLNK(st.st_mode))
            why = "is a symbolic link: stagetop neither follows nor replaces it";
        else if (S_ISDIR(st.st_mode))
            why = "is a directory";
        else if (S_ISREG(st.st_mode) && !a->mon.record_overwrite)
            why = "exists; it is not overwritten unless you add --overwrite";
        if (why) {
            fprintf(stderr, "stagetop: --record: %s %s\n", rec, why);
            return CLI_EXIT_USAGE;
        }
    }
    int no_dir = a->export_dir && stat(a->export_dir, &st) != 0 ? errno : 0;
    if (a->export_dir && (no_dir || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "stagetop: --export-dir: %s %s%s\n", a->export_dir,
                no_dir == ENOENT ? "does not exist" : no_dir ? strerror(no_dir) : "is not a directory",
                " (it must be an existing directory; nothing was started)");
        return CLI_EXIT_USAGE;
    }
    if (a->mon.events_path && stat(a->mon.events_path, &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISFIFO(st.st_mode)) {
        fprintf(stderr, "stagetop: --events: %s is not a regular file or FIFO (a trace the "
                        "job writes)\n", a->mon.events_path);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_open_job_log(const cli_args *a, char *path, size_t len)
{
    int fd;
    if (a->job_log) { /* the user's own log: appended to */
        snprintf(path, len, "%s", a->job_log);
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    } else {
        /* A predictable name: created anew (O_EXCL), never through a
         * symlink someone planted there; taken: -2, -3, ... */
        char stamp[32] = "";
        time_t now = time(NULL);
        struct tm tm;
        if (localtime_r(&now, &tm))
            strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        fd = -1;
        errno = EEXIST;
        for (int i = 1; fd < 0 && errno == EEXIST && i <= 100; i++) {
            if (i == 1)
                snprintf(path, len, "%s/stagetop-job-%s.log", a->export_dir, stamp);
            else
                snprintf(path, len, "%s/stagetop-job-%s-%d.log", a->export_dir, stamp, i);
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0666);
        }
    }
    if (fd < 0)
        fprintf(stderr, "stagetop: %s: %s\n", path, strerror(errno));
    return fd;
}
