/* cli_outputs.c: the end-of-run outputs checked before a job is started
 * (docs/reliability.md, "Outputs refused only at the end"): --report and --plot must
 * be writable now (a read-only or missing directory is refused before the
 * run, not after it), and no two outputs may name one file (--record,
 * --report, the report's chart OUT.svg, --plot, --metrics), nor may the
 * report's chart replace a file nobody named without --overwrite. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stagetop/atomic_file.h"

/* path with its directory resolved (the file itself need not exist):
 * malloc'd; a copy of path when the directory cannot be resolved. */
static char *canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    const char *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    char *out = malloc(PATH_MAX * 2);
    if (!out)
        return NULL;
    if (realpath(dir, real))
        snprintf(out, PATH_MAX * 2, "%s/%s", real, base);
    else
        snprintf(out, PATH_MAX * 2, "%s", path);
    return out;
}

typedef struct output { const char *opt, *path; char *canon; } output;

/* Which outputs name one file: 1 and a message, or 0. */
static int collide(output *o, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (o[i].canon && o[j].canon && strcmp(o[i].canon, o[j].canon) == 0 &&
                !(strcmp(o[i].opt, "--report's chart") == 0 && strcmp(o[j].opt, "--plot") == 0)) {
                /* (the report's chart as --plot: the same chart, drawn twice) */
                fprintf(stderr, "stagetop: %s and %s name one file (%s): each output needs its own; "
                                "nothing was started\n", o[i].opt, o[j].opt, o[i].path);
                return 1;
            }
    return 0;
}

/* Is svg also an output someone named (--plot)? */
static int named_too(const output *o, int n, const char *svg)
{
    char *c = canonical(svg);
    int hit = 0;
    for (int i = 0; i < n && c; i++)
        hit |= strcmp(o[i].opt, "--plot") == 0 && o[i].canon && strcmp(o[i].canon, c) == 0;
    free(c);
    return hit;
}

int cli_check_outputs(const cli_args *a)
{
    output o[5];
    int n = 0, rc = 0;
    st_error e;
    char *svg = a->report_path && strcmp(a->report_path, "-") != 0 && cli_report_svg_beside(a->report_path)
                    ? cli_report_svg_path(a->report_path) : NULL;
    const struct { const char *opt, *path; } named[] = {
        {"--record", a->mon.record_path}, {"--report", a->report_path},
        {"--report's chart", svg}, {"--plot", a->plot_path}, {"--metrics", a->metrics_path},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i].path && strcmp(named[i].path, "-") != 0) {
            o[n].opt = named[i].opt;
            o[n].path = named[i].path;
            o[n].canon = canonical(named[i].path);
            n++;
        }
    if (collide(o, n))
        rc = CLI_EXIT_USAGE;
    struct stat st;
    if (!rc && svg && !a->mon.record_overwrite && lstat(svg, &st) == 0 && !named_too(o, n, svg)) {
        fprintf(stderr, "stagetop: --report %s writes its chart to %s, which exists: it is not "
                        "replaced unless you add --overwrite; nothing was started\n", a->report_path, svg);
        rc = CLI_EXIT_USAGE;
    }
    const char *check[] = {a->report_path, svg, a->plot_path};
    const char *opt[] = {"--report", "--report's chart", "--plot"};
    for (int i = 0; i < 3 && !rc; i++)
        if (check[i] && strcmp(check[i], "-") != 0 && st_atomic_check(check[i], &e) != ST_OK) {
            fprintf(stderr, "stagetop: %s: %s (checked before the run; nothing was started)\n", opt[i], e.msg);
            rc = CLI_EXIT_WATCH;
        }
    for (int i = 0; i < n; i++)
        free(o[i].canon);
    free(svg);
    return rc;
}
