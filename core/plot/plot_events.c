/* plot_events.c: event markers of the SVG chart (plot_internal.h): a small
 * shape per event along the bottom of the plot, a faint full-height line for
 * the rare ones that matter (mark, pause, kill, exit, budget), a tooltip
 * with the event's details, and short labels where there is room. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot_internal.h"

/* Marker shapes: ^ up triangle, v down triangle, d diamond, s square,
 * > right triangle, x cross, o dot, O ring.  `line`: also a faint
 * full-height line (rare events that matter). */
static const struct ev_style {
    const char *label, *color;
    char shape, line;
} EVS[ST_EV_OTHER + 1] = {
    [ST_EV_STAGE] = {"stage", "#3d4650", 0, 0},
    [ST_EV_LOAD] = {"load", "#1a7f37", '^', 0},
    [ST_EV_RELOAD] = {"reload", "#4d8f1f", '^', 0},
    [ST_EV_RELEASE] = {"release", "#9a6700", 'v', 0},
    [ST_EV_MARK] = {"mark", "#57606a", 'd', 1},
    [ST_EV_PAUSE] = {"pause", "#bf8700", 's', 1},
    [ST_EV_RESUME] = {"resume", "#bf8700", '>', 1},
    [ST_EV_KILL] = {"kill", "#cf222e", 'x', 1},
    [ST_EV_EXIT] = {"exit", "#24292f", 'o', 1},
    [ST_EV_BUDGET] = {"budget", "#cf222e", 'O', 1},
    [ST_EV_OTHER] = {"other", "#8c959f", 'o', 0},
};
/* A closed path through n points (or open, for strokes). */
static void path(st_plot_ctx *p, const char *attrs, const double *xy, size_t n, int closed)
{
    fprintf(p->f, "<path %s d=\"", attrs);
    for (size_t i = 0; i < n; i++) {
        fputc(i ? 'L' : 'M', p->f);
        st_plot_num(p, xy[2 * i]);
        fputc(' ', p->f);
        st_plot_num(p, xy[2 * i + 1]);
    }
    fputs(closed ? "Z\"/>" : "\"/>", p->f);
}

static void marker_shape(st_plot_ctx *p, char shape, double x, double y, const char *color)
{
    const double s = 4.5;
    char attrs[96];
    snprintf(attrs, sizeof attrs, "fill=\"%s\"", color);
    switch (shape) {
    case '^': case 'v': {
        double d = shape == '^' ? 1 : -1;
        double xy[] = {x, y - d * s, x + s, y + d * s * 0.8, x - s, y + d * s * 0.8};
        path(p, attrs, xy, 3, 1);
        break;
    }
    case 'd': {
        double xy[] = {x, y - s, x + s, y, x, y + s, x - s, y};
        path(p, attrs, xy, 4, 1);
        break;
    }
    case 's': {
        double xy[] = {x - 3.5, y - 3.5, x + 3.5, y - 3.5, x + 3.5, y + 3.5, x - 3.5, y + 3.5};
        path(p, attrs, xy, 4, 1);
        break;
    }
    case '>': {
        double xy[] = {x - 3.5, y - s, x + 4.5, y, x - 3.5, y + s};
        path(p, attrs, xy, 3, 1);
        break;
    }
    case 'x': {
        double a[] = {x - 4, y - 4, x + 4, y + 4}, b[] = {x - 4, y + 4, x + 4, y - 4};
        snprintf(attrs, sizeof attrs, "stroke=\"%s\" stroke-width=\"2\"", color);
        path(p, attrs, a, 2, 0);
        path(p, attrs, b, 2, 0);
        break;
    }
    default:
        fputs("<circle r=\"3.5\" cx=\"", p->f);
        st_plot_num(p, x);
        fputs("\" cy=\"", p->f);
        st_plot_num(p, y);
        if (shape == 'O')
            fprintf(p->f, "\" fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"2\"/>", color);
        else
            fprintf(p->f, "\" fill=\"%s\"/>", color);
    }
}

/* The tooltip of an event: "load text_encoder, 16.3 GiB in 7.3 s at 11.8 s". */
static void event_title(st_plot_ctx *p, const st_event *e, size_t more)
{
    char tt[700], b1[32], b2[32], b3[32];
    const char *kind = e->kind == ST_EV_OTHER ? "" : EVS[e->kind].label;
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
    const struct ev_style *st = &EVS[e->kind];
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
    marker_shape(p, st->shape, x, y, st->color);
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
    *n = strlen(EVS[e->kind].label);
    return EVS[e->kind].label;
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
        fprintf(p->f, "<text fill=\"%s\" transform=\"translate(", EVS[e->kind].color);
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

void st_plot_marker(st_plot_ctx *p, int kind, double x, double y)
{
    if (kind < 0 || kind > ST_EV_OTHER)
        kind = ST_EV_OTHER;
    marker_shape(p, EVS[kind].shape, x, y, EVS[kind].color);
}

const char *st_plot_event_label(int kind)
{
    return EVS[kind < 0 || kind > ST_EV_OTHER ? ST_EV_OTHER : kind].label;
}
