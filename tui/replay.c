/* replay.c: `stagetop replay FILE|-`: a saved trace, or a JSONL stream on
 * stdin followed as it grows, in the live screen's layout.
 *
 * The lanes, the time axis and the event row are the live view's
 * (tui_lanes_draw), drawn from the trace's run view (st_trace_run_view),
 * which owns nothing: its samples, events and summary are the trace's.  The header, the summary (where the live screen
 * lists processes), the status line and the help are replay's own
 * (replay_draw.c).  Nothing here reads /proc or calls a platform backend.
 *
 * Following: stdin is the data and the keys come from /dev/tty.  Core's
 * trace reader (trace_stream.h) feeds records as their lines complete; a
 * malformed one is counted and shown, never fatal.  The summary is core's
 * (st_trace_refresh: it grows while records come in time order and is
 * recomputed when they do not), the same as a loaded file's. */
#include "replay.h"
#include "spark.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/clock.h"
#include "stagetop/limits.h"

#define RP_MAX_READ (1u << 20) /* bytes read from stdin per wake-up: keys stay responsive */

/* ---- the trace's columns ---- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Seconds per sample column.  stagetop samples on a fixed grid of
 * deadlines (k * interval), so its interval is exact.  stageload's meter
 * thread drifts (0.5 s asked, ~0.51 s between samples), and columns of
 * exactly 0.5 s would leave a blank column every 25 s: its columns are the
 * 95th percentile of the gaps between samples, rounded up to 10 ms, so
 * only real gaps (the meter did not run) stay blank. */
static double column_interval(const st_trace *t)
{
    double iv = st_interval_ok(t->meta.interval) ? t->meta.interval : 0;
    size_t n = t->n_samples;
    if (!(t->meta.stagetop[0] && iv > 0) && n >= 8) {
        uint32_t d[1024];
        size_t k = 0, step = (n - 2) / 1024 + 1;
        for (size_t i = 1; i < n && k < 1024; i += step)
            if (t->samples[i].t_ms >= t->samples[i - 1].t_ms)
                d[k++] = t->samples[i].t_ms - t->samples[i - 1].t_ms;
        if (k > 0) {
            qsort(d, k, sizeof d[0], cmp_u32);
            double est = ceil(d[k * 95 / 100] / 10.0) / 100.0;
            if (est > iv)
                iv = est;
        }
    }
    if (iv <= 0)
        iv = ST_INTERVAL_DEFAULT_S;
    return iv < ST_INTERVAL_MIN_S ? ST_INTERVAL_MIN_S
         : iv > ST_INTERVAL_MAX_S ? ST_INTERVAL_MAX_S : iv;
}

static void invalidate_lanes(replay *r)
{
    for (int i = 0; i < TUI_MAX_LANES; i++)
        r->v.lanes[i].n = 0;
}

/* Set the column interval from the trace (after any change to it). */
static void sync_view(replay *r)
{
    const st_trace *t = &r->t;
    /* the column interval: once for a file, at each doubling of a stream */
    if (t->meta.interval != r->meta_iv || t->meta.stagetop[0] != r->meta_st ||
        (t->n_samples >= 8 && t->n_samples >= 2 * r->est_at && r->est_at < 4096)) {
        r->meta_iv = t->meta.interval;
        r->meta_st = t->meta.stagetop[0];
        r->est_at = t->n_samples;
        double iv = column_interval(t);
        if (iv != r->iv) {
            if (r->v.frozen && r->iv > 0) /* keep the window's right edge in time */
                r->v.frozen_end = (int64_t)((double)(r->v.frozen_end + 1) * r->iv / iv) - 1;
            r->iv = iv;
            invalidate_lanes(r);
        }
    }
}

/* Bring the summary up to date with the records read since the last call
 * (core's st_trace_refresh: added to in time order, recomputed when not). */
static void absorb(replay *r)
{
    if (st_trace_refresh(&r->t)) /* re-sorted: the columns drawn so far are stale */
        invalidate_lanes(r);
}

/* ---- reading a stream ---- */

/* The lanes the screen shows for the trace so far (the layout's count). */
static int lanes_shown(const replay *r)
{
    st_run_view rv;
    int ids[TUI_MAX_LANES];
    rp_view(r, &rv);
    return tui_lanes_shown(&r->v, &rv, ids);
}

static void bad_line(replay *r, const char *msg)
{
    r->bad++;
    snprintf(r->bad_msg, sizeof r->bad_msg, "%s", msg);
    r->bad_until = st_now() + 10.0;
}

/* Read what stdin has now (up to 1 MiB, so keys stay responsive): the
 * trace reader feeds the records that completed into r->t. */
static void read_stream(replay *r)
{
    st_error e;
    size_t bad = r->rd.bad;
    st_error_clear(&e);
    int rc = st_trace_reader_poll(&r->rd, &r->t, RP_MAX_READ, &e);
    if (r->rd.bad != bad) {
        bad_line(r, r->rd.last_bad.msg[0] ? r->rd.last_bad.msg : "malformed record");
        r->bad = r->rd.bad;
    }
    if (rc != ST_OK) { /* the stream ends here; what came so far stays */
        if (r->rd.kind == ST_TRACE_DOC)
            bad_line(r, e.msg); /* the document did not load */
        else
            snprintf(r->read_error, sizeof r->read_error, "%.159s", e.msg);
        r->rd.ended = 1;
    }
    r->ended = r->rd.ended;
    if (r->rd.doc_loaded) { /* a JSON document replaced the records */
        r->rd.doc_loaded = 0;
        r->meta_iv = -1; /* set the columns again */
        r->est_at = 0;
        invalidate_lanes(r);
    }
    absorb(r);
    sync_view(r);
    r->dirty = 1;
}

/* ---- keys ---- */

static void do_export(replay *r, double now)
{
    char path[1024], stamp[32] = "";
    st_error e;
    time_t wall = st_wall_time();
    struct tm tm;
    if (localtime_r(&wall, &tm))
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(path, sizeof path, "%s/stagetop-replay-%s.json",
             r->o->export_dir ? r->o->export_dir : ".", stamp);
    st_error_clear(&e);
    if (st_trace_export(path, &r->t.meta, st_trace_view(&r->t), &r->t.events, &r->t.summary,
                        r->t.dropped_samples, &e) != ST_OK)
        tui_view_message(&r->v, now, 1, "export failed: %s", e.msg);
    else
        tui_view_message(&r->v, now, 0, "exported %s", path);
}

/* Samples per column so that the whole trace fits the window; a stream
 * being followed stays followed. */
static void fit(replay *r)
{
    int w = r->v.L.plot[0].w > 1 ? r->v.L.plot[0].w : 1;
    r->need_fit = r->v.L.too_small; /* again once there is room */
    st_run_view rv;
    rp_view(r, &rv);
    tui_view_fit(&r->v, &rv); /* the live screen's f too */
    if (r->ended) { /* a finished trace: from its start, the blank after its end */
        r->v.frozen = 1;
        r->v.frozen_end = w - 1;
    }
}

/* Move the window; it follows the newest sample again once it reaches it. */
static void pan(replay *r, int quarters)
{
    st_run_view rv;
    rp_view(r, &rv);
    if (!r->v.frozen)
        tui_view_freeze(&r->v, &rv);
    tui_view_pan(&r->v, &rv, quarters);
    if (quarters > 0 && r->v.frozen_end >= tui_newest_col(&r->v, &rv))
        r->v.frozen = 0;
}

/* Zoom keeping the window's right edge, but not past the trace's end. */
static void zoom(replay *r, int dir)
{
    tui_view_zoom(&r->v, dir);
    st_run_view rv;
    rp_view(r, &rv);
    int64_t newest = tui_newest_col(&r->v, &rv), w = r->v.L.plot[0].w;
    int64_t most = newest > w - 1 ? newest : w - 1;
    if (r->v.frozen && (r->v.frozen_end > most || newest < w - 1))
        r->v.frozen_end = most; /* all of it fits: from its start */
}

static void on_key(replay *r, int ch, double now)
{
    tui_view *v = &r->v;
    r->dirty = 1;
    if (ch == KEY_RESIZE) {
        rp_relayout(r);
        if (r->need_fit)
            fit(r);
        return;
    }
    if (ch == 12) { /* Ctrl-L */
        clearok(curscr, TRUE);
        return;
    }
    if (v->help) {
        v->help = 0;
        return;
    }
    switch (ch) {
    case KEY_LEFT: pan(r, -1); break;
    case KEY_RIGHT: pan(r, 1); break;
    case KEY_PPAGE: pan(r, -4); break;
    case KEY_NPAGE: pan(r, 4); break;
    case KEY_HOME: case 'g':
        v->frozen = 1;
        v->frozen_end = v->L.plot[0].w - 1;
        break;
    case KEY_END: case 'G': v->frozen = 0; break;
    case '+': case '=': zoom(r, 1); break;
    case '-': case '_': zoom(r, -1); break;
    case 'f': case 'F': fit(r); break;
    case 'T': { /* the clock of the start record's UTC time (whole seconds) plus t */
        double w0;
        if (!v->has_wall0 && tui_utc_seconds(r->t.meta.start_utc, &w0))
            tui_view_wall0(v, w0);
        if (!v->has_wall0)
            tui_view_message(v, now, 1, "the trace has no start time: no clock axis");
        else
            v->clock_axis = !v->clock_axis;
        break;
    }
    case ' ': {
        st_run_view rv;
        rp_view(r, &rv);
        tui_view_freeze(v, &rv);
        break;
    }
    case 'e': case 'E': do_export(r, now); break;
    case 'l': case 'L': {
        st_run_view rv;
        rp_view(r, &rv);
        tui_lanes_toggle_activity(v, &rv);
        rp_relayout(r);
        break;
    }
    case 's': case 'S': v->stages = !v->stages; break;
    case '?': case 'h': case 'H': case KEY_F(1): v->help = 1; break;
    case 'q': case 'Q': r->quit = 1; break;
    default: r->dirty = 0; break;
    }
}

/* ---- the screen ---- */


static void loop(replay *r, int key_fd)
{
    const tui_opts *o = r->o;
    double redraw = o->redraw_s > 0 ? o->redraw_s : 0.1, last_frame = -1e9;
    WINDOW *keys_in = tui_term_keys(); /* getch() on stdscr would refresh it */
    int empty = 0;
    r->dirty = 1;
    while (!r->quit && !(o->got_signal && *o->got_signal)) {
        double now = st_now(), next = last_frame + (r->dirty ? redraw : 1.0);
        if (now >= next) {
            if (tui_term_drawable()) { /* nothing on one column: see viewdraw.h */
                rp_draw(r, now);
                doupdate();
            }
            last_frame = now;
            r->dirty = 0;
            next = now + 1.0;
        }
        double left = next - st_now();
        int ms = left <= 0 ? 0 : left > 1.0 ? 1000 : (int)ceil(left * 1000.0);
        int fds[3] = {key_fd, r->follow && !r->ended ? STDIN_FILENO : -1, o->wake_fd}, ready[3];
        int rc = tui_term_wait(fds, ready, 3, ms); /* never poll(): viewdraw.h */
        if (rc < 0 && errno != EINTR)
            break;
        if (rc > 0 && ready[1]) {
            size_t stages = r->t.summary.n_stages;
            int lanes = lanes_shown(r);
            read_stream(r); /* frames still come at most every redraw_s */
            if (stages != r->t.summary.n_stages || lanes != lanes_shown(r))
                rp_relayout(r);
        }
        int resized = tui_term_sync_size(); /* queues KEY_RESIZE */
        if (rc < 0 || resized || ready[0]) {
            int ch, keys = 0;
            while ((ch = wgetch(keys_in)) != ERR && keys++ < 64)
                on_key(r, ch, st_now());
            if (r->dirty)
                last_frame = -1e9; /* answer a key at once */
            if (tui_term_gone(&empty, ready[0], keys))
                break; /* the terminal went away */
        }
    }
}

int tui_replay(const char *path, const tui_opts *o, st_error *err)
{
    replay *r = calloc(1, sizeof *r);
    FILE *in = NULL;
    SCREEN *scr = NULL;
    int rc = ST_OK, own_in = 0;
    if (!r)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    r->o = o;
    r->name = path;
    r->follow = strcmp(path, "-") == 0;
    r->meta_iv = -1;
    st_trace_init(&r->t);
    tui_view_init(&r->v, o);
    if (!r->follow) {
        /* the whole file before the screen: a bad one leaves the terminal alone */
        rc = st_trace_load_file(path, &r->t, err);
        r->ended = 1;
        if (rc == ST_OK && r->t.torn_line) /* a torn last line: left out, said on the screen */
            tui_view_message(&r->v, st_now(), 1,
                             "line %zu is cut (a torn copy?): left out; the %zu before it are shown",
                             (size_t)r->t.torn_line, (size_t)r->t.torn_line - 1);
        else if (rc == ST_OK && r->t.events.dropped)
            tui_view_message(&r->v, st_now(), 1, "%llu events left out (a reader keeps %zu; stages kept)",
                             (unsigned long long)r->t.events.dropped, r->t.events.max);
    } else if (isatty(STDIN_FILENO)) {
        rc = st_error_set(err, ST_EINVAL, 0, "stdin is a terminal: pipe a JSONL stream into "
                                             "`stagetop replay -`, or give a file");
    } else {
        rc = st_trace_reader_fd(&r->rd, STDIN_FILENO, 0, ST_TS_LIVE, 0, err);
    }
    if (rc == ST_OK && !isatty(STDOUT_FILENO))
        rc = st_error_set(err, ST_EINVAL, 0, "replay needs a terminal on stdout "
                                             "(for text: stagetop summary)");
    if (rc == ST_OK && (r->follow || !isatty(STDIN_FILENO))) {
        int fd = open("/dev/tty", O_RDONLY | O_CLOEXEC);
        in = fd >= 0 ? fdopen(fd, "r") : NULL;
        if (!in) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            rc = st_error_set(err, ST_EINVAL, e, "no terminal for the keys (/dev/tty: %s)", strerror(e));
        }
        own_in = 1;
    } else {
        in = stdin;
    }
    if (rc == ST_OK)
        rc = tui_term_start_on(in, &scr, err);
    if (rc == ST_OK) {
        sync_view(r);
        tui_view_colors(&r->v);
        rp_relayout(r);
        if (!r->follow)
            fit(r);
        loop(r, fileno(in));
        tui_term_end(scr);
    }
    if (own_in && in)
        fclose(in);
    tui_view_free(&r->v);
    st_trace_free(&r->t);
    st_trace_reader_close(&r->rd);
    free(r);
    return rc;
}
