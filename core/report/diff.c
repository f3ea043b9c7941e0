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
#include "stagetop/units.h"

#define DASH "\xE2\x80\x93" /* – */
#define ARROW "\xE2\x86\x92" /* → */

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

static int add_side(st_diff *d, const st_trace *t, int side_b, st_error *err)
{
    const st_summary *s = &t->summary;
    int fail = 0;
    for (size_t i = 0; i < s->n_stages; i++) {
        char name[64];
        memcpy(name, s->stages[i].stage, sizeof name);
        name[sizeof name - 1] = '\0';
        st_diff_stage *row = find_or_add(d, name, &fail);
        if (!row)
            return st_error_set(err, ST_ENOMEM, 0, "out of memory comparing stages");
        st_diff_side *x = side_b ? &row->b : &row->a;
        st_stage_row sr;
        st_summary_stage(s, i, &sr);
        int64_t ms = sr.seconds_ms;
        uint64_t peak = sr.peak_footprint;
        int has = sr.has_peak;
        x->seconds_ms += ms;
        if (has && (!x->has_peak || peak > x->peak_footprint)) {
            x->peak_footprint = peak;
            x->has_peak = 1;
        }
        x->present = 1;
    }
    return ST_OK;
}

double st_diff_pct(uint64_t a, uint64_t b, int *ok)
{
    *ok = a > 0;
    return a > 0 ? 100.0 * ((double)b - (double)a) / (double)a : 0.0;
}

static double duration_of(const st_summary *s)
{
    return s->n_samples ? (s->last_t_ms - (double)s->first_t_ms) / 1000.0 : 0.0;
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
    const st_summary *sa = &a->summary, *sb = &b->summary;
    d->peak_pct = st_diff_pct(sa->peak_footprint, sb->peak_footprint, &d->has_peak_pct);
    d->duration_s = duration_of(sb) - duration_of(sa);
    if (sa->has_swap && sb->has_swap) {
        d->swap_growth = ((int64_t)sb->swap_peak - (int64_t)sb->swap_start) -
                         ((int64_t)sa->swap_peak - (int64_t)sa->swap_start);
        d->has_swap_growth = 1;
    }
    return ST_OK;
}

void st_diff_free(st_diff *d)
{
    free(d->stages);
    d->stages = NULL;
    d->n_stages = d->cap_stages = 0;
}

int st_diff_peak_exceeds(const st_diff *d, double pct)
{
    uint64_t pa = d->a->summary.peak_footprint, pb = d->b->summary.peak_footprint;
    if (!d->has_peak_pct)
        return pb > pa;
    return d->peak_pct > pct;
}

/* ---- text ---- */

static const char *bytes_or_dash(int has, uint64_t v, char *buf, size_t n)
{
    return has ? st_format_bytes(v, buf, n) : DASH;
}

static const char *secs(int64_t ms, char *buf, size_t n)
{
    snprintf(buf, n, "%.1fs", ms / 1000.0);
    return buf;
}

static const char *pct_cell(int ha, uint64_t a, int hb, uint64_t b, char *buf, size_t n)
{
    int ok;
    double p = st_diff_pct(a, b, &ok);
    if (!ha || !hb || !ok)
        return DASH;
    snprintf(buf, n, "%+.1f%%", p);
    return buf;
}

static const char *signed_bytes(int64_t v, char *buf, size_t n)
{
    return st_format_bytes_as((double)v, ST_UNITS_SIGN, buf, n);
}

/* Pad to `cols` columns counting code points (the cells here hold ASCII,
 * "–", "→" and cleaned names of up to 24 code points). */
static void cell(st_jw *w, const char *s, int cols, int right)
{
    int cps = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        cps += (*p & 0xC0) != 0x80;
    if (right)
        for (int i = cps; i < cols; i++)
            st_jw_char(w, ' ');
    st_jw_raw(w, s, strlen(s));
    if (!right)
        for (int i = cps; i < cols; i++)
            st_jw_char(w, ' ');
}

static void clean_str(const char *s, size_t n, size_t max_cps, char *out, size_t size)
{
    st_jw w;
    st_jw_init(&w, -1);
    st_text_clean_to(&w, s, n, max_cps);
    char *t = st_jw_take(&w);
    snprintf(out, size, "%s", t ? t : "");
    free(t);
    st_jw_free(&w);
}

static void side_line(st_jw *w, const char *tag, const char *label, const st_trace *t)
{
    char what[640], c[700], d[32];
    st_trace_what(&t->meta, what, sizeof what);
    clean_str(label, 4096, 200, c, sizeof c);
    st_md_printf(w, "%s: %s\n", tag, c);
    clean_str(what, sizeof what, 200, c, sizeof c);
    st_md_printf(w, "   %s%s%zu samples over %s\n", c, c[0] ? " \xC2\xB7 " : "",
                 t->summary.n_samples, st_format_duration(duration_of(&t->summary), d, sizeof d));
}

static void row5(st_jw *w, const char *name, const char *a, const char *b, const char *ch)
{
    cell(w, name, 24, 0);
    cell(w, a, 32, 1);
    cell(w, b, 32, 1);
    cell(w, ch, 12, 1);
    st_jw_char(w, '\n');
}

/* A level in hundredths as "56%" / "45.50%", or a change "+50 pts". */
static void level_str(int c, char *buf, size_t n, int change)
{
    if (c % 100 == 0)
        snprintf(buf, n, change ? "%+d pts" : "%d%%", c / 100);
    else
        snprintf(buf, n, change ? "%+.2f pts" : "%.2f%%", c / 100.0);
}

static void swap_path(const st_summary *s, char *buf, size_t n)
{
    char x[32], y[32], z[32];
    if (!s->has_swap) {
        snprintf(buf, n, DASH);
        return;
    }
    snprintf(buf, n, "%s " ARROW " %s " ARROW " %s", st_format_bytes(s->swap_start, x, sizeof x),
             st_format_bytes(s->swap_peak, y, sizeof y), st_format_bytes(s->swap_end, z, sizeof z));
}

char *st_diff_text(const st_diff *d, const char *label_a, const char *label_b)
{
    st_jw w;
    char name[200], x[48], y[48], z[48], u[32];
    const st_summary *sa = &d->a->summary, *sb = &d->b->summary;
    st_jw_init(&w, -1);
    side_line(&w, "A", label_a, d->a);
    side_line(&w, "B", label_b, d->b);
    st_jw_char(&w, '\n');
    cell(&w, "stage", 22, 0);
    cell(&w, "A time", 9, 1);
    cell(&w, "A peak", 12, 1);
    cell(&w, "B time", 9, 1);
    cell(&w, "B peak", 12, 1);
    cell(&w, "peak", 10, 1);
    st_jw_char(&w, '\n');
    for (size_t i = 0; i < d->n_stages; i++) {
        const st_diff_stage *s = &d->stages[i];
        clean_str(s->stage, sizeof s->stage, 21, name, sizeof name);
        cell(&w, name, 22, 0);
        cell(&w, s->a.present ? secs(s->a.seconds_ms, x, sizeof x) : DASH, 9, 1);
        cell(&w, s->a.present ? bytes_or_dash(s->a.has_peak, s->a.peak_footprint, y, sizeof y) : DASH, 12, 1);
        cell(&w, s->b.present ? secs(s->b.seconds_ms, z, sizeof z) : DASH, 9, 1);
        cell(&w, s->b.present ? bytes_or_dash(s->b.has_peak, s->b.peak_footprint, u, sizeof u) : DASH, 12, 1);
        cell(&w, pct_cell(s->a.has_peak, s->a.peak_footprint, s->b.has_peak, s->b.peak_footprint,
                          x, sizeof x), 10, 1);
        st_jw_char(&w, '\n');
    }
    if (!d->n_stages)
        st_jw_lit(&w, "(no stages on either side)\n");
    st_jw_char(&w, '\n');
    row5(&w, "", "A", "B", "change");
    int has_a = sa->n_samples > 0, has_b = sb->n_samples > 0;
    snprintf(z, sizeof z, "%+.1fs", d->duration_s);
    row5(&w, "duration", st_format_duration(duration_of(sa), x, sizeof x),
         st_format_duration(duration_of(sb), y, sizeof y), z);
    row5(&w, "peak footprint", bytes_or_dash(has_a, sa->peak_footprint, x, sizeof x),
         bytes_or_dash(has_b, sb->peak_footprint, y, sizeof y),
         pct_cell(has_a, sa->peak_footprint, has_b, sb->peak_footprint, z, sizeof z));
    row5(&w, "kernel peak", bytes_or_dash(sa->has_kernel_peak, sa->kernel_peak, x, sizeof x),
         bytes_or_dash(sb->has_kernel_peak, sb->kernel_peak, y, sizeof y),
         pct_cell(sa->has_kernel_peak, sa->kernel_peak, sb->has_kernel_peak, sb->kernel_peak, z,
                  sizeof z));
    char pa[128], pb[128];
    swap_path(sa, pa, sizeof pa);
    swap_path(sb, pb, sizeof pb);
    row5(&w, "swap start " ARROW " peak " ARROW " end", pa, pb, DASH);
    row5(&w, "swap growth",
         sa->has_swap ? signed_bytes((int64_t)sa->swap_peak - (int64_t)sa->swap_start, x, sizeof x) : DASH,
         sb->has_swap ? signed_bytes((int64_t)sb->swap_peak - (int64_t)sb->swap_start, y, sizeof y) : DASH,
         d->has_swap_growth ? signed_bytes(d->swap_growth, z, sizeof z) : DASH);
    level_str(sa->min_level_c, x, sizeof x, 0);
    level_str(sb->min_level_c, y, sizeof y, 0);
    level_str(sb->min_level_c - sa->min_level_c, z, sizeof z, 1);
    row5(&w, "min level", sa->has_level ? x : DASH, sb->has_level ? y : DASH,
         sa->has_level && sb->has_level ? z : DASH);
    row5(&w, "GPU peak", bytes_or_dash(sa->has_gpu, sa->peak_gpu, x, sizeof x),
         bytes_or_dash(sb->has_gpu, sb->peak_gpu, y, sizeof y),
         pct_cell(sa->has_gpu, sa->peak_gpu, sb->has_gpu, sb->peak_gpu, z, sizeof z));
    if (sa->act.has | sb->act.has) { /* the activity lanes ([lanes]) */
        row5(&w, "CPU (tree)", st_activity_cpu(&sa->act, duration_of(sa), x, sizeof x),
             st_activity_cpu(&sb->act, duration_of(sb), y, sizeof y), DASH);
        row5(&w, "page-ins (tree)", st_activity_pageins(&sa->act, x, sizeof x),
             st_activity_pageins(&sb->act, y, sizeof y), DASH);
        row5(&w, "tree swap peak", st_activity_peak(&sa->act, ST_F_TREE_SWAP, x, sizeof x),
             st_activity_peak(&sb->act, ST_F_TREE_SWAP, y, sizeof y), DASH);
        row5(&w, "compressed peak", st_activity_peak(&sa->act, ST_F_COMPRESSED, x, sizeof x),
             st_activity_peak(&sb->act, ST_F_COMPRESSED, y, sizeof y), DASH);
    }
    char *out = st_jw_take(&w);
    st_jw_free(&w);
    return out;
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
        st_jw_char(&w, '}');
    }
    st_jw_lit(&w, "],\n\"change\":{\"peak_footprint_pct\":");
    if (d->has_peak_pct)
        st_jw_double(&w, d->peak_pct);
    else
        st_jw_lit(&w, "null");
    st_jw_lit(&w, ",\"duration_s\":");
    st_jw_fixed3(&w, d->duration_s);
    st_jw_lit(&w, ",\"swap_growth_bytes\":");
    if (d->has_swap_growth)
        st_jw_i64(&w, d->swap_growth);
    else
        st_jw_lit(&w, "null");
    st_jw_lit(&w, "}}");
    char *out = st_jw_take(&w);
    st_jw_free(&w);
    return out;
}
