/* cli_files.c: the files a watched run writes or follows, checked before a
 * job is started (so a refusal never leaves a job behind): --record over
 * an existing file needs --overwrite, its directory must take a new file
 * (a read-only one is refused now, not after the run), a .json record is
 * locked for the run; --events must be a regular file or a FIFO; and the
 * launched job's log, created without following a planted symlink. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/prerun.h"
#include "stagetop/atomic_file.h"
#include "stagetop/clock.h"

/* A .json record is written at the end (atomically, over its name): from
 * the start its name holds a placeholder, locked (flock) for as long as
 * this stagetop runs, so a second run with the same --record is refused
 * instead of the two replacing each other's trace.  At exit an empty
 * placeholder that is still ours (the run ended before writing) is
 * removed.  One per process (the exit hook needs it). */
static struct {
    int fd;
    dev_t dev;
    ino_t ino;
    char path[4096];
} rec_lock = { -1, 0, 0, "" };

static void drop_placeholder(void)
{
    struct stat a, b;
    if (rec_lock.fd < 0)
        return;
    if (fstat(rec_lock.fd, &a) == 0 && a.st_size == 0 && lstat(rec_lock.path, &b) == 0 &&
        a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        unlink(rec_lock.path);
    close(rec_lock.fd);
    rec_lock.fd = -1;
}

static int lock_json_record(const char *rec, int overwrite)
{
    int fd = open(rec, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (overwrite ? 0 : O_EXCL), 0666);
    struct stat st;
    if (fd < 0) {
        fprintf(stderr, "stagetop: --record: %s: %s\n", rec, strerror(errno));
        return CLI_EXIT_WATCH;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        fprintf(stderr, "stagetop: --record: %s: %s\n", rec,
                e == EWOULDBLOCK ? "another stagetop is recording to it" : strerror(e));
        return CLI_EXIT_USAGE;
    }
    if (fstat(fd, &st) != 0 || strlen(rec) >= sizeof rec_lock.path) {
        close(fd);
        fprintf(stderr, "stagetop: --record: %s: cannot lock it\n", rec);
        return CLI_EXIT_WATCH;
    }
    rec_lock.fd = fd;
    rec_lock.dev = st.st_dev;
    rec_lock.ino = st.st_ino;
    strcpy(rec_lock.path, rec);
    atexit(drop_placeholder);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

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

int cli_preflight(cli_args *a)
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
    int orc = cli_check_outputs(a); /* before --record's placeholder is made */
    if (orc)
        return orc;
    st_error e;
    if (rec && st_atomic_check(rec, &e) != ST_OK) { /* a file can be made there: now, not at the end */
        fprintf(stderr, "stagetop: --record: %s\n", e.msg);
        return CLI_EXIT_WATCH;
    }
    if (rec && ends_with(rec, ".json")) {
        int rc = lock_json_record(rec, a->mon.record_overwrite);
        if (rc != 0)
            return rc;
        a->mon.record_overwrite = 1; /* what is there now is our placeholder */
    }
    if (a->mon.events_path && stat(a->mon.events_path, &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISFIFO(st.st_mode)) {
        fprintf(stderr, "stagetop: --events: %s is not a regular file or FIFO (a trace the "
                        "job writes)\n", a->mon.events_path);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_check_zombie(const st_platform *plat, int32_t pid, const char *who)
{
    int z = st_prerun_is_zombie(plat, pid) == 1;
    if (z)
        fprintf(stderr, "stagetop: %spid %ld is a zombie: it has exited and its parent has not "
                "reaped it, so nothing of it can be read\n", who, (long)pid);
    return z;
}

int cli_open_job_log(const cli_args *a, char *path, size_t len)
{
    int fd;
    if (a->job_log) { /* the user's own log: appended to */
        snprintf(path, len, "%s", a->job_log);
        /* Not blocking: a FIFO that nothing reads would hold stagetop in
         * open() before the screen (ENXIO instead); the job gets the file
         * as a shell would give it, blocking. */
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
        if (fd < 0 && errno == ENXIO) {
            fprintf(stderr, "stagetop: %s: a FIFO that nothing reads (start its reader first)\n", path);
            return -1;
        }
        if (fd >= 0) {
            int fl = fcntl(fd, F_GETFL);
            if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
                fprintf(stderr, "stagetop: %s: %s\n", path, strerror(errno));
                close(fd);
                return -1;
            }
        }
    } else {
        /* A predictable name: created anew (O_EXCL), never through a
         * symlink someone planted there; taken: -2, -3, ... */
        char stamp[32] = "";
        time_t now = st_wall_time();
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
