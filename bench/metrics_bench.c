/* metrics_bench: what --metrics adds to a sample.
 *
 *   metrics_bench PID DIR
 *
 * Measures, for the tree of PID, the CPU time (user + system) of one
 * sample (st_tree_sample + read_system, discovery every sample, as at the
 * default 0.5 s interval) and of one --metrics update of DIR/bench.prom
 * (render + temp file + write + rename, as after every sample), and the
 * wall time of that update (it includes waiting for the file system).
 * The render alone (text into the reused buffer) is measured too.
 * Prints "sample <us> write <us> write_wall <us> members <n> bytes <n>
 * render <us>":
 * medians of 5 rounds of at least 0.25 s each. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stagetop/lanes.h"
#include "stagetop/metrics.h"
#include "stagetop/platform.h"
#include "stagetop/tree.h"
#include "../tests/selfstat.h"

#define ROUNDS 5
#define ROUND_S 0.25

static double clock_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct bench {
    st_backend *b;
    st_tree t;
    double now;
    st_sample s;
    st_metrics mx;
    st_metrics_values v;
} bench;

static int one_sample(bench *x)
{
    st_sys_mem m;
    memset(&x->s, 0, sizeof x->s);
    x->now += 0.5;
    if (st_tree_sample(&x->t, x->now, &x->s, NULL) != ST_OK ||
        st_platform_native.read_system(x->b, &m, NULL) != ST_OK)
        return -1;
    st_lanes_from_sys(&x->s, &m); /* as the monitor does */
    return 0;
}

static int one_write(bench *x)
{
    x->v.last = x->s;
    x->v.wall = clock_s(CLOCK_REALTIME);
    return st_metrics_write(&x->mx, &x->v, NULL) == ST_OK ? 0 : -1;
}

static int one_render(bench *x)
{
    x->v.last = x->s;
    x->v.wall = clock_s(CLOCK_REALTIME);
    return st_metrics_render(&x->mx, &x->v, NULL) == ST_OK ? 0 : -1;
}

/* Median seconds per call of fn, by clock c. */
static double measure(bench *x, int (*fn)(bench *), clockid_t c)
{
    double per[ROUNDS];
    for (int i = 0; i < 20; i++) /* warm up */
        if (fn(x) != 0)
            return -1;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = clock_s(c), t;
        long n = 0;
        do {
            if (fn(x) != 0)
                return -1;
            n++;
        } while ((t = clock_s(c)) - t0 < ROUND_S);
        per[r] = (t - t0) / (double)n;
    }
    qsort(per, ROUNDS, sizeof per[0], selfstat_cmp_double);
    return per[ROUNDS / 2];
}

int main(int argc, char **argv)
{
    bench *x = calloc(1, sizeof *x);
    char path[4096];
    if (!x || argc != 3) {
        fprintf(stderr, "usage: metrics_bench PID DIR\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/bench.prom", argv[2]);
    if (st_platform_native.open(&x->b, NULL) != ST_OK ||
        st_tree_init(&x->t, &st_platform_native, x->b, atoi(argv[1]), 0.0, NULL) != ST_OK ||
        st_metrics_open(&x->mx, path, NULL) != ST_OK || one_sample(x) != 0) {
        fprintf(stderr, "metrics_bench: cannot watch %s or write %s\n", argv[1], path);
        return 1;
    }
    /* A command label as long as the cut allows. */
    char cmd[200];
    memset(cmd, 'x', sizeof cmd - 1);
    cmd[sizeof cmd - 1] = '\0';
    st_metrics_set_labels(&x->mx, atoi(argv[1]), cmd);
    x->v.has_sample = 1;
    x->v.has_kernel_peak = x->t.has_kernel_peak;
    x->v.kernel_peak = x->t.kernel_peak;
    x->v.has_swap_growth = 1;
    double sample = measure(x, one_sample, CLOCK_PROCESS_CPUTIME_ID);
    double write = measure(x, one_write, CLOCK_PROCESS_CPUTIME_ID);
    double wall = measure(x, one_write, CLOCK_MONOTONIC);
    double render = measure(x, one_render, CLOCK_PROCESS_CPUTIME_ID);
    if (sample < 0 || write < 0 || wall < 0 || render < 0) {
        fprintf(stderr, "metrics_bench: a sample or a write failed\n");
        return 1;
    }
    printf("sample %.1f write %.1f write_wall %.1f members %zu bytes %zu render %.1f\n", sample * 1e6,
           write * 1e6, wall * 1e6, x->t.n_members, x->mx.len, render * 1e6);
    st_metrics_close(&x->mx);
    st_tree_free(&x->t);
    st_platform_native.close(x->b);
    free(x);
    return 0;
}
