/* plotcheck.h: the SVG plot's unit tests (test_plot.c, test_plot_files.c)
 * build traces and read the SVG back with these (include it after
 * <cmocka.h>; every helper is static and may go unused).  g_dir is the
 * directory of the files, made by setup_dir and removed by teardown_dir
 * (ST_PLOT_KEEP=1 keeps it). */
#ifndef STAGETOP_TESTS_PLOTCHECK_H
#define STAGETOP_TESTS_PLOTCHECK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/plot.h"
#include "testutil.h"
#include "sizes.h"


static char g_dir[256];

/* ---- building traces ---- */

TU_UNUSED static st_trace *trace_new(size_t n)
{
    st_trace *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->samples = calloc(n ? n : 1, sizeof *t->samples);
    assert_non_null(t->samples);
    t->n_samples = t->cap_samples = n;
    t->events.cap = 64;
    t->events.v = calloc(t->events.cap, sizeof *t->events.v);
    assert_non_null(t->events.v);
    return t;
}

TU_UNUSED static void trace_del(st_trace *t)
{
    free(t->samples);
    free(t->events.v);
    free(t->meta.extra);
    free(t);
}

TU_UNUSED static st_event *ev_add(st_trace *t, double sec, int kind)
{
    if (t->events.len == t->events.cap) {
        t->events.cap *= 2;
        t->events.v = realloc(t->events.v, t->events.cap * sizeof *t->events.v);
        assert_non_null(t->events.v);
    }
    st_event *e = &t->events.v[t->events.len++];
    memset(e, 0, sizeof *e);
    e->t_ms = (uint32_t)(sec * 1000 + 0.5);
    e->kind = (uint8_t)kind;
    return e;
}

TU_UNUSED static void stage_add(st_trace *t, double sec, const char *name)
{
    st_event *e = ev_add(t, sec, ST_EV_STAGE);
    snprintf(e->stage, sizeof e->stage, "%s", name);
    e->has = ST_EVF_STAGE;
}

/* 200 samples over 100 s: footprint rising to 6 GiB, swap 1 GiB, level 80->40 %. */
TU_UNUSED static st_trace *trace_typical(void)
{
    st_trace *t = trace_new(200);
    for (size_t i = 0; i < 200; i++) {
        st_sample *s = &t->samples[i];
        s->t_ms = (uint32_t)(i * 500);
        s->footprint = GIB / 4 + (uint64_t)i * (6 * GIB / 200);
        s->swap_used = GIB;
        s->level_c = (uint16_t)(8000 - i * 20);
        s->valid = ST_F_FOOTPRINT | ST_F_SWAP | ST_F_LEVEL;
    }
    stage_add(t, 5, "encode");
    st_event *e = ev_add(t, 12, ST_EV_LOAD);
    snprintf(e->name, sizeof e->name, "text_encoder");
    e->nbytes = 3 * GIB;
    e->has = ST_EVF_NAME | ST_EVF_NBYTES;
    stage_add(t, 30, "denoise");
    e = ev_add(t, 31, ST_EV_RELEASE);
    e = ev_add(t, 50, ST_EV_MARK);
    snprintf(e->note, sizeof e->note, "half way");
    e->has = ST_EVF_NOTE;
    stage_add(t, 80, "decode");
    snprintf(t->meta.command, sizeof t->meta.command, "python generate.py --steps 20");
    snprintf(t->meta.host, sizeof t->meta.host, "testhost");
    t->format = ST_FMT_JSON;
    t->has_end = 1;
    return t;
}

/* ---- reading the SVG back ---- */

TU_UNUSED static char *render(const st_trace *t, const st_plot_opts *o, const char *name, size_t *len)
{
    char path[512];
    st_error err;
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    int rc = st_plot_svg_file(t, o, path, &err);
    if (rc != ST_OK)
        fail_msg("plot failed: %s", err.msg);
    return slurp(path, len);
}

TU_UNUSED static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

TU_UNUSED static double attr(const char *from, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(from, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

typedef struct area { double x, y, w, h; } area;

TU_UNUSED static area plot_area(const char *svg)
{
    const char *p = strstr(svg, "<rect id=\"plot-area\"");
    assert_non_null(p);
    area a = {attr(p, "x"), attr(p, "y"), attr(p, "width"), attr(p, "height")};
    assert_true(a.w > 100 && a.h > 100);
    return a;
}

/* The body of <g id="ID" ...> ... </g> (copied; caller frees). */
TU_UNUSED static char *group(const char *svg, const char *id)
{
    char key[80];
    snprintf(key, sizeof key, "<g id=\"%s\"", id);
    const char *p = strstr(svg, key);
    if (!p)
        return NULL;
    const char *e = strstr(p, "</g>");
    assert_non_null(e);
    return strndup(p, (size_t)(e - p));
}

typedef struct pts_stat { size_t n; double xmin, xmax, ymin, ymax, x_at_ymin; } pts_stat;

/* Every x,y pair of every points="..." in s. */
TU_UNUSED static pts_stat points(const char *s)
{
    pts_stat st = {0, 1e9, -1e9, 1e9, -1e9, 0};
    for (const char *p = s; (p = strstr(p, "points=\"")); ) {
        p += 8;
        while (*p && *p != '"') {
            char *e;
            double x = strtod(p, &e);
            assert_true(e != p && *e == ',');
            double y = strtod(e + 1, &e);
            st.n++;
            if (x < st.xmin) st.xmin = x;
            if (x > st.xmax) st.xmax = x;
            if (y < st.ymin) { st.ymin = y; st.x_at_ymin = x; }
            if (y > st.ymax) st.ymax = y;
            p = e;
            while (*p == ' ' || *p == '\n')
                p++;
        }
    }
    return st;
}

/* python3's XML parser accepts the file (skip when there is no python3). */
TU_UNUSED static void assert_well_formed(const char *name)
{
    char cmd[1024];
    if (system("command -v python3 >/dev/null 2>&1") != 0) {
        print_message("SKIP: %s: well-formed XML: python3 is not installed\n", name);
        skip(); /* tests/run-tests.sh fails it under CI=true */
    }
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1])"
             ".getroot(); sys.exit(0 if r.tag.endswith(\"svg\") else 1)' '%s/%s'", g_dir, name);
    assert_int_equal(system(cmd), 0);
}

TU_UNUSED static int valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                   : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || i + len > n || (len == 2 && c < 0xC2))
            return 0;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
        if (c < 0x20 && c != '\n')
            return 0;
        i += len;
    }
    return 1;
}

TU_UNUSED static size_t stray_temps(void)
{
    size_t n = 0;
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}


TU_UNUSED static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "%s/stagetop-plot-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(g_dir) ? 0 : -1;
}

TU_UNUSED static int teardown_dir(void **state)
{
    char cmd[512];
    (void)state;
    if (getenv("ST_PLOT_KEEP"))
        return 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
