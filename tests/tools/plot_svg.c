/* plot-svg: `stagetop plot FILE -o OUT.svg` without the TUI, for
 * tests/e2e/plot_render.sh when the stagetop binary has no plot command:
 *   plot-svg FILE|- -o OUT.svg [--width N] [--height N] [--title TEXT]
 * Exit 0 when written, 1 on an error ("stagetop: FILE: <msg>"), 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/plot.h"
#include "stagetop/trace.h"

static int usage(void)
{
    fprintf(stderr, "usage: plot-svg FILE|- -o OUT.svg [--width N] [--height N] [--title TEXT]\n");
    return 2;
}

int main(int argc, char **argv)
{
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
        else if (!in && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
            in = argv[i];
        else
            return usage();
    }
    if (!in || !out)
        return usage();
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
