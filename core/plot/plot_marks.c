/* plot_marks.c: the event markers' shapes and colours (plot_internal.h),
 * drawn on the chart (plot_events.c) and in its legend (plot_draw.c). */
#include <stdio.h>

#include "plot_internal.h"

/* Marker shapes: ^ up triangle, v down triangle, d diamond, s square,
 * > right triangle, x cross, o dot, O ring.  `line`: also a faint
 * full-height line (rare events that matter). */
static const st_plot_ev_style EVS[ST_EV_OTHER + 1] = {
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
    [ST_EV_SLEEP] = {"sleep", "#6e7781", 's', 1},
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

const st_plot_ev_style *st_plot_ev_style_of(int kind)
{
    return &EVS[kind < 0 || kind > ST_EV_OTHER ? ST_EV_OTHER : kind];
}
