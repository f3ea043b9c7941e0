/* cmd_plot.c: `stagetop plot FILE|A B -o OUT.svg` (OUT "-" = stdout;
 * docs/plot.md). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "stagetop/plot.h"

int cli_plot_trace(const st_trace *t, const char *out, const st_plot_opts *po)
{
    st_error e;
    st_plot_opts o;
    st_plot_opts_init(&o);
    if (po)
        o = *po;
    if ((strcmp(out, "-") == 0 ? st_plot_svg(t, &o, stdout, &e) : st_plot_svg_file(t, &o, out, &e)) != ST_OK) {
        cli_say("%s: %s", out, e.msg);
        return CLI_EXIT_WATCH;
    }
    return CLI_EXIT_OK;
}

int cli_plot(const char *path, const char *out)
{
    st_plot_read r;
    st_error e;
    int rc = CLI_EXIT_OK;
    /* A file: read twice, in bounded memory; a pipe: once, capped. */
    if (st_plot_read_file(path, NULL, &r, &e) != ST_OK) {
        cli_say("%s: %s", path, e.msg);
        rc = CLI_EXIT_WATCH;
    } else if (cli_say_torn(path, &r.trace), strcmp(out, "-") == 0 ? st_plot_read_svg(&r, stdout, &e) != ST_OK
                                      : st_plot_read_svg_file(&r, out, &e) != ST_OK) {
        cli_say("%s: %s", out, e.msg);
        rc = CLI_EXIT_WATCH;
    }
    st_plot_read_free(&r);
    return rc;
}

int cli_plot_cmd(int argc, char **argv)
{
    static const char *const use = "usage: stagetop plot FILE -o OUT.svg\n"
                                   "       stagetop plot A B -o OUT.svg";
    const char *in[2] = {NULL, NULL}, *out = NULL;
    int n = 0;
    if (argc == 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0))
        return printf("%s\n", use) < 0 ? CLI_EXIT_WATCH : CLI_EXIT_OK;
    for (int i = 2; i < argc; i++) {
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
            out = argv[++i];
        else if (n < 2)
            in[n++] = argv[i];
        else
            return cli_bad_usage("%s", use);
    }
    if (!n || !out)
        return cli_bad_usage("%s", use);
    if (n == 1)
        return cli_plot(in[0], out);
    st_plot_read r[2];
    st_error e;
    int rc = CLI_EXIT_WATCH, loaded = 0;
    const char *na = strrchr(in[0], '/'), *nb = strrchr(in[1], '/'); /* file names */
    na = na && na[1] ? na + 1 : in[0];
    nb = nb && nb[1] ? nb + 1 : in[1];
    /* Each read once for its frame; a file again for its columns (bounded memory). */
    for (; loaded < 2; loaded++) {
        if (st_plot_read_scan_cmp(in[loaded], in[1 - loaded], &r[loaded], &e) != ST_OK) {
            cli_say("%s: %s", strcmp(in[loaded], "-") == 0 ? "stdin" : in[loaded], e.msg);
            st_plot_read_free(&r[loaded]);
            break;
        }
        cli_say_torn(in[loaded], &r[loaded].trace);
    }
    if (loaded == 2) {
        if ((strcmp(out, "-") == 0 ? st_plot_cmp_read_svg(&r[0], &r[1], na, nb, NULL, stdout, &e)
                                   : st_plot_cmp_read_svg_file(&r[0], &r[1], na, nb, NULL, out, &e)) != ST_OK)
            cli_say("%s: %s", out, e.msg);
        else
            rc = CLI_EXIT_OK;
    }
    for (int i = 0; i < loaded; i++)
        st_plot_read_free(&r[i]);
    return rc;
}
