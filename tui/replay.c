/* replay.c: `stagetop replay FILE|-`: a saved trace, or a JSONL stream on
 * stdin followed as it grows, in the live screen's layout.
 *
 * The lanes, the time axis and the event row are the live view's
 * (tui_lanes_draw), drawn from the trace's run view (st_trace_run_view),
 * which owns nothing: its samples, events and summary are the trace's.  The header, the summary (where the live screen
 * lists processes), the status line and the help are replay's own
 * (replay_draw.c).  Nothing here reads /proc or calls a platform backend.
 *
 * Following: stdin is the data and the keys come from /dev/tty.  Lines are
 * fed to the importer as they complete; a malformed one is counted and
 * shown, never fatal.  The summary grows incrementally while records come
 * in time order, and is recomputed (st_trace_finish) when they do not. */
#include "replay.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/grow.h"
#include "stagetop/json.h"

#define RP_MAX_LINE 65536        /* the importer refuses longer lines */
#define RP_CHUNK 65536           /* bytes per read() */
#define RP_MAX_DOC (1ULL << 30)  /* a JSON document read from stdin */

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
    double iv = t->meta.interval >= 0.01 && t->meta.interval <= 60 ? t->meta.interval : 0;
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
        iv = 0.5;
    return iv < 0.01 ? 0.01 : iv > 60 ? 60 : iv;
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

/* Bring the summary up to date with the records fed since the last call. */
static void absorb(replay *r)
{
    st_trace *t = &r->t;
    size_t ns = t->n_samples, ne = t->events.len, i, j;
    if (ns == r->fed_s && ne == r->fed_e)
        return;
    /* Incremental only when the new records extend the fed ones in time
     * (an event at the same t as a fed sample would have gone before it). */
    uint32_t ls = r->fed_s ? t->samples[r->fed_s - 1].t_ms : 0;
    uint32_t le = r->fed_e ? t->events.v[r->fed_e - 1].t_ms : 0;
    int ordered = 1;
    for (i = r->fed_s; i < ns && ordered; i++)
        ordered = !(i > 0 && t->samples[i].t_ms < t->samples[i - 1].t_ms) &&
                  !(r->fed_e && t->samples[i].t_ms < le);
    for (j = r->fed_e; j < ne && ordered; j++)
        ordered = !(j > 0 && t->events.v[j].t_ms < t->events.v[j - 1].t_ms) &&
                  !(r->fed_s && t->events.v[j].t_ms <= ls);
    if (!ordered) {
        st_trace_finish(t); /* sorts both lists, recomputes the summary */
        invalidate_lanes(r);
    } else {
        for (i = r->fed_s, j = r->fed_e; i < ns || j < ne;) {
            if (j < ne && (i >= ns || t->events.v[j].t_ms <= t->samples[i].t_ms))
                (void)st_summary_add_event(&t->summary, &t->events.v[j++], NULL);
            else
                (void)st_summary_add_sample(&t->summary, &t->samples[i++], NULL);
        }
        st_summary_finish(&t->summary);
    }
    r->fed_s = ns;
    r->fed_e = ne;
}

/* ---- reading a stream ---- */

static void bad_line(replay *r, const char *msg)
{
    r->bad++;
    snprintf(r->bad_msg, sizeof r->bad_msg, "%s", msg);
    r->bad_until = st_now() + 10.0;
}

static int buf_add(char **p, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (st_grow(p, cap, *len + n + 1, 1, 4096) != 0)
        return -1;
    memcpy(*p + *len, s, n);
    *len += n;
    (*p)[*len] = '\0';
    return 0;
}

static void doc_add(replay *r, const char *s, size_t n)
{
    if (r->doc_failed)
        return;
    if (r->dlen + n > RP_MAX_DOC || buf_add(&r->dbuf, &r->dlen, &r->dcap, s, n) != 0) {
        r->doc_failed = 1;
        bad_line(r, r->dlen + n > RP_MAX_DOC ? "the JSON document is larger than 1 GiB"
                                             : "out of memory for the JSON document");
    }
}

/* Is this first line the start of a JSON document ({"format": ...})
 * rather than a JSONL record? */
static int starts_doc(const char *s, size_t n)
{
    st_jr jr;
    char key[16];
    int k = 0;
    st_jr_init(&jr, s, n, 1, NULL);
    return st_jr_obj_begin(&jr) == ST_OK && st_jr_obj_next(&jr, &k, key, sizeof key, NULL) == 1 &&
           strcmp(key, "format") == 0;
}

static void line_done(replay *r)
{
    st_error e;
    r->lineno++;
    if (!r->seen_data) {
        size_t k = 0;
        while (k < r->plen && (r->pend[k] == ' ' || r->pend[k] == '\t' || r->pend[k] == '\r'))
            k++;
        if (k < r->plen) {
            r->seen_data = 1;
            if (starts_doc(r->pend, r->plen)) {
                r->doc = 1;
                doc_add(r, r->pend, r->plen);
                doc_add(r, "\n", 1);
                r->plen = 0;
                return;
            }
        }
    }
    st_error_clear(&e);
    if (st_trace_feed_line(&r->t, r->pend, r->plen, r->lineno, &e) != ST_OK)
        bad_line(r, e.msg[0] ? e.msg : "malformed record");
    r->plen = 0;
}

/* Split bytes into lines; an over-long line is reported and dropped. */
static void take_bytes(replay *r, const char *buf, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (r->doc) {
            doc_add(r, buf + i, n - i);
            return;
        }
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - buf) : n;
        if (!r->skipping) {
            if (r->plen + (end - i) > RP_MAX_LINE) {
                char msg[96];
                snprintf(msg, sizeof msg, "line %zu: longer than %d bytes", r->lineno + 1, RP_MAX_LINE);
                bad_line(r, msg);
                r->plen = 0;
                r->skipping = 1;
            } else if (buf_add(&r->pend, &r->plen, &r->pcap, buf + i, end - i) != 0) {
                bad_line(r, "out of memory for a line");
                r->plen = 0;
                r->skipping = 1;
            }
        }
        if (nl) {
            if (r->skipping) {
                r->skipping = 0;
                r->lineno++;
            } else {
                line_done(r);
            }
        }
        i = end + (nl ? 1 : 0);
    }
}

static void stream_end(replay *r)
{
    if (r->plen > 0 && !r->skipping) /* a last line without its newline */
        line_done(r);
    r->ended = 1;
    if (r->doc && !r->doc_failed) {
        st_trace d;
        st_error e;
        st_error_clear(&e);
        if (st_trace_load_mem(r->dbuf, r->dlen, &d, &e) != ST_OK) {
            bad_line(r, e.msg);
        } else {
            st_trace_free(&r->t);
            r->t = d;
            r->fed_s = d.n_samples;
            r->fed_e = d.events.len;
            r->meta_iv = -1; /* set the columns again */
            r->est_at = 0;
            invalidate_lanes(r);
        }
    }
    free(r->dbuf);
    r->dbuf = NULL;
    r->dlen = r->dcap = 0;
}

/* Read what stdin has now (up to 1 MiB, so keys stay responsive). */
static void read_stream(replay *r)
{
    char buf[RP_CHUNK];
    for (int rounds = 0; rounds < 16 && !r->ended; rounds++) {
        ssize_t k = read(STDIN_FILENO, buf, sizeof buf);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            break;
        if (k < 0) {
            snprintf(r->read_error, sizeof r->read_error, "read error: %s", strerror(errno));
            stream_end(r);
        } else if (k == 0) {
            stream_end(r);
        } else {
            take_bytes(r, buf, (size_t)k);
        }
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (k < (ssize_t)sizeof buf || poll(&p, 1, 0) <= 0)
            break;
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
    time_t wall = time(NULL);
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
    r->v.frozen = 0;
    r->v.per_col = 1;
    st_run_view rv;
    rp_view(r, &rv);
    uint64_t last = (uint64_t)tui_newest_col(&r->v, &rv);
    r->v.per_col = (unsigned)(last / (uint64_t)w + 1 < 10000 ? last / (uint64_t)w + 1 : 10000);
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
    case ' ': {
        st_run_view rv;
        rp_view(r, &rv);
        tui_view_freeze(v, &rv);
        break;
    }
    case 'e': case 'E': do_export(r, now); break;
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
    r->dirty = 1;
    while (!r->quit && !(o->got_signal && *o->got_signal)) {
        double now = st_now(), next = last_frame + (r->dirty ? redraw : 1.0);
        if (now >= next) {
            rp_draw(r, now);
            doupdate();
            last_frame = now;
            r->dirty = 0;
            next = now + 1.0;
        }
        double left = next - st_now();
        int ms = left <= 0 ? 0 : left > 1.0 ? 1000 : (int)ceil(left * 1000.0);
        struct pollfd p[3];
        int np = 0, ik = np++, id = -1, iw = -1;
        p[ik] = (struct pollfd){.fd = key_fd, .events = POLLIN};
        if (r->follow && !r->ended) {
            id = np++;
            p[id] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
        }
        if (o->wake_fd >= 0) {
            iw = np++;
            p[iw] = (struct pollfd){.fd = o->wake_fd, .events = POLLIN};
        }
        int rc = poll(p, (nfds_t)np, ms);
        if (rc < 0 && errno != EINTR)
            break;
        if (rc > 0 && id >= 0 && (p[id].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
            size_t stages = r->t.summary.n_stages;
            int gpu = r->t.summary.has_gpu;
            read_stream(r); /* frames still come at most every redraw_s */
            if (stages != r->t.summary.n_stages || gpu != r->t.summary.has_gpu)
                rp_relayout(r);
        }
        if (rc < 0 || (p[ik].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
            int ch, keys = 0;
            while ((ch = getch()) != ERR && keys++ < 64)
                on_key(r, ch, st_now());
            if (r->dirty)
                last_frame = -1e9; /* answer a key at once */
            if (p[ik].revents & (POLLHUP | POLLERR | POLLNVAL))
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
        r->fed_s = r->t.n_samples;
        r->fed_e = r->t.events.len;
        r->ended = 1;
    } else if (isatty(STDIN_FILENO)) {
        rc = st_error_set(err, ST_EINVAL, 0, "stdin is a terminal: pipe a JSONL stream into "
                                             "`stagetop replay -`, or give a file");
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
    free(r->pend);
    free(r->dbuf);
    free(r);
    return rc;
}
