/* plot-svg: `stagetop plot FILE -o OUT.svg` without the TUI, for
 * tests/e2e/plot_render.sh when the stagetop binary has no plot command:
 *   plot-svg FILE|- -o OUT.svg [--width N] [--height N] [--title TEXT] [--stream]
 * The trace is loaded whole (st_trace_load_file, st_plot_svg_file): the
 * reference tests/e2e/plot_stream.sh compares the streamed plot with; with
 * --stream it is read as `stagetop plot` reads it (st_plot_read_file) and
 * "plot-svg: streamed S, samples N, kept K" goes to stderr (S: 1 read twice,
 * per column; N: the samples read; K: the samples the trace kept).
 * Exit 0 when written, 1 on an error ("stagetop: FILE: <msg>"), 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/plot.h"
#include "stagetop/trace.h"

static int usage(void)
{
    fprintf(stderr, "usage: plot-svg FILE|- -o OUT.svg [--width N] [--height N] [--title TEXT] "
                    "[--stream]\n");
    return 2;
}

/* The --stream read (as `stagetop plot FILE`). */
static int stream(const char *in, const char *out, const st_plot_opts *o)
{
    st_plot_read r;
    st_error e;
    if (st_plot_read_file(in, o, &r, &e) != ST_OK) {
        fprintf(stderr, "stagetop: %s: %s\n", in, e.msg);
        return 1;
    }
    fprintf(stderr, "plot-svg: streamed %d, samples %zu, kept %zu\n", r.streamed, r.samples,
            r.trace.n_samples);
    int rc = st_plot_read_svg_file(&r, out, &e);
    st_plot_read_free(&r);
    if (rc != ST_OK) {
        fprintf(stderr, "stagetop: %s: %s\n", out, e.msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int streamed = 0;
    const char *in = NULL, *out = NULL;
    st_plot_opts o;
    st_trace t;
    st_error e;
    st_plot_opts_init(&o);
    for (int i = 1; i < argc; i++) {
        int more = i + 1 < argc;
        if (!strcmp(argv[i], "-o") && more)
            out = argv[++i];
        else if (!strcmp(argv[i], "--width") && more)
            o.width = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--height") && more)
            o.height = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--title") && more)
            o.title = argv[++i];
        else if (!strcmp(argv[i], "--stream"))
            streamed = 1;
        else if (!in && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
            in = argv[i];
        else
            return usage();
    }
    if (!in || !out)
        return usage();
    if (streamed)
        return stream(in, out, &o);
    if (st_trace_load_file(in, &t, &e) != ST_OK) {
        fprintf(stderr, "stagetop: %s: %s\n", in, e.msg);
        return 1;
    }
    int rc = st_plot_svg_file(&t, &o, out, &e);
    st_trace_free(&t);
    if (rc != ST_OK) {
        fprintf(stderr, "stagetop: %s: %s\n", out, e.msg);
        return 1;
    }
    return 0;
}
