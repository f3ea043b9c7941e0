/* tui_frame.c: how long one frame of the live screen takes.
 *
 * Watches a real tree (this process and its children that hold random
 * bytes: 8 of them by default, 9 members; MEMBERS in all with a fifth
 * argument, as a pool: 1 parent per 25 members, each with its children),
 * fills the ring with HISTORY real samples (a fifth of them for a pool:
 * still more than the graphs' columns; taken now, stamped at interval steps), then draws FRAMES frames into a curses screen of
 * COLSxROWS whose output goes to /dev/null (TERM=xterm-256color), taking one
 * more real sample before each frame so the graphs scroll as they do live.
 * Prints the median, mean and 99th percentile of: the draw into curses'
 * virtual screen (tui_view_draw), draw + doupdate (the terminal output), in
 * wall-clock time, and the CPU time of draw + doupdate (not inflated when
 * another process takes the CPU meanwhile).  "tree" as the sixth argument
 * draws the list as the tree (key t).  The children end when this process
 * closes the pipe they wait on, whichever way it ends.
 *
 *   tui_frame [COLS ROWS [FRAMES [color|nocolor|ascii [MEMBERS [list|tree]]]]]
 *   (default 200 60 500 color 9 list)
 */
#include <curses.h>
#include <locale.h>
#if defined(__GLIBC__)
#include <malloc.h> /* mallinfo2: the heap bytes in use (glibc 2.33 and later) */
#endif
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

enum { HISTORY = 2000, POOL = 25 };

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

/* n bytes of random ones (xorshift: never zeros, never one page shared). */
static uint64_t *fill_random(size_t n)
{
    uint64_t *buf = malloc(n), x = 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
    for (size_t i = 0; buf && i < n / 8; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = x;
    }
    return buf;
}

/* Hold buf until the benchmark closes the pipe's other end, then end
 * (after the children, if any). */
static void wait_for_end(int rfd, uint64_t *buf)
{
    uint64_t *volatile held = buf; /* the pages stay: the pointer escapes */
    char c;
    while (read(rfd, &c, 1) < 0) {
    }
    while (wait(NULL) > 0) {
    }
    (void)held;
    _exit(0);
}

/* A child holding kib KiB of random bytes; with kids > 0 a parent of kids
 * more, each holding a little (4 KiB steps). */
static pid_t worker(size_t kib, int kids, int p[2])
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    close(p[1]);
    for (int i = 0; i < kids; i++)
        if (fork() == 0) {
            wait_for_end(p[0], fill_random(((size_t)64 + 4 * (size_t)(i % 32)) << 10));
        }
    wait_for_end(p[0], fill_random(kib << 10));
    return 0;
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
    int members = argc > 5 ? atoi(argv[5]) : 9, tree = argc > 6 && strcmp(argv[6], "tree") == 0;
    if (cols < 1 || rows < 1 || frames < 1 || members < 2 || members > 100000) {
        fprintf(stderr, "usage: tui_frame [COLS ROWS [FRAMES [color|nocolor|ascii [MEMBERS [list|tree]]]]]\n");
        return 2;
    }
    if (strcmp(mode, "ascii") != 0 && !setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "")) {
        fprintf(stderr, "tui_frame: no UTF-8 locale\n");
        return 1;
    }
    /* 9 members: 8 workers of 8..36 MiB (as before); more: a pool, one
     * parent of 8 MiB and up per POOL members, the rest its children */
    int pipe_end[2];
    if (pipe(pipe_end) != 0)
        return 1;
    int parents = members <= 9 ? members - 1 : (members - 1 + POOL - 1) / POOL;
    int rest = members - 1 - parents;
    pid_t *kids = calloc((size_t)parents, sizeof *kids);
    if (!kids)
        return 1;
    for (int i = 0; i < parents; i++) {
        int n = members <= 9 ? 0 : rest / (parents - i);
        rest -= n;
        kids[i] = worker(((size_t)8 + 4 * (size_t)(i % 8)) << 10, n, pipe_end);
    }
    close(pipe_end[0]);
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
    /* a pool's samples cost more: fewer of them, still over the graphs' width */
    uint64_t k = 0, history = members > 9 ? HISTORY / 5 : HISTORY;
    for (; k < history; k++) {
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
    to.tree = tree;
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
    /* the per-member history's memory: a fresh one for the members of now,
     * counted as the heap counts it (each block with malloc's own header) */
    long hist_bytes = -1;
    size_t hist_n = m.tree.n_members;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    {
        st_member_hist h;
        memset(&h, 0, sizeof h);
        size_t before = mallinfo2().uordblks;
        if (st_member_hist_add(&h, m.tree.members, hist_n) == 0)
            hist_bytes = (long)(mallinfo2().uordblks - before);
        st_member_hist_free(&h);
    }
#endif
    int graph = v.L.graph;
    unsigned long long reorders = (unsigned long long)v.pt.reorders;
    tui_view_free(&v);
    endwin();
    delscreen(scr);
    printf("frame time, %dx%d %s, %s lanes, %d members (%s), %zu samples in the ring, %d frames:\n",
           cols, rows, mode, graph ? "graph" : "sparkline", (int)m.tree.n_members,
           tree ? "tree" : "sorted list", st_ring_len(&m.ring), frames);
    report("draw (virtual screen)", draw, frames);
    report("draw + doupdate (output)", full, frames);
    report("CPU time of draw + doupdate", cpus, frames);
    printf("  process list ordered afresh %llu times in %d frames (else kept: nothing shown changed)\n",
           reorders, frames + 5);
    printf("  sampling: %.1f us per sample (monitor's own figure)\n", m.cpu_per_sample * 1e6);
    if (hist_bytes >= 0 && hist_n > 0)
        printf("  per-member footprint history: %ld bytes for %zu members, %.0f a member "
               "(heap in use, mallinfo2; %zu a member by sizeof)\n",
               hist_bytes, hist_n, (double)hist_bytes / (double)hist_n, st_member_hist_entry_bytes());
    st_monitor_close(&m, 0, NULL);
    close(pipe_end[1]); /* every child ends, the parents after theirs */
    for (int i = 0; i < parents; i++)
        waitpid(kids[i], NULL, 0);
    free(kids);
    free(draw);
    free(full);
    free(cpus);
    return 0;
}
