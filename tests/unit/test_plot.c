/* SVG plot (core/plot_*.c): structure of the SVG made from constructed
 * traces, escaping of hostile names, downsampling that keeps spikes, the
 * empty-trace error and atomic writes that leave nothing behind on failure.
 * The SVG is parsed by python3's xml.etree where python3 exists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stagetop/plot.h"

#define GIB 1073741824ull

static char g_dir[256];

/* ---- building traces ---- */

static st_trace *trace_new(size_t n)
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

static void trace_del(st_trace *t)
{
    free(t->samples);
    free(t->events.v);
    free(t->meta.extra);
    free(t);
}

static st_event *ev_add(st_trace *t, double sec, int kind)
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

static void stage_add(st_trace *t, double sec, const char *name)
{
    st_event *e = ev_add(t, sec, ST_EV_STAGE);
    snprintf(e->stage, sizeof e->stage, "%s", name);
    e->has = ST_EVF_STAGE;
}

/* 200 samples over 100 s: footprint rising to 6 GiB, swap 1 GiB, level 80->40 %. */
static st_trace *trace_typical(void)
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

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

static char *render(const st_trace *t, const st_plot_opts *o, const char *name, size_t *len)
{
    char path[512];
    st_error err;
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    int rc = st_plot_svg_file(t, o, path, &err);
    if (rc != ST_OK)
        fail_msg("plot failed: %s", err.msg);
    return slurp(path, len);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static double attr(const char *from, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(from, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

typedef struct area { double x, y, w, h; } area;

static area plot_area(const char *svg)
{
    const char *p = strstr(svg, "<rect id=\"plot-area\"");
    assert_non_null(p);
    area a = {attr(p, "x"), attr(p, "y"), attr(p, "width"), attr(p, "height")};
    assert_true(a.w > 100 && a.h > 100);
    return a;
}

/* The body of <g id="ID" ...> ... </g> (copied; caller frees). */
static char *group(const char *svg, const char *id)
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
static pts_stat points(const char *s)
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
static void assert_well_formed(const char *name)
{
    char cmd[1024];
    if (system("command -v python3 >/dev/null 2>&1") != 0)
        skip();
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1])"
             ".getroot(); sys.exit(0 if r.tag.endswith(\"svg\") else 1)' '%s/%s'", g_dir, name);
    assert_int_equal(system(cmd), 0);
}

static int valid_utf8(const unsigned char *s, size_t n)
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

static size_t stray_temps(void)
{
    size_t n = 0;
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

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

static void plot_empty_trace_is_an_error(void **state)
{
    (void)state;
    char path[512];
    st_error err;
    struct stat sb;
    st_trace *t = trace_new(0);
    stage_add(t, 1, "encode");
    snprintf(path, sizeof path, "%s/empty.svg", g_dir);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_EINVAL);
    assert_non_null(strstr(err.msg, "no samples"));
    assert_int_equal(stat(path, &sb), -1);
    assert_int_equal(stray_temps(), 0);
    /* samples that hold none of the drawn fields count as none */
    trace_del(t);
    t = trace_new(3);
    t->samples[1].valid = ST_F_PROCS;
    t->samples[1].procs = 3;
    assert_int_equal(st_plot_svg(t, NULL, stderr, &err), ST_EINVAL);
    assert_int_equal(st_plot_svg(NULL, NULL, stderr, &err), ST_EINVAL);
    trace_del(t);
}

static void plot_write_failures_leave_nothing(void **state)
{
    (void)state;
    char path[512];
    st_error err;
    struct stat sb;
    st_trace *t = trace_typical();
    /* the target is a directory: the rename fails, the temp file goes */
    snprintf(path, sizeof path, "%s/adir", g_dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_EIO);
    assert_non_null(strstr(err.msg, "adir"));
    assert_int_equal(stat(path, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(stray_temps(), 0);
    /* no such directory */
    snprintf(path, sizeof path, "%s/nodir/x.svg", g_dir);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_EIO);
    assert_int_equal(err.sys_errno, ENOENT);
    /* the disk fills up mid-write (a file size limit in a child) */
    snprintf(path, sizeof path, "%s/big.svg", g_dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {2000, 2000};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(90);
        int rc = st_plot_svg_file(t, NULL, path, &err);
        _exit(rc == ST_EIO && err.sys_errno == EFBIG ? 0 : 91);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(stat(path, &sb), -1);
    assert_int_equal(stray_temps(), 0);
    /* a stream that cannot be written */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        assert_int_equal(st_plot_svg(t, NULL, full, &err), ST_EIO);
        assert_int_equal(err.sys_errno, ENOSPC);
        fclose(full);
    }
    trace_del(t);
}

static void plot_replaces_atomically(void **state)
{
    (void)state;
    char path[512], target[512];
    st_error err;
    struct stat sb;
    st_trace *t = trace_typical();
    snprintf(path, sizeof path, "%s/old.svg", g_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old contents that are much longer than nothing at all", f);
    fclose(f);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_OK);
    char *svg = slurp(path, NULL);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
    assert_null(strstr(svg, "old contents"));
    free(svg);
    /* a symlink at the path is replaced, its target untouched */
    snprintf(target, sizeof target, "%s/target.txt", g_dir);
    f = fopen(target, "w");
    assert_non_null(f);
    fputs("keep", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/link.svg", g_dir);
    assert_int_equal(symlink(target, path), 0);
    assert_int_equal(st_plot_svg_file(t, NULL, path, &err), ST_OK);
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    svg = slurp(target, NULL);
    assert_string_equal(svg, "keep");
    free(svg);
    assert_int_equal(stray_temps(), 0);
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
    t->samples[99].valid &= (uint16_t)~ST_F_FOOTPRINT;
    t->samples[98].valid |= ST_F_FOOTPRINT;
    t->samples[97].valid &= (uint16_t)~ST_F_FOOTPRINT;
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

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "%s/stagetop-plot-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    char cmd[512];
    (void)state;
    if (getenv("ST_PLOT_KEEP"))
        return 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plot_structure),
        cmocka_unit_test(plot_hostile_text),
        cmocka_unit_test(plot_downsample_keeps_spike),
        cmocka_unit_test(plot_empty_trace_is_an_error),
        cmocka_unit_test(plot_write_failures_leave_nothing),
        cmocka_unit_test(plot_replaces_atomically),
        cmocka_unit_test(plot_options),
        cmocka_unit_test(plot_gaps_and_optional_lanes),
        cmocka_unit_test(plot_many_stages_stay_bounded),
        cmocka_unit_test(plot_stageload_meta),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
