/* bench_darwin_walk.c: what one discovery costs the macOS backend in user
 * space, measured on the scripted kernel (tests/darwin/fake_darwin.c).
 *
 * For N processes on the machine (a 16-process job among them) it times
 *   fetch:  the bare KERN_PROC_ALL probe + fetch (the peer: the same two
 *           sysctl calls the backend makes, with nothing done after),
 *   walk:   st_platform_native.descendants() (probe + fetch + sort + walk),
 * and prints both and their ratio.  The fake's fetch stands in for the
 * kernel's copyout (it fills N kinfo_procs); the real kernel's own cost per
 * process is not measurable here and is discussed in docs/macos.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/sysctl.h>

#include "fake_darwin.h"
#include "stagetop/platform.h"
#include "../selfstat.h"

#define T0 1700000000000000ull

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void script(int n)
{
    fake_darwin_reset();
    fake_darwin_add(0, 0, T0, "kernel_task");
    fake_darwin_add(1, 0, T0 + 1, "launchd");
    /* The job: root 100 and a chain/fan of 15 descendants. */
    fake_darwin_add(100, 1, T0 + 1000, "python3");
    for (int i = 1; i < 16; i++)
        fake_darwin_add(100 + i, 100 + (i - 1) / 3, T0 + 1000 + (uint64_t)i, "worker");
    /* Everyone else, with parents spread over the machine. */
    for (int i = (int)fake_darwin_count(); i < n; i++)
        fake_darwin_add(1000 + i, i % 7 ? 1000 + i / 2 : 1, T0 + 2000 + (uint64_t)i, "daemon");
}

static double bench_fetch(int iters)
{
    int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0};
    size_t cap = 0;
    void *buf = NULL;
    double t = now_s();
    for (int i = 0; i < iters; i++) {
        size_t need = 0, len;
        sysctl(mib, 4, NULL, &need, NULL, 0);
        if (need > cap) {
            free(buf);
            buf = malloc(need);
            cap = need;
        }
        len = cap;
        if (!buf || sysctl(mib, 4, buf, &len, NULL, 0) != 0)
            break;
    }
    t = now_s() - t;
    free(buf);
    return t / iters;
}

static double bench_walk(st_backend *b, int iters, size_t *members)
{
    st_proc_vec v = {0};
    st_proc_id root = {100, T0 + 1000};
    st_error err;
    double t = now_s();
    for (int i = 0; i < iters; i++)
        if (st_platform_native.descendants(b, root, &v, &err) != ST_OK)
            break;
    t = now_s() - t;
    *members = v.len;
    st_proc_vec_free(&v);
    return t / iters;
}

#define REPS 7

int main(void)
{
    static const int sizes[] = {500, 2000, 8000};
    printf("# macOS discovery cost on the fake kernel (user space only), median of %d\n", REPS);
    printf("%8s %8s %12s %12s %7s\n", "procs", "members", "fetch_us", "walk_us", "ratio");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        st_backend *b = NULL;
        st_error err;
        size_t members = 0;
        int iters = 400000 / sizes[s] + 20;
        double f[REPS], w[REPS];
        script(sizes[s]);
        if (st_platform_native.open(&b, &err) != ST_OK)
            return 1;
        bench_walk(b, 3, &members); /* warm the buffers */
        bench_fetch(3);
        for (int r = 0; r < REPS; r++) { /* interleaved, so drift hits both */
            f[r] = bench_fetch(iters);
            w[r] = bench_walk(b, iters, &members);
        }
        qsort(f, REPS, sizeof f[0], selfstat_cmp_double);
        qsort(w, REPS, sizeof w[0], selfstat_cmp_double);
        printf("%8d %8zu %12.1f %12.1f %7.2f\n", sizes[s], members, f[REPS / 2] * 1e6,
               w[REPS / 2] * 1e6, w[REPS / 2] / f[REPS / 2]);
        st_platform_native.close(b);
    }
    fake_darwin_free();
    return 0;
}
