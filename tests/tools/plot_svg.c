/* plot-svg: `stagetop plot FILE -o OUT.svg` without the TUI, for
 * tests/e2e/plot_render.sh when the stagetop binary has no plot command:
 *   plot-svg FILE|- -o OUT.svg [--width N] [--height N] [--title TEXT] [--stream]
 *   plot-svg A B -o OUT.svg [--stream]     (the comparison, as `stagetop plot A B`)
 * The trace is loaded whole (st_trace_load_file, st_plot_svg_file): the
 * reference tests/e2e/plot_stream.sh compares the streamed plot with; with
 * --stream it is read as `stagetop plot` reads it (st_plot_read_file) and
 * "plot-svg: streamed S, samples N, kept K, reads R" goes to stderr (S: 1
 * kept per column; N: the samples read; K: the samples the trace kept; R:
 * the file's reads, 1 when the frame guessed from its ends was right).
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
        st_plot_read_free(&r);
        return 1;
    }
    fprintf(stderr, "plot-svg: streamed %d, samples %zu, kept %zu, reads %d\n", r.streamed,
            r.samples, r.trace.n_samples, r.reads);
    int rc = st_plot_read_svg_file(&r, out, &e);
    st_plot_read_free(&r);
    if (rc != ST_OK) {
        fprintf(stderr, "stagetop: %s: %s\n", out, e.msg);
        return 1;
    }
    return 0;
}

/* A and B on one chart: loaded whole, or (streamed) as `stagetop plot A B`. */
static int compare(const char *a, const char *b, const char *out, int streamed)
{
    st_trace t[2];
    st_plot_read r[2];
    st_error e;
    int rc = 1, n = 0;
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/'); /* labels: file names, as stagetop's */
    na = na && na[1] ? na + 1 : a;
    nb = nb && nb[1] ? nb + 1 : b;
    for (; n < 2; n++) {
        const char *in = n ? b : a;
        if ((streamed ? st_plot_read_scan_cmp(in, n ? a : b, &r[n], &e) : st_trace_load_file(in, &t[n], &e)) !=
            ST_OK) {
            fprintf(stderr, "stagetop: %s: %s\n", in, e.msg);
            if (streamed)
                st_plot_read_free(&r[n]);
            break;
        }
    }
    if (n == 2 && (streamed ? st_plot_cmp_read_svg_file(&r[0], &r[1], na, nb, NULL, out, &e)
                            : st_plot_cmp_svg_file(&t[0], &t[1], na, nb, NULL, out, &e)) != ST_OK)
        fprintf(stderr, "stagetop: %s: %s\n", out, e.msg);
    else if (n == 2)
        rc = 0;
    for (int i = 0; streamed && i < n; i++)
        fprintf(stderr, "plot-svg: %s: streamed %d, reads %d\n", i ? b : a, r[i].streamed, r[i].reads);
    for (int i = 0; i < n; i++) {
        if (streamed)
            st_plot_read_free(&r[i]);
        else
            st_trace_free(&t[i]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    int streamed = 0;
    const char *in = NULL, *in2 = NULL, *out = NULL;
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
        else if (!in2 && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
            in2 = argv[i];
        else
            return usage();
    }
    if (!in || !out)
        return usage();
    if (in2)
        return compare(in, in2, out, streamed);
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
