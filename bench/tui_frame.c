/* tui_frame.c: how long one frame of the live screen takes.
 *
 * Watches a real tree (this process and WORKERS children that hold random
 * bytes), fills the ring with HISTORY real samples (taken now, stamped at
 * interval steps), then draws FRAMES frames into a curses screen of
 * COLSxROWS whose output goes to /dev/null (TERM=xterm-256color), taking one
 * more real sample before each frame so the graphs scroll as they do live.
 * Prints the median, mean and 99th percentile of: the draw into curses'
 * virtual screen (tui_view_draw), draw + doupdate (the terminal output), in
 * wall-clock time, and the CPU time of draw + doupdate (not inflated when
 * another process takes the CPU meanwhile).
 *
 *   tui_frame [COLS ROWS [FRAMES [nocolor|ascii]]]   (default 200 60 500)
 */
#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/run/monitor_internal.h" /* the benchmark looks inside */
#include "view.h"
#include "../tests/selfstat.h"

enum { WORKERS = 8, HISTORY = 2000 };

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static pid_t worker(size_t mib)
{
    pid_t p = fork();
    if (p != 0)
        return p;
    size_t n = mib << 20;
    uint64_t *buf = malloc(n), x = 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
    for (size_t i = 0; buf && i < n / 8; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = x;
    }
    for (;;)
        pause();
}

/* Make the root's footprint move (a random walk over 0..64 MiB of touched
 * pages), so every frame's graphs differ as they do on a live job. */
typedef struct wobble {
    unsigned char *p;
    size_t len, touched;
    uint64_t x;
} wobble;

static void wobble_step(wobble *w)
{
    w->x ^= w->x << 13;
    w->x ^= w->x >> 7;
    w->x ^= w->x << 17;
    size_t step = (size_t)(w->x % (8u << 20));
    size_t want = (w->x >> 40) & 1 ? w->touched + step : (w->touched > step ? w->touched - step : 0);
    if (want > w->len)
        want = w->len;
    want &= ~(size_t)4095;
    if (want > w->touched)
        for (size_t i = w->touched; i < want; i += 4096)
            w->p[i] = (unsigned char)(w->x >> 8) | 1;
    else if (want < w->touched)
        madvise(w->p + want, w->touched - want, MADV_DONTNEED);
    w->touched = want;
}

static void report(const char *what, double *v, int n)
{
    double sum = 0;
    qsort(v, (size_t)n, sizeof *v, selfstat_cmp_double);
    for (int i = 0; i < n; i++)
        sum += v[i];
    printf("  %-26s median %7.3f ms  mean %7.3f ms  p99 %7.3f ms\n", what, v[n / 2] * 1e3,
           sum / n * 1e3, v[(n * 99) / 100] * 1e3);
}

int main(int argc, char **argv)
{
    int cols = argc > 2 ? atoi(argv[1]) : 200, rows = argc > 2 ? atoi(argv[2]) : 60;
    int frames = argc > 3 ? atoi(argv[3]) : 500;
    const char *mode = argc > 4 ? argv[4] : "color";
    if (cols < 1 || rows < 1 || frames < 1) {
        fprintf(stderr, "usage: tui_frame [COLS ROWS [FRAMES [color|nocolor|ascii]]]\n");
        return 2;
    }
    if (strcmp(mode, "ascii") != 0 && !setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "")) {
        fprintf(stderr, "tui_frame: no UTF-8 locale\n");
        return 1;
    }
    pid_t kids[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        kids[i] = worker(8 + 4 * (size_t)i);
    usleep(300000);

    st_monitor m;
    st_monitor_opts mo;
    st_error e;
    st_monitor_opts_default(&mo);
    mo.interval = 0.5;
    mo.no_gpu = 1;
    double t0 = mono();
    if (st_monitor_open(&m, &st_platform_native, &mo, (int32_t)getpid(), NULL, t0, &e) != ST_OK) {
        fprintf(stderr, "tui_frame: %s\n", e.msg);
        return 1;
    }
    wobble w = {NULL, 64u << 20, 0, 0x2545F4914F6CDD1Dull};
    w.p = mmap(NULL, w.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (w.p == MAP_FAILED)
        return 1;
    uint64_t k = 0;
    for (; k < HISTORY; k++) {
        double now = t0 + (double)k * mo.interval;
        wobble_step(&w);
        if (k % 150 == 10) {
            st_event ev;
            st_event_init(&ev, 0, ST_EV_STAGE);
            snprintf(ev.stage, sizeof ev.stage, "stage-%llu", (unsigned long long)k / 150);
            ev.has |= ST_EVF_STAGE;
            st_monitor_event(&m, &ev, now, NULL);
        }
        if (k % 40 == 0)
            st_monitor_mark(&m, NULL, now, NULL);
        st_monitor_step(&m, now, NULL);
    }

    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = out && in ? newterm("xterm-256color", out, in) : NULL;
    if (!scr) {
        fprintf(stderr, "tui_frame: cannot start a curses screen\n");
        return 1;
    }
    set_term(scr);
    resizeterm(rows, cols);
    tui_opts to;
    memset(&to, 0, sizeof to);
    to.color = strcmp(mode, "color") == 0;
    to.ascii = strcmp(mode, "ascii") == 0;
    to.wake_fd = -1;
    tui_view v;
    tui_view_init(&v, &to);
    v.mon = &m;
    tui_view_colors(&v);
    st_run_view rv;
    st_monitor_view(&m, t0 + (double)k * mo.interval, &rv);
    tui_view_resize(&v, &rv);

    double *draw = calloc((size_t)frames, sizeof *draw), *full = calloc((size_t)frames, sizeof *full);
    double *cpus = calloc((size_t)frames, sizeof *cpus);
    if (!draw || !full || !cpus)
        return 1;
    for (int f = -5; f < frames; f++, k++) {
        double now = t0 + (double)k * mo.interval;
        wobble_step(&w);
        st_monitor_step(&m, now, NULL);
        double ca = cpu(), a = mono();
        st_monitor_view(&m, now, &rv);
        tui_view_draw(&v, &rv, now);
        double b = mono();
        doupdate();
        double c = mono(), cc = cpu();
        if (f >= 0) {
            draw[f] = b - a;
            full[f] = c - a;
            cpus[f] = cc - ca;
        }
    }
    int graph = v.L.graph;
    tui_view_free(&v);
    endwin();
    delscreen(scr);
    printf("frame time, %dx%d %s, %s lanes, %d members, %zu samples in the ring, %d frames:\n",
           cols, rows, mode, graph ? "graph" : "sparkline", (int)m.tree.n_members,
           st_ring_len(&m.ring), frames);
    report("draw (virtual screen)", draw, frames);
    report("draw + doupdate (output)", full, frames);
    report("CPU time of draw + doupdate", cpus, frames);
    printf("  sampling: %.1f us per sample (monitor's own figure)\n", m.cpu_per_sample * 1e6);
    st_monitor_close(&m, 0, NULL);
    for (int i = 0; i < WORKERS; i++) {
        kill(kids[i], SIGKILL);
        waitpid(kids[i], NULL, 0);
    }
    free(draw);
    free(full);
    free(cpus);
    return 0;
}
