/* plot_stream.c: a trace file plotted in bounded memory (plot.h,
 * docs/plot.md "Memory").  A regular file's samples are passed on and let
 * go (st_trace_pass_file): one read scans what the chart's frame needs
 * (each series' first, last and extreme values, the time range of the
 * samples; the events and the meta are kept) and, at once, puts each
 * sample into its pixel column's minimum and maximum for a frame guessed
 * from the file's first and last 64 KiB; when the guess proves wrong, a
 * second read makes the columns for the true frame.  The chart is the one st_plot_svg
 * draws of the whole trace, byte for byte: the same columns, made in the
 * same order.  A pipe is read once and whole, up to ST_PLOT_PIPE_MAX
 * samples. */
#include "stagetop/plot.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot_internal.h"

/* The read's state (st_plot_read.priv). */
typedef struct stream {
    st_plot_ctx p;          /* the chart: scanned in pass 1, columns from pass 2 */
    st_plot_ctx *cp;        /* the chart pass 2 fills: p, or a comparison's side */
    char *path;             /* the file, read again by pass 2 */
    st_plot_opts o;
    size_t n1, n2;          /* samples seen by pass 1 and pass 2 */
    uint32_t last_t;        /* pass 1: the latest sample's time ... */
    int unordered;          /* ... and one came before it (a stageload trace) */
    st_plot_run run[ST_LANE_COUNT];
    st_plot_ctx *g;         /* pass 1 fills its columns too (a guessed frame), or NULL */
    st_plot_run *grun;      /* g's series' runs */
    st_plot_col *gcols;     /* a comparison's side: the columns of ... */
    double gx0, gx1, gL, gR;/* ... this guessed frame (st_plot_read_scan_cmp) */
    int gpw;
    int rc;                 /* an error for the write (ST_OK: none) ... */
    st_error err;           /* ... and its message */
    const st_plot_also *also; /* the first read's other reader (a report), or NULL */
} stream;

/* A pipe's samples counted against the cap; who: the command that says it. */
typedef struct pipe_count {
    size_t n;
    const char *who;
} pipe_count;

static int pipe_sample(void *ctx, const st_sample *s, st_error *err)
{
    pipe_count *pc = ctx;
    (void)s;
    if (++pc->n > ST_PLOT_PIPE_MAX)
        return st_error_set(err, ST_EINVAL, EFBIG,
                            "more than %u samples from a pipe: %s reads a pipe once and keeps "
                            "its samples, up to %u; write the record to a file and %s the "
                            "file (read in memory that does not grow with it)",
                            ST_PLOT_PIPE_MAX, pc->who, ST_PLOT_PIPE_MAX, pc->who);
    return ST_OK;
}

static int scan_sample(void *ctx, const st_sample *s, st_error *err)
{
    stream *sm = ctx;
    (void)err;
    if (sm->n1++ && s->t_ms < sm->last_t)
        sm->unordered = 1; /* the chart needs them sorted: read whole */
    sm->last_t = s->t_ms;
    st_plot_scan_sample(&sm->p, s);
    const st_plot_ctx *g = sm->g;
    for (int k = 0; g && k < g->n_series; k++)
        st_plot_col_add(g, k, g->cols + (size_t)k * (size_t)g->pw, &sm->grun[k], s);
    return sm->also && sm->also->sample ? sm->also->sample(sm->also->ctx, s, err) : ST_OK;
}

/* ---- one read, when the frame can be guessed ---- */

static int guess_sample(void *ctx, const st_sample *s, st_error *err)
{
    (void)err;
    st_plot_scan_sample(ctx, s);
    return ST_OK;
}

/* The chart's frame guessed from the file's first and last ST_TRACE_ENDS_BYTES: a
 * time-ordered record's first and last samples and its last events give
 * the time range.  g laid out (its scan is the guess's, its cols NULL): 1;
 * 0 when there is no guess.  The read checks the guess against the frame
 * of every sample and reads again when it was wrong. */
static int guess_frame(const char *path, const st_plot_opts *o, st_plot_ctx *g, int layout)
{
    st_trace scratch;
    st_error e;
    st_trace_pass pass = {guess_sample, g, 1};
    int ok = 0;
    memset(g, 0, sizeof *g);
    st_plot_scan_begin(g);
    st_trace_init(&scratch);
    /* the events sorted: the last is the one time_range takes */
    if (!st_trace_read_ends(path, &scratch, &pass) || !g->n_drawable ||
        st_plot_size(g, o, &e) != ST_OK)
        goto out;
    g->t = &scratch;
    if (layout)
        st_plot_layout(g);
    g->t = NULL;
    ok = 1;
out:
    st_trace_free(&scratch);
    return ok;
}

static int column_sample(void *ctx, const st_sample *s, st_error *err)
{
    stream *sm = ctx;
    (void)err;
    if (++sm->n2 > sm->n1)
        return ST_OK; /* written since pass 1: not on the chart */
    const st_plot_ctx *p = sm->cp;
    for (int k = 0; k < p->n_series; k++)
        if (p->has[k])
            st_plot_col_add(p, k, p->cols + (size_t)k * (size_t)p->pw, &sm->run[k], s);
    return ST_OK;
}

/* One read, whole: a pipe (capped) or a file that cannot be streamed. */
static int read_whole(const char *path, int is_pipe, const char *who, st_plot_read *out,
                      st_error *err)
{
    pipe_count pc = {0, who};
    st_trace_pass pass = {pipe_sample, &pc, 0};
    if (!is_pipe)
        return st_trace_load_file(path, &out->trace, err);
    int rc = st_trace_pass_file(path, &pass, &out->trace, err);
    if (rc == ST_OK && out->trace.n_samples > ST_PLOT_PIPE_MAX) { /* a document: not passed */
        pc.n = ST_PLOT_PIPE_MAX;
        rc = pipe_sample(&pc, NULL, err);
        st_trace_free(&out->trace);
    }
    return rc;
}

int st_plot_stream_cols(st_plot_read *r, st_plot_ctx *p, st_error *err)
{
    stream *sm = r->priv;
    st_trace again;
    st_trace_pass pass = {column_sample, sm, 1};
    if (sm->gcols && sm->gx0 == p->x0 && sm->gx1 == p->x1 && sm->gpw == p->pw && sm->gL == p->L &&
        sm->gR == p->R) {
        p->cols = sm->gcols; /* the first read's guess was the frame */
        sm->gcols = NULL;
        r->reads = 1;
        return ST_OK;
    }
    free(sm->gcols);
    sm->gcols = NULL;
    r->reads = 2;
    p->cols = malloc(sizeof *p->cols * (size_t)p->n_series * (size_t)p->pw);
    if (!p->cols)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the plot");
    for (int k = 0; k < p->n_series; k++)
        st_plot_cols_begin(p->cols + (size_t)k * (size_t)p->pw, p->pw, &sm->run[k]);
    sm->cp = p;
    sm->n2 = 0;
    int rc = st_trace_pass_file(sm->path, &pass, &again, err);
    if (rc == ST_OK)
        st_trace_free(&again);
    if (rc == ST_OK && sm->n2 < sm->n1)
        rc = st_error_set(err, ST_EIO, 0, "the file changed while it was read (%zu samples, "
                          "then %zu)", sm->n1, sm->n2);
    return rc;
}

int st_plot_stream_ctx(const st_plot_read *r, st_plot_ctx *p)
{
    const stream *sm = r->priv;
    if (!r->streamed || !sm)
        return 0;
    *p = sm->p;
    p->cols = NULL;
    return 1;
}

/* The first read (g: a guessed frame whose columns it fills too, or NULL). */
static int scan_file(const char *path, const st_plot_opts *o, const st_plot_also *also,
                     st_plot_read *out, st_plot_ctx *g, st_plot_run *grun, st_error *err)
{
    struct stat st;
    stream *sm = calloc(1, sizeof *sm);
    memset(out, 0, sizeof *out);
    st_trace_init(&out->trace);
    if (!sm)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the plot");
    if (o)
        sm->o = *o;
    out->priv = sm;
    int is_pipe = !path || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode);
    const char *who = also && also->who ? also->who : "plot";
    if (is_pipe)
        return read_whole(path, 1, who, out, err);
    if (!(sm->path = strdup(path)))
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the plot");
    /* also: the samples are kept to be folded (the whole file's summary) */
    st_trace_pass pass = {scan_sample, sm, !also};
    st_plot_scan_begin(&sm->p);
    sm->g = g;
    sm->grun = grun;
    sm->also = also;
    int rc = also ? st_trace_fold_pass_file(path, &pass, &out->trace, err)
                  : st_trace_pass_file(path, &pass, &out->trace, err);
    sm->g = NULL;
    sm->also = NULL;
    if (rc != ST_OK || out->trace.format == ST_FMT_JSON)
        return rc; /* a document is read whole */
    if (sm->unordered || out->trace.fold_failed) {
        st_trace_free(&out->trace);
        return read_whole(path, 0, who, out, err);
    }
    st_trace *t = &out->trace;
    if (also && t->n_samples > 1 && t->folded) {
        /* the fold's samples are summed: keep the last, as a dropped read does */
        t->samples[0] = t->samples[t->n_samples - 1];
        t->n_samples = 1;
        st_sample *one = realloc(t->samples, sizeof *one);
        if (one) {
            t->samples = one;
            t->cap_samples = 1;
        }
    }
    out->streamed = 1;
    out->samples = sm->n1;
    return ST_OK;
}

int st_plot_read_scan_also(const char *path, const st_plot_also *also, st_plot_read *out,
                           st_error *err)
{
    return scan_file(path, NULL, also, out, NULL, NULL, err);
}

int st_plot_read_scan_cmp(const char *path, const char *other, st_plot_read *out, st_error *err)
{
    return st_plot_read_scan_cmp_also(path, other, NULL, out, err);
}

int st_plot_read_scan_cmp_also(const char *path, const char *other, const st_plot_also *also,
                               st_plot_read *out, st_error *err)
{
    st_plot_ctx g, go;
    st_plot_run grun[ST_LANE_COUNT];
    struct stat st, so;
    int guessed = path && other && strcmp(path, "-") != 0 && strcmp(other, "-") != 0 &&
                  stat(path, &st) == 0 && S_ISREG(st.st_mode) && stat(other, &so) == 0 &&
                  S_ISREG(so.st_mode) && guess_frame(path, NULL, &g, 0) &&
                  guess_frame(other, NULL, &go, 0);
    if (guessed) {
        go.W = g.W;
        go.H = g.H;
        st_plot_cmp_frame(&g, &go);
        guessed = (g.cols = malloc(sizeof *g.cols * (size_t)g.n_series * (size_t)g.pw)) != NULL;
    }
    for (int k = 0; guessed && k < g.n_series; k++)
        st_plot_cols_begin(g.cols + (size_t)k * (size_t)g.pw, g.pw, &grun[k]);
    int rc = scan_file(path, NULL, also, out, guessed ? &g : NULL, grun, err);
    stream *sm = out->priv;
    if (guessed && rc == ST_OK && out->streamed && sm) {
        sm->gcols = g.cols;
        sm->gx0 = g.x0;
        sm->gx1 = g.x1;
        sm->gL = g.L;
        sm->gR = g.R;
        sm->gpw = g.pw;
    } else if (guessed) {
        free(g.cols);
    }
    return rc;
}

int st_plot_read_file(const char *path, const st_plot_opts *o, st_plot_read *out,
                      st_error *err)
{
    return st_plot_read_file_also(path, o, NULL, out, err);
}

int st_plot_read_file_also(const char *path, const st_plot_opts *o, const st_plot_also *also,
                           st_plot_read *out, st_error *err)
{
    st_plot_ctx g;
    st_plot_run grun[ST_LANE_COUNT];
    struct stat st;
    int guessed = path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
                  guess_frame(path, o, &g, 1);
    if (guessed && !(g.cols = malloc(sizeof *g.cols * (size_t)g.n_series * (size_t)g.pw)))
        guessed = 0;
    for (int k = 0; guessed && k < g.n_series; k++)
        st_plot_cols_begin(g.cols + (size_t)k * (size_t)g.pw, g.pw, &grun[k]);
    int rc = scan_file(path, o, also, out, guessed ? &g : NULL, grun, err);
    stream *sm = out->priv;
    if (rc != ST_OK || !out->streamed) {
        if (guessed)
            free(g.cols);
        return rc;
    }
    /* A frame that cannot be drawn: the write says so, as st_plot_svg does. */
    sm->rc = st_plot_prepare(&out->trace, &sm->o, &sm->p, 1, &sm->err);
    if (sm->rc != ST_OK) {
        out->streamed = 0;
        if (guessed)
            free(g.cols);
        return ST_OK;
    }
    st_plot_layout(&sm->p);
    if (guessed && g.x0 == sm->p.x0 && g.x1 == sm->p.x1 && g.pw == sm->p.pw && g.L == sm->p.L) {
        sm->p.cols = g.cols; /* the guess was right: one read did it all */
        out->reads = 1;
        return ST_OK;
    }
    if (guessed)
        free(g.cols);
    out->reads = 2;
    return st_plot_stream_cols(out, &sm->p, err);
}

int st_plot_read_svg(st_plot_read *r, FILE *out, st_error *err)
{
    stream *sm = r->priv;
    if (!r->streamed && !(sm && sm->rc != ST_OK))
        return st_plot_svg(&r->trace, sm ? &sm->o : NULL, out, err);
    if (sm->rc != ST_OK) {
        if (err)
            *err = sm->err;
        return sm->rc;
    }
    return st_plot_write(&sm->p, &sm->o, out, err);
}

int st_plot_read_svg_file(st_plot_read *r, const char *path, st_error *err)
{
    stream *sm = r->priv;
    if (!r->streamed && !(sm && sm->rc != ST_OK))
        return st_plot_svg_file(&r->trace, sm ? &sm->o : NULL, path, err);
    if (!path || !*path)
        return st_error_set(err, ST_EINVAL, 0, "no output file for the plot");
    if (sm->rc != ST_OK) {
        if (err)
            *err = sm->err;
        return sm->rc;
    }
    return st_plot_write_file(&sm->p, &sm->o, path, err);
}

void st_plot_read_free(st_plot_read *r)
{
    stream *sm = r->priv;
    if (sm) {
        free(sm->p.cols);
        free(sm->gcols);
        free(sm->path);
    }
    free(sm);
    st_trace_free(&r->trace);
    memset(r, 0, sizeof *r);
    st_trace_init(&r->trace);
}
