/* plot_cmp.c: two traces on one chart (`stagetop plot A B`, docs/plot.md):
 * one time axis (seconds since each run's start) and one byte axis for
 * both, every series of A solid and of B dashed (one colour per measure),
 * each run's stage bands as a strip at the top of the plot area (A above
 * B), a title naming both runs, a line of numbers per run, and one legend
 * (line styles, then colours).  Text is fitted to the width (fit_line), the
 * whole of a shortened text in a <title>.  Event markers are left out. */
#include "stagetop/plot.h"
#include "stagetop/atomic_file.h"
#include "stagetop/version.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_internal.h"

#define STRIP 20.0 /* height of a stage strip, pixels */

/* A side's size and scan (scanned: a streamed read's, already in p). */
static int check(const st_trace *t, const char *side, const st_plot_opts *o, st_plot_ctx *p,
                 int scanned, st_error *err)
{
    if (!scanned)
        memset(p, 0, sizeof *p);
    int rc = st_plot_size(p, o, err);
    if (rc != ST_OK)
        return rc;
    if (!t)
        return st_error_set(err, ST_EINVAL, 0, "no trace %s to plot", side);
    p->t = t;
    if (t->samples && !scanned)
        st_plot_scan(p);
    if (!p->n_drawable)
        return st_error_set(err, ST_EINVAL, 0,
                            "trace %s has no samples (footprint, swap, GPU or level) to plot", side);
    return ST_OK;
}

static size_t cps_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* <text> of head + label + tail fitting max_w pixels: the font shrinks
 * from fs to min_fs at most, then the label (untrusted, cleaned) is shortened with
 * "…", the head and tail (numbers) only when even an 8-character label
 * leaves no room.  A shortened line carries its whole text in a <title>
 * (a tooltip), so nothing is lost. */
static void fit_line(st_plot_ctx *p, double x, double y, const char *attrs, double fs,
                     double min_fs, const char *head, const char *label, const char *tail,
                     double max_w)
{
    char lab[1024], fixed[600];
    size_t n_lab = st_plot_text_clean(label, 4096, lab, sizeof lab, 0);
    size_t n_fixed = cps_of(head) + cps_of(tail);
    while (fs > min_fs && n_fixed + n_lab > st_plot_fit_cps(max_w, fs))
        fs -= 0.5;
    size_t room = st_plot_fit_cps(max_w, fs);
    int cut = n_fixed + n_lab > room;
    fputs("<text x=\"", p->f);
    st_plot_num(p, x);
    fputs("\" y=\"", p->f);
    st_plot_num(p, y);
    fputs("\" font-size=\"", p->f);
    st_plot_num(p, fs);
    fprintf(p->f, "\"%s%s>", *attrs ? " " : "", attrs);
    if (cut) {
        fputs("<title>", p->f);
        st_plot_xml_puts(p->f, head);
        st_plot_xml_puts(p->f, lab);
        st_plot_xml_puts(p->f, tail);
        fputs("</title>", p->f);
        if (room >= n_fixed + 8) {
            st_plot_text_clean(label, 4096, lab, sizeof lab, room - n_fixed);
        } else { /* the fixed text itself is cut: head + 8 of the label + tail, shortened */
            st_plot_text_clean(label, 4096, lab, sizeof lab, 8);
            snprintf(fixed, sizeof fixed, "%s", tail);
            size_t keep = room > cps_of(head) + 8 ? room - cps_of(head) - 8 : 1;
            st_plot_xml_puts(p->f, head);
            st_plot_xml_puts(p->f, lab);
            st_plot_text_clean(fixed, sizeof fixed, lab, sizeof lab, keep);
            st_plot_xml_puts(p->f, lab);
            fputs("</text>\n", p->f);
            return;
        }
    }
    st_plot_xml_puts(p->f, head);
    st_plot_xml_puts(p->f, lab);
    st_plot_xml_puts(p->f, tail);
    fputs("</text>\n", p->f);
}

/* "A: label · peak footprint X · swap rise Y · D" (+ the peak's change for
 * B); what ran is the title's.  The numbers are never cut: the label is. */
static void run_line(st_plot_ctx *p, double y, const char *side, const char *label,
                     const st_plot_ctx *other)
{
    char head[16], tail[400] = "", b[64], d[64], ch[64];
    for (int s = 0; s < p->n_series; s++) { /* the rows' run items, in plot rank */
        const st_lane *l = &st_lanes[p->lane[s]];
        size_t len = strlen(tail);
        if (!l->plot_run)
            continue;
        double v = l->rule == ST_LR_GROWTH ? p->peak[s] - p->first[s] : p->peak[s];
        ch[0] = '\0';
        if (l->rule == ST_LR_PEAK && other && p->has[s] && other->has[s] && other->peak[s] > 0)
            snprintf(ch, sizeof ch, " (%+.1f %%)", 100.0 * (p->peak[s] - other->peak[s]) / other->peak[s]);
        snprintf(tail + len, sizeof tail - len, " \xC2\xB7 %s %s%s", l->plot_run,
                 !p->has[s] ? "\xE2\x80\x93"
                 : l->unit == ST_LU_BYTES ? st_format_bytes_as(v, ST_UNITS_POINT, b, sizeof b)
                 : st_format_decimal(v, 1, 1, b, sizeof b),
                 ch);
    }
    size_t len = strlen(tail);
    snprintf(tail + len, sizeof tail - len, " \xC2\xB7 %s",
             st_format_duration_as(p->tmax - p->tmin, ST_UNITS_POINT, d, sizeof d));
    snprintf(head, sizeof head, "%s: ", side);
    fit_line(p, 14, y, "class=\"run-line\" fill=\"#24292f\"", 12.5, 10.5, head, label, tail,
             p->W - 28.0);
}

/* The line style of a run in the legend: "A (solid): label". */
static void run_legend(st_plot_ctx *p, double x, double w, const char *side, const char *label,
                       const char *dash)
{
    char attrs[96], head[32];
    snprintf(attrs, sizeof attrs, "stroke=\"#24292f\" stroke-width=\"2\" stroke-dasharray=\"%s\"",
             dash);
    fputs("<g class=\"legend-run\">", p->f);
    st_plot_line(p, attrs, x, p->H - 42, x + 28, p->H - 42);
    snprintf(head, sizeof head, "%s (%s): ", side, strcmp(dash, "none") ? "dashed" : "solid");
    fit_line(p, x + 34, p->H - 38, "fill=\"#24292f\"", 12, 11, head, label, "", w - 40);
    fputs("</g>\n", p->f);
}

/* A run's stage strip: its bands drawn between y0 and y0 + STRIP. */
static void strip(st_plot_ctx *p, const st_plot_band *b, double y0, int labels, const char *side)
{
    st_plot_ctx s = *p;
    s.T = y0;
    s.B = y0 + STRIP;
    if (labels) {
        st_plot_draw_band_labels(&s, b);
        st_plot_text(&s, s.L - 6, y0 + 14, "text-anchor=\"end\" fill=\"#57606a\"", 11, side, 1, 20);
    } else {
        st_plot_draw_bands(&s, b);
    }
}

static int render(st_plot_ctx *pa, st_plot_ctx *pb, const char *la, const char *lb, st_error *err)
{
    FILE *f = pa->f;
    st_plot_band *ba = NULL, *bb = NULL;
    st_plot_col *cols = malloc(sizeof *cols * (size_t)pa->pw);
    double *pts = malloc(sizeof *pts * 4 * (size_t)pa->pw);
    int rc = ST_OK;
    if (!cols || !pts) {
        rc = st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the plot");
        goto out;
    }
    if ((rc = st_plot_collect_bands(pa, &ba, err)) != ST_OK ||
        (rc = st_plot_collect_bands(pb, &bb, err)) != ST_OK)
        goto out;
    pa->id_prefix = "a-";
    pb->id_prefix = "b-";
    pa->dash = "none";
    pb->dash = "7 4";
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"-apple-system, 'Segoe UI', Helvetica, "
               "Arial, sans-serif\">\n<title>A: ", pa->W, pa->H, pa->W, pa->H);
    st_plot_put_raw(pa, la, 4096, 200);
    fputs(" vs B: ", f);
    st_plot_put_raw(pa, lb, 4096, 200);
    fprintf(f, "</title>\n<desc>stagetop %s comparison plot: A solid, B dashed.</desc>\n",
            st_version());
    fprintf(f, "<rect id=\"background\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", pa->W,
            pa->H);
    st_plot_ctx axes = *pa;
    for (int s = 0; s < pa->n_series; s++)
        axes.has[s] = pa->has[s] || pb->has[s];
    st_plot_draw_axes(&axes);
    st_plot_draw_ram(pa);
    if (ba)
        strip(pa, ba, pa->T, 0, "A");
    if (bb)
        strip(pb, bb, pa->T + STRIP, 0, "B");
    fputs("<g id=\"run-a\">\n", f);
    for (int s = pa->n_series - 1; s >= 0; s--)
        if (pa->has[s])
            st_plot_draw_series(pa, s, cols, pts);
    fputs("</g>\n<g id=\"run-b\">\n", f);
    for (int s = pb->n_series - 1; s >= 0; s--)
        if (pb->has[s])
            st_plot_draw_series(pb, s, cols, pts);
    fputs("</g>\n", f);
    if (ba)
        strip(pa, ba, pa->T, 1, "A");
    if (bb)
        strip(pb, bb, pa->T + STRIP, 1, "B");
    char title[1400], wa[640], wb[640];
    st_trace_what(&pa->t->meta, wa, sizeof wa);
    st_trace_what(&pb->t->meta, wb, sizeof wb);
    snprintf(title, sizeof title, "%.600s vs %.600s", wa[0] ? wa : "A", wb[0] ? wb : "B");
    /* bold glyphs are wider: fitted to 92 % of the width; too long, each
     * side keeps half the room (B's name is not cut off), the whole title
     * in a <title> */
    double tw = 0.92 * (pa->W - 28.0);
    size_t room = st_plot_fit_cps(tw, 15);
    char ca[640], cb[640], shortened[1400];
    size_t na = st_plot_text_clean(title, sizeof title, ca, sizeof ca, 0);
    if (na > room && room > 12) {
        st_plot_text_clean(wa[0] ? wa : "A", sizeof wa, ca, sizeof ca, (room - 4) / 2);
        st_plot_text_clean(wb[0] ? wb : "B", sizeof wb, cb, sizeof cb, (room - 4) / 2);
        snprintf(shortened, sizeof shortened, "%s vs %s", ca, cb);
        fputs("<text x=\"14\" y=\"28\" font-size=\"15\" font-weight=\"bold\" fill=\"#24292f\"><title>", f);
        st_plot_put_raw(pa, title, sizeof title, 0);
        fputs("</title>", f);
        st_plot_xml_puts(f, shortened);
        fputs("</text>\n", f);
    } else {
        fit_line(pa, 14, 28, "font-weight=\"bold\" fill=\"#24292f\"", 17, 15, "", title, "", tw);
    }
    run_line(pa, 47, "A", la, NULL);
    run_line(pb, 65, "B", lb, pa);
    /* one legend: the line style says the run (A solid, B dashed, every
     * measure), the colour the measure */
    fputs("<g id=\"legend\">\n", f);
    double half = (pa->W - pa->L - 14) / 2.0;
    run_legend(pa, pa->L, half, "A", la, "none");
    run_legend(pa, pa->L + half, half, "B", lb, "7 4");
    axes.dash = "none";
    axes.n_bands = (ba != NULL) || (bb != NULL);
    axes.ev_seen = 0;
    st_plot_legend_items(&axes, pa->L);
    fputs("</g>\n", f);
    fputs("</svg>\n", f);
out:
    free(ba);
    free(bb);
    free(cols);
    free(pts);
    return rc;
}

/* Both sides: a whole trace t, or (r non-NULL and streamed) r's scan,
 * its columns read once the frame is known. */
static int cmp_svg(const st_trace *a, const st_trace *b, st_plot_read *ra, st_plot_read *rb,
                   const char *label_a, const char *label_b, const st_plot_opts *o, FILE *out,
                   st_error *err)
{
    st_plot_ctx pa, pb;
    int rc, sa = 0, sb = 0;
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    if (ra && (sa = st_plot_stream_ctx(ra, &pa)) != 0)
        a = &ra->trace;
    if (rb && (sb = st_plot_stream_ctx(rb, &pb)) != 0)
        b = &rb->trace;
    if ((rc = check(a, "A", o, &pa, sa, err)) != ST_OK || (rc = check(b, "B", o, &pb, sb, err)) != ST_OK)
        return rc;
    if (!out)
        return st_error_set(err, ST_EINVAL, 0, "no output stream for the plot");
    pa.f = pb.f = out;
    pb.W = pa.W;
    pb.H = pa.H;
    st_plot_cmp_frame(&pa, &pb);
    if ((sa && (rc = st_plot_stream_cols(ra, &pa, err)) != ST_OK) ||
        (sb && (rc = st_plot_stream_cols(rb, &pb, err)) != ST_OK))
        goto out;
    errno = 0;
    if ((rc = render(&pa, &pb, label_a ? label_a : "A", label_b ? label_b : "B", err)) != ST_OK)
        goto out;
    if (fflush(out) != 0 || ferror(out)) {
        int e = errno ? errno : EIO;
        rc = st_error_set(err, ST_EIO, e, "writing the SVG failed: %s", strerror(e));
    }
out:
    free(pa.cols);
    free(pb.cols);
    return rc;
}

int st_plot_cmp_svg(const st_trace *a, const st_trace *b, const char *label_a,
                    const char *label_b, const st_plot_opts *o, FILE *out, st_error *err)
{
    return cmp_svg(a, b, NULL, NULL, label_a, label_b, o, out, err);
}

int st_plot_cmp_read_svg(st_plot_read *a, st_plot_read *b, const char *label_a,
                         const char *label_b, const st_plot_opts *o, FILE *out, st_error *err)
{
    return cmp_svg(&a->trace, &b->trace, a, b, label_a, label_b, o, out, err);
}

/* Into memory, then atomically to path. */
static int cmp_file(const st_trace *a, const st_trace *b, st_plot_read *ra, st_plot_read *rb,
                    const char *label_a, const char *label_b, const st_plot_opts *o,
                    const char *path, st_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    if (!path || !*path)
        return st_error_set(err, ST_EINVAL, 0, "no output file for the plot");
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return st_error_set(err, ST_ENOMEM, errno, "out of memory for the plot");
    int rc = cmp_svg(a, b, ra, rb, label_a, label_b, o, f, err);
    if (fclose(f) != 0 && rc == ST_OK)
        rc = st_error_set(err, ST_ENOMEM, errno, "out of memory for the plot");
    if (rc == ST_OK)
        rc = st_atomic_write(path, buf, len, ST_ATOMIC_SYNC, err);
    free(buf);
    return rc;
}

int st_plot_cmp_svg_file(const st_trace *a, const st_trace *b, const char *label_a,
                         const char *label_b, const st_plot_opts *o, const char *path,
                         st_error *err)
{
    return cmp_file(a, b, NULL, NULL, label_a, label_b, o, path, err);
}

int st_plot_cmp_read_svg_file(st_plot_read *a, st_plot_read *b, const char *label_a,
                              const char *label_b, const st_plot_opts *o, const char *path,
                              st_error *err)
{
    return cmp_file(&a->trace, &b->trace, a, b, label_a, label_b, o, path, err);
}
