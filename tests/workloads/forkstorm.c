/* forkstorm: a job that forks short-lived children at a steady rate, for the
 * fault suite (tests/faults/forkstorm.test.sh).
 *
 *   forkstorm [--rate N] [--seconds S] [--child-ms MS] [--mib M]
 *             [--before-ms MS] [--after-ms MS] [--mode fork|clone|auto]
 *
 * The root fills M MiB (default 16) with pseudo-random bytes, says how much
 * anonymous memory it holds, idles --before-ms (the baseline: one process),
 * then forks N children a second (default 1000) for S seconds (default 10);
 * each child sleeps MS ms (default 5) and exits.  The root reaps them as it
 * goes and counts how many existed at once (forked, not yet reaped: zombies
 * included), which is an upper bound on the tree that anyone can see.  After
 * the storm it reaps every child, idles --after-ms (back to one process)
 * and exits 0.
 *
 * --mode: fork(2) copies the root's page tables, which costs about 3 ms on
 * some virtual machines (the 2-core CI VM: at most ~350 forks a second);
 * clone(CLONE_VM) makes the same kind of child -- its own pid, listed in
 * the root's children, reaped with waitpid -- that shares the root's
 * memory instead of copying it (16 us).  auto (the default) times ten
 * forks and uses clone when fork cannot keep up with the rate.
 *
 * Its stdout, one line each, flushed:
 *   ready <pid> <RssAnon KiB> <VmRSS KiB>
 *   storm <children> <seconds> <max children at once> <failures> <mode>
 *   done <pid> <RssAnon KiB>
 * A child holds as much anonymous memory as the root (fork: its pages
 * copy-on-write; clone: the same pages), so the tree's footprint is at
 * most (1 + max children) x the root's, whatever a monitor reads. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../selfstat.h"



static void sleep_until(double t)
{
    struct timespec ts;
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

static void sleep_ms(long ms) { sleep_until(selfstat_clock(CLOCK_MONOTONIC) + (double)ms / 1000.0); }

/* clone(CLONE_VM) children: each needs a stack of its own while it lives. */
#define N_STACKS 256
#define STACK_SIZE (64 * 1024)
static char *stacks;
static pid_t stack_owner[N_STACKS]; /* 0: free */
static struct timespec child_sleep;

/* Runs on a borrowed stack in the root's memory: raw system calls only. */
static int clone_child(void *arg)
{
    (void)arg;
    syscall(SYS_nanosleep, &child_sleep, NULL);
    syscall(SYS_exit, 0);
    return 0;
}

static void stack_free(pid_t pid)
{
    for (int i = 0; i < N_STACKS; i++)
        if (stack_owner[i] == pid) {
            stack_owner[i] = 0;
            return;
        }
}

/* A child that sleeps child_ms and exits, by fork or clone; -1 on failure
 * (no free stack counts as a failure). */
static pid_t spawn(int use_clone, long child_ms)
{
    if (!use_clone) {
        pid_t c = fork();
        if (c == 0) {
            struct timespec ts = {child_ms / 1000, (child_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
            _exit(0);
        }
        return c;
    }
    for (int i = 0; i < N_STACKS; i++)
        if (stack_owner[i] == 0) {
            pid_t c = clone(clone_child, stacks + (size_t)(i + 1) * STACK_SIZE, CLONE_VM | SIGCHLD, NULL);
            if (c > 0)
                stack_owner[i] = c;
            return c;
        }
    return -1;
}

static long arg_long(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "forkstorm: %s needs a value\n", argv[*i]);
        exit(2);
    }
    return strtol(argv[++*i], NULL, 10);
}

int main(int argc, char **argv)
{
    long rate = 1000, seconds = 10, child_ms = 5, mib = 16, before_ms = 1000, after_ms = 2000;
    const char *mode = "auto";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rate") == 0)
            rate = arg_long(argc, argv, &i);
        else if (strcmp(argv[i], "--seconds") == 0)
            seconds = arg_long(argc, argv, &i);
        else if (strcmp(argv[i], "--child-ms") == 0)
            child_ms = arg_long(argc, argv, &i);
        else if (strcmp(argv[i], "--mib") == 0)
            mib = arg_long(argc, argv, &i);
        else if (strcmp(argv[i], "--before-ms") == 0)
            before_ms = arg_long(argc, argv, &i);
        else if (strcmp(argv[i], "--after-ms") == 0)
            after_ms = arg_long(argc, argv, &i);
        else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
            mode = argv[++i];
        else {
            fprintf(stderr, "forkstorm: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (rate < 1 || seconds < 0 || mib < 0 || child_ms < 0 ||
        (strcmp(mode, "fork") && strcmp(mode, "clone") && strcmp(mode, "auto"))) {
        fprintf(stderr, "forkstorm: bad values\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    size_t len = (size_t)mib << 20;
    if (len) {
        uint64_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            perror("forkstorm: mmap");
            return 1;
        }
        uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)time(NULL) ^ 0x5DEECE66Dull;
        for (size_t i = 0; i < len / sizeof *p; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            p[i] = x;
        }
    }
    child_sleep.tv_sec = child_ms / 1000;
    child_sleep.tv_nsec = (child_ms % 1000) * 1000000L;
    stacks = mmap(NULL, (size_t)N_STACKS * STACK_SIZE, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stacks == MAP_FAILED) {
        perror("forkstorm: mmap");
        return 1;
    }
    int use_clone = strcmp(mode, "clone") == 0;
    if (strcmp(mode, "auto") == 0) { /* can fork keep up with the rate? */
        double t = selfstat_clock(CLOCK_MONOTONIC);
        for (int i = 0; i < 10; i++) {
            pid_t c = fork();
            if (c == 0)
                _exit(0);
            if (c > 0)
                waitpid(c, NULL, 0);
        }
        use_clone = (selfstat_clock(CLOCK_MONOTONIC) - t) / 10 * (double)rate > 0.5;
    }
    printf("ready %ld %ld %ld\n", (long)getpid(), selfstat_kib("RssAnon"), selfstat_kib("VmRSS"));
    sleep_ms(before_ms);

    long forks = 0, failures = 0, alive = 0, max_alive = 0;
    double start = selfstat_clock(CLOCK_MONOTONIC), step = 1.0 / (double)rate, end = start + (double)seconds;
    for (long k = 0;; k++) {
        double at = start + (double)k * step;
        if (at >= end)
            break;
        sleep_until(at);
        pid_t c = spawn(use_clone, child_ms);
        if (c < 0) {
            failures++;
        } else {
            forks++;
            if (++alive > max_alive)
                max_alive = alive;
        }
        pid_t r;
        while (alive > 0 && (r = waitpid(-1, NULL, WNOHANG)) > 0) {
            stack_free(r);
            alive--;
        }
    }
    double took = selfstat_clock(CLOCK_MONOTONIC) - start;
    pid_t r;
    while (alive > 0 && (r = waitpid(-1, NULL, 0)) > 0) {
        stack_free(r);
        alive--;
    }
    printf("storm %ld %.3f %ld %ld %s\n", forks, took, max_alive, failures,
           use_clone ? "clone" : "fork");
    sleep_ms(after_ms);
    printf("done %ld %ld\n", (long)getpid(), selfstat_kib("RssAnon"));
    return 0;
}
