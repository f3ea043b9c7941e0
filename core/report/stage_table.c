/* stage_table.c: the stage table of the closing summary and of `stagetop
 * summary --text`, repeated stages grouped (stage_table.h). */
#include "stagetop/stage_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/md.h"
#include "stagetop/report_model.h"

#define NAME_MAX_W 24
#define NAME_MIN_W 8
/* the numeric columns, each with its leading space: n, time, mean, peak,
 * swap growth, min level */
#define N_W 6
#define TIME_W 9
#define MEAN_W 9
#define PEAK_W 10
#define GROW_W 12
#define LEVEL_W 10
#define NUM_W (N_W + TIME_W + MEAN_W + PEAK_W + GROW_W + LEVEL_W)

typedef struct name_ix {
    const char *name;
    size_t ix;
} name_ix;

static int by_name(const void *a, const void *b)
{
    const name_ix *x = a, *y = b;
    int c = strncmp(x->name, y->name, sizeof ((st_stage_stat *)0)->stage);
    return c ? c : x->ix < y->ix ? -1 : x->ix > y->ix;
}

static int by_first(const void *a, const void *b)
{
    const st_stage_group *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

static void add_window(st_stage_group *g, const st_stage_row *r)
{
    g->n++;
    g->seconds_ms += r->seconds_ms;
    g->paused_ms += r->paused_ms;
    if (r->has_peak && (!g->has_peak || r->peak_footprint > g->peak_footprint))
        g->peak_footprint = r->peak_footprint;
    g->has_peak |= r->has_peak;
    if (r->has_swap)
        g->swap_growth += r->swap_growth;
    g->has_swap |= r->has_swap;
    if (r->has_level && (!g->has_level || r->min_level_c < g->min_level_c))
        g->min_level_c = r->min_level_c;
    g->has_level |= r->has_level;
}

int st_stage_groups(const st_summary *s, st_stage_group **out, size_t *n_out, st_error *err)
{
    *out = NULL;
    *n_out = 0;
    if (!s->n_stages)
        return ST_OK;
    name_ix *ix = malloc(s->n_stages * sizeof *ix);
    st_stage_group *g = calloc(s->n_stages, sizeof *g);
    if (!ix || !g) {
        free(ix);
        free(g);
        return st_error_set(err, ST_ENOMEM, 0, "out of memory grouping stages");
    }
    for (size_t i = 0; i < s->n_stages; i++)
        ix[i] = (name_ix){s->stages[i].stage, i};
    qsort(ix, s->n_stages, sizeof *ix, by_name); /* repeats adjacent, in order */
    size_t n = 0;
    for (size_t i = 0; i < s->n_stages; i++) {
        if (i == 0 || by_name(&ix[i - 1], &(name_ix){ix[i].name, ix[i - 1].ix}) != 0) {
            st_stage_group *ng = &g[n++];
            memcpy(ng->stage, ix[i].name, sizeof ng->stage);
            ng->stage[sizeof ng->stage - 1] = '\0';
            ng->first = ix[i].ix;
        }
        st_stage_row r;
        st_summary_stage(s, ix[i].ix, &r);
        add_window(&g[n - 1], &r);
    }
    free(ix);
    qsort(g, n, sizeof *g, by_first);
    *out = g;
    *n_out = n;
    return ST_OK;
}

const char *st_stage_mean_text(double seconds, char *buf, size_t size)
{
    snprintf(buf, size, seconds < 9.995 ? "%.2fs" : "%.1fs", seconds);
    return buf;
}

/* Right-aligned cell of width columns (ASCII and the "–" dash: one column). */
static void cell(st_sb *w, const char *s, int width)
{
    int cols = 0;
    for (const char *p = s; *p; p++)
        cols += ((unsigned char)*p & 0xC0) != 0x80;
    for (int i = cols; i < width; i++)
        st_sb_char(w, ' ');
    st_sb_str(w, s);
}

static void group_line(st_sb *w, const st_stage_group *g, int indent, int name_w)
{
    char a[48], b[48], c[48], d[48], e[48];
    st_sb_fill(w, ' ', (size_t)indent);
    size_t before = w->len;
    st_text_clean_to(w, g->stage, sizeof g->stage, (size_t)name_w - 1);
    int cols = 0;
    for (size_t k = before; k < w->len; k++)
        cols += ((unsigned char)w->buf[k] & 0xC0) != 0x80;
    st_sb_fill(w, ' ', cols < name_w ? (size_t)(name_w - cols) : 0);
    st_report_value secs = st_report_seconds(1, g->seconds_ms / 1000.0);
    st_report_value peak = st_report_bytes(g->has_peak, g->peak_footprint);
    st_report_value grow = st_report_bytes(g->has_swap, 0);
    grow.i[0] = g->swap_growth;
    st_report_value lvl = st_report_bytes(g->has_level, g->min_level_c);
    snprintf(a, sizeof a, "%zu", g->n);
    cell(w, a, N_W);
    cell(w, st_report_format(&secs, ST_RM_SECONDS, ST_RM_TEXT, b, sizeof b), TIME_W);
    cell(w, st_stage_mean_text(g->seconds_ms / 1000.0 / (double)g->n, a, sizeof a), MEAN_W);
    cell(w, st_report_format(&peak, ST_RM_BYTES, ST_RM_TEXT, c, sizeof c), PEAK_W);
    cell(w, st_report_format(&grow, ST_RM_SBYTES, ST_RM_TEXT, d, sizeof d), GROW_W);
    cell(w, st_report_format(&lvl, ST_RM_LEVEL, ST_RM_TEXT, e, sizeof e), LEVEL_W);
    st_sb_char(w, '\n');
}

int st_stage_table(const st_summary *s, st_sb *w, const st_stage_table_opts *o, st_error *err)
{
    int width = o->width <= 0 ? 80 : o->width, indent = o->indent < 0 ? 0 : o->indent;
    if (!s->n_stages || !s->n_stage_events) {
        st_sb_fill(w, ' ', (size_t)indent);
        st_sb_str(w, "no stages (no stage events in the trace)\n");
        return ST_OK;
    }
    st_stage_group *g;
    size_t n;
    int rc = st_stage_groups(s, &g, &n, err);
    if (rc != ST_OK)
        return rc;
    int name_w = width - indent - NUM_W;
    name_w = name_w < NAME_MIN_W ? NAME_MIN_W : name_w > NAME_MAX_W ? NAME_MAX_W : name_w;
    st_sb_fill(w, ' ', (size_t)indent);
    st_sb_printf(w, "%-*s", name_w, "stage");
    cell(w, "n", N_W);
    cell(w, "time", TIME_W);
    cell(w, "mean", MEAN_W);
    cell(w, "peak", PEAK_W);
    cell(w, "swap growth", GROW_W);
    cell(w, "min level", LEVEL_W);
    st_sb_char(w, '\n');
    size_t lines = 0, max = o->max_lines;
    for (size_t i = 0; i < n; i++) {
        size_t need = g[i].paused_ms > 0 ? 2 : 1; /* the row and its pause line */
        if (max && lines + need + (i + 1 < n) > max) {
            st_sb_fill(w, ' ', (size_t)indent);
            st_sb_printf(w, "... and %zu more stages%s%s\n", n - i, o->more_hint ? " " : "",
                         o->more_hint ? o->more_hint : "");
            break;
        }
        group_line(w, &g[i], indent, name_w);
        lines++;
        if (g[i].paused_ms > 0) { /* the time with and without the pauses */
            char a[48];
            st_report_value v = st_report_seconds(1, (g[i].seconds_ms - g[i].paused_ms) / 1000.0);
            st_sb_fill(w, ' ', (size_t)indent + 2);
            st_sb_printf(w, "(%s without pauses)\n", st_report_format(&v, ST_RM_SECONDS, ST_RM_TEXT, a, sizeof a));
            lines++;
        }
    }
    free(g);
    return ST_OK;
}

int st_stage_repeats(const st_summary *s, size_t *nth, size_t *done, int64_t *done_ms)
{
    *nth = *done = 0;
    *done_ms = 0;
    if (!s || !s->n_stages || !s->n_stage_events)
        return 0;
    size_t last = s->n_stages - 1;
    const char *cur = s->stages[last].stage;
    for (size_t i = 0; i <= last; i++) {
        if (strncmp(s->stages[i].stage, cur, sizeof s->stages[i].stage) != 0)
            continue;
        ++*nth;
        if (i < last) { /* a closed window: to the next one's start */
            ++*done;
            *done_ms += (int64_t)s->stages[i + 1].t0_ms - (int64_t)s->stages[i].t0_ms;
        }
    }
    return 1;
}
