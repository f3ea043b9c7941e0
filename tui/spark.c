/* spark.c: sparklines, graphs, axis and event row as text. */
#include "spark.h"
#include "sanitize.h"
#include "stagetop/lanes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const blocks[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

double tui_sample_value(const st_sample *s, unsigned field)
{
    const st_lane *l = st_lane_by_bit(field);
    return l ? st_lane_value(l->id, s) : NAN;
}

uint64_t tui_sample_k(uint32_t t_ms, uint32_t interval_ms)
{
    if (interval_ms == 0)
        interval_ms = 1;
    return (uint64_t)t_ms / interval_ms;
}

static const st_sample *view_at(const st_samples_view *v, size_t i)
{
    return i < v->a_len ? &v->a[i] : &v->b[i - v->a_len];
}

void tui_bucket(st_samples_view v, unsigned field, int agg, uint32_t interval_ms,
                unsigned per_col, uint64_t col0, int ncols, double *out)
{
    size_t n = v.a_len + v.b_len, lo = 0, hi = n;
    if (ncols <= 0)
        return;
    if (per_col == 0)
        per_col = 1;
    for (int j = 0; j < ncols; j++)
        out[j] = NAN;
    const st_lane *l = st_lane_by_bit(field);
    if (!l)
        return;
    uint64_t k_first = col0 * per_col;
    while (lo < hi) { /* first sample with k >= k_first */
        size_t mid = lo + (hi - lo) / 2;
        if (tui_sample_k(view_at(&v, mid)->t_ms, interval_ms) < k_first)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < n; i++) {
        const st_sample *s = view_at(&v, i);
        uint64_t c = tui_sample_k(s->t_ms, interval_ms) / per_col;
        if (c < col0)
            continue;
        if (c - col0 >= (uint64_t)ncols)
            break;
        double x = st_lane_value(l->id, s);
        double *o = &out[c - col0];
        if (isnan(x))
            continue;
        if (isnan(*o) || (agg == TUI_AGG_MIN ? x < *o : x > *o))
            *o = x;
    }
}

/* Level 1..n of a present value (see spark.h). */
static int level_of(double v, double lo, double hi, int n)
{
    double frac;
    if (hi > lo)
        frac = (v - lo) / (hi - lo);
    else
        frac = v > lo ? 1.0 : 0.0;
    if (!(frac > 0))
        frac = 0;
    if (frac > 1)
        frac = 1;
    int l = (int)ceil(frac * n - 1e-9);
    return l < 1 ? 1 : l > n ? n : l;
}

static int put(char *out, size_t outlen, size_t *o, const char *s, size_t len)
{
    if (*o + len + 1 > outlen)
        return 0;
    memcpy(out + *o, s, len);
    *o += len;
    out[*o] = '\0';
    return 1;
}

void tui_scale_over_base(const double *v, int n, double base, double *lo, double *hi,
                         int *has_data)
{
    double top = base > 0 ? base : 0;
    for (int j = 0; v && j < n; j++)
        if (!isnan(v[j]) && v[j] > top)
            top = v[j];
    *lo = base > 0 ? base : 0;
    *has_data = top > *lo;
    *hi = *has_data ? top : *lo + 1;
}

void tui_spark_levels(const double *v, int n, double lo, double hi, int ascii, unsigned char *out)
{
    for (int i = 0; i < n; i++)
        out[i] = isnan(v[i]) ? 0 : (unsigned char)level_of(v[i], lo, hi, ascii ? 9 : 8);
}

void tui_graph_heights(const double *v, int n, double lo, double hi, int rows, int *h)
{
    if (rows < 1)
        rows = 1;
    for (int i = 0; i < n; i++)
        h[i] = isnan(v[i]) ? 0 : level_of(v[i], lo, hi, 8 * rows);
}

void tui_graph_cells(const int *h, int n, int rows, int r, unsigned char *out)
{
    if (rows < 1)
        rows = 1;
    int base = 8 * (rows - 1 - r); /* eighths in the rows under this one */
    for (int i = 0; i < n; i++) {
        int fill = h[i] - base;
        out[i] = (unsigned char)(fill <= 0 ? 0 : fill >= 8 ? 8 : fill);
    }
}

void tui_graph_levels(const double *v, int n, double lo, double hi, int rows, int r,
                      unsigned char *out)
{
    int h[1024];
    for (int done = 0; done < n; done += 1024) {
        int k = n - done < 1024 ? n - done : 1024;
        tui_graph_heights(v + done, k, lo, hi, rows, h);
        tui_graph_cells(h, k, rows, r, out + done);
    }
}

const char *tui_spark_glyph(int level, int ascii)
{
    static const char *const asc[10] = {" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"};
    if (level <= 0)
        return " ";
    if (ascii)
        return asc[level > 9 ? 9 : level];
    return blocks[(level > 8 ? 8 : level) - 1];
}

const char *tui_graph_glyph(int fill, int ascii)
{
    static const char *const asc[9] = {" ", ".", ".", "-", "-", "=", "=", "#", "#"};
    if (fill <= 0)
        return " ";
    if (fill > 8)
        fill = 8;
    return ascii ? asc[fill] : blocks[fill - 1];
}

enum { MAX_ROW = 1024 };

/* The columns a row draws: ncols, at most MAX_ROW, none when negative. */
static int row_cols(int ncols)
{
    return ncols > MAX_ROW ? MAX_ROW : ncols < 0 ? 0 : ncols;
}

/* The start of a row: out holds the empty string (when it has room for
 * one); returns the columns to draw, 0 when out has no room. */
static int row_start(char *out, size_t outlen, int ncols)
{
    if (outlen == 0)
        return 0;
    out[0] = '\0';
    return row_cols(ncols);
}

/* Glyphs of levels into out, stopping at a glyph that does not fit. */
static size_t glyphs(const unsigned char *lv, int n, int ascii, int graph, char *out, size_t outlen)
{
    size_t o = 0;
    n = row_start(out, outlen, n);
    for (int i = 0; i < n; i++) {
        const char *g = graph ? tui_graph_glyph(lv[i], ascii) : tui_spark_glyph(lv[i], ascii);
        if (!put(out, outlen, &o, g, strlen(g)))
            break;
    }
    return o;
}

size_t tui_spark(const double *v, int n, double lo, double hi, int ascii, char *out, size_t outlen)
{
    unsigned char lv[MAX_ROW];
    n = row_cols(n);
    tui_spark_levels(v, n, lo, hi, ascii, lv);
    return glyphs(lv, n, ascii, 0, out, outlen);
}

size_t tui_graph_row(const double *v, int n, double lo, double hi, int rows, int r, int ascii,
                     char *out, size_t outlen)
{
    unsigned char lv[MAX_ROW];
    n = row_cols(n);
    tui_graph_levels(v, n, lo, hi, rows, r, lv);
    return glyphs(lv, n, ascii, 1, out, outlen);
}

double tui_axis_step(double col_s)
{
    static const double steps[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30,
                                   60, 120, 300, 600, 900, 1800,
                                   3600, 7200, 10800, 21600, 43200, 86400};
    size_t n = sizeof steps / sizeof steps[0];
    for (size_t i = 0; i < n; i++)
        if (steps[i] / col_s >= 10 - 1e-9)
            return steps[i];
    return steps[n - 1];
}

int tui_axis_label(double t, char *buf, size_t len)
{
    long s = lround(t);
    if (t < 1 - 1e-9)
        return snprintf(buf, len, "-%.1fs", t);
    if (s < 60)
        return snprintf(buf, len, "-%lds", s);
    if (s < 3600)
        return s % 60 ? snprintf(buf, len, "-%ldm%02lds", s / 60, s % 60)
                      : snprintf(buf, len, "-%ldm", s / 60);
    long m = s / 60;
    return m % 60 ? snprintf(buf, len, "-%ldh%02ldm", m / 60, m % 60)
                  : snprintf(buf, len, "-%ldh", m / 60);
}

int tui_utc_seconds(const char *s, double *epoch)
{
    int y, mo, d, h, mi, n = 0;
    double sec;
    if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%lf%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 || mo < 1 ||
        mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || !(sec >= 0 && sec < 61))
        return 0;
    const char *z = s + n;
    long off = 0;
    if (z[0] == '+' || z[0] == '-') { /* "+02:00" */
        int oh, om;
        if (sscanf(z + 1, "%2d:%2d", &oh, &om) != 2)
            return 0;
        off = (z[0] == '-' ? -1 : 1) * (oh * 3600L + om * 60L);
    } else if (z[0] != 'Z' && z[0] != '\0') {
        return 0;
    }
    /* days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil) */
    long yy = y - (mo <= 2), era = (yy >= 0 ? yy : yy - 399) / 400;
    long yoe = yy - era * 400, doy = (153L * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
    *epoch = (double)days * 86400 + h * 3600 + mi * 60 + sec - (double)off;
    return 1;
}

int tui_axis_clock(double local_s, double step, char *buf, size_t len)
{
    double day = fmod(local_s, 86400.0);
    day = day < 0 ? day + 86400.0 : day;
    long tenths = lround(day * 10) % 864000, s = tenths / 10;
    if (step < 1 - 1e-9)
        return snprintf(buf, len, "%02ld:%02ld:%02ld.%ld", s / 3600, s / 60 % 60, s % 60, tenths % 10);
    s = lround(day) % 86400;
    if (step < 60 - 1e-9)
        return snprintf(buf, len, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return snprintf(buf, len, "%02ld:%02ld", s / 3600, s / 60 % 60);
}

size_t tui_axis_time(int ncols, double col_s, int clock, double right_s, int ascii, char *out,
                     size_t outlen)
{
    enum { RULE = 1, TICK = 2 };
    char t[MAX_ROW];
    size_t o = 0;
    ncols = row_start(out, outlen, ncols);
    if (ncols == 0 || !(col_s > 0))
        return 0;
    memset(t, RULE, (size_t)ncols);
    double step = tui_axis_step(col_s);
    /* seconds before the right edge of the first tick: a step, or (clock)
     * back to the last whole multiple of the step, the step wide enough
     * for its label ("14:05:30.5": 10 columns) and a space */
    double d0 = step;
    if (clock) {
        char lab[32];
        while (step < 86400 && step / col_s < tui_axis_clock(0, step, lab, sizeof lab) + 2)
            step = tui_axis_step(step / 10 * 1.0001); /* the next larger step */
        d0 = fmod(right_s, step);
        d0 = d0 < 0 ? d0 + step : d0;
    }
    long limit = ncols; /* a label must end before column limit - 1 */
    for (int j = 0;; j++) {
        double d = d0 + j * step;
        long x = (ncols - 1) - lround(d / col_s);
        if (x < 0)
            break;
        t[x] = TICK;
        char lab[32];
        int len = clock ? tui_axis_clock(right_s - d, step, lab, sizeof lab) : tui_axis_label(d, lab, sizeof lab);
        long start = x - len;
        if (start >= 0 && x < limit) {
            memcpy(&t[start], lab, (size_t)len);
            limit = start - 1;
        }
    }
    for (int i = 0; i < ncols; i++) {
        const char *g = t[i] == RULE ? (ascii ? "-" : "─") : t[i] == TICK ? (ascii ? "+" : "┴") : &t[i];
        if (!put(out, outlen, &o, g, t[i] == RULE || t[i] == TICK ? strlen(g) : 1))
            break;
    }
    return o;
}

size_t tui_axis(int ncols, double col_s, int ascii, char *out, size_t outlen)
{
    return tui_axis_time(ncols, col_s, 0, 0, ascii, out, outlen);
}

char tui_event_letter(int kind)
{
    switch (kind) {
    case ST_EV_STAGE: return 'S';
    case ST_EV_LOAD: case ST_EV_RELOAD: return 'L';
    case ST_EV_RELEASE: return 'R';
    case ST_EV_MARK: return 'M';
    case ST_EV_PAUSE: return 'P';
    case ST_EV_RESUME: return 'C';
    case ST_EV_KILL: return 'K';
    case ST_EV_EXIT: return 'X';
    case ST_EV_BUDGET: return 'B';
    case ST_EV_SLEEP: return 'Z';
    default: return '?';
    }
}

/* Which event keeps a column: the user's marks and stagetop's own job and
 * guard events, then stage boundaries, then the rest. */
static int event_rank(int kind)
{
    switch (kind) {
    case ST_EV_MARK: case ST_EV_PAUSE: case ST_EV_RESUME: case ST_EV_KILL: case ST_EV_EXIT:
    case ST_EV_BUDGET: case ST_EV_SLEEP:
        return 3;
    case ST_EV_STAGE:
        return 2;
    default:
        return 1;
    }
}

/* The text an event shows after its letter: a stage's name, a mark's note. */
static const char *event_text(const st_event *e, size_t *len)
{
    if (e->kind == ST_EV_STAGE) {
        *len = strnlen(e->stage, sizeof e->stage);
        return e->stage;
    }
    if ((e->kind == ST_EV_MARK || e->kind == ST_EV_SLEEP) && e->note[0]) {
        *len = strnlen(e->note, sizeof e->note);
        return e->note;
    }
    return NULL;
}

size_t tui_events_row(const st_event *ev, size_t nev, uint32_t interval_ms, unsigned per_col,
                      uint64_t col0, int ncols, int ascii, char *out, size_t outlen)
{
    int at[MAX_ROW];  /* index of the event whose letter is drawn in each column, -1 none */
    int cnt[MAX_ROW]; /* events in each column */
    int txt[MAX_ROW]; /* the latest event with a text in each column, -1 none */
    size_t o = 0;
    ncols = row_start(out, outlen, ncols);
    if (ncols == 0)
        return 0;
    if (per_col == 0)
        per_col = 1;
    for (int i = 0; i < ncols; i++)
        at[i] = txt[i] = -1, cnt[i] = 0;
    for (size_t e = 0; e < nev; e++) {
        uint64_t col = tui_sample_k(ev[e].t_ms, interval_ms) / per_col;
        if (col < col0 || col - col0 >= (uint64_t)ncols)
            continue;
        int x = (int)(col - col0);
        size_t tl;
        cnt[x]++;
        if (event_text(&ev[e], &tl))
            txt[x] = (int)e;
        if (at[x] >= 0 && event_rank(ev[at[x]].kind) > event_rank(ev[e].kind))
            continue;
        at[x] = (int)e;
    }
    int x = 0;
    while (x < ncols) {
        if (at[x] < 0) {
            if (!put(out, outlen, &o, " ", 1))
                return o;
            x++;
            continue;
        }
        /* one event: its letter; several: how many (never hidden) */
        char letter = cnt[x] == 1 ? tui_event_letter(ev[at[x]].kind)
                    : cnt[x] <= 9 ? (char)('0' + cnt[x]) : '+';
        const st_event *e = txt[x] >= 0 ? &ev[txt[x]] : NULL;
        if (!put(out, outlen, &o, &letter, 1))
            return o;
        int next = x + 1;
        while (next < ncols && at[next] < 0)
            next++;
        int limit = next < ncols ? next - 1 : ncols; /* a name ends before this */
        x++;
        size_t text_len = 0;
        const char *text = e ? event_text(e, &text_len) : NULL;
        if (text && x < limit) {
            char safe[256];
            tui_sanitize(text, text_len, ascii, limit - x, safe, sizeof safe);
            const unsigned char *p = (const unsigned char *)safe;
            size_t left = strlen(safe);
            while (left > 0) { /* copy, leaving out zero-width characters */
                uint32_t cp = 0;
                int l = tui_utf8_decode(p, left, &cp);
                int w = l > 0 ? tui_cp_width(cp) : 1;
                if (l <= 0)
                    l = 1;
                if (w > 0) {
                    if (!put(out, outlen, &o, (const char *)p, (size_t)l))
                        return o;
                    x += w;
                }
                p += l;
                left -= (size_t)l;
            }
        }
    }
    return o;
}
