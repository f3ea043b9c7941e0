/* trace_record.c: the JSONL record stream in stageload's record types.
 *
 * Each line is built in memory and written with one write(2), so a run
 * killed between two calls leaves whole lines.  One write(2) is not enough
 * on its own: Linux copies a buffered write page by page and stops between
 * two pages when a fatal signal (SIGKILL) is pending, so a line crossing a
 * page boundary of the file can be torn (tests/unit/test_trace_record.c
 * saw it within 20 kills).  So, on a regular file, a line that would cross
 * a 4 KiB boundary is preceded by a padding line up to the boundary
 * (spaces and a newline), written on its own: every record still starts
 * its line (grep '^{"type":"end"' finds it), and every write stays inside
 * one page, which the kernel copies whole or not at all.  Whitespace-only
 * lines are skipped by readers (stageload's and ours), also the tail a kill
 * between the two writes leaves.  Only a line longer than a
 * page (a huge start or end record) can still be torn.  Short writes (disk
 * full, signals) are retried.  The file's end is counted here, not asked of
 * the kernel (lseek) for every line.
 *
 * A file is created, never opened through a symlink (O_NOFOLLOW) and never
 * truncated: an existing name is refused (O_EXCL) unless the caller asked
 * to overwrite, and then the old file is unlinked first and created anew,
 * still with O_EXCL, so a link planted in between is refused too.  A
 * symlink is refused, overwrite or not (neither followed nor replaced).
 *
 * Durability (ST_REC_SYNC_*): the page cache dies with the machine (a
 * kernel panic), so the lines are pushed to the disk: by default at most
 * once a second, and soon after an event (a guard action is one): at once
 * when the last sync is 0.1 s old, else with the first line past that, so
 * a flood of events costs at most 10 syncs a second; the end record at
 * once. */
#include "stagetop/fd_sync.h"
#include "stagetop/clock.h"
#include "stagetop/trace.h"
#include "trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ST_REC_PAGE 4096 /* the smallest page size of the systems we run on */
#define ST_REC_URGENT_GAP 0.1 /* 1s mode: an event's sync waits until this long after the
                                 last one, so a flood of events costs at most 10 syncs a second */

struct st_recorder {
    int fd;
    int own;       /* we opened fd */
    int regular;   /* fd is a regular file: keep lines inside pages */
    int append;    /* fd is in O_APPEND mode: lines land at the file's end */
    off_t end;     /* where the next line lands; -1: unknown, ask the kernel */
    int sync;      /* ST_REC_SYNC_* */
    int dirty;     /* lines written since the last sync */
    double synced_at; /* monotonic seconds of the last sync */
    int urgent_due; /* an urgent sync was put off (ST_REC_URGENT_GAP) */
    uint64_t syncs;
    char label[256];
    char command[4096]; /* the watched command once it changed (-p follows
                           exec): written in the end record; "" none */
    st_jw line;    /* reused for every line */
};

/* Flush the file's data to the disk (not its timestamps): F_FULLFSYNC on
 * macOS (fd_sync.h). */
static int sync_fd(int fd) { return st_fd_sync_data(fd); }

/* Make a new file's name durable: sync the directory it is in. */
static void sync_dir_of(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
}

/* A new file at path; a FIFO or a device there is written to as it is
 * (nothing to overwrite).  -1 and errno (EEXIST: a file is there). */
static int open_new(const char *path, unsigned flags)
{
    const int how = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC;
    struct stat st;
    if (lstat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        int fd = open(path, O_WRONLY | O_NOFOLLOW | O_APPEND | O_CLOEXEC);
        if (fd >= 0 && (fstat(fd, &st) != 0 || S_ISREG(st.st_mode))) { /* swapped meanwhile */
            close(fd);
            errno = EEXIST;
            return -1;
        }
        return fd;
    }
    int fd = open(path, how, 0666);
    if (fd < 0 && errno == EEXIST && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        errno = ELOOP; /* say what is there */
        return -1;
    }
    if (fd < 0 && errno == EEXIST && (flags & ST_REC_OVERWRITE)) {
        if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a symlink is never replaced */
            errno = S_ISDIR(st.st_mode) ? EISDIR : S_ISLNK(st.st_mode) ? ELOOP : EEXIST;
            return -1;
        }
        if (unlink(path) != 0 && errno != ENOENT)
            return -1;
        fd = open(path, how, 0666);
    }
    return fd;
}

int st_recorder_open(st_recorder **out, const char *path, int fd, unsigned flags, st_error *err)
{
    *out = NULL;
    if (fd < 0 && (!path || !*path))
        return st_error_set(err, ST_EINVAL, EINVAL, "record: no file name");
    st_recorder *r = calloc(1, sizeof *r);
    if (!r)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    snprintf(r->label, sizeof r->label, "%s", path ? path : (fd == 1 ? "stdout" : "record stream"));
    if (fd >= 0) {
        r->fd = fd;
    } else {
        r->fd = open_new(path, flags);
        if (r->fd < 0) {
            int e = errno;
            free(r);
            if (e == EEXIST)
                return st_error_set(err, ST_EINVAL, e,
                                    "%s exists: not overwritten (--overwrite replaces it)", path);
            if (e == ELOOP)
                return st_error_set(err, ST_EINVAL, e, "%s is a symbolic link: not followed, not replaced",
                                    path);
            return st_error_set(err, ST_EIO, e, "cannot open %s: %s", path, strerror(e));
        }
        r->own = 1;
        sync_dir_of(path);
    }
    r->sync = ST_REC_SYNC_1S;
    struct stat st;
    r->regular = fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode);
    if (r->regular) { /* counted from here on: no lseek per line */
        int fl = fcntl(r->fd, F_GETFL);
        r->append = fl >= 0 && (fl & O_APPEND);
        r->end = r->append ? st.st_size : lseek(r->fd, 0, SEEK_CUR);
    }
    st_jw_init(&r->line, -1);
    *out = r;
    return ST_OK;
}

void st_recorder_set_sync(st_recorder *r, int mode)
{
    r->sync = mode;
}

int st_recorder_deleted(const st_recorder *r)
{
    struct stat st;
    return r->regular && fstat(r->fd, &st) == 0 && st.st_nlink == 0;
}

uint64_t st_recorder_syncs(const st_recorder *r)
{
    return r->syncs;
}

int st_recorder_sync(st_recorder *r, int urgent, st_error *err)
{
    if (!r->regular || !r->dirty || r->sync == ST_REC_SYNC_NEVER)
        return ST_OK;
    double now = st_now();
    if (r->sync == ST_REC_SYNC_1S && urgent < 2 && r->syncs) {
        double gap = urgent || r->urgent_due ? ST_REC_URGENT_GAP : 1.0;
        if (now - r->synced_at < gap) {
            r->urgent_due |= urgent; /* done by the next line (or the end) past the gap */
            return ST_OK;
        }
    }
    if (sync_fd(r->fd) != 0) {
        int e = errno;
        return st_error_set(err, ST_EIO, e, "syncing %s: %s", r->label, strerror(e));
    }
    r->synced_at = now;
    r->syncs++;
    r->dirty = 0;
    r->urgent_due = 0;
    return ST_OK;
}

/* Write the line buffered in r->line plus a newline, whole; then sync as
 * the mode says (urgent: an event or the end). */
static int emit_line(st_recorder *r, int urgent, st_error *err);

static int emit(st_recorder *r, st_error *err)
{
    return emit_line(r, 0, err);
}

static int emit_line(st_recorder *r, int urgent, st_error *err)
{
    int e = 0;
    st_jw_char(&r->line, '\n');
    if (r->line.err) {
        e = r->line.err;
        st_jw_reset(&r->line);
        return st_error_set(err, ST_ENOMEM, e, "record %s: out of memory", r->label);
    }
    if (r->regular) {
        if (r->end < 0) /* after a failed write: ask where we are */
            r->end = lseek(r->fd, 0, r->append ? SEEK_END : SEEK_CUR);
        size_t in = r->end > 0 ? (size_t)(r->end % ST_REC_PAGE) : 0;
        if (in > 0 && in + r->line.len > ST_REC_PAGE) {
            char pad[ST_REC_PAGE];
            size_t n = ST_REC_PAGE - in;
            memset(pad, ' ', n);
            pad[n - 1] = '\n'; /* a line of its own: every record starts its line */
            e = st_fd_write_all(r->fd, pad, n);
            if (!e && r->end >= 0)
                r->end += (off_t)n;
        }
    }
    if (!e)
        e = st_fd_write_all(r->fd, r->line.buf, r->line.len);
    if (!e && r->regular && r->end >= 0)
        r->end += (off_t)r->line.len;
    st_jw_reset(&r->line);
    if (e) {
        r->end = -1; /* part of it may have been written */
        return st_error_set(err, ST_EIO, e, "writing %s: %s", r->label, strerror(e));
    }
    r->dirty = 1;
    return st_recorder_sync(r, urgent ? urgent : r->sync == ST_REC_SYNC_ALWAYS, err);
}

/* ---- the records' lines, one builder each (the recorder's and the tap's,
 * trace_tap.c: the same bytes) ---- */

void st_trace_line_start(st_jw *w, const st_trace_meta *meta)
{
    int n = 1;
    st_jw_reset(w);
    st_jw_lit(w, "{\"type\":\"start\"");
    if (meta)
        st_jw_meta_members(w, meta, &n);
    st_jw_char(w, '}');
    if (meta && meta->extra && w->len >= ST_TRACE_MAX_LINE - ST_REC_PAGE) { /* without the extra keys */
        st_trace_meta m = *meta;
        m.extra = NULL;
        n = 1;
        st_jw_reset(w);
        st_jw_lit(w, "{\"type\":\"start\"");
        st_jw_meta_members(w, &m, &n);
        st_jw_lit(w, ",\"extra_omitted\":true}");
    }
}

void st_trace_line_sample(st_jw *w, const st_sample *s)
{
    st_jw_reset(w);
    st_jw_lit(w, "{\"type\":\"sample\",");
    st_jw_sample_members(w, s);
    st_jw_char(w, '}');
}

void st_trace_line_event(st_jw *w, const st_event *ev)
{
    st_jw_reset(w);
    st_jw_lit(w, "{\"type\":\"event\",");
    st_jw_event_members(w, ev);
    st_jw_char(w, '}');
}

void st_trace_line_end(st_jw *w, const char *command, const st_summary *s, uint64_t dropped_samples)
{
    st_jw_reset(w);
    st_jw_lit(w, "{\"type\":\"end\"");
    if (command && command[0]) { /* the start record's command was replaced by exec */
        st_jw_lit(w, ",\"command\":");
        st_jw_strn(w, command, strlen(command));
    }
    if (s) {
        st_jw_lit(w, ",\"summary\":");
        /* one line every reader takes, with the page padding before it
         * (up to a page): stages beyond it are left out (and counted),
         * since readers recompute them from the events */
        st_trace_summary_max(w, s, NULL, ST_TRACE_MAX_LINE - ST_REC_PAGE - 64);
    }
    st_jw_lit(w, ",\"dropped_samples\":");
    st_jw_u64(w, dropped_samples);
    st_jw_char(w, '}');
}

int st_recorder_start(st_recorder *r, const st_trace_meta *meta, st_error *err)
{
    st_trace_line_start(&r->line, meta);
    return emit(r, err);
}

int st_recorder_sample(st_recorder *r, const st_sample *s, st_error *err)
{
    st_trace_line_sample(&r->line, s);
    return emit(r, err);
}

int st_recorder_event(st_recorder *r, const st_event *ev, st_error *err)
{
    st_trace_line_event(&r->line, ev);
    return emit_line(r, 1, err);
}

void st_recorder_command(st_recorder *r, const char *command)
{
    snprintf(r->command, sizeof r->command, "%s", command ? command : "");
}

int st_recorder_end(st_recorder *r, const st_summary *s, uint64_t dropped_samples, st_error *err)
{
    st_trace_line_end(&r->line, r->command, s, dropped_samples);
    return emit_line(r, 2, err); /* the last line: synced now, whatever the gap */
}

void st_recorder_close(st_recorder *r)
{
    if (!r)
        return;
    if (r->own && r->fd >= 0)
        close(r->fd);
    st_jw_free(&r->line);
    free(r);
}
