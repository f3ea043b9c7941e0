/* cmd_report.c: `stagetop report FILE|A B [-o OUT.md]` (docs/report.md):
 * loads the traces, draws the text chart with the sparkline renderer
 * (spark.h), writes the SVG chart beside OUT.md with `stagetop plot`'s code
 * (plot.h: OUT.svg, atomically) and hands both to core's Markdown writer
 * (report.h). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_read.h"
#include "sanitize.h"
#include "spark.h"
#include "stagetop/atomic_file.h"
#include "stagetop/diff.h"
#include "stagetop/md.h"
#include "stagetop/plot.h"
#include "stagetop/report.h"
#include "stagetop/units.h"

#define CHART_COLS CLI_REPORT_COLS
#define LABEL "%-10s"

static void put_row(FILE *w, const char *label, const char *glyphs, const char *note)
{
    fprintf(w, LABEL " %s %s\n", label, glyphs, note);
}

/* The stage row: "|name" at the column where each stage starts, cut at the
 * next one; one column per code point of terminal width 1 (wide
 * characters take two, zero-width ones are left out). */
static void stage_row(FILE *w, const st_trace *t, uint32_t col_ms, uint64_t col0)
{
    char cells[CHART_COLS][8];
    memset(cells, 0, sizeof cells);
    for (int c = 0; c < CHART_COLS; c++)
        strcpy(cells[c], " ");
    const st_summary *s = &t->summary;
    for (size_t i = 0; i < s->n_stages; i++) {
        /* the columns of tui_bucket: t / col_ms - col0 */
        int c = (int)((int64_t)(s->stages[i].t0_ms / col_ms) - (int64_t)col0);
        int stop = i + 1 < s->n_stages
                       ? (int)((int64_t)(s->stages[i + 1].t0_ms / col_ms) - (int64_t)col0)
                       : CHART_COLS;
        if (c < 0)
            c = 0;
        if (c >= CHART_COLS)
            break;
        if (stop > CHART_COLS)
            stop = CHART_COLS;
        strcpy(cells[c++], "|");
        char *name = st_text_clean(s->stages[i].stage, sizeof s->stages[i].stage, 0);
        const unsigned char *p = (const unsigned char *)(name ? name : "");
        size_t left = strlen((const char *)p);
        while (left && c < stop) {
            uint32_t cp;
            int k = tui_utf8_decode(p, left, &cp);
            if (k <= 0)
                break;
            int wd = tui_cp_width(cp);
            if (wd == 2 && c + 1 < stop) {
                snprintf(cells[c], sizeof cells[c], "%.*s", k, (const char *)p);
                cells[c + 1][0] = '\0';
                c += 2;
            } else if (wd == 1) {
                snprintf(cells[c], sizeof cells[c], "%.*s", k, (const char *)p);
                c++;
            } else if (wd == 2) {
                break;
            }
            p += k;
            left -= (size_t)k;
        }
        free(name);
    }
    fprintf(w, LABEL " ", "stages");
    for (int c = 0; c < CHART_COLS; c++)
        fputs(cells[c], w);
    fputc('\n', w);
}

/* The chart's frame of t beside other (or NULL): the time axis runs to
 * the later end of both. */
static void chart_frame(const st_trace *t, const st_trace *other, cli_report_frame *f)
{
    uint32_t last = t->summary.last_t_ms;
    if (other && other->summary.n_samples && other->summary.last_t_ms > last)
        last = other->summary.last_t_ms;
    cli_report_frame_of(t->summary.first_t_ms, last, f);
}

/* Row r of the chart (enum CLI_RC_*) into v: cols' (a streamed read), or
 * tui_bucket's of t's samples. */
static void chart_cols(const st_trace *t, const cli_report_cols *cols, const cli_report_frame *f,
                       int r, double *v)
{
    static const unsigned field[CLI_RC_ROWS] = {ST_F_FOOTPRINT, ST_F_SWAP, ST_F_LEVEL};
    if (cols) {
        memcpy(v, cols->v[r], sizeof cols->v[r]);
        return;
    }
    tui_bucket(st_trace_view(t), field[r], r == CLI_RC_LEVEL ? TUI_AGG_MIN : TUI_AGG_MAX,
               f->col_ms, 1, f->col0, CHART_COLS, v);
}

/* The chart: footprint (3 rows), swap and level sparklines, the stage row
 * and the time axis, CHART_COLS columns over the trace's time.  other: the
 * trace it is compared with (or NULL): both charts then share the time axis
 * (to the later end) and the footprint's scale (to the higher peak).
 * cols: t's columns for chart_frame's frame (NULL: from t's samples). */
static char *chart(const st_trace *t, const st_trace *other, const cli_report_cols *cols)
{
    const st_summary *s = &t->summary;
    if (!s->n_samples)
        return NULL;
    uint64_t top = s->peak_footprint;
    if (other && other->summary.n_samples)
        top = other->summary.peak_footprint > top ? other->summary.peak_footprint : top;
    cli_report_frame f;
    chart_frame(t, other, &f);
    uint32_t col_ms = f.col_ms, last = f.last;
    uint64_t col0 = f.col0;
    double x0 = f.x0;
    double v[CHART_COLS];
    char g[CHART_COLS * 4 + 1], a[32], b[32], d[32];
    char *out = NULL;
    size_t out_len = 0;
    FILE *w = open_memstream(&out, &out_len); /* the chart's text, for core's writer */
    if (!w)
        return NULL;
    chart_cols(t, cols, &f, CLI_RC_FOOTPRINT, v);
    char peak_note[80];
    st_format_bytes(s->peak_footprint, a, sizeof a);
    if (top > s->peak_footprint) /* the scale is the other run's peak */
        snprintf(peak_note, sizeof peak_note, "%s (peak %s)", st_format_bytes(top, b, sizeof b), a);
    else
        snprintf(peak_note, sizeof peak_note, "%s", a);
    for (int r = 0; r < 3; r++) {
        tui_graph_row(v, CHART_COLS, 0, (double)top, 3, r, 0, g, sizeof g);
        put_row(w, r ? "" : "footprint", g, r ? (r == 2 ? "0" : "") : peak_note);
    }
    if (s->has_swap) {
        /* the summary's per-lane range (stagetop/lanes.h) */
        double lo = (double)s->lanes.min[ST_LANE_SWAP], hi = (double)s->lanes.max[ST_LANE_SWAP];
        chart_cols(t, cols, &f, CLI_RC_SWAP, v);
        tui_spark(v, CHART_COLS, lo, hi, 0, g, sizeof g);
        char note[80];
        snprintf(note, sizeof note, "%s .. %s", st_format_bytes((uint64_t)lo, a, sizeof a),
                 st_format_bytes((uint64_t)hi, b, sizeof b));
        put_row(w, "swap", g, note);
    }
    if (s->has_level) {
        chart_cols(t, cols, &f, CLI_RC_LEVEL, v);
        tui_spark(v, CHART_COLS, 0, 100, 0, g, sizeof g);
        put_row(w, "level", g, "0 .. 100 %");
    }
    if (s->n_stages && s->n_stage_events) /* no stage events: no "setup" band over the run */
        stage_row(w, t, col_ms, col0);
    st_format_duration(x0 / 1000.0, a, sizeof a);
    st_format_duration(last / 1000.0, d, sizeof d);
    fprintf(w, LABEL " %-*s%s\n", "time", CHART_COLS - (int)strlen(d), a, d);
    if (ferror(w)) {
        fclose(w);
        free(out);
        return NULL;
    }
    if (fclose(w) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static int emit(char *md, const char *out, st_error *e)
{
    int rc = CLI_EXIT_OK;
    if (!md) {
        cli_say("report: %s", e->msg);
        return CLI_EXIT_WATCH;
    }
    if (out && strcmp(out, "-") != 0) {
        if (st_atomic_write(out, md, strlen(md), ST_ATOMIC_SYNC, e) != ST_OK) {
            cli_say("%s: %s", out, e->msg);
            rc = CLI_EXIT_WATCH;
        }
    } else if (fputs(md, stdout) < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "stagetop: cannot write the report\n");
        rc = CLI_EXIT_WATCH;
    }
    free(md);
    return rc;
}

/* Whether OUT.md gets its SVG beside it: a regular file or a new name,
 * not a directory, a device, a FIFO or a socket (a report sent to
 * /dev/stdout or a pipe has no "beside"), nor a name ending in '/'. */
int cli_report_svg_beside(const char *out)
{
    struct stat st;
    size_t n = strlen(out);
    if (!n || out[n - 1] == '/')
        return 0;
    if (stat(out, &st) == 0)
        return S_ISREG(st.st_mode);
    return errno == ENOENT;
}

/* OUT.md's chart: OUT.svg beside it (OUT + ".svg" for another name);
 * malloc'd, NULL when out of memory. */
char *cli_report_svg_path(const char *out)
{
    size_t n = strlen(out);
    if (n > 3 && strcmp(out + n - 3, ".md") == 0)
        n -= 3;
    char *p = malloc(n + 5);
    if (p)
        snprintf(p, n + 5, "%.*s.svg", (int)n, out);
    return p;
}

static const char *file_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

/* Draw the SVG chart of t[0..n) (n == 2: both on one chart, labelled with
 * the file names of label[]) into OUT.svg with `plot`'s code and writer:
 * from the reads r[0..n) (plot's streamed reads of the report's files,
 * whose traces t[] are) when r is not NULL, else from t drawn with po
 * (NULL: the defaults); *link: its name relative to the report (its
 * directory is OUT's).  A trace without samples has no chart (*link
 * NULL, 0). */
static int write_svg(int n, const st_trace *t, st_plot_read *r, const char *const *label,
                     const char *out, const st_plot_opts *po, char **link)
{
    st_plot_opts o;
    st_error e;
    int k;
    *link = NULL;
    if (!t[0].summary.n_samples || (n == 2 && !t[1].summary.n_samples))
        return 0;
    char *path = cli_report_svg_path(out);
    if (!path) {
        fprintf(stderr, "stagetop: report: out of memory\n");
        return -1;
    }
    const char *la = file_name(label[0]), *lb = n == 2 ? file_name(label[1]) : NULL;
    if (r) {
        k = n == 2 ? st_plot_cmp_read_svg_file(&r[0], &r[1], la, lb, po, path, &e)
                   : st_plot_read_svg_file(&r[0], path, &e);
    } else {
        st_plot_opts_init(&o);
        if (po)
            o = *po;
        k = n == 2 ? st_plot_cmp_svg_file(&t[0], &t[1], la, lb, &o, path, &e)
                   : st_plot_svg_file(&t[0], &o, path, &e);
    }
    if (k != ST_OK) {
        cli_say("%s: %s", path, e.msg);
        free(path);
        return -1;
    }
    const char *base = strrchr(path, '/');
    *link = strdup(base ? base + 1 : path);
    free(path);
    return *link ? 0 : -1;
}

/* The report of traces t[0..n) (their labels), to out (NULL or "-":
 * standard output; OUT.md also gets OUT.svg beside it, drawn with po, NULL:
 * the defaults; or from reads r, when not NULL).  cols[i]: t[i]'s text
 * chart columns (NULL: from its samples). */
static int report_traces(int n, const st_trace *t, const char *const *label, const char *out,
                         const st_plot_opts *po, st_plot_read *r,
                         const cli_report_cols *const *cols)
{
    st_error e;
    st_error_clear(&e);
    int rc = CLI_EXIT_WATCH;
    int with_svg = out && strcmp(out, "-") != 0 && cli_report_svg_beside(out);
    char *link = NULL;
    if (with_svg && write_svg(n, t, r, label, out, po, &link) != 0)
        return rc; /* the chart was not written: nor is the report */
    st_report_charts c = {{chart(&t[0], n == 2 ? &t[1] : NULL, cols ? cols[0] : NULL),
                           n == 2 ? chart(&t[1], &t[0], cols ? cols[1] : NULL) : NULL}, link};
    if (n == 1) {
        rc = emit(st_report_md_charts(&t[0], label[0], &c, &e), out, &e);
    } else {
        st_diff d;
        if (st_diff_compute(&t[0], &t[1], &d, &e) != ST_OK) {
            cli_say("report: %s", e.msg);
        } else {
            rc = emit(st_report_diff_md_charts(&d, label[0], label[1], &c, &e), out, &e);
            st_diff_free(&d);
        }
    }
    free((char *)c.text[0]);
    free((char *)c.text[1]);
    free(link);
    return rc;
}

/* `report` of one trace file or two (in[], their labels), to out: the
 * one path of `stagetop report` and of the end of a run's --report from
 * its record.  Each file is read by plot's read (plot.h st_plot_also:
 * regular files in memory that does not grow with them), which folds the
 * numbers and, at once, fills the text chart's columns for a frame guessed
 * from the files' ends (report_read.h); a file whose frame was not the
 * guess is read again for them.  The report is byte for byte the one of
 * the whole traces. */
static int report_files(int n, const char *const *in, const char *const *label, const char *out)
{
    st_plot_read r[2];
    st_trace t[2];
    cli_report_cols cols[2];
    const cli_report_cols *use[2] = {NULL, NULL};
    st_plot_also also[2];
    uint32_t first[2], last[2];
    st_error e;
    int rc = CLI_EXIT_WATCH, loaded = 0, guessed = 1;
    int with_svg = out && strcmp(out, "-") != 0 && cli_report_svg_beside(out);
    for (int i = 0; i < n; i++)
        guessed = guessed && cli_report_guess(in[i], &first[i], &last[i]);
    for (int i = 0; i < n; i++) {
        cli_report_frame f;
        uint32_t end = n == 2 && last[1 - i] > last[i] ? last[1 - i] : last[i];
        if (guessed)
            cli_report_frame_of(first[i], end, &f);
        cli_report_cols_begin(&cols[i], guessed ? &f : NULL);
        also[i] = (st_plot_also){cli_report_cols_sample, &cols[i], "report"};
    }
    for (; loaded < n; loaded++) {
        const st_plot_also *a = &also[loaded];
        int k = !with_svg ? st_plot_read_scan_also(in[loaded], a, &r[loaded], &e)
                : n == 2  ? st_plot_read_scan_cmp_also(in[loaded], in[1 - loaded], a, &r[loaded], &e)
                          : st_plot_read_file_also(in[loaded], NULL, a, &r[loaded], &e);
        if (k != ST_OK) {
            cli_say("%s: %s", strcmp(in[loaded], "-") == 0 ? "stdin" : in[loaded], e.msg);
            st_plot_read_free(&r[loaded]);
            break;
        }
        cli_say_torn(in[loaded], &r[loaded].trace);
        t[loaded] = r[loaded].trace; /* (a view: r[] owns it) */
    }
    for (int i = 0; loaded == n && i < n; i++) {
        if (t[i].n_samples == t[i].summary.n_samples)
            continue; /* every sample at hand: the chart from them */
        cli_report_frame f;
        chart_frame(&t[i], n == 2 ? &t[1 - i] : NULL, &f);
        use[i] = &cols[i];
        if (cols[i].f.col_ms == f.col_ms && cols[i].f.col0 == f.col0 && cols[i].f.last == f.last &&
            cols[i].f.x0 == f.x0)
            continue; /* the guess was the frame */
        cols[i].f = f;
        if (cli_report_cols_read(in[i], &cols[i], &e) != ST_OK) {
            cli_say("%s: %s", in[i], e.msg);
            loaded = -1 - i; /* (every read freed below) */
            break;
        }
    }
    if (loaded == n)
        rc = report_traces(n, t, label, out, NULL, r, use);
    for (int i = 0; i < (loaded < 0 ? n : loaded); i++)
        st_plot_read_free(&r[i]);
    return rc;
}

int cli_report_one(const char *in, const char *label, const char *out)
{
    return report_files(1, &in, &label, out);
}

int cli_report_trace(const st_trace *t, const char *label, const char *out, const st_plot_opts *po)
{
    return report_traces(1, t, &label, out, po, NULL, NULL);
}

int cli_report(int argc, char **argv)
{
    static const char *const use = "usage: stagetop report FILE [-o OUT.md]\n"
                                   "       stagetop report A B [-o OUT.md]";
    const char *in[2] = {NULL, NULL}, *out = NULL;
    int n = 0;
    for (int i = 2; i < argc; i++) {
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s\n", use);
            return CLI_EXIT_OK;
        } else if (n < 2 && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
            in[n++] = argv[i];
        else
            return cli_bad_usage("%s", use);
    }
    if (n == 0 || (n == 2 && strcmp(in[0], "-") == 0 && strcmp(in[1], "-") == 0))
        return cli_bad_usage("%s", use);
    return report_files(n, in, in, out);
}
