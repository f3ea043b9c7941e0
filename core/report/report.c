/* report.c: Markdown reports of a trace and of two traces compared
 * (report.h, docs/report.md). */
#include "stagetop/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/md.h"
#include "stagetop/report_model.h"
#include "stagetop/sb.h"
#include "stagetop/stages.h"
#include "stagetop/units.h"

#define DASH "\xE2\x80\x93"  /* – */

static void esc(st_sb *w, const char *s, size_t n) { st_md_escape_to(w, s, n, 200); }
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

static char *finish(st_sb *w, st_error *err)
{
    char *out = st_sb_take(w);
    if (!out)
        st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory writing the report");
    return out;
}

/* "| key | value |" with a trusted key and a trusted value. */
static void kv(st_sb *w, const char *key, const char *val)
{
    st_sb_printf(w, "| %s | %s |\n", key, val);
}

/* What ran and where, one table row each (untrusted values escaped). */
static void meta_rows(st_sb *w, const st_trace *t, const char *label)
{
    const st_trace_meta *m = &t->meta;
    char what[640], d[32];
    st_sb_str(w, "| | |\n|---|---|\n| trace | ");
    esc(w, label, 4096);
    st_trace_what(m, what, sizeof what);
    st_sb_str(w, " |\n| what ran | ");
    if (what[0])
        esc(w, what, sizeof what);
    else
        st_sb_str(w, DASH);
    st_sb_str(w, " |\n");
    if (m->start_utc[0]) {
        st_sb_str(w, "| started | ");
        ESC_FIELD(w, m->start_utc);
        st_sb_str(w, " |\n");
    }
    if (m->host[0] || m->os[0]) {
        st_sb_str(w, "| host | ");
        ESC_FIELD(w, m->host);
        if (m->host[0] && m->os[0])
            st_sb_str(w, " (");
        ESC_FIELD(w, m->os);
        if (m->host[0] && m->os[0])
            st_sb_char(w, ')');
        st_sb_str(w, " |\n");
    }
    st_sb_str(w, "| written by | ");
    if (m->stagetop[0]) {
        st_sb_str(w, "stagetop ");
        ESC_FIELD(w, m->stagetop);
    } else {
        st_sb_str(w, "stageload");
    }
    st_sb_printf(w, " |\n| samples | %zu over %s", t->summary.n_samples,
                 st_format_duration(st_report_duration_s(&t->summary), d, sizeof d));
    if (m->interval > 0)
        st_sb_printf(w, ", every %.3g s", m->interval);
    if (t->dropped_samples)
        st_sb_printf(w, " (%llu dropped)", (unsigned long long)t->dropped_samples);
    st_sb_str(w, " |\n");
    if (t->events.dropped) /* the reader's cap (events.h): stages and the exit are all kept */
        st_sb_printf(w, "| events left out | %llu (the reader keeps %zu; stages and the exit are all "
                        "kept; counts of loads and marks are of the kept ones) |\n",
                     (unsigned long long)t->events.dropped, t->events.max);
    st_report_env env[ST_RM_MAX_ENV];
    size_t n = st_report_environment(t, env, ST_RM_MAX_ENV);
    for (size_t i = 0; i < n; i++) {
        st_sb_str(w, "| ");
        ESC_FIELD(w, env[i].label);
        st_sb_str(w, " | ");
        ESC_FIELD(w, env[i].value);
        st_sb_str(w, " |\n");
    }
    st_mps_advice mps; /* a Mac job that used Metal: what its MPS cap means */
    if (st_trace_mps(m, &t->summary, &mps) != ST_MPS_NONE) {
        st_sb_str(w, "| MPS | ");
        esc(w, mps.line, sizeof mps.line);
        st_sb_str(w, " |\n");
    }
}

/* The environment rows of two traces: A's labels in order, then those
 * only B has; "–" where a side has none. */
static void env_rows2(st_sb *w, const st_trace *a, const st_trace *b)
{
    st_report_env ea[ST_RM_MAX_ENV], eb[ST_RM_MAX_ENV];
    size_t na = st_report_environment(a, ea, ST_RM_MAX_ENV), nb = st_report_environment(b, eb, ST_RM_MAX_ENV);
    for (int pass = 0; pass < 2; pass++) {
        const st_report_env *own = pass ? eb : ea, *other = pass ? ea : eb;
        size_t n_own = pass ? nb : na, n_other = pass ? na : nb;
        for (size_t i = 0; i < n_own; i++) {
            const st_report_env *match = NULL;
            for (size_t k = 0; k < n_other && !match; k++)
                if (!strcmp(other[k].label, own[i].label))
                    match = &other[k];
            if (pass && match)
                continue; /* shown with A's */
            const st_report_env *va = pass ? match : &own[i], *vb = pass ? &own[i] : match;
            st_sb_str(w, "| ");
            ESC_FIELD(w, own[i].label);
            st_sb_str(w, " | ");
            if (va) ESC_FIELD(w, va->value); else st_sb_str(w, DASH);
            st_sb_str(w, " | ");
            if (vb) ESC_FIELD(w, vb->value); else st_sb_str(w, DASH);
            st_sb_str(w, " |\n");
        }
    }
}

static void summary_rows(st_sb *w, const st_summary *s)
{
    st_report_row rows[ST_RM_MAX_ROWS];
    size_t n = st_report_summary(s, NULL, rows, ST_RM_MAX_ROWS);
    char a[128];
    st_sb_str(w, "| measure | value |\n|---|--:|\n");
    for (size_t i = 0; i < n; i++)
        kv(w, rows[i].label, st_report_format(&rows[i].a, rows[i].unit, ST_RM_MD, a, sizeof a));
}

static int stage_rows(st_sb *w, const st_trace *t, st_error *err)
{
    st_stage_row *r;
    size_t n;
    char a[48], b[48], c[48], d[48];
    int rc = st_stage_rows(&t->summary, &r, &n, err);
    if (rc != ST_OK)
        return rc;
    if (!n || !t->summary.n_stage_events) { /* stageload's "setup" over the whole run is no stage */
        free(r);
        st_sb_str(w, "No stages: this trace has no stage events (the summary above is the whole run).\n");
        return ST_OK;
    }
    st_sb_str(w, "| stage | start | time | peak footprint | swap growth | min level | loads |\n"
                 "|---|--:|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < n; i++) {
        st_sb_str(w, "| ");
        ESC_FIELD(w, r[i].stage);
        st_sb_printf(w, " | %.1f s | %.1f s | %s | %s | %s | ", r[i].t0_ms / 1000.0,
                     r[i].seconds_ms / 1000.0,
                     fmt_bytes(r[i].has_peak, r[i].peak_footprint, a, sizeof a),
                     fmt_signed(r[i].has_swap, r[i].swap_growth, b, sizeof b),
                     fmt_level(r[i].has_level, r[i].min_level_c, c, sizeof c));
        if (r[i].loads_count)
            st_sb_printf(w, "%llu (%s) |\n", (unsigned long long)r[i].loads_count,
                         st_format_bytes(r[i].loads_bytes, d, sizeof d));
        else
            st_sb_str(w, "0 |\n");
    }
    if (t->summary.act.has) { /* each stage's activity: CPU seconds and page-ins of the window */
        char e[64];
        st_sb_str(w, "\n| stage | CPU | page-ins | tree swap peak | compressed peak |\n"
                     "|---|--:|--:|--:|--:|\n");
        for (size_t i = 0; i < n; i++) {
            st_sb_str(w, "| ");
            ESC_FIELD(w, r[i].stage);
            st_sb_printf(w, " | %s | %s | %s | %s |\n",
                         st_activity_cpu(&r[i].act, r[i].seconds_ms / 1000.0, e, sizeof e),
                         st_activity_pageins(&r[i].act, b, sizeof b),
                         st_activity_peak(&r[i].act, ST_F_TREE_SWAP, c, sizeof c),
                         st_activity_peak(&r[i].act, ST_F_COMPRESSED, d, sizeof d));
        }
    }
    free(r);
    return ST_OK;
}

/* A guard action: what crossed which limit and what the guard did. */
static void budget_line(st_sb *w, const st_event *ev)
{
    char v[32], l[32];
    int swap = (ev->has & ST_EVF_NAME) && strcmp(ev->name, "swap") == 0;
    st_sb_str(w, "guard: ");
    if (swap && (ev->has & ST_EVF_VALUE))
        st_sb_printf(w, "swap grew %s since the guard was armed",
                     st_format_bytes(ev->value > 0 ? (uint64_t)ev->value : 0, v, sizeof v));
    else if (ev->has & ST_EVF_VALUE)
        st_sb_printf(w, "memory level %.2f %%", ev->value / 100.0);
    else if (ev->has & ST_EVF_NAME)
        ESC_FIELD(w, ev->name);
    if (ev->has & ST_EVF_LIMIT) {
        if (swap)
            st_sb_printf(w, ", over the budget of %s",
                         st_format_bytes(ev->limit > 0 ? (uint64_t)ev->limit : 0, l, sizeof l));
        else
            st_sb_printf(w, ", under %.2f %%", ev->limit / 100.0);
    }
    if (ev->has & ST_EVF_NOTE) {
        st_sb_str(w, ": ");
        ESC_FIELD(w, ev->note);
    }
    st_sb_char(w, '\n');
}

static void event_line(st_sb *w, const st_event *ev)
{
    const char *kind = st_event_kind_name(ev->kind);
    char b[32];
    st_sb_printf(w, "- %.3f s: ", ev->t_ms / 1000.0);
    if (ev->kind == ST_EV_BUDGET) {
        budget_line(w, ev);
        return;
    }
    if (ev->kind == ST_EV_EXIT && (ev->has & ST_EVF_VALUE)) {
        st_sb_printf(w, "exit, status %lld\n", (long long)ev->value);
        return;
    }
    if ((ev->kind == ST_EV_PAUSE || ev->kind == ST_EV_RESUME || ev->kind == ST_EV_KILL) &&
        (ev->has & ST_EVF_VALUE) && !(ev->has & ~(ST_EVF_VALUE | ST_EVF_NOTE))) {
        st_sb_printf(w, "%s, %lld process%s signalled", kind ? kind : "?", (long long)ev->value,
                     ev->value == 1 ? "" : "es");
        if (ev->has & ST_EVF_NOTE) {
            st_sb_str(w, " (");
            ESC_FIELD(w, ev->note);
            st_sb_char(w, ')');
        }
        st_sb_char(w, '\n');
        return;
    }
    if (kind)
        st_sb_add(w, kind, strlen(kind));
    else
        ESC_FIELD(w, ev->kind_name);
    if (ev->kind == ST_EV_STAGE && (ev->has & ST_EVF_STAGE) && ev->stage[0]) {
        st_sb_str(w, " **");
        ESC_FIELD(w, ev->stage);
        st_sb_str(w, "**");
    }
    if (ev->has & ST_EVF_NAME) {
        st_sb_char(w, ' ');
        ESC_FIELD(w, ev->name);
    }
    if (ev->has & ST_EVF_NBYTES)
        st_sb_printf(w, ", %s", st_format_bytes(ev->nbytes, b, sizeof b));
    if (ev->has & ST_EVF_SECONDS)
        st_sb_printf(w, " in %.2f s", ev->seconds);
    if (ev->has & ST_EVF_VALUE)
        st_sb_printf(w, ", value %lld", (long long)ev->value);
    if (ev->has & ST_EVF_NOTE) {
        st_sb_str(w, " (");
        ESC_FIELD(w, ev->note);
        st_sb_char(w, ')');
    }
    st_sb_char(w, '\n');
}

/* The SVG chart's link: bytes outside RFC 3986's unreserved set and '/'
 * percent-encoded (a file name with spaces or parentheses stays one link). */
static void link_to(st_sb *w, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            st_sb_char(w, (char)*p);
        else
            st_sb_printf(w, "%%%02X", *p);
    }
}

/* A text chart as an indented code block: a block in every renderer (a
 * fence is not one in python-markdown without its fenced_code extension),
 * and no fence for trace text to close. */
static int code_block(st_sb *w, const char *chart, st_error *err)
{
    st_sb c;
    st_sb_init(&c);
    st_text_clean_lines_to(&c, chart);
    char *body = st_sb_take(&c);
    if (!body) {
        st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory writing the report");
        return ST_ENOMEM;
    }
    for (char *line = body; *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        st_sb_str(w, "    ");
        st_sb_add(w, line, n);
        st_sb_char(w, '\n');
        line += n + (nl ? 1 : 0);
    }
    free(body);
    return ST_OK;
}

/* "#### Chart": the SVG's link, then the text chart(s) (captioned A and B
 * in a comparison).  Nothing when c holds none. */
static int chart_section(st_sb *w, const st_report_charts *c, const char *const label[2],
                         st_error *err)
{
    int two = label[1] != NULL;
    if (!c || (!c->image && !(c->text[0] && *c->text[0]) && !(c->text[1] && *c->text[1])))
        return ST_OK;
    st_sb_str(w, "\n#### Chart\n\n");
    if (c->image && *c->image) {
        st_sb_str(w, two ? "![Memory over time, A solid and B dashed](" : "![Memory over time](");
        link_to(w, c->image);
        st_sb_str(w, ")\n\n");
    }
    for (int i = 0; i < 2; i++) {
        if (!c->text[i] || !*c->text[i])
            continue;
        if (two) {
            st_sb_str(w, i ? "\nB: " : "A: ");
            esc(w, label[i], 4096);
            st_sb_str(w, "\n\n");
        }
        if (code_block(w, c->text[i], err) != ST_OK)
            return ST_ENOMEM;
    }
    return ST_OK;
}

char *st_report_md(const st_trace *t, const char *label, const char *chart, st_error *err)
{
    st_report_charts c = {{chart, NULL}, NULL};
    return st_report_md_charts(t, label, &c, err);
}

char *st_report_md_charts(const st_trace *t, const char *label, const st_report_charts *c,
                          st_error *err)
{
    const char *labels[2] = {label, NULL};
    st_sb w;
    st_sb_init(&w);
    st_sb_str(&w, "### Memory report: ");
    esc(&w, label, 4096);
    st_sb_str(&w, "\n\n");
    meta_rows(&w, t, label);
    st_sb_str(&w, "\n#### Summary\n\n");
    summary_rows(&w, &t->summary);
    st_sb_str(&w, "\n#### Stages\n\n");
    if (stage_rows(&w, t, err) != ST_OK || chart_section(&w, c, labels, err) != ST_OK) {
        st_sb_free(&w);
        return NULL;
    }
    st_sb_str(&w, "\n#### Events\n\n");
    if (!t->events.len)
        st_sb_str(&w, "None.\n");
    for (size_t i = 0; i < t->events.len && i < ST_REPORT_MAX_EVENTS; i++)
        event_line(&w, &t->events.v[i]);
    if (t->events.len > ST_REPORT_MAX_EVENTS)
        st_sb_printf(&w, "- %zu more events not listed\n", t->events.len - ST_REPORT_MAX_EVENTS);
    return finish(&w, err);
}

/* ---- two traces ---- */

static void row4(st_sb *w, const char *key, const char *a, const char *b, const char *ch)
{
    st_sb_printf(w, "| %s | %s | %s | %s |\n", key, a, b, ch);
}

char *st_report_diff_md(const st_diff *d, const char *label_a, const char *label_b, st_error *err)
{
    return st_report_diff_md_charts(d, label_a, label_b, NULL, err);
}

char *st_report_diff_md_charts(const st_diff *d, const char *label_a, const char *label_b,
                               const st_report_charts *charts, st_error *err)
{
    const char *labels[2] = {label_a, label_b};
    char what[640], x[128], y[128], z[64], note[200];
    st_sb w;
    st_sb_init(&w);
    st_sb_str(&w, "### Memory comparison: A ");
    esc(&w, label_a, 4096);
    st_sb_str(&w, " vs B ");
    esc(&w, label_b, 4096);
    st_sb_str(&w, "\n\n| | A | B |\n|---|---|---|\n| trace | ");
    esc(&w, label_a, 4096);
    st_sb_str(&w, " | ");
    esc(&w, label_b, 4096);
    st_sb_str(&w, " |\n| what ran | ");
    st_trace_what(&d->a->meta, what, sizeof what);
    if (what[0]) esc(&w, what, sizeof what); else st_sb_str(&w, DASH);
    st_sb_str(&w, " | ");
    st_trace_what(&d->b->meta, what, sizeof what);
    if (what[0]) esc(&w, what, sizeof what); else st_sb_str(&w, DASH);
    st_sb_printf(&w, " |\n| samples | %zu | %zu |\n", d->a->summary.n_samples,
                 d->b->summary.n_samples);
    env_rows2(&w, d->a, d->b);
    if (st_diff_metric_note(d, note, sizeof note)) {
        st_sb_str(&w, "\n**Note:** ");
        esc(&w, note, sizeof note);
        st_sb_str(&w, ".\n");
    }

    st_sb_str(&w, "\n#### Stages\n\n");
    if (!d->n_stages) {
        st_sb_str(&w, "No stages: neither trace has stage events.\n");
    } else {
        st_sb_str(&w, "| stage |");
        for (size_t c = 0; c < st_diff_n_cols; c++)
            st_sb_printf(&w, " %s |", st_diff_cols[c].md_head);
        st_sb_str(&w, "\n|---|");
        for (size_t c = 0; c < st_diff_n_cols; c++)
            st_sb_str(&w, "--:|");
        st_sb_char(&w, '\n');
    }
    for (size_t i = 0; i < d->n_stages; i++) {
        const st_diff_stage *s = &d->stages[i];
        st_sb_str(&w, "| ");
        ESC_FIELD(&w, s->stage);
        st_sb_str(&w, " |");
        for (size_t c = 0; c < st_diff_n_cols; c++)
            st_sb_printf(&w, " %s |", st_diff_stage_cell(s, st_diff_cols[c].col, st_diff_cols[c].side_b,
                                                         ST_RM_MD, x, sizeof x));
        st_sb_char(&w, '\n');
    }

    st_sb_str(&w, "\n#### Summary\n\n| measure | A | B | change |\n|---|--:|--:|--:|\n");
    for (size_t i = 0; i < d->n_rows; i++) {
        const st_report_row *r = &d->rows[i];
        row4(&w, r->label, st_report_format(&r->a, r->unit, ST_RM_MD, x, sizeof x),
             st_report_format(&r->b, r->unit, ST_RM_MD, y, sizeof y),
             st_report_format_change(r, ST_RM_MD, z, sizeof z));
    }
    if (chart_section(&w, charts, labels, err) != ST_OK) {
        st_sb_free(&w);
        return NULL;
    }
    return finish(&w, err);
}
