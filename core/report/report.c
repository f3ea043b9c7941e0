/* report.c: Markdown reports of a trace and of two traces compared
 * (report.h, docs/report.md). */
#include "stagetop/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/json.h"
#include "stagetop/md.h"
#include "stagetop/stages.h"
#include "stagetop/units.h"

#define DASH "\xE2\x80\x93"  /* – */
#define ARROW "\xE2\x86\x92" /* → */

static void esc(st_jw *w, const char *s, size_t n) { st_md_escape_to(w, s, n, 200); }
#define ESC_FIELD(w, f) esc((w), (f), sizeof(f))

static char *fmt_bytes(int has, uint64_t v, char *buf, size_t n)
{
    if (!has)
        snprintf(buf, n, DASH);
    else
        st_format_bytes(v, buf, n);
    return buf;
}

static char *fmt_signed(int has, int64_t v, char *buf, size_t n)
{
    if (!has) {
        snprintf(buf, n, DASH);
        return buf;
    }
    return st_format_bytes_as((double)v, ST_UNITS_SIGN, buf, n);
}

static char *fmt_level(int has, uint16_t c, char *buf, size_t n)
{
    if (!has)
        snprintf(buf, n, DASH);
    else if (c % 100 == 0)
        snprintf(buf, n, "%u %%", c / 100u);
    else
        snprintf(buf, n, "%.2f %%", c / 100.0);
    return buf;
}

static char *fmt_pct(int ha, uint64_t a, int hb, uint64_t b, char *buf, size_t n)
{
    int ok;
    double p = st_diff_pct(a, b, &ok);
    if (!ha || !hb || !ok)
        snprintf(buf, n, DASH);
    else
        snprintf(buf, n, "%+.1f %%", p);
    return buf;
}

static double duration_of(const st_summary *s)
{
    return s->n_samples ? (s->last_t_ms - (double)s->first_t_ms) / 1000.0 : 0.0;
}

static char *fmt_swap_path(const st_summary *s, char *buf, size_t n)
{
    char x[32], y[32], z[32];
    if (!s->has_swap)
        snprintf(buf, n, DASH);
    else
        snprintf(buf, n, "%s " ARROW " %s " ARROW " %s", st_format_bytes(s->swap_start, x, sizeof x),
                 st_format_bytes(s->swap_peak, y, sizeof y), st_format_bytes(s->swap_end, z, sizeof z));
    return buf;
}

static char *finish(st_jw *w, st_error *err)
{
    char *out = st_jw_take(w);
    st_jw_free(w);
    if (!out)
        st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory writing the report");
    return out;
}

/* "| key | value |" with a trusted key and a trusted value. */
static void kv(st_jw *w, const char *key, const char *val)
{
    st_md_printf(w, "| %s | %s |\n", key, val);
}

/* What ran and where, one table row each (untrusted values escaped). */
static void meta_rows(st_jw *w, const st_trace *t, const char *label)
{
    const st_trace_meta *m = &t->meta;
    char what[640], d[32];
    st_jw_lit(w, "| | |\n|---|---|\n| trace | ");
    esc(w, label, 4096);
    st_trace_what(m, what, sizeof what);
    st_jw_lit(w, " |\n| what ran | ");
    if (what[0])
        esc(w, what, sizeof what);
    else
        st_jw_lit(w, DASH);
    st_jw_lit(w, " |\n");
    if (m->start_utc[0]) {
        st_jw_lit(w, "| started | ");
        ESC_FIELD(w, m->start_utc);
        st_jw_lit(w, " |\n");
    }
    if (m->host[0] || m->os[0]) {
        st_jw_lit(w, "| host | ");
        ESC_FIELD(w, m->host);
        if (m->host[0] && m->os[0])
            st_jw_lit(w, " (");
        ESC_FIELD(w, m->os);
        if (m->host[0] && m->os[0])
            st_jw_char(w, ')');
        st_jw_lit(w, " |\n");
    }
    st_jw_lit(w, "| written by | ");
    if (m->stagetop[0]) {
        st_jw_lit(w, "stagetop ");
        ESC_FIELD(w, m->stagetop);
    } else {
        st_jw_lit(w, "stageload");
    }
    st_md_printf(w, " |\n| samples | %zu over %s", t->summary.n_samples,
                 st_format_duration(duration_of(&t->summary), d, sizeof d));
    if (m->interval > 0)
        st_md_printf(w, ", every %.3g s", m->interval);
    if (t->dropped_samples)
        st_md_printf(w, " (%llu dropped)", (unsigned long long)t->dropped_samples);
    st_jw_lit(w, " |\n");
}

static void summary_rows(st_jw *w, const st_summary *s)
{
    char a[64], b[128];
    st_jw_lit(w, "| measure | value |\n|---|--:|\n");
    kv(w, "duration", st_format_duration(duration_of(s), a, sizeof a));
    kv(w, "peak footprint", fmt_bytes(s->n_samples > 0, s->peak_footprint, a, sizeof a));
    kv(w, "kernel peak", fmt_bytes(s->has_kernel_peak, s->kernel_peak, a, sizeof a));
    kv(w, "swap start " ARROW " peak " ARROW " end", fmt_swap_path(s, b, sizeof b));
    kv(w, "swap growth (peak " DASH " start)",
       fmt_signed(s->has_swap, (int64_t)s->swap_peak - (int64_t)s->swap_start, a, sizeof a));
    kv(w, "min level", fmt_level(s->has_level, s->min_level_c, a, sizeof a));
    kv(w, "GPU peak", fmt_bytes(s->has_gpu, s->peak_gpu, a, sizeof a));
    if (s->act.has) { /* the activity lanes ([lanes]), when the trace has them */
        kv(w, "CPU (tree)", st_activity_cpu(&s->act, duration_of(s), b, sizeof b));
        kv(w, "page-ins (tree)", st_activity_pageins(&s->act, b, sizeof b));
        kv(w, "tree swap peak", st_activity_peak(&s->act, ST_F_TREE_SWAP, a, sizeof a));
        kv(w, "compressed peak", st_activity_peak(&s->act, ST_F_COMPRESSED, a, sizeof a));
    }
    st_md_printf(w, "| loads | %llu, %s in %.1f s |\n", (unsigned long long)s->loads_count,
                 st_format_bytes(s->loads_bytes, a, sizeof a), s->loads_seconds);
    st_md_printf(w, "| releases | %llu, %s |\n", (unsigned long long)s->releases_count,
                 st_format_bytes(s->releases_bytes, a, sizeof a));
}

static int stage_rows(st_jw *w, const st_trace *t, st_error *err)
{
    st_stage_row *r;
    size_t n;
    char a[48], b[48], c[48], d[48];
    int rc = st_stage_rows(&t->summary, &r, &n, err);
    if (rc != ST_OK)
        return rc;
    if (!n) {
        st_jw_lit(w, "No stage events in this trace.\n");
        return ST_OK;
    }
    st_jw_lit(w, "| stage | start | time | peak footprint | swap growth | min level | loads |\n"
                 "|---|--:|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < n; i++) {
        st_jw_lit(w, "| ");
        ESC_FIELD(w, r[i].stage);
        st_md_printf(w, " | %.1f s | %.1f s | %s | %s | %s | ", r[i].t0_ms / 1000.0,
                     r[i].seconds_ms / 1000.0,
                     fmt_bytes(r[i].has_peak, r[i].peak_footprint, a, sizeof a),
                     fmt_signed(r[i].has_swap, r[i].swap_growth, b, sizeof b),
                     fmt_level(r[i].has_level, r[i].min_level_c, c, sizeof c));
        if (r[i].loads_count)
            st_md_printf(w, "%llu (%s) |\n", (unsigned long long)r[i].loads_count,
                         st_format_bytes(r[i].loads_bytes, d, sizeof d));
        else
            st_jw_lit(w, "0 |\n");
    }
    if (t->summary.act.has) { /* each stage's activity ([lanes]) */
        char e[64];
        st_jw_lit(w, "\n| stage | CPU | page-ins | tree swap peak | compressed peak |\n"
                     "|---|--:|--:|--:|--:|\n");
        for (size_t i = 0; i < n; i++) {
            st_jw_lit(w, "| ");
            ESC_FIELD(w, r[i].stage);
            st_md_printf(w, " | %s | %s | %s | %s |\n",
                         st_activity_cpu(&r[i].act, r[i].seconds_ms / 1000.0, e, sizeof e),
                         st_activity_pageins(&r[i].act, b, sizeof b),
                         st_activity_peak(&r[i].act, ST_F_TREE_SWAP, c, sizeof c),
                         st_activity_peak(&r[i].act, ST_F_COMPRESSED, d, sizeof d));
        }
    }
    free(r);
    return ST_OK;
}

static void event_line(st_jw *w, const st_event *ev)
{
    const char *kind = st_event_kind_name(ev->kind);
    char b[32];
    st_md_printf(w, "- %.3f s: ", ev->t_ms / 1000.0);
    if (kind)
        st_jw_raw(w, kind, strlen(kind));
    else
        ESC_FIELD(w, ev->kind_name);
    if (ev->kind == ST_EV_STAGE && (ev->has & ST_EVF_STAGE) && ev->stage[0]) {
        st_jw_lit(w, " **");
        ESC_FIELD(w, ev->stage);
        st_jw_lit(w, "**");
    }
    if (ev->has & ST_EVF_NAME) {
        st_jw_char(w, ' ');
        ESC_FIELD(w, ev->name);
    }
    if (ev->has & ST_EVF_NBYTES)
        st_md_printf(w, ", %s", st_format_bytes(ev->nbytes, b, sizeof b));
    if (ev->has & ST_EVF_SECONDS)
        st_md_printf(w, " in %.2f s", ev->seconds);
    if (ev->has & ST_EVF_VALUE)
        st_md_printf(w, ", value %lld", (long long)ev->value);
    if (ev->has & ST_EVF_NOTE) {
        st_jw_lit(w, " (");
        ESC_FIELD(w, ev->note);
        st_jw_char(w, ')');
    }
    st_jw_char(w, '\n');
}

char *st_report_md(const st_trace *t, const char *label, const char *chart, st_error *err)
{
    st_jw w;
    st_jw_init(&w, -1);
    st_jw_lit(&w, "### Memory report: ");
    esc(&w, label, 4096);
    st_jw_lit(&w, "\n\n");
    meta_rows(&w, t, label);
    st_jw_lit(&w, "\n#### Summary\n\n");
    summary_rows(&w, &t->summary);
    st_jw_lit(&w, "\n#### Stages\n\n");
    if (stage_rows(&w, t, err) != ST_OK) {
        st_jw_free(&w);
        return NULL;
    }
    if (chart && *chart) {
        st_jw c;
        char fence[64];
        st_jw_init(&c, -1);
        st_text_clean_lines_to(&c, chart);
        char *body = st_jw_take(&c);
        st_jw_free(&c);
        if (!body) {
            st_jw_free(&w);
            st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory writing the report");
            return NULL;
        }
        st_md_fence(body, fence, sizeof fence);
        st_md_printf(&w, "\n#### Chart\n\n%s\n%s%s%s\n", fence, body,
                     body[0] && body[strlen(body) - 1] == '\n' ? "" : "\n", fence);
        free(body);
    }
    st_jw_lit(&w, "\n#### Events\n\n");
    if (!t->events.len)
        st_jw_lit(&w, "None.\n");
    for (size_t i = 0; i < t->events.len && i < ST_REPORT_MAX_EVENTS; i++)
        event_line(&w, &t->events.v[i]);
    if (t->events.len > ST_REPORT_MAX_EVENTS)
        st_md_printf(&w, "- %zu more events not listed\n", t->events.len - ST_REPORT_MAX_EVENTS);
    return finish(&w, err);
}

/* ---- two traces ---- */

static void row4(st_jw *w, const char *key, const char *a, const char *b, const char *ch)
{
    st_md_printf(w, "| %s | %s | %s | %s |\n", key, a, b, ch);
}

char *st_report_diff_md(const st_diff *d, const char *label_a, const char *label_b, st_error *err)
{
    const st_summary *sa = &d->a->summary, *sb = &d->b->summary;
    char what[640], x[128], y[128], z[64];
    st_jw w;
    st_jw_init(&w, -1);
    st_jw_lit(&w, "### Memory comparison: A ");
    esc(&w, label_a, 4096);
    st_jw_lit(&w, " vs B ");
    esc(&w, label_b, 4096);
    st_jw_lit(&w, "\n\n| | A | B |\n|---|---|---|\n| trace | ");
    esc(&w, label_a, 4096);
    st_jw_lit(&w, " | ");
    esc(&w, label_b, 4096);
    st_jw_lit(&w, " |\n| what ran | ");
    st_trace_what(&d->a->meta, what, sizeof what);
    if (what[0]) esc(&w, what, sizeof what); else st_jw_lit(&w, DASH);
    st_jw_lit(&w, " | ");
    st_trace_what(&d->b->meta, what, sizeof what);
    if (what[0]) esc(&w, what, sizeof what); else st_jw_lit(&w, DASH);
    st_md_printf(&w, " |\n| samples | %zu | %zu |\n", sa->n_samples, sb->n_samples);

    st_jw_lit(&w, "\n#### Stages\n\n");
    if (!d->n_stages)
        st_jw_lit(&w, "No stage events on either side.\n");
    else
        st_jw_lit(&w, "| stage | A time | A peak | B time | B peak | peak change |\n"
                      "|---|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < d->n_stages; i++) {
        const st_diff_stage *s = &d->stages[i];
        char at[32] = DASH, bt[32] = DASH, ap[32] = DASH, bp[32] = DASH;
        if (s->a.present) {
            snprintf(at, sizeof at, "%.1f s", s->a.seconds_ms / 1000.0);
            fmt_bytes(s->a.has_peak, s->a.peak_footprint, ap, sizeof ap);
        }
        if (s->b.present) {
            snprintf(bt, sizeof bt, "%.1f s", s->b.seconds_ms / 1000.0);
            fmt_bytes(s->b.has_peak, s->b.peak_footprint, bp, sizeof bp);
        }
        st_jw_lit(&w, "| ");
        ESC_FIELD(&w, s->stage);
        st_md_printf(&w, " | %s | %s | %s | %s | %s |\n", at, ap, bt, bp,
                     fmt_pct(s->a.has_peak, s->a.peak_footprint, s->b.has_peak,
                             s->b.peak_footprint, z, sizeof z));
    }

    st_jw_lit(&w, "\n#### Summary\n\n| measure | A | B | change |\n|---|--:|--:|--:|\n");
    snprintf(z, sizeof z, "%+.1f s", d->duration_s);
    row4(&w, "duration", st_format_duration(duration_of(sa), x, sizeof x),
         st_format_duration(duration_of(sb), y, sizeof y), z);
    int ha = sa->n_samples > 0, hb = sb->n_samples > 0;
    row4(&w, "peak footprint", fmt_bytes(ha, sa->peak_footprint, x, sizeof x),
         fmt_bytes(hb, sb->peak_footprint, y, sizeof y),
         fmt_pct(ha, sa->peak_footprint, hb, sb->peak_footprint, z, sizeof z));
    row4(&w, "kernel peak", fmt_bytes(sa->has_kernel_peak, sa->kernel_peak, x, sizeof x),
         fmt_bytes(sb->has_kernel_peak, sb->kernel_peak, y, sizeof y),
         fmt_pct(sa->has_kernel_peak, sa->kernel_peak, sb->has_kernel_peak, sb->kernel_peak, z,
                 sizeof z));
    row4(&w, "swap start " ARROW " peak " ARROW " end", fmt_swap_path(sa, x, sizeof x),
         fmt_swap_path(sb, y, sizeof y), DASH);
    row4(&w, "swap growth",
         fmt_signed(sa->has_swap, (int64_t)sa->swap_peak - (int64_t)sa->swap_start, x, sizeof x),
         fmt_signed(sb->has_swap, (int64_t)sb->swap_peak - (int64_t)sb->swap_start, y, sizeof y),
         fmt_signed(d->has_swap_growth, d->swap_growth, z, sizeof z));
    int dl = sb->min_level_c - sa->min_level_c;
    if (sa->has_level && sb->has_level && dl % 100 == 0)
        snprintf(z, sizeof z, "%+d pts", dl / 100);
    else if (sa->has_level && sb->has_level)
        snprintf(z, sizeof z, "%+.2f pts", dl / 100.0);
    else
        snprintf(z, sizeof z, DASH);
    char lx[32], ly[32];
    row4(&w, "min level", fmt_level(sa->has_level, sa->min_level_c, lx, sizeof lx),
         fmt_level(sb->has_level, sb->min_level_c, ly, sizeof ly), z);
    row4(&w, "GPU peak", fmt_bytes(sa->has_gpu, sa->peak_gpu, x, sizeof x),
         fmt_bytes(sb->has_gpu, sb->peak_gpu, y, sizeof y),
         fmt_pct(sa->has_gpu, sa->peak_gpu, sb->has_gpu, sb->peak_gpu, z, sizeof z));
    if (sa->act.has | sb->act.has) { /* the activity lanes ([lanes]) */
        row4(&w, "CPU (tree)", st_activity_cpu(&sa->act, duration_of(sa), x, sizeof x),
             st_activity_cpu(&sb->act, duration_of(sb), y, sizeof y), DASH);
        row4(&w, "page-ins (tree)", st_activity_pageins(&sa->act, x, sizeof x),
             st_activity_pageins(&sb->act, y, sizeof y), DASH);
        row4(&w, "tree swap peak", st_activity_peak(&sa->act, ST_F_TREE_SWAP, x, sizeof x),
             st_activity_peak(&sb->act, ST_F_TREE_SWAP, y, sizeof y), DASH);
        row4(&w, "compressed peak", st_activity_peak(&sa->act, ST_F_COMPRESSED, x, sizeof x),
             st_activity_peak(&sb->act, ST_F_COMPRESSED, y, sizeof y), DASH);
    }
    return finish(&w, err);
}
