/* SVG plot (core/plot_*.c): structure of the SVG made from constructed
 * traces, escaping of hostile names, downsampling that keeps spikes,
 * options, gaps, stage bands and a stageload trace's meta (the files it
 * writes: test_plot_files.c).  The SVG is parsed by python3's
 * xml.etree where python3 exists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/plot.h"
#include "plotcheck.h"

/* ---- tests ---- */

static void plot_structure(void **state)
{
    (void)state;
    st_trace *t = trace_typical();
    size_t len;
    char *svg = render(t, NULL, "typical.svg", &len);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
    assert_non_null(strstr(svg, "width=\"1000\" height=\"560\""));
    assert_true(len > 10 && strcmp(svg + len - 7, "</svg>\n") == 0);
    /* one band per stage, each named in its tooltip and its label */
    assert_int_equal(count(svg, "<g class=\"stage\">"), 3);
    assert_non_null(strstr(svg, "<title>encode: 5.0 s to 30.0 s</title>"));
    assert_non_null(strstr(svg, "<title>denoise: 30.0 s to 1m20s</title>"));
    assert_non_null(strstr(svg, ">decode</text>"));
    /* series present, GPU absent (no sample has it) */
    assert_non_null(strstr(svg, "<g id=\"series-footprint\""));
    assert_non_null(strstr(svg, "<g id=\"series-swap\""));
    assert_non_null(strstr(svg, "<g id=\"series-level\""));
    assert_null(strstr(svg, "series-gpu"));
    /* markers and their legend */
    assert_int_equal(count(svg, "class=\"event ev-load\""), 1);
    assert_int_equal(count(svg, "class=\"event ev-release\""), 1);
    assert_int_equal(count(svg, "class=\"event ev-mark\""), 1);
    assert_non_null(strstr(svg, "load text_encoder, 3.00 GiB at 12.0 s"));
    assert_non_null(strstr(svg, ">release</text>"));
    /* title from the command, summary numbers: peak = 0.25 + 199 * 6/200 GiB */
    assert_non_null(strstr(svg, ">python generate.py --steps 20</text>"));
    assert_non_null(strstr(svg, "peak footprint 6.22 GiB"));
    assert_non_null(strstr(svg, "min available 40.2 %"));
    assert_non_null(strstr(svg, "1m40s, 200 samples"));
    /* every point inside the plot area; the line spans the samples' time */
    area a = plot_area(svg);
    pts_stat ps = points(svg);
    assert_int_equal(ps.n, 3 * 200);
    assert_true(ps.xmin >= a.x && ps.xmax <= a.x + a.w);
    assert_true(ps.ymin >= a.y && ps.ymax <= a.y + a.h);
    char *fp = group(svg, "series-footprint");
    pts_stat fs = points(fp);
    assert_int_equal(fs.n, 200);
    assert_true(fs.xmin - a.x < 1.0);                 /* t = 0 at the left edge */
    assert_true(a.x + a.w - fs.xmax < 1.0);           /* last sample at the right edge */
    /* footprint rises: its highest point is the last (right-most) one */
    assert_true(fs.ymin < a.y + a.h / 2);
    free(fp);
    free(svg);
    assert_well_formed("typical.svg");
    trace_del(t);
}

static void plot_hostile_text(void **state)
{
    (void)state;
    st_trace *t = trace_typical();
    static const char evil[] = "<script>&\"'\x01\x1b[31m\xff\xc3(\xed\xa0\x80\xef\xbf\xbe]]>";
    stage_add(t, 90, evil);
    st_event *e = ev_add(t, 95, ST_EV_OTHER);
    snprintf(e->kind_name, sizeof e->kind_name, "<k&>");
    memset(e->note, 'A', sizeof e->note); /* not NUL-terminated */
    e->has = ST_EVF_NOTE;
    stage_add(t, 20, "late");          /* out of order: an empty band, not a negative one */
    ev_add(t, 40, 200);                /* a kind past the table */
    snprintf(t->meta.command, sizeof t->meta.command, "%s", evil);
    memset(t->meta.host, '\x80', sizeof t->meta.host); /* invalid, not terminated */
    t->meta.extra = strdup("{\"pipeline\": \"</svg><x>\", \"seed\": 7, \"k\\u0000\": \"\\u0007\"}");
    size_t len;
    char *svg = render(t, NULL, "hostile.svg", &len);
    assert_null(strstr(svg, "<script"));
    assert_null(strstr(svg, "<k&>"));
    assert_null(strstr(svg, "<x>"));
    assert_non_null(strstr(svg, "&lt;script&gt;&amp;&quot;&#39;"));
    assert_non_null(strstr(svg, "&lt;k&amp;&gt;"));
    assert_int_equal(count(svg, "</svg>"), 1);
    assert_true(valid_utf8((const unsigned char *)svg, len));
    assert_null(memchr(svg, '\x1b', len));
    assert_int_equal(count(svg, "<g class=\"stage\">"), 5);
    assert_null(strstr(svg, "width=\"-"));
    free(svg);
    assert_well_formed("hostile.svg");
    trace_del(t);
}

/* 1M samples at 1 GiB with one sample at 8 GiB and one level dip to 5 %:
 * both survive the reduction to <= 2 points per pixel column. */
static void plot_downsample_keeps_spike(void **state)
{
    (void)state;
    const size_t n = 1000000, spike = 612345, dip = 345678;
    st_trace *t = trace_new(n);
    for (size_t i = 0; i < n; i++) {
        st_sample *s = &t->samples[i];
        s->t_ms = (uint32_t)(i * 10);
        s->footprint = i == spike ? 8 * GIB : GIB;
        s->level_c = i == dip ? 500 : 5000;
        s->valid = ST_F_FOOTPRINT | ST_F_LEVEL;
    }
    size_t len;
    char *svg = render(t, NULL, "million.svg", &len);
    area a = plot_area(svg);
    double bottom = a.y + a.h;
    char *fp = group(svg, "series-footprint"), *lv = group(svg, "series-level");
    pts_stat fs = points(fp), ls = points(lv);
    assert_true(fs.n <= 2 * (size_t)a.w + 2);
    assert_true(ls.n <= 2 * (size_t)a.w + 2);
    /* the spike is 8x the base above the axis (within drawing precision) */
    double ratio = (bottom - fs.ymin) / (bottom - fs.ymax);
    assert_true(ratio > 7.9 && ratio < 8.1);
    /* it is drawn where it happened: x of the spike's time */
    double want_x = a.x + (spike * 10 / 1000.0) / ((n - 1) * 10 / 1000.0) * a.w;
    assert_true(fabs(fs.x_at_ymin - want_x) < 0.6);
    /* the level dip reaches 5 % of the right axis (0..100 %) */
    assert_true(fabs((bottom - ls.ymax) / a.h - 0.05) < 0.005);
    assert_true(fabs((bottom - ls.ymin) / a.h - 0.50) < 0.005);
    assert_true(len < 150 * 1024);
    free(fp);
    free(lv);
    free(svg);
    assert_well_formed("million.svg");
    trace_del(t);
}

static void plot_options(void **state)
{
    (void)state;
    st_plot_opts o;
    st_error err;
    st_trace *t = trace_typical();
    st_plot_opts_init(&o);
    o.width = 1400;
    o.height = 700;
    o.title = "Issue #6: swap grows in decode";
    char *svg = render(t, &o, "opts.svg", NULL);
    assert_non_null(strstr(svg, "width=\"1400\" height=\"700\""));
    assert_non_null(strstr(svg, ">Issue #6: swap grows in decode</text>"));
    assert_null(strstr(svg, ">python generate.py"));
    area a = plot_area(svg);
    assert_true(a.x + a.w <= 1400 && a.y + a.h <= 700 && a.w > 1000);
    free(svg);
    o.width = 10;
    assert_int_equal(st_plot_svg(t, &o, stderr, &err), ST_EINVAL);
    o.width = 0;
    o.height = ST_PLOT_MAX_SIDE + 1;
    assert_int_equal(st_plot_svg(t, &o, stderr, &err), ST_EINVAL);
    trace_del(t);
}

/* A field missing for a while breaks its line; a lone point is a dot;
 * the GPU lane appears when samples hold it; no stages, no bands. */
static void plot_gaps_and_optional_lanes(void **state)
{
    (void)state;
    st_trace *t = trace_new(100);
    for (size_t i = 0; i < 100; i++) {
        st_sample *s = &t->samples[i];
        s->t_ms = (uint32_t)(i * 1000);
        s->footprint = GIB + i * GIB / 10;
        s->gpu = 2 * GIB;
        s->valid = ST_F_GPU | ((i < 40 || i >= 60) && i != 98 ? ST_F_FOOTPRINT : 0);
    }
    t->samples[99].valid &= ~(uint32_t)ST_F_FOOTPRINT;
    t->samples[98].valid |= ST_F_FOOTPRINT;
    t->samples[97].valid &= ~(uint32_t)ST_F_FOOTPRINT;
    char *svg = render(t, NULL, "gaps.svg", NULL);
    char *fp = group(svg, "series-footprint"), *gp = group(svg, "series-gpu");
    assert_non_null(fp);
    assert_non_null(gp);
    assert_int_equal(count(fp, "<polyline"), 2);  /* 0..39, 60..96 */
    assert_int_equal(count(fp, "<circle"), 1);    /* 98 alone */
    assert_int_equal(points(fp).n, 40 + 37);
    assert_int_equal(count(gp, "<polyline"), 1);
    assert_null(strstr(svg, "<g class=\"stage\">"));
    assert_null(strstr(svg, ">stage</text>"));
    assert_non_null(strstr(svg, "GPU peak 2.00 GiB"));
    free(fp);
    free(gp);
    free(svg);
    assert_well_formed("gaps.svg");
    trace_del(t);
}

/* 100k stages: bands are folded per pixel column, the file stays small. */
static void plot_many_stages_stay_bounded(void **state)
{
    (void)state;
    st_trace *t = trace_new(1000);
    for (size_t i = 0; i < 1000; i++) {
        t->samples[i].t_ms = (uint32_t)(i * 100);
        t->samples[i].footprint = GIB;
        t->samples[i].valid = ST_F_FOOTPRINT;
    }
    for (size_t i = 0; i < 100000; i++) {
        char name[32];
        snprintf(name, sizeof name, "s%zu", i);
        stage_add(t, i * 0.001, name);
        ev_add(t, i * 0.001, ST_EV_LOAD);
    }
    size_t len;
    char *svg = render(t, NULL, "stages.svg", &len);
    size_t bands = count(svg, "<g class=\"stage\">");
    assert_true(bands >= 50 && bands <= 1000);
    assert_true(count(svg, "class=\"event ev-load\"") <= 1000);
    assert_true(len < 600 * 1024);
    free(svg);
    assert_well_formed("stages.svg");
    trace_del(t);
}

/* A stageload trace: title from pipeline and mode, scalars on the meta
 * line, the badge for a stream without its end record. */
static void plot_stageload_meta(void **state)
{
    (void)state;
    st_trace *t = trace_typical();
    t->meta.command[0] = '\0';
    t->meta.extra = strdup("{\"mode\":\"staged\",\"pipeline\":\"Qwen-Image\",\"steps\":20,"
                           "\"port_dirty\":true,\"nested\":{\"a\":1},\"stop_at\":null}");
    t->format = ST_FMT_STAGELOAD;
    t->has_end = 0;
    char *svg = render(t, NULL, "stageload.svg", NULL);
    assert_non_null(strstr(svg, "<title>Qwen-Image \xC2\xB7 staged</title>"));
    assert_non_null(strstr(svg, "steps=20 \xC2\xB7 port_dirty=true"));
    assert_null(strstr(svg, "nested"));
    assert_null(strstr(svg, "stop_at"));
    assert_non_null(strstr(svg, "no end record"));
    free(svg);
    t->has_end = 1;
    svg = render(t, NULL, "stageload-end.svg", NULL);
    assert_null(strstr(svg, "no end record"));
    free(svg);
    trace_del(t);
}

/* The subtitle keeps the whole OS name. */
static void svg_subtitle_keeps_os_name(void **state)
{
    (void)state;
    st_trace t;
    st_trace_init(&t);
    t.samples = calloc(2, sizeof *t.samples);
    assert_non_null(t.samples);
    t.n_samples = t.cap_samples = 2;
    for (int i = 0; i < 2; i++) {
        t.samples[i].t_ms = (uint32_t)i * 1000;
        t.samples[i].footprint = (uint64_t)(i + 1) << 20;
        t.samples[i].valid = ST_F_FOOTPRINT;
    }
    const char *os = "Linux 6.18.44-fc-v1045 x86_64";
    snprintf(t.meta.os, sizeof t.meta.os, "%s", os);
    snprintf(t.meta.host, sizeof t.meta.host, "buildhost");
    st_trace_finish(&t);
    char *svg = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&svg, &len);
    assert_non_null(f);
    st_error e;
    assert_int_equal(st_plot_svg(&t, NULL, f, &e), ST_OK);
    fclose(f);
    assert_non_null(strstr(svg, os));
    assert_non_null(strstr(svg, "buildhost"));
    free(svg);
    st_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plot_structure),
        cmocka_unit_test(plot_hostile_text),
        cmocka_unit_test(plot_downsample_keeps_spike),
        cmocka_unit_test(plot_options),
        cmocka_unit_test(plot_gaps_and_optional_lanes),
        cmocka_unit_test(plot_many_stages_stay_bounded),
        cmocka_unit_test(plot_stageload_meta),
        cmocka_unit_test(svg_subtitle_keeps_os_name),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
