/* realproc.h: helpers shared by the tests that run real processes
 * (test_tree_real.c, test_linux_backend.c): start tests/workloads/holdmem,
 * wait on its protocol lines, and read /proc independently of the code
 * under test (stdio + strtoll, not core/platform/linux_parse.c).  Included once per
 * test binary; every helper is static. */
#ifndef STAGETOP_TESTS_REALPROC_H
#define STAGETOP_TESTS_REALPROC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "stagetop/platform.h"
#include "stagetop/tree.h"
#include "sizes.h"

#if defined(__GNUC__)
#define RP_UNUSED __attribute__((unused))
#else
#define RP_UNUSED
#endif

#define MAX_WL 8

typedef struct wl {
    pid_t pid;
    int in;    /* its stdin */
    FILE *out; /* its stdout */
} wl;

typedef struct ctx {
    char holdmem[1024];
    st_backend *b;
    wl w[MAX_WL];
    int nw;
    pid_t extra[MAX_WL]; /* other processes to kill at teardown */
    int nextra;
} ctx;

static const st_platform *P = &st_platform_native;

/* ---- workloads ---------------------------------------------------------- */

RP_UNUSED static wl *wl_start(ctx *c, const char *const *args)
{
    int in[2], out[2];
    const char *argv[24];
    int n = 0;
    wl *w;
    assert_true(c->nw < MAX_WL);
    w = &c->w[c->nw];
    argv[n++] = c->holdmem;
    while (*args && n < 23)
        argv[n++] = *args++;
    argv[n] = NULL;
    /* close-on-exec: another workload must not hold this one's stdin open */
    assert_int_equal(pipe2(in, O_CLOEXEC), 0);
    assert_int_equal(pipe2(out, O_CLOEXEC), 0);
    w->pid = fork();
    assert_true(w->pid >= 0);
    if (w->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    w->in = in[1];
    w->out = fdopen(out[0], "r");
    assert_non_null(w->out);
    c->nw++;
    return w;
}

/* Read lines until one starts with prefix; return its text after prefix. */
RP_UNUSED static const char *wl_expect(wl *w, const char *prefix, char *line, size_t len)
{
    size_t pl = strlen(prefix);
    while (fgets(line, (int)len, w->out)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "error", 5) == 0)
            fail_msg("holdmem: %s", line);
        if (strncmp(line, prefix, pl) == 0)
            return line + pl;
    }
    fail_msg("holdmem ended before \"%s\"", prefix);
    return NULL;
}

RP_UNUSED static void wl_cmd(wl *w, const char *cmd)
{
    assert_int_equal(write(w->in, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
}

/* Wait for "ready", collecting the pids of the "child" lines. */
RP_UNUSED static int wl_ready(wl *w, pid_t *kids, int max, pid_t *thread_kid)
{
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, w->out)) {
        int pid, mib;
        char kind[16];
        if (strncmp(line, "error", 5) == 0)
            fail_msg("holdmem: %s", line);
        if (sscanf(line, "child %d %d %15s", &pid, &mib, kind) == 3) {
            if (n < max)
                kids[n++] = pid;
            if (thread_kid && strcmp(kind, "thread") == 0)
                *thread_kid = pid;
        } else if (strncmp(line, "ready ", 6) == 0) {
            return n;
        }
    }
    fail_msg("holdmem ended before \"ready\"");
    return -1;
}

/* ---- the test's own /proc reading (independent of core/platform/linux_parse.c) --- */

RP_UNUSED static long long own_kb(pid_t pid, const char *key)
{
    char path[64], line[256];
    size_t kl = strlen(key);
    long long v = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = strtoll(line + kl + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

RP_UNUSED static uint64_t own_footprint(pid_t pid)
{
    long long a = own_kb(pid, "RssAnon"), s = own_kb(pid, "RssShmem"), w = own_kb(pid, "VmSwap");
    assert_true(a >= 0 && s >= 0 && w >= 0);
    return (uint64_t)(a + s + w) * 1024;
}

/* The test's own proportional sum of one process, bytes (-1: unreadable
 * or a kernel without Pss_Anon / Pss_Shmem). */
RP_UNUSED static long long own_pss(pid_t pid)
{
    char path[64], line[256];
    long long sum = 0;
    int seen = 0;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    while (fgets(line, sizeof line, f)) {
        static const char *const keys[] = {"Pss_Anon:", "Pss_Shmem:", "SwapPss:"};
        for (int k = 0; k < 3; k++)
            if (strncmp(line, keys[k], strlen(keys[k])) == 0) {
                sum += strtoll(line + strlen(keys[k]), NULL, 10);
                seen |= 1 << k;
            }
    }
    fclose(f);
    return (seen & 3) == 3 ? sum * 1024 : -1;
}

/* What the tree's footprint is for a member of a tree that may share
 * (docs/metrics.md, "Counted once"): its proportional sum where the
 * kernel has one, else its status sum. */
RP_UNUSED static uint64_t own_counted(pid_t pid)
{
    long long p = own_pss(pid);
    return p >= 0 ? (uint64_t)p : own_footprint(pid);
}

RP_UNUSED static long long own_meminfo_kb(const char *key)
{
    char line[256];
    size_t kl = strlen(key);
    long long v = -1;
    FILE *f = fopen("/proc/meminfo", "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ':')
            v = strtoll(line + kl + 1, NULL, 10);
    fclose(f);
    return v;
}

RP_UNUSED static void assert_within(uint64_t got, uint64_t want, double frac)
{
    double d = (double)got - (double)want;
    if (d < 0)
        d = -d;
    if (d > frac * (double)want)
        fail_msg("got %llu, want %llu within %.1f%%", (unsigned long long)got,
                 (unsigned long long)want, frac * 100);
}

RP_UNUSED static int member_has(const st_tree *t, pid_t pid)
{
    for (size_t i = 0; i < t->n_members; i++)
        if (t->members[i].id.pid == pid)
            return 1;
    return 0;
}

/* ---- setup -------------------------------------------------------------- */

RP_UNUSED static int setup(void **state)
{
    ctx *c = calloc(1, sizeof *c);
    const char *dir = getenv("WORKLOADS");
    char exe[900];
    ssize_t n;
    if (!c)
        return -1;
    if (dir && *dir) {
        snprintf(c->holdmem, sizeof c->holdmem, "%s/holdmem", dir);
    } else { /* $(B)/tests/test_tree_real -> $(B)/workloads/holdmem */
        n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return -1;
        exe[n] = '\0';
        *strrchr(exe, '/') = '\0';
        snprintf(c->holdmem, sizeof c->holdmem, "%s/../workloads/holdmem", exe);
    }
    if (access(c->holdmem, X_OK) != 0) {
        fprintf(stderr, "no workload at %s (make %s)\n", c->holdmem, "build/workloads/holdmem");
        free(c);
        return -1;
    }
    if (P->open(&c->b, NULL) != ST_OK) {
        free(c);
        return -1;
    }
    alarm(300); /* a hung workload fails the run instead of stalling it */
    *state = c;
    return 0;
}

RP_UNUSED static int teardown(void **state)
{
    ctx *c = *state;
    /* Extras first: a forked copy of the test holds the workloads' pipes. */
    for (int i = 0; i < c->nextra; i++) {
        kill(c->extra[i], SIGKILL);
        waitpid(c->extra[i], NULL, 0);
    }
    for (int i = 0; i < c->nw; i++) {
        close(c->w[i].in); /* holdmem ends its tree when stdin closes */
        fclose(c->w[i].out);
        if (c->w[i].pid > 0)
            waitpid(c->w[i].pid, NULL, 0);
    }
    P->close(c->b);
    free(c);
    alarm(0);
    return 0;
}

RP_UNUSED static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    int n = 0;
    assert_non_null(d);
    while ((de = readdir(d)) != NULL)
        n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Make the next fork() of this process get pid `want` (root only).
 * Returns the child (which waits in pause()), or -1. */
RP_UNUSED static pid_t fork_with_pid(pid_t want)
{
    for (int tries = 0; tries < 50; tries++) {
        FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
        pid_t p;
        if (!f)
            return -1;
        fprintf(f, "%d", (int)want - 1);
        if (fclose(f) != 0)
            return -1;
        p = fork();
        if (p == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            for (;;)
                pause();
        }
        if (p == want)
            return p;
        kill(p, SIGKILL);
        waitpid(p, NULL, 0);
    }
    return -1;
}

/* ---- running -------------------------------------------------------------- */

/* A test with the setup and teardown above. */
#define RP_TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* Runs the group; TEST_FILTER='kernel_peak*' runs only the tests it names. */
#define RP_RUN(tests) \
    (getenv("TEST_FILTER") ? cmocka_set_test_filter(getenv("TEST_FILTER")) : (void)0, \
     cmocka_run_group_tests(tests, NULL, NULL))

#endif
