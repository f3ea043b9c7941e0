/* fillmem: a workload that fills memory with random bytes in steps, so that
 * in a memory-limited cgroup it pushes its own pages out to swap at a known
 * pace (the swap tests, tests/swap/).
 *
 *   fillmem [--target-mib N] [--step-mib S] [--every-ms MS] [--children K]
 *           [--hold-s SEC]
 *
 * --target-mib N   fill up to N MiB (default 512), then hold it
 * --step-mib S     allocate and fill S MiB per step (default 64)
 * --every-ms MS    one step every MS milliseconds (default 100)
 * --children K     fork K idle children first (default 0): a tree to pause
 * --hold-s SEC     after the target, hold for SEC seconds and exit 0
 *                  (its children too; default: hold until killed)
 *
 * Bytes come from xorshift64 (pages that neither compress nor dedupe: a page
 * of one repeated value would hide in zswap).  Output, one line each, on
 * stdout, unbuffered:
 *   child <pid>            an idle child is running
 *   ready <pid> <nprocs>   children forked, filling starts
 *   step <mib>             <mib> MiB filled so far
 *   full <mib>             the target is reached
 * SIGTERM ends it and each child (default action). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../sizes.h"


__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...);
static void say(const char *fmt, ...)
{
    char line[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (write(1, line, (size_t)n) < 0 && errno != EPIPE)
        _exit(1);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static long arg_long(const char *name, const char *v)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : -1;
    if (!v || *end || x < 0) {
        fprintf(stderr, "fillmem: %s needs a number >= 0\n", name);
        exit(2);
    }
    return x;
}

/* The blocks filled so far, chained through their first word (reachable:
 * the job holds them, and a leak checker agrees). */
static uint64_t *blocks;

/* The child: idle until signalled (the tests check that stagetop ends it;
 * their cleanup kills the whole cgroup). */
static void child_main(void)
{
    say("child %d", (int)getpid());
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    long target = 512, step = 64, every = 100, children = 0, hold = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--target-mib")) target = arg_long(a, v), i++;
        else if (!strcmp(a, "--step-mib")) step = arg_long(a, v), i++;
        else if (!strcmp(a, "--every-ms")) every = arg_long(a, v), i++;
        else if (!strcmp(a, "--children")) children = arg_long(a, v), i++;
        else if (!strcmp(a, "--hold-s")) hold = arg_long(a, v), i++;
        else {
            fprintf(stderr, "fillmem: unknown option %s\n", a);
            return 2;
        }
    }
    if (step <= 0)
        step = 1;
    pid_t self = getpid();
    if (children > 64)
        children = 64;
    pid_t kids[64];
    for (long c = 0; c < children; c++) {
        pid_t p = fork();
        if (p < 0) {
            perror("fillmem: fork");
            return 1;
        }
        if (p == 0)
            child_main();
        kids[c] = p;
    }
    say("ready %d %ld", (int)self, children + 1);
    uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)self ^ (uint64_t)time(NULL);
    long done = 0;
    while (done < target) {
        long mib = target - done < step ? target - done : step;
        size_t len = (size_t)mib * (size_t)MIB;
        uint64_t *p = malloc(len);
        if (!p) {
            perror("fillmem: malloc");
            return 1;
        }
        for (size_t k = 1; k < len / sizeof *p; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            p[k] = x;
        }
        p[0] = (uint64_t)(uintptr_t)blocks;
        blocks = p;
        done += mib;
        say("step %ld", done);
        if (done < target)
            sleep_ms(every);
    }
    say("full %ld", done);
    if (hold >= 0) {
        sleep_ms(hold * 1000);
        for (long c = 0; c < children; c++) {
            kill(kids[c], SIGTERM);
            waitpid(kids[c], NULL, 0);
        }
        return 0;
    }
    for (;;)
        pause();
}
