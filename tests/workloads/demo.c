/* demo.c: a small stand-in for a diffusion pipeline, for `make run` and the
 * end-to-end tests.  It loads a "text encoder" (allocates and touches
 * pseudo-random bytes: zero pages would be shared or compressed and lie
 * about memory), releases it, loads a "transformer", runs "denoise" steps
 * that allocate activations, then "decode", with a data-loader worker
 * process beside it.  Its stage/load/release events are written as
 * stageload JSONL to the file named by $STAGELOAD_TRACE (if set).
 *
 *   demo [--encoder-mib N] [--transformer-mib N] [--steps N] [--step-ms MS]
 *        [--workers N] [--worker-mib N] [--loop] [--hold]
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct demo {
    size_t encoder_mib, transformer_mib, worker_mib;
    int steps, step_ms, workers, loop, hold;
    FILE *trace;
    struct timespec t0;
    uint64_t rng;
} demo;

static double elapsed(const demo *d)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - d->t0.tv_sec) + (double)(now.tv_nsec - d->t0.tv_nsec) * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Allocate n MiB and fill it with xorshift64 output. */
static void *load(demo *d, size_t mib)
{
    size_t len = mib << 20;
    if (len == 0)
        return NULL;
    uint64_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("demo: mmap");
        exit(1);
    }
    uint64_t x = d->rng;
    for (size_t i = 0; i < len / 8; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = x;
    }
    d->rng = x;
    return p;
}

static void release(void *p, size_t mib)
{
    if (p)
        munmap(p, mib << 20);
}

static void event(demo *d, const char *kind, const char *stage, const char *name, size_t mib,
                  double seconds)
{
    if (!d->trace)
        return;
    fprintf(d->trace, "{\"type\":\"event\",\"kind\":\"%s\"", kind);
    if (name)
        fprintf(d->trace, ",\"name\":\"%s\"", name);
    fprintf(d->trace, ",\"stage\":\"%s\"", stage);
    if (name)
        fprintf(d->trace, ",\"nbytes\":%llu", (unsigned long long)(mib << 20));
    if (seconds >= 0)
        fprintf(d->trace, ",\"seconds\":%.3f", seconds);
    fprintf(d->trace, ",\"t\":%.3f}\n", elapsed(d));
    fflush(d->trace);
}

/* A data-loader worker: holds its memory until the pipeline ends, and never
 * outlives it (an orphaned worker would sit on its memory forever): a
 * pipeline killed without its SIGTERM to us (SIGKILL, a kill of the root
 * alone) takes the worker with it. */
static void worker(demo *d, pid_t parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    if (getppid() != parent) /* the parent died before PDEATHSIG was set */
        _exit(0);
    void *p = load(d, d->worker_mib);
    (void)p;
    while (getppid() == parent)
        sleep_ms(200);
    _exit(0);
}

static void run_once(demo *d)
{
    double t;
    event(d, "stage", "encode", NULL, 0, -1);
    t = elapsed(d);
    void *enc = load(d, d->encoder_mib);
    event(d, "load", "encode", "text_encoder", d->encoder_mib, elapsed(d) - t);
    sleep_ms(d->step_ms * 3);

    event(d, "stage", "denoise", NULL, 0, -1);
    release(enc, d->encoder_mib);
    event(d, "release", "denoise", "text_encoder", d->encoder_mib, -1);
    t = elapsed(d);
    void *tr = load(d, d->transformer_mib);
    event(d, "load", "denoise", "transformer", d->transformer_mib, elapsed(d) - t);
    size_t act_mib = d->transformer_mib / 16 + 1;
    for (int i = 0; i < d->steps; i++) {
        void *act = load(d, act_mib);
        sleep_ms(d->step_ms);
        release(act, act_mib);
    }

    event(d, "stage", "decode", NULL, 0, -1);
    release(tr, d->transformer_mib);
    event(d, "release", "decode", "transformer", d->transformer_mib, -1);
    t = elapsed(d);
    size_t vae = d->encoder_mib / 2 + 1;
    void *dec = load(d, vae);
    event(d, "load", "decode", "vae", vae, elapsed(d) - t);
    sleep_ms(d->step_ms * 3);
    release(dec, vae);
    event(d, "release", "decode", "vae", vae, -1);
}

static size_t arg_num(const char *flag, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v ? v : "", &end, 10);
    if (!v || !*v || *end || errno || n > 1u << 20) {
        fprintf(stderr, "demo: %s needs a number\n", flag);
        exit(2);
    }
    return (size_t)n;
}

int main(int argc, char **argv)
{
    demo d = {.encoder_mib = 192, .transformer_mib = 256, .worker_mib = 32, .steps = 20,
              .step_ms = 200, .workers = 1, .rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid()};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--encoder-mib")) d.encoder_mib = arg_num(a, v), i++;
        else if (!strcmp(a, "--transformer-mib")) d.transformer_mib = arg_num(a, v), i++;
        else if (!strcmp(a, "--worker-mib")) d.worker_mib = arg_num(a, v), i++;
        else if (!strcmp(a, "--steps")) d.steps = (int)arg_num(a, v), i++;
        else if (!strcmp(a, "--step-ms")) d.step_ms = (int)arg_num(a, v), i++;
        else if (!strcmp(a, "--workers")) d.workers = (int)arg_num(a, v), i++;
        else if (!strcmp(a, "--loop")) d.loop = 1;
        else if (!strcmp(a, "--hold")) d.hold = 1;
        else {
            fprintf(stderr, "usage: demo [--encoder-mib N] [--transformer-mib N] [--steps N] "
                            "[--step-ms MS] [--workers N] [--worker-mib N] [--loop] [--hold]\n");
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &d.t0);
    const char *path = getenv("STAGELOAD_TRACE");
    if (path && *path) {
        d.trace = fopen(path, "w");
        if (!d.trace) {
            perror(path);
            return 1;
        }
        char utc[40];
        time_t now = time(NULL);
        strftime(utc, sizeof utc, "%Y-%m-%dT%H:%M:%S+00:00", gmtime(&now));
        fprintf(d.trace, "{\"type\":\"start\",\"utc\":\"%s\",\"interval\":0.5,\"mode\":\"demo\","
                         "\"pipeline\":\"stagetop-demo\",\"steps\":%d}\n", utc, d.steps);
        fflush(d.trace);
    }
    pid_t kids[64], parent = getpid();
    int nkids = d.workers < 64 ? d.workers : 64;
    for (int i = 0; i < nkids; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            if (d.trace)
                fclose(d.trace);
            d.trace = NULL;
            d.rng ^= (uint64_t)(i + 1) * 0x2545f4914f6cdd1dull;
            worker(&d, parent);
        }
    }
    do
        run_once(&d);
    while (d.loop);
    while (d.hold)
        pause();
    for (int i = 0; i < nkids; i++)
        if (kids[i] > 0) {
            kill(kids[i], SIGTERM);
            waitpid(kids[i], NULL, 0);
        }
    if (d.trace) {
        fprintf(d.trace, "{\"type\":\"end\"}\n");
        fclose(d.trace);
    }
    return 0;
}
