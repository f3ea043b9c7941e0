/* summary_text.c: a trace's summary for a terminal (report.h:
 * st_report_summary_text; `stagetop summary --text`, the closing summary
 * of a run).  Values are the report model's (report_model.h), written as
 * the text form of `stagetop diff` writes them. */
#include "stagetop/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/lanes.h"
#include "stagetop/md.h"
#include "stagetop/report_model.h"
#include "stagetop/sb.h"
#include "stagetop/stage_table.h"
#include "stagetop/units.h"

#define DASH "\xE2\x80\x93"  /* – */
#define ARROW "\xE2\x86\x92" /* → */
#define LABEL_W 16           /* "peak footprint  " */

/* The value of the model's row key for one trace, as text. */
static const char *value(const st_report_row *rows, size_t n, const char *key, char *buf, size_t size)
{
    const st_report_row *r = st_report_find(rows, n, key);
    if (!r) {
        snprintf(buf, size, DASH);
        return buf;
    }
    return st_report_format(&r->a, r->unit, ST_RM_TEXT, buf, size);
}

/* The job's exit status: its last exit event with a value. */
static const st_event *exit_event(const st_trace *t)
{
    const st_event *ev = NULL;
    for (size_t i = 0; i < t->events.len; i++)
        if (t->events.v[i].kind == ST_EV_EXIT && (t->events.v[i].has & ST_EVF_VALUE))
            ev = &t->events.v[i];
    return ev;
}

/* label and text, the text cut at spaces to fit width, each further line
 * under the first's text. */
static void wrapped(st_sb *w, const char *label, const char *text, int width)
{
    int room = width - LABEL_W < 24 ? 24 : width - LABEL_W;
    st_sb_printf(w, "%-*s", LABEL_W, label);
    while (*text) {
        int n = (int)strlen(text);
        if (n > room) {
            int cut = room;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            n = cut > 0 ? cut : room;
        }
        st_sb_printf(w, "%.*s\n", n, text);
        text += n;
        while (*text == ' ')
            text++;
        if (*text)
            st_sb_printf(w, "%-*s", LABEL_W, "");
    }
}

void st_report_summary_text(const st_trace *t, st_sb *w, int width)
{
    const st_summary *s = &t->summary;
    st_report_row rows[ST_RM_MAX_ROWS];
    size_t n = st_report_summary(s, NULL, rows, ST_RM_MAX_ROWS);
    char a[128], b[64], c[64], d[64];
    width = width <= 0 ? 80 : width < 40 ? 40 : width;

    const st_event *ex = exit_event(t);
    st_sb_printf(w, "%-*s", LABEL_W, "exit status");
    if (ex)
        st_sb_printf(w, "%lld", (long long)ex->value);
    else
        st_sb_str(w, DASH " (no exit recorded)");
    if (ex && (ex->has & ST_EVF_NOTE)) { /* the OOM killer's (docs/trace-format.md, "exit") */
        st_sb_str(w, " (");
        st_text_clean_to(w, ex->note, sizeof ex->note, sizeof ex->note);
        st_sb_char(w, ')');
    }
    st_trace_limit lim;
    st_trace_limit_of(&t->meta, &lim);
    if (lim.has_limit) {
        st_sb_printf(w, "\n%-*s%s (", LABEL_W, "memory limit", st_format_bytes(lim.limit, a, sizeof a));
        st_text_clean_to(w, lim.limit_file, sizeof lim.limit_file, sizeof lim.limit_file);
        st_sb_str(w, " of ");
        st_text_clean_to(w, lim.limit_cgroup, sizeof lim.limit_cgroup, sizeof lim.limit_cgroup);
        st_sb_char(w, ')');
        if (s->lanes.has & ST_F_LIMIT_FREE)
            st_sb_printf(w, "; least room %s", st_format_bytes(s->lanes.min[ST_LANE_LIMIT_FREE], b, sizeof b));
    } else if (lim.has_cgroup) {
        st_sb_printf(w, "\n%-*snone (no memory limit on cgroup ", LABEL_W, "memory limit");
        st_text_clean_to(w, lim.cgroup, sizeof lim.cgroup, sizeof lim.cgroup);
        st_sb_str(w, " or above it)");
    }
    st_sb_printf(w, "\n%-*s%s, %zu samples\n", LABEL_W, "duration",
                 value(rows, n, "duration", a, sizeof a), s->n_samples);

    st_sb_printf(w, "%-*s%s\n", LABEL_W, "peak footprint",
                 value(rows, n, "peak_footprint", a, sizeof a));
    uint64_t procs = (s->lanes.has & ST_F_PROCS) ? s->lanes.max[ST_LANE_PROCS] : 0;
    if (st_lanes_shared_per_process(t->meta.footprint_metric, procs)) { /* docs/metrics.md */
        st_sb_printf(w, "%-*s", LABEL_W, "definition");
        st_text_clean_to(w, t->meta.footprint_metric, sizeof t->meta.footprint_metric, 30);
        st_sb_printf(w, ", " ST_FOOTPRINT_SHARED_NOTE " (up to %llu processes)\n", (unsigned long long)procs);
    }
    if (s->lanes.has & ST_F_FOOTPRINT_AGE) /* the proportional corrections' age (docs/metrics.md) */
        st_sb_printf(w, "%-*sat most %.2fs (the oldest correction the footprint carried)\n", LABEL_W,
                     "footprint age", s->lanes.max[ST_LANE_FOOTPRINT_AGE] / 100.0);
    st_sb_printf(w, "%-*s", LABEL_W, "kernel peak");
    if (s->has_kernel_peak) {
        /* a per-process mark, unless the kernel kept the tree's (cgroup
         * memory.peak): never shown as if it were the tree's (docs/metrics.md) */
        int tree = strcmp(s->kernel_peak_source, "cgroup") == 0;
        st_sb_str(w, st_format_bytes(s->kernel_peak, a, sizeof a));
        st_sb_str(w, tree ? " (the tree's, page cache in, swap out; source: "
                          : " (the largest process's peak; source: ");
        if (s->kernel_peak_source[0])
            st_text_clean_to(w, s->kernel_peak_source, sizeof s->kernel_peak_source, 16);
        else
            st_sb_str(w, "unknown");
        st_sb_str(w, ")\n");
    } else {
        st_sb_str(w, DASH " (not recorded)\n");
    }

    /* docs/metrics.md: swap growth is swap at the last sample minus swap at
     * the first */
    st_sb_printf(w, "%-*s", LABEL_W, "swap");
    if (s->has_swap) {
        st_format_bytes(s->swap_start, b, sizeof b);
        st_format_bytes(s->swap_peak, c, sizeof c);
        st_format_bytes_as((double)((int64_t)s->swap_end - (int64_t)s->swap_start), ST_UNITS_SIGN, d,
                           sizeof d);
        st_sb_printf(w, "%s start " ARROW " %s peak, growth %s\n", b, c, d);
    } else {
        st_sb_str(w, DASH "\n");
    }
    st_sb_printf(w, "%-*s%s\n", LABEL_W, "min level", value(rows, n, "min_level", a, sizeof a));
    st_mps_advice mps; /* a Mac job that used Metal: what its MPS cap means */
    if (st_trace_mps(&t->meta, s, &mps) != ST_MPS_NONE)
        wrapped(w, "mps", mps.line, width);
    if (s->n_pauses) /* the guard's and the user's, as the closing summary says them */
        st_sb_printf(w, "%-*s%llu time%s, %s in all (%llu by the guard)%s\n", LABEL_W, "paused",
                     (unsigned long long)s->n_pauses, s->n_pauses == 1 ? "" : "s",
                     st_format_duration(st_summary_paused_ms(s) / 1000.0, a, sizeof a),
                     (unsigned long long)s->n_guard_pauses,
                     s->paused ? "; still paused at the end" : "");
    st_stage_table_opts o = {.width = width, .indent = 0, .max_lines = 0, .more_hint = NULL};
    st_error e;
    if (st_stage_table(s, w, &o, &e) != ST_OK) /* out of memory: the builder's way to say it */
        w->oom = 1;
}
