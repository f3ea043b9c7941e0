/* model.c: the report model: summary rows built once, typed, and the one
 * formatter of their values and changes (report_model.h). */
#include "stagetop/report_model.h"

#include <stdio.h>
#include <string.h>

#include "stagetop/events.h"
#include "stagetop/lanes.h"
#include "stagetop/units.h"

#define DASH "\xE2\x80\x93"  /* – */
#define ARROW "\xE2\x86\x92" /* → */

double st_report_duration_s(const st_summary *s)
{
    return s->n_samples ? (s->last_t_ms - (double)s->first_t_ms) / 1000.0 : 0.0;
}

st_report_value st_report_bytes(int has, uint64_t v)
{
    st_report_value x;
    memset(&x, 0, sizeof x);
    x.has = has;
    x.i[0] = (int64_t)v;
    return x;
}

st_report_value st_report_seconds(int has, double s)
{
    st_report_value x;
    memset(&x, 0, sizeof x);
    x.has = has;
    x.s = s;
    return x;
}

static st_report_value signed_bytes(int has, int64_t v)
{
    st_report_value x = st_report_bytes(has, 0);
    x.i[0] = v;
    return x;
}

/* A row of the tables: a lane's measure (lane >= 0, from its row in the
 * lane table: stagetop/lanes.h, report_*), or one of the run's own. */
typedef struct measure {
    const char *label, *key, *change_key;
    st_report_unit unit;
    st_report_change change;
    int one_trace_only; /* not in a comparison */
    int lane;           /* the lane's id; -1: the run's own measure */
    int rise;           /* a growth lane's second row: its rise */
    int always;         /* a row even when no trace has the lane */
    st_report_value (*value)(const st_summary *s); /* the run's own */
} measure;

static st_report_value duration(const st_summary *s)
{
    return st_report_seconds(1, st_report_duration_s(s));
}

static st_report_value kernel_peak(const st_summary *s)
{
    return st_report_bytes(s->has_kernel_peak, s->kernel_peak);
}

static st_report_value loads(const st_summary *s)
{
    st_report_value x = st_report_bytes(1, s->loads_count);
    x.i[1] = (int64_t)s->loads_bytes;
    x.s = s->loads_seconds;
    return x;
}

static st_report_value releases(const st_summary *s)
{
    st_report_value x = st_report_bytes(1, s->releases_count);
    x.i[1] = (int64_t)s->releases_bytes;
    return x;
}

/* The run's own measures: the duration first, the kernel's peak after the
 * footprint's (it is the kernel's reading of the same lane), the events
 * last. */
static const measure DURATION = {"duration", "duration", "duration_s", ST_RM_DURATION,
                                 ST_RM_CH_DELTA, 0, -1, 0, 1, duration};
static const measure KERNEL_PEAK = {"kernel peak", "kernel_peak", NULL, ST_RM_BYTES, ST_RM_CH_PCT,
                                    0, -1, 0, 1, kernel_peak};
static const measure EVENTS[] = {
    {"loads", "loads", NULL, ST_RM_LOADS, ST_RM_CH_NONE, 1, -1, 0, 1, loads},
    {"releases", "releases", NULL, ST_RM_RELEASES, ST_RM_CH_NONE, 1, -1, 0, 1, releases},
};

/* Lane l's measure: its unit and change from the row's unit and rule; a
 * growth lane's path, or with rise its rise. */
static measure lane_measure(const st_lane *l, int rise)
{
    measure m = {l->report_label, l->report_key, NULL, ST_RM_BYTES, ST_RM_CH_NONE, 0, l->id, rise,
                 l->report_always, NULL};
    switch (l->rule) {
    case ST_LR_GROWTH:
        if (rise) {
            m.label = l->report_rise_label;
            m.key = l->report_rise_key;
            m.change_key = l->report_change_key;
            m.unit = ST_RM_SBYTES;
            m.change = ST_RM_CH_DELTA;
        } else {
            m.unit = ST_RM_SWAP_PATH;
        }
        break;
    case ST_LR_MIN:
        m.unit = ST_RM_LEVEL;
        m.change = ST_RM_CH_POINTS;
        break;
    case ST_LR_RATE:
        m.unit = l->unit == ST_LU_CPU ? ST_RM_CPU : ST_RM_PAGEINS;
        break;
    default: /* ST_LR_PEAK, ST_LR_LAST: the peak */
        m.change = ST_RM_CH_PCT;
        m.change_key = l->report_change_key;
        break;
    }
    return m;
}

/* A rate lane's total over the run (its integral: CPU seconds, page-ins). */
static double rate_total(const st_summary *s, const st_lane *l)
{
    return l->unit == ST_LU_CPU ? s->act.cpu_s : s->act.pageins;
}

/* Measure m's value in the summary of one trace. */
static st_report_value value_of(const st_summary *s, const measure *m)
{
    if (m->lane < 0)
        return m->value(s);
    const st_lane *l = &st_lanes[m->lane];
    const st_lane_stats *ls = &s->lanes;
    int i = m->lane, has = (ls->has & st_lane_bit(i)) != 0;
    if (l->source == ST_LS_PROC && l->sum == ST_LSUM_READ && s->n_samples)
        has = 1; /* a sum over the processes read: an empty tree's is 0 */
    st_report_value x;
    switch (m->unit) {
    case ST_RM_SWAP_PATH:
        x = st_report_bytes(has, ls->first[i]);
        x.i[1] = (int64_t)ls->max[i];
        x.i[2] = (int64_t)ls->last[i];
        return x;
    case ST_RM_SBYTES:
        return signed_bytes(has, (int64_t)ls->max[i] - (int64_t)ls->first[i]);
    case ST_RM_LEVEL:
        return st_report_bytes(has, ls->min[i]);
    case ST_RM_CPU: /* the mean over the run's duration */
        x = st_report_seconds(has, rate_total(s, l));
        x.i[0] = (int64_t)(st_report_duration_s(s) * 1000.0);
        return x;
    case ST_RM_PAGEINS: /* and the peak rate */
        x = st_report_seconds(has, rate_total(s, l));
        x.i[0] = (int64_t)ls->max[i];
        return x;
    default:
        return st_report_bytes(has, ls->max[i]);
    }
}

double st_report_delta(const st_report_value *a, const st_report_value *b, st_report_unit u, st_report_change ch,
                   int *has)
{
    int secs = u == ST_RM_DURATION || u == ST_RM_SECONDS;
    *has = 0;
    if (ch == ST_RM_CH_NONE || !a->has || !b->has)
        return 0.0;
    double va = secs ? a->s : (double)a->i[0], vb = secs ? b->s : (double)b->i[0];
    if (ch == ST_RM_CH_PCT) {
        if (va == 0.0)
            return 0.0;
        *has = 1;
        return 100.0 * (vb - va) / va;
    }
    *has = 1;
    return vb - va; /* DELTA, POINTS */
}

/* Add measure m's row (when it has one: a lane only some traces hold,
 * only when one of them does; a single trace's only without b). */
static void add_row(const measure *m, const st_summary *a, const st_summary *b, st_report_row *rows,
                    size_t *n, size_t max)
{
    if (*n >= max || (b && m->one_trace_only))
        return;
    if (!m->always && !((a->lanes.has | (b ? b->lanes.has : 0)) & st_lane_bit(m->lane)))
        return;
    st_report_row *r = &rows[(*n)++];
    memset(r, 0, sizeof *r);
    r->label = m->label;
    r->key = m->key;
    r->change_key = m->change_key;
    r->unit = m->unit;
    r->change = b ? m->change : ST_RM_CH_NONE;
    r->a = value_of(a, m);
    if (b) {
        r->b = value_of(b, m);
        r->delta = st_report_delta(&r->a, &r->b, r->unit, r->change, &r->has_delta);
        if (r->change == ST_RM_CH_DELTA && (r->unit == ST_RM_DURATION || r->unit == ST_RM_SECONDS))
            r->rel = st_report_delta(&r->a, &r->b, r->unit, ST_RM_CH_PCT, &r->has_rel);
    }
}

/* The rows in the order every output shows them: the duration, the lanes
 * with a report rank by rank (the kernel peak after the footprint's), the
 * events. */
size_t st_report_summary(const st_summary *a, const st_summary *b, st_report_row *rows, size_t max)
{
    size_t n = 0;
    int ids[ST_LANE_COUNT];
    size_t n_lanes = st_lanes_order(ST_LO_REPORT, ids);
    add_row(&DURATION, a, b, rows, &n, max);
    for (size_t k = 0; k < n_lanes; k++) {
        const st_lane *l = &st_lanes[ids[k]];
        measure m = lane_measure(l, 0);
        add_row(&m, a, b, rows, &n, max);
        if (l->rule == ST_LR_GROWTH) {
            m = lane_measure(l, 1);
            add_row(&m, a, b, rows, &n, max);
        }
        if (l->id == ST_LANE_FOOTPRINT)
            add_row(&KERNEL_PEAK, a, b, rows, &n, max);
    }
    for (size_t k = 0; k < sizeof EVENTS / sizeof EVENTS[0]; k++)
        add_row(&EVENTS[k], a, b, rows, &n, max);
    return n;
}

const st_report_row *st_report_find(const st_report_row *rows, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].key, key))
            return &rows[i];
    return NULL;
}

/* A level (or a change of one) in hundredths: "56%", "45.50%", "+50 pts". */
static void level_str(long c, int md, int change, char *buf, size_t n)
{
    if (change)
        snprintf(buf, n, c % 100 == 0 ? "%+.0f pts" : "%+.2f pts", c / 100.0);
    else if (c % 100 == 0)
        snprintf(buf, n, md ? "%ld %%" : "%ld%%", c / 100);
    else
        snprintf(buf, n, md ? "%.2f %%" : "%.2f%%", c / 100.0);
}

const char *st_report_format(const st_report_value *v, st_report_unit u, enum st_report_style style, char *buf,
                         size_t n)
{
    char x[32], y[32], z[32];
    int md = style == ST_RM_MD;
    if (!v->has) {
        snprintf(buf, n, DASH);
        return buf;
    }
    switch (u) {
    case ST_RM_DURATION:
        return st_format_duration(v->s, buf, n);
    case ST_RM_SECONDS:
        snprintf(buf, n, md ? "%.1f s" : "%.1fs", v->s);
        return buf;
    case ST_RM_BYTES:
        return st_format_bytes((uint64_t)v->i[0], buf, n);
    case ST_RM_SBYTES:
        return st_format_bytes_as((double)v->i[0], ST_UNITS_SIGN, buf, n);
    case ST_RM_LEVEL:
        level_str((long)v->i[0], md, 0, buf, n);
        return buf;
    case ST_RM_SWAP_PATH:
        snprintf(buf, n, "%s " ARROW " %s " ARROW " %s", st_format_bytes((uint64_t)v->i[0], x, sizeof x),
                 st_format_bytes((uint64_t)v->i[1], y, sizeof y),
                 st_format_bytes((uint64_t)v->i[2], z, sizeof z));
        return buf;
    case ST_RM_LOADS:
        snprintf(buf, n, "%llu, %s in %.1f s", (unsigned long long)v->i[0],
                 st_format_bytes((uint64_t)v->i[1], x, sizeof x), v->s);
        return buf;
    case ST_RM_RELEASES:
        snprintf(buf, n, "%llu, %s", (unsigned long long)v->i[0],
                 st_format_bytes((uint64_t)v->i[1], x, sizeof x));
        return buf;
    case ST_RM_CPU: {
        st_activity act = {.cpu_s = v->s, .has = ST_F_CPU};
        return st_activity_cpu(&act, (double)v->i[0] / 1000.0, buf, n);
    }
    case ST_RM_PAGEINS: {
        st_activity act = {.pageins = v->s, .peak_pageins_c = (uint32_t)v->i[0], .has = ST_F_PAGEINS};
        return st_activity_pageins(&act, buf, n);
    }
    }
    snprintf(buf, n, DASH);
    return buf;
}

const char *st_report_format_change(const st_report_row *r, enum st_report_style style, char *buf, size_t n)
{
    int md = style == ST_RM_MD;
    if (!r->has_delta || r->change == ST_RM_CH_NONE) {
        snprintf(buf, n, DASH);
    } else if (r->change == ST_RM_CH_PCT) {
        snprintf(buf, n, md ? "%+.1f %%" : "%+.1f%%", r->delta);
    } else if (r->change == ST_RM_CH_POINTS) {
        level_str((long)r->delta, md, 1, buf, n);
    } else if ((r->unit == ST_RM_DURATION || r->unit == ST_RM_SECONDS) && r->has_rel) {
        snprintf(buf, n, md ? "%+.1f s (%+.1f %%)" : "%+.1fs (%+.1f%%)", r->delta, r->rel);
    } else if (r->unit == ST_RM_DURATION || r->unit == ST_RM_SECONDS) {
        snprintf(buf, n, md ? "%+.1f s" : "%+.1fs", r->delta);
    } else {
        st_format_bytes_as(r->delta, ST_UNITS_SIGN, buf, n);
    }
    return buf;
}

static st_report_env *env_add(st_report_env *rows, size_t *n, size_t max, const char *label)
{
    if (*n >= max)
        return NULL;
    st_report_env *r = &rows[(*n)++];
    snprintf(r->label, sizeof r->label, "%s", label);
    r->value[0] = '\0';
    return r;
}

size_t st_report_environment(const st_trace *t, st_report_env *rows, size_t max)
{
    const st_trace_meta *m = &t->meta;
    st_report_env *r;
    size_t n = 0;
    if (m->mem_total && (r = env_add(rows, &n, max, "RAM")))
        st_format_bytes(m->mem_total, r->value, sizeof r->value);
    if (m->swap_total && (r = env_add(rows, &n, max, "swap size")))
        st_format_bytes(m->swap_total, r->value, sizeof r->value);
    const st_event *exit_ev = NULL;
    for (size_t i = 0; i < t->events.len; i++)
        if (t->events.v[i].kind == ST_EV_EXIT && (t->events.v[i].has & ST_EVF_VALUE))
            exit_ev = &t->events.v[i];
    if (exit_ev && (r = env_add(rows, &n, max, "exit status")))
        snprintf(r->value, sizeof r->value, "%lld", (long long)exit_ev->value);
    st_meta_iter it;
    st_meta_item e;
    st_meta_iter_init(&it, m);
    while (st_meta_iter_next(&it, &e, sizeof rows[0].value)) {
        if (!strcmp(e.key, "utc") && m->start_utc[0])
            continue; /* stageload's start time: the "started" row */
        if (!(r = env_add(rows, &n, max, e.key)))
            break;
        if (e.type == ST_META_STR)
            snprintf(r->value, sizeof r->value, "%s%s", e.str, e.truncated ? "\xE2\x80\xA6" : "");
        else if (e.type == ST_META_NUM)
            snprintf(r->value, sizeof r->value, "%.*s", (int)(e.num_len < 64 ? e.num_len : 64), e.num);
        else
            snprintf(r->value, sizeof r->value, "%s", e.b ? "true" : "false");
    }
    return n;
}
