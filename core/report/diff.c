/* diff.c: two traces compared (diff.h). */
#include "stagetop/diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/grow.h"
#include "stagetop/json.h"
#include "stagetop/trace.h"
#include "stagetop/md.h"
#include "stagetop/sb.h"
#include "stagetop/stage_table.h"
#include "stagetop/units.h"

#define DASH "\xE2\x80\x93" /* – */

static st_diff_stage *find_or_add(st_diff *d, const char *name, int *fail)
{
    for (size_t i = 0; i < d->n_stages; i++)
        if (strncmp(d->stages[i].stage, name, sizeof d->stages[i].stage) == 0)
            return &d->stages[i];
    if (st_grow(&d->stages, &d->cap_stages, d->n_stages + 1, sizeof *d->stages, 8) != 0) {
        *fail = 1;
        return NULL;
    }
    st_diff_stage *s = &d->stages[d->n_stages++];
    memset(s, 0, sizeof *s);
    snprintf(s->stage, sizeof s->stage, "%s", name);
    return s;
}

/* A side's stages: its windows grouped by name as the stage table groups
 * them (st_stage_groups), each group added to the row of its name. */
static int add_side(st_diff *d, const st_trace *t, int side_b, st_error *err)
{
    const st_summary *s = &t->summary;
    /* No stage events: stageload's "setup" window over the whole run is not
     * a stage ([reports] 4); the side has none. */
    if (!s->n_stage_events)
        return ST_OK;
    st_stage_group *g;
    size_t n;
    if (st_stage_groups(s, &g, &n, err) != ST_OK)
        return st_error_set(err, ST_ENOMEM, 0, "out of memory comparing stages");
    int fail = 0;
    for (size_t i = 0; i < n; i++) {
        st_diff_stage *row = find_or_add(d, g[i].stage, &fail);
        if (!row) {
            free(g);
            return st_error_set(err, ST_ENOMEM, 0, "out of memory comparing stages");
        }
        st_diff_side *x = side_b ? &row->b : &row->a;
        x->seconds_ms += g[i].seconds_ms;
        if (g[i].has_peak && (!x->has_peak || g[i].peak_footprint > x->peak_footprint)) {
            x->peak_footprint = g[i].peak_footprint;
            x->has_peak = 1;
        }
        if (g[i].has_swap) {
            x->swap_growth += g[i].swap_growth;
            x->has_swap = 1;
        }
        if (g[i].has_level && (!x->has_level || g[i].min_level_c < x->min_level_c)) {
            x->min_level_c = g[i].min_level_c;
            x->has_level = 1;
        }
        x->present = 1;
    }
    free(g);
    return ST_OK;
}

double st_diff_pct(uint64_t a, uint64_t b, int *ok)
{
    *ok = a > 0;
    return a > 0 ? 100.0 * ((double)b - (double)a) / (double)a : 0.0;
}

/* A stage side's cells as model values. */
static st_report_value side_time(const st_diff_side *x)
{
    return st_report_seconds(x->present, x->seconds_ms / 1000.0);
}

static st_report_value side_peak(const st_diff_side *x)
{
    return st_report_bytes(x->present && x->has_peak, x->peak_footprint);
}

int st_diff_compute(const st_trace *a, const st_trace *b, st_diff *d, st_error *err)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->b = b;
    int rc = add_side(d, a, 0, err);
    if (rc == ST_OK)
        rc = add_side(d, b, 1, err);
    if (rc != ST_OK) {
        st_diff_free(d);
        return rc;
    }
    for (size_t i = 0; i < d->n_stages; i++) {
        st_diff_stage *s = &d->stages[i];
        st_report_value pa = side_peak(&s->a), pb = side_peak(&s->b);
        s->peak_pct = st_report_delta(&pa, &pb, ST_RM_BYTES, ST_RM_CH_PCT, &s->has_peak_pct);
        st_report_value ta = side_time(&s->a), tb = side_time(&s->b);
        s->time_s = st_report_delta(&ta, &tb, ST_RM_SECONDS, ST_RM_CH_DELTA, &s->has_time);
        s->time_pct = st_report_delta(&ta, &tb, ST_RM_SECONDS, ST_RM_CH_PCT, &s->has_time_pct);
    }
    d->n_rows = st_report_summary(&a->summary, &b->summary, d->rows, ST_RM_MAX_ROWS);
    const st_report_row *r = st_report_find(d->rows, d->n_rows, "peak_footprint");
    d->peak_pct = r->delta;
    d->has_peak_pct = r->has_delta;
    r = st_report_find(d->rows, d->n_rows, "duration");
    d->duration_s = r->delta;
    d->duration_pct = r->rel;
    d->has_duration_pct = r->has_rel;
    r = st_report_find(d->rows, d->n_rows, "swap_peak_rise");
    d->swap_peak_rise = (int64_t)r->delta;
    d->has_swap_peak_rise = r->has_delta;
    return ST_OK;
}

void st_diff_free(st_diff *d)
{
    free(d->stages);
    d->stages = NULL;
    d->n_stages = d->cap_stages = 0;
}

int st_diff_time_exceeds(const st_diff *d, double pct)
{
    if (!d->has_duration_pct)
        return st_report_duration_s(&d->b->summary) > st_report_duration_s(&d->a->summary);
    return d->duration_pct > pct;
}

int st_diff_peak_exceeds(const st_diff *d, double pct)
{
    uint64_t pa = d->a->summary.peak_footprint, pb = d->b->summary.peak_footprint;
    if (!d->has_peak_pct)
        return pb > pa;
    return d->peak_pct > pct;
}

/* ---- text ---- */

/* Pad to `cols` columns counting code points (the cells here hold ASCII,
 * "–", "→" and cleaned names of up to 24 code points). */
static void cell(st_sb *w, const char *s, int cols, int right)
{
    int cps = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        cps += (*p & 0xC0) != 0x80;
    if (right && cps < cols)
        st_sb_fill(w, ' ', (size_t)(cols - cps));
    st_sb_str(w, s);
    if (!right && cps < cols)
        st_sb_fill(w, ' ', (size_t)(cols - cps));
}

static void clean_str(const char *s, size_t n, size_t max_cps, char *out, size_t size)
{
    char *t = st_text_clean(s, n, max_cps);
    snprintf(out, size, "%s", t ? t : "");
    free(t);
}

static void side_line(st_sb *w, const char *tag, const char *label, const st_trace *t)
{
    char what[640], c[700], d[32];
    st_trace_what(&t->meta, what, sizeof what);
    clean_str(label, 4096, 200, c, sizeof c);
    st_sb_printf(w, "%s: %s\n", tag, c);
    clean_str(what, sizeof what, 200, c, sizeof c);
    st_sb_printf(w, "   %s%s%zu samples over %s\n", c, c[0] ? " \xC2\xB7 " : "",
                 t->summary.n_samples, st_format_duration(st_report_duration_s(&t->summary), d, sizeof d));
}

static void row5(st_sb *w, const char *name, const char *a, const char *b, const char *ch)
{
    cell(w, name, 24, 0);
    cell(w, a, 32, 1);
    cell(w, b, 32, 1);
    cell(w, ch, 18, 1);
    st_sb_char(w, '\n');
}

const char *st_diff_stage_cell(const st_diff_stage *s, int col, int side_b, enum st_report_style style,
                               char *buf, size_t n)
{
    const st_diff_side *x = side_b ? &s->b : &s->a;
    st_report_value v;
    if (col == ST_DIFF_COL_TIME_CHANGE) {
        st_report_row r;
        memset(&r, 0, sizeof r);
        r.unit = ST_RM_SECONDS;
        r.change = ST_RM_CH_DELTA;
        r.has_delta = s->has_time;
        r.delta = s->time_s;
        r.has_rel = s->has_time_pct;
        r.rel = s->time_pct;
        return st_report_format_change(&r, style, buf, n);
    }
    if (col == ST_DIFF_COL_SWAP) {
        v = st_report_bytes(x->present && x->has_swap, 0);
        v.i[0] = x->swap_growth;
        return st_report_format(&v, ST_RM_SBYTES, style, buf, n);
    }
    if (col == ST_DIFF_COL_LEVEL) {
        v = st_report_bytes(x->present && x->has_level, x->min_level_c);
        return st_report_format(&v, ST_RM_LEVEL, style, buf, n);
    }
    if (col == ST_DIFF_COL_PEAK_CHANGE) {
        st_report_row r;
        memset(&r, 0, sizeof r);
        r.unit = ST_RM_BYTES;
        r.change = ST_RM_CH_PCT;
        r.has_delta = s->has_peak_pct;
        r.delta = s->peak_pct;
        return st_report_format_change(&r, style, buf, n);
    }
    if (col == ST_DIFF_COL_TIME) {
        v = side_time(x);
        return st_report_format(&v, ST_RM_SECONDS, style, buf, n);
    }
    v = side_peak(x);
    return st_report_format(&v, ST_RM_BYTES, style, buf, n);
}

const st_diff_col st_diff_cols[] = {
    {"A time", 9, "A time", ST_DIFF_COL_TIME, 0},
    {"A peak", 12, "A peak", ST_DIFF_COL_PEAK, 0},
    {"B time", 9, "B time", ST_DIFF_COL_TIME, 1},
    {"B peak", 12, "B peak", ST_DIFF_COL_PEAK, 1},
    {"peak", 10, "peak change", ST_DIFF_COL_PEAK_CHANGE, 0},
    {"time", 16, "time change", ST_DIFF_COL_TIME_CHANGE, 0},
    {"A swap", 12, "A swap growth", ST_DIFF_COL_SWAP, 0},
    {"B swap", 12, "B swap growth", ST_DIFF_COL_SWAP, 1},
    {"A min", 8, "A min level", ST_DIFF_COL_LEVEL, 0},
    {"B min", 8, "B min level", ST_DIFF_COL_LEVEL, 1},
};
const size_t st_diff_n_cols = sizeof st_diff_cols / sizeof st_diff_cols[0];

int st_diff_metric_note(const st_diff *d, char *buf, size_t n)
{
    const char *a = d->a->meta.footprint_metric, *b = d->b->meta.footprint_metric;
    char ca[64], cb[64];
    if (!a[0] || !b[0] || strcmp(a, b) == 0)
        return 0;
    clean_str(a, sizeof d->a->meta.footprint_metric, 40, ca, sizeof ca);
    clean_str(b, sizeof d->b->meta.footprint_metric, 40, cb, sizeof cb);
    snprintf(buf, n, "the footprints differ in definition: A %s, B %s (docs/metrics.md); "
             "part of a footprint change is the definition", ca, cb);
    return 1;
}

char *st_diff_text(const st_diff *d, const char *label_a, const char *label_b)
{
    st_sb w;
    char name[200], x[128], y[128], z[64], note[200];
    st_sb_init(&w);
    side_line(&w, "A", label_a, d->a);
    side_line(&w, "B", label_b, d->b);
    if (st_diff_metric_note(d, note, sizeof note))
        st_sb_printf(&w, "note: %s\n", note);
    st_sb_char(&w, '\n');
    cell(&w, "stage", 22, 0);
    for (size_t c = 0; c < st_diff_n_cols; c++)
        cell(&w, st_diff_cols[c].text_head, st_diff_cols[c].width, 1);
    st_sb_char(&w, '\n');
    for (size_t i = 0; i < d->n_stages; i++) {
        const st_diff_stage *s = &d->stages[i];
        clean_str(s->stage, sizeof s->stage, 21, name, sizeof name);
        cell(&w, name, 22, 0);
        for (size_t c = 0; c < st_diff_n_cols; c++)
            cell(&w, st_diff_stage_cell(s, st_diff_cols[c].col, st_diff_cols[c].side_b, ST_RM_TEXT,
                                        x, sizeof x), st_diff_cols[c].width, 1);
        st_sb_char(&w, '\n');
    }
    if (!d->n_stages)
        st_sb_str(&w, "(no stages: neither trace has stage events)\n");
    st_sb_char(&w, '\n');
    row5(&w, "", "A", "B", "change");
    for (size_t i = 0; i < d->n_rows; i++) {
        const st_report_row *r = &d->rows[i];
        row5(&w, r->label, st_report_format(&r->a, r->unit, ST_RM_TEXT, x, sizeof x),
             st_report_format(&r->b, r->unit, ST_RM_TEXT, y, sizeof y),
             st_report_format_change(r, ST_RM_TEXT, z, sizeof z));
    }
    return st_sb_take(&w);
}

/* ---- JSON ---- */

static void side_json(st_jw *w, const st_diff_side *s)
{
    if (!s->present) {
        st_jw_lit(w, "null");
        return;
    }
    st_jw_lit(w, "{\"seconds\":");
    st_jw_ms(w, s->seconds_ms);
    st_jw_lit(w, ",\"peak_footprint\":");
    if (s->has_peak)
        st_jw_u64(w, s->peak_footprint);
    else
        st_jw_lit(w, "null");
    st_jw_lit(w, ",\"swap_growth\":");
    if (s->has_swap)
        st_jw_i64(w, s->swap_growth);
    else
        st_jw_lit(w, "null");
    st_jw_lit(w, ",\"min_level\":");
    if (s->has_level)
        st_jw_centi(w, s->min_level_c);
    else
        st_jw_lit(w, "null");
    st_jw_char(w, '}');
}

char *st_diff_json(const st_diff *d)
{
    st_jw w;
    st_jw_init(&w, -1);
    st_jw_lit(&w, "{\"a\":");
    st_jw_summary(&w, &d->a->summary, &d->a->meta);
    st_jw_lit(&w, ",\n\"b\":");
    st_jw_summary(&w, &d->b->summary, &d->b->meta);
    st_jw_lit(&w, ",\n\"stages\":[");
    for (size_t i = 0; i < d->n_stages; i++) {
        const st_diff_stage *s = &d->stages[i];
        if (i)
            st_jw_char(&w, ',');
        st_jw_lit(&w, "\n{\"stage\":");
        st_jw_strn(&w, s->stage, strnlen(s->stage, sizeof s->stage));
        st_jw_lit(&w, ",\"a\":");
        side_json(&w, &s->a);
        st_jw_lit(&w, ",\"b\":");
        side_json(&w, &s->b);
        st_jw_lit(&w, ",\"change\":{\"seconds\":");
        if (s->has_time)
            st_jw_fixed3(&w, s->time_s);
        else
            st_jw_lit(&w, "null");
        st_jw_lit(&w, ",\"seconds_pct\":");
        if (s->has_time_pct)
            st_jw_double(&w, s->time_pct);
        else
            st_jw_lit(&w, "null");
        st_jw_lit(&w, ",\"peak_footprint_pct\":");
        if (s->has_peak_pct)
            st_jw_double(&w, s->peak_pct);
        else
            st_jw_lit(&w, "null");
        st_jw_lit(&w, "}}");
    }
    /* the changes that have a JSON name, in the order 0.2 wrote them */
    static const char *const keys[] = {"peak_footprint", "duration", "swap_peak_rise"};
    st_jw_lit(&w, "],\n\"change\":{");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const st_report_row *r = st_report_find(d->rows, d->n_rows, keys[k]);
        if (k)
            st_jw_char(&w, ',');
        st_jw_str(&w, r->change_key);
        st_jw_char(&w, ':');
        if (!r->has_delta)
            st_jw_lit(&w, "null");
        else if (r->change == ST_RM_CH_PCT)
            st_jw_double(&w, r->delta);
        else if (r->unit == ST_RM_DURATION)
            st_jw_fixed3(&w, r->delta);
        else
            st_jw_i64(&w, (int64_t)r->delta);
        if (r->unit == ST_RM_DURATION) {
            st_jw_lit(&w, ",\"duration_pct\":");
            if (r->has_rel)
                st_jw_double(&w, r->rel);
            else
                st_jw_lit(&w, "null");
        }
    }
    st_jw_lit(&w, "}}");
    char *out = st_jw_take(&w);
    st_jw_free(&w);
    return out;
}
