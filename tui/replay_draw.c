/* replay_draw.c: the replay screen: header (REPLAY and the trace), the
 * live view's lanes drawn up to the window's right edge, the window's time
 * range, the trace's summary where the live screen lists processes, the
 * status line and the help. */
#include "replay.h"
#include "sanitize.h"
#include "spark.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stagetop/limits.h"
#include "stagetop/units.h"

enum { RP_LINES = 12, RP_LINE = 200, RP_TWO_COLS = 96 };

/* ---- the window ---- */

static uint32_t col_ms(const replay *r)
{
    long iv = lround(r->iv * 1000.0);
    return iv < 1 ? 1 : (uint32_t)iv;
}

void rp_view(const replay *r, st_run_view *out)
{
    st_trace_run_view(&r->t, r->t.n_samples, r->t.events.len, r->iv, out);
}

/* The whole trace's summary, as its run view gives it. */
static const st_summary *rp_summary(const replay *r)
{
    st_run_view v;
    rp_view(r, &v);
    return v.summary;
}

/* The run as it was at the window's right edge: the samples and events up
 * to it, so the lane labels give the values there (the peaks stay the
 * whole trace's). */
static void edge_view(const replay *r, st_run_view *out)
{
    const st_trace *t = &r->t;
    if (!r->v.frozen || t->n_samples == 0) {
        rp_view(r, out);
        return;
    }
    double lim_d = (double)(r->v.frozen_end + 1) * r->v.per_col * col_ms(r);
    uint32_t lim = lim_d >= 4294967295.0 ? UINT32_MAX : lim_d <= 0 ? 0 : (uint32_t)lim_d;
    size_t lo = 0, hi = t->n_samples;
    while (lo < hi) { /* the first sample at or after the edge */
        size_t mid = lo + (hi - lo) / 2;
        if (t->samples[mid].t_ms < lim)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t ns = lo ? lo : 1;
    lo = 0;
    hi = t->events.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->events.v[mid].t_ms < lim)
            lo = mid + 1;
        else
            hi = mid;
    }
    st_trace_run_view(t, ns, lo, r->iv, out);
}

/* "m:ss" or "h:mm:ss" (whole seconds, rounded down). */
static char *clock_text(double s, char *buf, size_t len)
{
    unsigned long x = s > 0 ? (unsigned long)s : 0;
    if (x < 3600)
        snprintf(buf, len, "%lu:%02lu", x / 60, x % 60);
    else
        snprintf(buf, len, "%lu:%02lu:%02lu", x / 3600, x / 60 % 60, x % 60);
    return buf;
}

/* The window's time range, "1:23–2:11", clamped to the trace. */
static void range_text(const replay *r, char *buf, size_t len)
{
    const tui_view *v = &r->v;
    double col_s = v->per_col * (col_ms(r) / 1000.0);
    st_run_view rv;
    rp_view(r, &rv);
    int64_t end = v->frozen ? v->frozen_end : tui_newest_col(v, &rv);
    double t0 = (double)(end - (v->L.plot[0].w - 1)) * col_s, t1 = (double)(end + 1) * col_s;
    double last = rv.last ? rv.last->t_ms / 1000.0 : 0;
    char a[24], b[24];
    snprintf(buf, len, "%s%s%s", clock_text(t0, a, sizeof a), v->ascii ? "-" : "\xe2\x80\x93",
             clock_text(t1 < last ? t1 : last, b, sizeof b));
    if (v->per_col > 1)
        snprintf(buf + strlen(buf), len - strlen(buf), " (%u/col)", v->per_col);
}

/* The time axis in the trace's own time: a tick where each step of
 * tui_axis_step() falls, labelled "m:ss" after it (the live view's axis
 * counts back from now, which means nothing in a replay); with T the clock
 * time of the start record's UTC time plus t (view_util.c). */
static void draw_axis(const replay *r)
{
    const tui_view *v = &r->v;
    const tui_box *b = &v->L.axis;
    int w = b->w < 1024 ? b->w : 1024;
    if (w <= 0)
        return;
    uint32_t iv = col_ms(r);
    double col_s = v->per_col * (iv / 1000.0), step = tui_axis_step(col_s);
    st_run_view rv;
    rp_view(r, &rv);
    int64_t end = v->frozen ? v->frozen_end : tui_newest_col(v, &rv), c0 = end - (w - 1);
    char cell[1024], out[1024 * 3 + 1];
    if (v->clock_axis && v->has_wall0) { /* key T: the clock of the start record's time */
        tui_axis_row(v, &rv, end, w, out, sizeof out);
        tui_put(b->y, b->x, b->w, out, tui_attr(v, TUI_PAIR_DIM));
        return;
    }
    for (int x = 0; x < w; x++)
        cell[x] = c0 + x >= 0 ? 1 : 0; /* 0 blank (before the start), 1 rule, 2 tick, else text */
    double first = c0 > 0 ? (double)c0 * col_s : 0;
    for (double m = ceil(first / step - 1e-9); m < 1e12; m++) {
        double ms = m * step * 1000.0;
        int64_t x = (int64_t)((uint64_t)llround(ms) / iv / v->per_col) - c0;
        if (x >= w)
            break;
        if (x < 0)
            continue;
        char label[24];
        if (step >= 1)
            clock_text(m * step, label, sizeof label);
        else
            snprintf(label, sizeof label, "%.1fs", m * step);
        cell[x] = 2;
        size_t n = strlen(label);
        if (x + 1 + (int64_t)n < w)
            for (size_t i = 0; i < n; i++)
                cell[x + 1 + (int64_t)i] = label[i];
    }
    size_t o = 0;
    for (int x = 0; x < w; x++) {
        const char *g = cell[x] == 0 ? " " : cell[x] == 1 ? (v->ascii ? "-" : "\xe2\x94\x80")
                      : cell[x] == 2 ? (v->ascii ? "+" : "\xe2\x94\xb4") : NULL;
        if (!g)
            out[o++] = cell[x];
        else
            for (; *g; g++)
                out[o++] = *g;
    }
    out[o] = '\0';
    tui_put(b->y, b->x, b->w, out, tui_attr(v, TUI_PAIR_DIM));
}

/* ---- the summary ---- */

static void pad_to(char *out, size_t len, const char *text, int cols)
{
    int w = tui_text_fit(text, cols, out, len);
    size_t o = strlen(out);
    while (w++ < cols && o + 1 < len)
        out[o++] = ' ';
    out[o] = '\0';
}

/* The left part: peaks, swap, level, loads. */
static int summary_left(const replay *r, char out[][RP_LINE])
{
    const st_summary *s = rp_summary(r);
    const char *arrow = r->v.ascii ? " -> " : " \xe2\x86\x92 ";
    char a[32], b[32], c[32];
    int n = 0;
    snprintf(out[n++], RP_LINE, "peak footprint  %s", st_format_bytes(s->peak_footprint, a, sizeof a));
    snprintf(out[n++], RP_LINE, "kernel peak     %s%s%s%s",
             s->has_kernel_peak ? st_format_bytes(s->kernel_peak, a, sizeof a) : "n/a",
             s->kernel_peak_source[0] ? " (" : "", s->kernel_peak_source,
             s->kernel_peak_source[0] ? ")" : "");
    if (s->has_gpu)
        snprintf(out[n++], RP_LINE, "peak GPU        %s", st_format_bytes(s->peak_gpu, a, sizeof a));
    if (s->has_swap) {
        snprintf(out[n++], RP_LINE, "swap            %s%s%s%s%s", st_format_bytes(s->swap_start, a, sizeof a),
                 arrow, st_format_bytes(s->swap_peak, b, sizeof b), arrow,
                 st_format_bytes(s->swap_end, c, sizeof c));
        snprintf(out[n++], RP_LINE, "                (start%speak%send; +%s at the peak)", arrow, arrow,
                 st_format_bytes(s->swap_peak - s->swap_start, a, sizeof a));
    } else {
        snprintf(out[n++], RP_LINE, "swap            n/a");
    }
    if (s->has_level)
        snprintf(out[n++], RP_LINE, "min level       %.1f%%", s->min_level_c / 100.0);
    else
        snprintf(out[n++], RP_LINE, "min level       n/a");
    if (s->loads_count) {
        st_format_duration(s->loads_seconds, b, sizeof b);
        snprintf(out[n++], RP_LINE, "loads           %llu, %s in %s", (unsigned long long)s->loads_count,
                 st_format_bytes(s->loads_bytes, a, sizeof a), b);
    }
    if (s->releases_count)
        snprintf(out[n++], RP_LINE, "releases        %llu, %s", (unsigned long long)s->releases_count,
                 st_format_bytes(s->releases_bytes, a, sizeof a));
    if (r->t.dropped_samples)
        snprintf(out[n++], RP_LINE, "missed          %llu samples",
                 (unsigned long long)r->t.dropped_samples);
    return n;
}

static int name_width(const st_summary *s)
{
    int w = 10;
    for (size_t i = 0; i < s->n_stages && w < 24; i++) {
        char safe[256];
        int x = tui_sanitize(s->stages[i].stage, strnlen(s->stages[i].stage, sizeof s->stages[i].stage),
                             0, 24, safe, sizeof safe);
        if (x > w)
            w = x;
    }
    return w;
}

/* Rows the summary wants under its title. */
static int summary_rows(const replay *r, int cols)
{
    char left[RP_LINES][RP_LINE];
    int n = summary_left(r, left), st = (int)rp_summary(r)->n_stages + 1;
    return cols >= RP_TWO_COLS ? (n > st ? n : st) : n + st;
}

void rp_relayout(replay *r)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    st_run_view rv;
    int ids[TUI_MAX_LANES];
    rp_view(r, &rv);
    tui_layout_compute(cols, rows, tui_lanes_shown(&r->v, &rv, ids), summary_rows(r, cols), &r->v.L);
}

static void stage_row(const replay *r, const st_summary *s, size_t i, int nw, char *out, size_t len)
{
    char safe[256], name[256], d[32], p[32];
    st_stage_row row;
    st_summary_stage(s, i, &row);
    int64_t ms = row.seconds_ms;
    uint64_t peak = row.peak_footprint;
    int has_peak = row.has_peak;
    tui_sanitize(s->stages[i].stage, strnlen(s->stages[i].stage, sizeof s->stages[i].stage),
                 r->v.ascii, nw, safe, sizeof safe);
    pad_to(name, sizeof name, safe, nw);
    snprintf(out, len, "%s %8s %10s", name, st_format_duration(ms > 0 ? ms / 1000.0 : 0, d, sizeof d),
             has_peak ? st_format_bytes(peak, p, sizeof p) : "-");
}

static void draw_summary(const replay *r)
{
    const tui_view *v = &r->v;
    const tui_box *b = &v->L.list;
    const st_summary *s = rp_summary(r);
    if (b->h <= 0)
        return;
    char left[RP_LINES][RP_LINE], line[RP_LINE], title[RP_LINE], d[32];
    int nl = summary_left(r, left), nw = name_width(s), two = b->w >= RP_TWO_COLS;
    int sx = two ? b->w - (nw + 20) - 1 : 0; /* the stage table's column */
    attr_t bar = tui_attr(v, TUI_PAIR_BAR);
    attrset(bar);
    mvhline(b->y, b->x, ' ', b->w);
    snprintf(title, sizeof title, "SUMMARY  %zu sample%s over %s", s->n_samples, s->n_samples == 1 ? "" : "s",
             st_format_duration(s->n_samples ? (s->last_t_ms - s->first_t_ms) / 1000.0 : 0, d, sizeof d));
    tui_put(b->y, b->x, two ? sx - 1 : b->w, title, bar | A_BOLD);
    char head[96], pad[64];
    pad_to(pad, sizeof pad, "STAGE", nw);
    snprintf(head, sizeof head, "%s %8s %10s", pad, "TIME", "PEAK");
    int y = b->y + 1, rows = b->h - 1;
    for (int i = 0; i < nl && (two || i < rows); i++)
        tui_put(y + i, b->x, two ? sx - 1 : b->w, left[i], A_NORMAL);
    int sy = two ? b->y : y + nl, srows = two ? b->h : rows - nl;
    if (srows <= 0)
        return;
    if (srows == 1 && s->n_stages > 0) { /* no room for the table */
        snprintf(line, sizeof line, "%zu stage%s (a taller terminal lists them)", s->n_stages,
                 s->n_stages == 1 ? "" : "s");
        tui_put(sy, b->x, b->w, line, tui_attr(v, TUI_PAIR_DIM));
        return;
    }
    tui_put(sy, b->x + sx, b->w - sx, head, two ? bar | A_BOLD : A_BOLD);
    size_t ns = s->n_stages, shown = (size_t)(srows - 1) < ns ? (size_t)(srows - 1) : ns;
    if (shown < ns && shown > 0)
        shown--; /* room for the "more" line */
    for (size_t i = 0; i < shown; i++) {
        stage_row(r, s, i, nw, line, sizeof line);
        tui_put(sy + 1 + (int)i, b->x + sx, b->w - sx, line, A_NORMAL);
    }
    if (shown < ns && srows >= 2) {
        snprintf(line, sizeof line, "%s %zu more stage%s", v->ascii ? "..." : "\xe2\x80\xa6", ns - shown,
                 ns - shown == 1 ? "" : "s");
        tui_put(sy + 1 + (int)shown, b->x + sx, b->w - sx, line, tui_attr(v, TUI_PAIR_DIM));
    }
}

/* ---- header ---- */

/* The start record's other keys as "k=v k=v" (stageload's mode, pipeline,
 * ...): strings, numbers and booleans of at most 24 bytes. */
static void extras_text(const st_trace_meta *meta, char *out, size_t len)
{
    st_meta_iter it;
    st_meta_item item;
    char val[32];
    int shown = 0;
    size_t off = 0;
    out[0] = '\0';
    st_meta_iter_init(&it, meta);
    while (shown < 8 && st_meta_iter_next(&it, &item, 25)) {
        int trunc = item.type == ST_META_STR && item.truncated;
        if (item.type == ST_META_STR) {
            snprintf(val, sizeof val, "%.31s", item.str);
        } else if (item.type == ST_META_NUM) {
            trunc = item.num_len > 24;
            snprintf(val, sizeof val, "%.*s", (int)(trunc ? 24 : item.num_len), item.num);
        } else {
            snprintf(val, sizeof val, "%s", item.b ? "true" : "false");
        }
        if (trunc || !val[0] || strcmp(item.key, "utc") == 0)
            continue;
        int w = snprintf(out + off, len - off, "%s%.31s=%s", shown ? " " : "", item.key, val);
        if (w < 0 || (size_t)w >= len - off) {
            out[off] = '\0';
            return;
        }
        off += (size_t)w;
        shown++;
    }
}

/* Safe text of at most cols columns that keeps the end of s (a path's
 * file name) and marks a cut at the start with "..." (UTF-8: an ellipsis). */
static void tail_fit(const char *s, int ascii, int cols, char *out, size_t len)
{
    char safe[1200];
    tui_sanitize(s, strlen(s), ascii, -1, safe, sizeof safe);
    int w = tui_text_width(safe);
    const char *p = safe;
    const char *mark = ascii ? "..." : "\xe2\x80\xa6";
    if (w > cols) {
        int want = cols - (ascii ? 3 : 1);
        size_t left = strlen(p);
        while (*p && w > want) {
            uint32_t cp = 0;
            int l = tui_utf8_decode((const unsigned char *)p, left, &cp);
            if (l <= 0)
                l = 1;
            w -= l > 1 ? tui_cp_width(cp) : 1;
            p += l;
            left -= (size_t)l;
        }
        snprintf(out, len, "%s%s", mark, p);
    } else if (len > 0) {
        size_t n = strlen(safe) < len - 1 ? strlen(safe) : len - 1;
        memcpy(out, safe, n);
        out[n] = '\0';
    }
}

static void stream_state(const replay *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!r->follow) {
        if (r->t.format == ST_FMT_JSONL || r->t.format == ST_FMT_STAGELOAD)
            snprintf(buf, len, "%s", r->t.has_end ? "" : "no end record (the run was cut short)");
    } else if (r->rd.kind == ST_TRACE_DOC && !r->ended) {
        snprintf(buf, len, "reading a JSON document (drawn when it ends)");
    } else if (!r->ended) {
        if (r->rd.s.lineno || r->rd.s.len > r->rd.s.pos)
            snprintf(buf, len, "following stdin: %zu lines%s", r->rd.s.lineno,
                     r->v.frozen ? " (window held; End follows)" : "");
        else
            snprintf(buf, len, "waiting for data on stdin");
    } else if (r->read_error[0]) {
        snprintf(buf, len, "stream ended: %s", r->read_error);
    } else {
        snprintf(buf, len, "stream ended %s", r->t.has_end ? "(end record)" : "without an end record");
    }
}

static void draw_header(const replay *r, const st_run_view *vm)
{
    const tui_view *v = &r->v;
    const tui_box *b = &v->L.header;
    const st_trace_meta *mt = &r->t.meta;
    char name[300], desc[1400], raw[1100], ex[400], line[1600], state[200], bad[48] = "", stage[120] = "";
    char d[32], at[24], utc[100] = "";
    int name_w = (b->w - 10) * 2 / 3 > 20 ? (b->w - 10) * 2 / 3 : 20;
    tail_fit(r->follow ? "stdin" : r->name, v->ascii, name_w, name, sizeof name);
    extras_text(mt, ex, sizeof ex);
    if (mt->start_utc[0])
        snprintf(utc, sizeof utc, "  started %s", mt->start_utc);
    snprintf(raw, sizeof raw, "%s%.0d%s%s%s%s%s%s", mt->pid ? "pid " : "", mt->pid, mt->pid ? " " : "",
             mt->command[0] ? mt->command : r->t.format == ST_FMT_STAGELOAD ? "stageload trace" : "",
             ex[0] ? "  " : "", ex, mt->host[0] ? "  on " : "", mt->host);
    tui_sanitize(raw, strlen(raw), v->ascii, -1, desc, sizeof desc);
    tui_sanitize(utc, strlen(utc), v->ascii, -1, ex, sizeof ex);
    snprintf(desc + strlen(desc), sizeof desc - strlen(desc), "%s", ex);
    const char *cur = tui_current_stage(vm);
    if (cur) {
        char safe[100];
        tui_sanitize(cur, strnlen(cur, 64), v->ascii, 40, safe, sizeof safe);
        snprintf(stage, sizeof stage, "  stage %s", safe);
    }
    if (r->bad)
        snprintf(bad, sizeof bad, "  %zu bad line%s skipped", r->bad, r->bad == 1 ? "" : "s");
    stream_state(r, state, sizeof state);
    const st_summary *s = rp_summary(r);
    st_format_duration(s->n_samples ? (s->last_t_ms - s->first_t_ms) / 1000.0 : 0, d, sizeof d);
    clock_text(vm->last ? vm->last->t_ms / 1000.0 : 0, at, sizeof at);
    attr_t tag_a = tui_attr(v, r->follow && !r->ended ? TUI_PAIR_GOOD : TUI_PAIR_WARN) | A_BOLD;
    int x = tui_put(b->y, 0, b->w, "[REPLAY]", tag_a);
    if (b->h >= 2) {
        snprintf(line, sizeof line, " %s  %s", name, desc);
        tui_put(b->y, x, b->w - x, line, A_BOLD);
        char metric[160] = "  ";
        tui_footprint_words(vm, v->ascii, metric + 2, sizeof metric - 2); /* as live says it */
        if (!metric[2])
            metric[0] = '\0';
        st_mps_advice mps; /* a Mac job that used Metal: its MPS cap in a word */
        st_trace_mps(mt, s, &mps);
        snprintf(line, sizeof line, "%zu samples  %s  every %gs  at %s%s%s%s%s", s->n_samples, d,
                 st_interval_ok(mt->interval) ? mt->interval : vm->interval, at,
                 stage, metric, mps.word[0] ? "  " : "", mps.word);
        x = tui_put(b->y + 1, 0, b->w, line, A_NORMAL);
        if (state[0])
            x += tui_put(b->y + 1, x + 2, b->w - x - 2, state,
                         r->follow && !r->ended ? tui_attr(v, TUI_PAIR_GOOD) : A_BOLD) + 2;
        if (bad[0])
            tui_put(b->y + 1, x, b->w - x, bad, tui_attr(v, TUI_PAIR_WARN) | A_BOLD);
    } else {
        snprintf(line, sizeof line, " %s  %zu samples  %s  at %s  %s%s", name, s->n_samples, d, at, state, bad);
        tui_put(b->y, x, b->w - x, line, A_NORMAL);
    }
}

/* ---- status, help, frame ---- */

static void draw_status(const replay *r, double now)
{
    const tui_view *v = &r->v;
    const tui_box *b = &v->L.status;
    char left[400], right[64] = "";
    attr_t a = A_NORMAL;
    if (v->msg[0] && now < v->msg_until) {
        snprintf(left, sizeof left, "%s", v->msg);
        a = v->msg_error ? tui_attr(v, TUI_PAIR_BAD) | A_BOLD : A_BOLD;
    } else if (r->bad && now < r->bad_until) {
        char raw[400];
        snprintf(raw, sizeof raw, "skipped %zu malformed line%s; last: %s", r->bad, r->bad == 1 ? "" : "s",
                 r->bad_msg);
        tui_sanitize(raw, strlen(raw), v->ascii, -1, left, sizeof left);
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD;
    } else {
        snprintf(left, sizeof left, "%s move  Home/End start/end  +/- zoom  f fit  space %s  e export  s stages  ? help  q quit",
                 v->ascii ? "left/right" : "\xe2\x86\x90/\xe2\x86\x92", v->frozen ? "follow" : "hold");
    }
    if (!v->L.axis.h)
        range_text(r, right, sizeof right);
    int rw = tui_text_width(right), show_right = rw > 0 && rw <= b->w / 2;
    tui_put(b->y, b->x, b->w - (show_right ? rw + 1 : 0), left, a);
    if (show_right)
        tui_put(b->y, b->x + b->w - rw, rw, right, tui_attr(v, TUI_PAIR_DIM));
}

static void draw_help(const tui_view *v)
{
    static const char *const lines[] = {
        "stagetop replay keys",
        "",
        "left right  move the window a quarter of its width",
        "PgUp PgDn   move it a whole width",
        "Home End    the start / the end (End follows a stream)",
        "+ -         zoom the time window in / out",
        "f           fit the whole trace in the window",
        "T           time axis: clock time / time since the start",
        "space       hold the window / follow the end",
        "e           export the trace as JSON",
        "s           the stage table (time, peak, swap, level, loads)",
        "l           lanes: add / remove CPU and page-ins (--lanes)",
        "?           this help",
        "q           quit",
        "",
        "lane labels: the values at the window's right edge;",
        "peaks and the summary: the whole trace",
        "markers: S stage L load R release M mark P pause",
        "         C resume K kill X exit B budget",
        "",
        "any key closes this help",
    };
    tui_view_help(v, lines, (int)(sizeof lines / sizeof lines[0]));
}

void rp_draw(replay *r, double now)
{
    tui_view *v = &r->v;
    erase();
    if (v->L.too_small) {
        tui_put_too_small(v);
    } else {
        st_run_view vm;
        edge_view(r, &vm);
        draw_header(r, &vm);
        tui_lanes_draw(v, &vm, now);
        if (v->L.axis.h) { /* the window's place in the trace, not "last 48s" */
            char range[64];
            range_text(r, range, sizeof range);
            attrset(A_NORMAL);
            mvhline(v->L.window.y, v->L.window.x, ' ', v->L.window.w);
            tui_put(v->L.window.y, v->L.window.x, v->L.window.w, range,
                    v->frozen ? tui_attr(v, TUI_PAIR_WARN) | A_BOLD : tui_attr(v, TUI_PAIR_DIM));
            draw_axis(r);
        }
        draw_summary(r);
        draw_status(r, now);
        if (v->stages)
            tui_stage_table_draw(v, rp_summary(r), v->L.label[0].y);
        if (v->help)
            draw_help(v);
    }
    wnoutrefresh(stdscr);
}
