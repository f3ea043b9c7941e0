/* plot_events.c: event markers of the SVG chart (plot_internal.h): a small
 * shape per event along the bottom of the plot, a faint full-height line for
 * the rare ones that matter (mark, pause, kill, exit, budget), a tooltip
 * with the event's details, and short labels where there is room. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot_internal.h"

/* The tooltip of an event: "load text_encoder, 16.3 GiB in 7.3 s at 11.8 s". */
static void event_title(st_plot_ctx *p, const st_event *e, size_t more)
{
    char tt[700], b1[32], b2[32], b3[32];
    const char *kind = e->kind == ST_EV_OTHER ? "" : st_plot_ev_style_of(e->kind)->label;
    int n = snprintf(tt, sizeof tt, "%s", kind);
    if (e->kind == ST_EV_OTHER)
        n = snprintf(tt, sizeof tt, "%.*s", (int)strnlen(e->kind_name, sizeof e->kind_name),
                     e->kind_name);
#define ADD(...) do { if (n >= 0 && (size_t)n < sizeof tt) \
                          n += snprintf(tt + n, sizeof tt - (size_t)n, __VA_ARGS__); } while (0)
    if (e->has & ST_EVF_NAME)
        ADD(" %.*s", (int)strnlen(e->name, sizeof e->name), e->name);
    if (e->has & ST_EVF_NBYTES)
        ADD(", %s", st_format_bytes_as((double)e->nbytes, ST_UNITS_POINT, b1, sizeof b1));
    if (e->has & ST_EVF_SECONDS)
        ADD(" in %s", st_format_duration_as(e->seconds, ST_UNITS_POINT, b2, sizeof b2));
    if (e->has & ST_EVF_VALUE)
        ADD(", value %lld", (long long)e->value);
    if (e->has & ST_EVF_LIMIT)
        ADD(", limit %lld", (long long)e->limit);
    if (e->has & ST_EVF_NOTE)
        ADD(": %.*s", (int)strnlen(e->note, sizeof e->note), e->note);
    ADD(" at %s", st_format_duration_as(e->t_ms / 1000.0, ST_UNITS_POINT, b3, sizeof b3));
    if (more)
        ADD(" (and %zu more here)", more);
#undef ADD
    fputs("<title>", p->f);
    st_plot_put_raw(p, tt, sizeof tt, 300);
    fputs("</title>", p->f);
}

static void flush_marker(st_plot_ctx *p, const st_event *e, double x, size_t more)
{
    const st_plot_ev_style *st = st_plot_ev_style_of(e->kind);
    double y = p->B - 10;
    fprintf(p->f, "<g class=\"event ev-%s\">", st->label);
    event_title(p, e, more);
    char attrs[96];
    if (st->line) {
        snprintf(attrs, sizeof attrs, "stroke=\"%s\" stroke-opacity=\"0.6\" "
                 "stroke-dasharray=\"3 3\"", st->color);
        st_plot_line(p, attrs, x, p->T, x, p->B);
    }
    snprintf(attrs, sizeof attrs, "stroke=\"%s\"", st->color);
    st_plot_line(p, attrs, x, p->B, x, p->B - 4);
    st_plot_marker(p, e->kind, x, y);
    fputs("</g>\n", p->f);
    p->ev_seen |= 1u << e->kind;
}

/* What a label says: the model's name, the mark's note, else the kind. */
static const char *label_of(const st_event *e, size_t *n)
{
    if (e->has & ST_EVF_NAME) {
        *n = strnlen(e->name, sizeof e->name);
        if (*n)
            return e->name;
    }
    if (e->has & ST_EVF_NOTE) {
        *n = strnlen(e->note, sizeof e->note);
        if (*n)
            return e->note;
    }
    if (e->kind == ST_EV_OTHER) {
        *n = strnlen(e->kind_name, sizeof e->kind_name);
        return e->kind_name;
    }
    *n = strlen(st_plot_ev_style_of(e->kind)->label);
    return st_plot_ev_style_of(e->kind)->label;
}

/* Upright labels above the markers, in time order, each at least 14 px
 * from the previous one (the others keep only their tooltip). */
static void event_labels(st_plot_ctx *p)
{
    const st_event_list *ev = &p->t->events;
    const double fs = 10;
    size_t max_cps = (size_t)(0.4 * (p->B - p->T) / (fs * 0.58));
    double last = -1e9;
    fputs("<g id=\"event-labels\" font-size=\"10\" stroke=\"#ffffff\" stroke-width=\"3\" "
          "stroke-linejoin=\"round\" paint-order=\"stroke\">\n", p->f);
    for (size_t i = 0; ev->v && i < ev->len; i++) {
        const st_event *e = &ev->v[i];
        double ts = e->t_ms / 1000.0;
        size_t n;
        if (e->kind == ST_EV_STAGE || e->kind > ST_EV_OTHER || ts < p->x0 || ts > p->x1)
            continue;
        double x = st_plot_x(p, ts);
        if (x - last < 14)
            continue;
        last = x;
        const char *s = label_of(e, &n);
        fprintf(p->f, "<text fill=\"%s\" transform=\"translate(", st_plot_ev_style_of(e->kind)->color);
        st_plot_num(p, x + 11 <= p->R ? x + 11 : x - 4); /* beside the marker */
        fputc(' ', p->f);
        st_plot_num(p, p->B - 18);
        fputs(") rotate(-90)\">", p->f);
        st_plot_put_raw(p, s, n, max_cps);
        fputs("</text>\n", p->f);
    }
    fputs("</g>\n", p->f);
}

/* Markers along the bottom of the plot; events of one kind closer than
 * 1.5 px share a marker (its tooltip says how many). */
void st_plot_draw_events(st_plot_ctx *p)
{
    const st_event_list *ev = &p->t->events;
    size_t first[ST_EV_OTHER + 1], more[ST_EV_OTHER + 1];
    double lastx[ST_EV_OTHER + 1];
    int open[ST_EV_OTHER + 1] = {0};
    fputs("<g id=\"events\">\n", p->f);
    for (size_t i = 0; ev->v && i < ev->len; i++) {
        const st_event *e = &ev->v[i];
        double ts = e->t_ms / 1000.0;
        int k = e->kind;
        if (k == ST_EV_STAGE || k > ST_EV_OTHER || ts < p->x0 || ts > p->x1)
            continue;
        double x = st_plot_x(p, ts);
        if (open[k] && fabs(x - lastx[k]) < 1.5) {
            more[k]++;
            continue;
        }
        if (open[k])
            flush_marker(p, &ev->v[first[k]], lastx[k], more[k]);
        open[k] = 1;
        first[k] = i;
        more[k] = 0;
        lastx[k] = x;
    }
    for (int k = 0; k <= ST_EV_OTHER; k++)
        if (open[k])
            flush_marker(p, &ev->v[first[k]], lastx[k], more[k]);
    fputs("</g>\n", p->f);
    event_labels(p);
}
