/* test_tree_real: st_tree and the Linux backend against REAL processes that
 * the test spawns (tests/workloads/holdmem, which fills its memory with
 * random bytes).  Expected numbers come from the test's own reading of
 * /proc (stdio + strtoll, not the parsers under test).  No sleeps: the test
 * waits on holdmem's "ready"/"child"/"spiked"/"exited" lines, and drives
 * st_tree_sample with its own `now` values. */
#define _GNU_SOURCE
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

#define MiB (1024ull * 1024)
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

static wl *wl_start(ctx *c, const char *const *args)
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
static const char *wl_expect(wl *w, const char *prefix, char *line, size_t len)
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

static void wl_cmd(wl *w, const char *cmd)
{
    assert_int_equal(write(w->in, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
}

/* Wait for "ready", collecting the pids of the "child" lines. */
static int wl_ready(wl *w, pid_t *kids, int max, pid_t *thread_kid)
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

/* ---- the test's own /proc reading (independent of core/linux_parse.c) --- */

static long long own_kb(pid_t pid, const char *key)
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

static uint64_t own_footprint(pid_t pid)
{
    long long a = own_kb(pid, "RssAnon"), s = own_kb(pid, "RssShmem"), w = own_kb(pid, "VmSwap");
    assert_true(a >= 0 && s >= 0 && w >= 0);
    return (uint64_t)(a + s + w) * 1024;
}

static long long own_meminfo_kb(const char *key)
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

static void assert_within(uint64_t got, uint64_t want, double frac)
{
    double d = (double)got - (double)want;
    if (d < 0)
        d = -d;
    if (d > frac * (double)want)
        fail_msg("got %llu, want %llu within %.1f%%", (unsigned long long)got,
                 (unsigned long long)want, frac * 100);
}

static int member_has(const st_tree *t, pid_t pid)
{
    for (size_t i = 0; i < t->n_members; i++)
        if (t->members[i].id.pid == pid)
            return 1;
    return 0;
}

/* ---- setup -------------------------------------------------------------- */

static int setup(void **state)
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

static int teardown(void **state)
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

/* ---- tests -------------------------------------------------------------- */

static void one_process_reads_its_own_numbers(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "64", NULL};
    wl *w = wl_start(c, args);
    st_tree t;
    st_sample s = {0};
    pid_t kids[1];
    wl_ready(w, kids, 1, NULL);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_true(st_sample_has(&s, ST_F_FOOTPRINT | ST_F_RSS | ST_F_PROCS));
    assert_int_equal(s.procs, 1);
    assert_true(s.footprint >= 64 * MiB);
    assert_within(s.footprint, own_footprint(w->pid), 0.02);
    assert_within(s.rss, (uint64_t)own_kb(w->pid, "VmRSS") * 1024, 0.02);
    assert_true(t.has_kernel_peak);
    assert_within(t.kernel_peak, (uint64_t)own_kb(w->pid, "VmHWM") * 1024, 0.02);
    assert_true(t.root_alive);
    assert_int_equal(t.eperm_count, 0);
    st_tree_free(&t);
}

static void tree_sums_every_member_incl_thread_child(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "32", "--children", "2", "--child-mib", "16",
                                       "--thread-child", "--threads", "20", NULL};
    wl *w = wl_start(c, args);
    st_tree t;
    st_sample s = {0};
    pid_t kids[4], thread_kid = 0;
    char path[96], text[4096];
    FILE *f;
    uint64_t want = 0;
    int n = wl_ready(w, kids, 4, &thread_kid);
    assert_int_equal(n, 3);
    assert_true(thread_kid > 0);
    /* The case is real: the thread's child is not in the main thread's list. */
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)w->pid, (int)w->pid);
    f = fopen(path, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    snprintf(path, sizeof path, "%d", (int)thread_kid);
    for (char *tok = strtok(text, " \n"); tok; tok = strtok(NULL, " \n"))
        assert_string_not_equal(tok, path);

    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 4);
    assert_int_equal(t.members[0].id.pid, w->pid); /* root first */
    want = own_footprint(w->pid);
    for (int i = 0; i < n; i++) {
        assert_true(member_has(&t, kids[i]));
        want += own_footprint(kids[i]);
    }
    assert_true(s.footprint >= (32 + 3 * 16) * MiB);
    assert_within(s.footprint, want, 0.02);
    st_tree_free(&t);
}

static void members_leave_and_join(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--children", "2", "--child-mib", "4", NULL};
    wl *w = wl_start(c, args);
    st_tree t;
    st_sample s = {0};
    pid_t kids[2];
    char line[128];
    int gone, q, r;
    assert_int_equal(wl_ready(w, kids, 2, NULL), 2);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 3);

    wl_cmd(w, "exit-child\n"); /* child 0 exits and is reaped */
    gone = atoi(wl_expect(w, "exited ", line, sizeof line));
    assert_true(gone == kids[0] || gone == kids[1]); /* "child" lines come in ready order */
    assert_int_equal(st_tree_sample(&t, 0.1, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_false(member_has(&t, gone));

    /* A member vanished: the next sample rediscovers, though 0.5 s did not pass. */
    wl_cmd(w, "fork\n");
    q = atoi(wl_expect(w, "child ", line, sizeof line));
    assert_int_equal(st_tree_sample(&t, 0.2, &s, NULL), ST_OK);
    assert_true(member_has(&t, q));
    assert_int_equal(s.procs, 3);

    /* Otherwise discovery waits discover_s. */
    wl_cmd(w, "fork\n");
    r = atoi(wl_expect(w, "child ", line, sizeof line));
    assert_int_equal(st_tree_sample(&t, 0.4, &s, NULL), ST_OK);
    assert_false(member_has(&t, r));
    assert_int_equal(st_tree_sample(&t, 0.7, &s, NULL), ST_OK);
    assert_true(member_has(&t, r));
    assert_int_equal(s.procs, 4);
    st_tree_free(&t);
}

/* A child forked by a thread that did not exist at the last discovery. */
static void child_of_new_thread_is_found(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--threads", "3", "--child-mib", "2", "--children", "1", NULL};
    wl *w = wl_start(c, args);
    st_tree t;
    st_sample s = {0};
    pid_t kids[1];
    char line[128];
    int q;
    assert_int_equal(wl_ready(w, kids, 1, NULL), 1);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_int_equal(st_tree_sample(&t, 0.5, &s, NULL), ST_OK); /* through cached fds */
    assert_int_equal(s.procs, 2);
    wl_cmd(w, "thread-fork\n");
    q = atoi(wl_expect(w, "child ", line, sizeof line));
    assert_int_equal(st_tree_sample(&t, 1.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 3);
    assert_true(member_has(&t, q));
    assert_within(s.footprint, own_footprint(w->pid) + own_footprint(kids[0]) + own_footprint(q), 0.02);
    st_tree_free(&t);
}

/* Past the cap on cached fds, files are opened and read each time: the
 * numbers are the same. */
static void over_the_fd_cap_reads_the_same(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--children", "15", "--child-mib", "2", "--thread-child",
                                       "--threads", "4", NULL};
    wl *w = wl_start(c, args);
    struct rlimit old, low;
    st_backend *small;
    st_tree t;
    st_sample s = {0};
    pid_t kids[16];
    uint64_t want;
    int n = wl_ready(w, kids, 16, NULL);
    assert_int_equal(n, 16);
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
    low = old;
    low.rlim_cur = 48; /* the backend keeps at most 48 / 4 = 12 fds */
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    assert_int_equal(P->open(&small, NULL), ST_OK);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
    assert_int_equal(st_tree_init(&t, P, small, w->pid, 0.0, NULL), ST_OK);
    for (int round = 0; round < 3; round++) {
        assert_int_equal(st_tree_sample(&t, round * 0.5, &s, NULL), ST_OK);
        assert_int_equal(s.procs, 17);
    }
    want = own_footprint(w->pid);
    for (int i = 0; i < n; i++) {
        assert_true(member_has(&t, kids[i]));
        want += own_footprint(kids[i]);
    }
    assert_within(s.footprint, want, 0.02);
    st_tree_free(&t);
    P->close(small);
}

static int count_fds(void)
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

/* The backend's cached fds all go with st_tree_free and close. */
static void backend_leaves_no_fd_open(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--children", "3", "--thread-child", "--threads", "5", NULL};
    wl *w = wl_start(c, args);
    st_backend *b2;
    st_tree t;
    st_sample s = {0};
    st_sys_mem m;
    pid_t kids[4];
    int before;
    assert_int_equal(wl_ready(w, kids, 4, NULL), 4);
    before = count_fds();
    assert_int_equal(P->open(&b2, NULL), ST_OK);
    assert_int_equal(st_tree_init(&t, P, b2, w->pid, 0.0, NULL), ST_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(st_tree_sample(&t, i * 0.5, &s, NULL), ST_OK);
        assert_int_equal(P->read_system(b2, &m, NULL), ST_OK);
    }
    assert_int_equal(s.procs, 5);
    assert_true(count_fds() > before + 5); /* status and children fds are kept */
    st_tree_free(&t); /* releases every member's fds... */
    assert_true(count_fds() <= before + 2); /* ...leaving /proc/meminfo and pressure */
    P->close(b2);
    assert_int_equal(count_fds(), before);
}

/* Make the next fork() of this process get pid `want` (root only).
 * Returns the child (which waits in pause()), or -1. */
static pid_t fork_with_pid(pid_t want)
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

static void stranger_is_not_adopted(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--children", "1", "--child-mib", "2", NULL};
    static const char *const args2[] = {"--mib", "1", NULL};
    wl *w = wl_start(c, args), *x;
    st_tree t;
    st_sample s = {0};
    pid_t kids[1];
    assert_int_equal(wl_ready(w, kids, 1, NULL), 1);
    x = wl_start(c, args2); /* started after the root, not its descendant */
    wl_ready(x, kids + 0, 0, NULL);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.0, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_false(member_has(&t, x->pid));
    assert_false(member_has(&t, getpid()));
    st_tree_free(&t);
}

static void reused_pid_is_not_read(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--children", "1", "--child-mib", "2", NULL};
    wl *w;
    st_tree t;
    st_sample s = {0};
    st_proc_mem m;
    st_proc_id old;
    pid_t kids[1], stranger;
    char line[128];
    if (geteuid() != 0)
        skip(); /* needs /proc/sys/kernel/ns_last_pid */
    w = wl_start(c, args);
    assert_int_equal(wl_ready(w, kids, 1, NULL), 1);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.0, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 2);
    old = t.members[1].id;
    assert_int_equal(old.pid, kids[0]);
    wl_cmd(w, "exit-child\n");
    wl_expect(w, "exited ", line, sizeof line);
    stranger = fork_with_pid(kids[0]);
    if (stranger < 0)
        skip(); /* another process took the pid first, 50 times */
    c->extra[c->nextra++] = stranger;
    /* The cached status fd belongs to the old process: the new one at the
     * same pid (possibly with the same start tick) is never read. */
    assert_int_equal(P->read_proc(c->b, old, &m, NULL), ST_ESRCH);
    assert_int_equal(st_tree_sample(&t, 0.1, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 1);
    assert_int_equal(st_tree_sample(&t, 0.2, &s, NULL), ST_OK); /* rediscovery */
    assert_int_equal(s.procs, 1);
    assert_false(member_has(&t, stranger));
    st_tree_free(&t);
}

/* The fd-pinning property itself: a pid reused within the same clock tick
 * has the same (pid, start) identity, and only the cached status fd, bound
 * to the old process, can tell them apart. */
static void cached_fd_never_reads_reused_pid(void **state)
{
    ctx *c = *state;
    int same_tick = 0;
    if (geteuid() != 0)
        skip();
    for (int round = 0; round < 40 && !same_tick; round++) {
        st_proc_id old, now;
        st_proc_mem m;
        pid_t x = fork(), y;
        assert_true(x >= 0);
        if (x == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            for (;;)
                pause();
        }
        c->extra[c->nextra++] = x; /* teardown kills it if an assert fails */
        assert_int_equal(P->identify(c->b, x, &old, NULL), ST_OK);
        assert_int_equal(P->read_proc(c->b, old, &m, NULL), ST_OK); /* cached */
        kill(x, SIGKILL);
        assert_int_equal(waitpid(x, NULL, 0), x);
        c->nextra--;
        y = fork_with_pid(x);
        if (y < 0)
            continue;
        c->extra[c->nextra++] = y;
        if (P->identify(c->b, y, &now, NULL) == ST_OK && now.start == old.start) {
            same_tick = 1;
            /* Same pid, same start: by identity the new process IS old... */
            assert_int_equal(P->read_proc(c->b, old, &m, NULL), ST_ESRCH);
        }
        P->release(c->b, old);
        kill(y, SIGKILL);
        waitpid(y, NULL, 0);
        c->nextra--;
    }
    if (!same_tick)
        skip(); /* never reused within one tick: nothing to show */
}

static void kernel_peak_catches_unsampled_spike(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--children", "1", "--child-mib", "8", "--spike", "1024",
                                       "--hold-ms", "50", "--spike-in-child", NULL};
    wl *w = wl_start(c, args);
    st_tree t;
    st_sample s = {0};
    pid_t kids[1];
    char line[128];
    assert_int_equal(wl_ready(w, kids, 1, NULL), 1);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_true(t.kernel_peak < 512 * MiB); /* before: no spike yet */
    wl_cmd(w, "spike\n");
    assert_int_equal(atoi(wl_expect(w, "spiked ", line, sizeof line)), kids[0]);
    assert_int_equal(st_tree_sample(&t, 0.5, &s, NULL), ST_OK);
    assert_true(s.footprint < 512 * MiB); /* no sample saw the spike... */
    assert_true(t.kernel_peak >= 1024 * MiB); /* ...the kernel's mark did */
    /* The peak outlives the member that made it. */
    wl_cmd(w, "exit-child\n");
    wl_expect(w, "exited ", line, sizeof line);
    assert_int_equal(st_tree_sample(&t, 1.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 1);
    assert_true(t.kernel_peak >= 1024 * MiB);
    st_tree_free(&t);
}

static void root_exit_leaves_survivors_watched(void **state)
{
    ctx *c = *state;
    int hold[2], out[2], go[2];
    pid_t a, b;
    st_tree t;
    st_sample s = {0};
    char ch = 'x', line[128];
    FILE *fout;
    /* Orphans come back to this process, so the test can reap them. */
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    assert_int_equal(pipe(hold), 0); /* holdmem's stdin: only the test writes it */
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(go), 0);
    a = fork();
    assert_true(a >= 0);
    if (a == 0) { /* the root: starts holdmem, then exits when told */
        pid_t k = fork();
        if (k == 0) {
            dup2(hold[0], 0);
            dup2(out[1], 1);
            close(hold[0]); close(hold[1]); close(out[0]); close(out[1]);
            close(go[0]); close(go[1]);
            execl(c->holdmem, c->holdmem, "--mib", "16", (char *)NULL);
            _exit(127);
        }
        if (k < 0 || read(go[0], &ch, 1) != 1)
            _exit(1);
        _exit(0);
    }
    c->extra[c->nextra++] = a;
    close(hold[0]);
    close(out[1]);
    close(go[0]);
    fout = fdopen(out[0], "r");
    assert_non_null(fout);
    {
        wl tmp = {0, -1, fout};
        b = (pid_t)atoi(wl_expect(&tmp, "ready ", line, sizeof line));
    }
    assert_true(b > 0);
    assert_int_equal(st_tree_init(&t, P, c->b, a, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 2);
    assert_true(member_has(&t, b));
    assert_int_equal(write(go[1], "g", 1), 1);
    assert_int_equal(waitpid(a, NULL, 0), a); /* the root is gone and reaped */
    c->nextra--;
    assert_int_equal(st_tree_sample(&t, 0.1, &s, NULL), ST_OK);
    assert_false(t.root_alive);
    assert_int_equal(s.procs, 1);
    assert_int_equal(st_tree_sample(&t, 0.2, &s, NULL), ST_OK); /* rediscovery from b */
    assert_int_equal(s.procs, 1);
    assert_true(member_has(&t, b));
    assert_within(s.footprint, own_footprint(b), 0.02);
    assert_true(s.footprint >= 16 * MiB);
    /* End b (stdin closes); it was re-parented to us, so we reap it. */
    close(hold[1]);
    assert_int_equal(waitpid(b, NULL, 0), b);
    assert_int_equal(st_tree_sample(&t, 0.3, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 0);
    assert_false(st_sample_has(&s, ST_F_FOOTPRINT));
    assert_int_equal(st_tree_sample(&t, 1.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 0);
    st_tree_free(&t);
    fclose(fout);
    close(go[1]);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void status_fd_stays_with_its_process(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "4", NULL};
    wl *w = wl_start(c, args);
    st_proc_id id;
    st_proc_mem m;
    siginfo_t si;
    pid_t kids[1];
    wl_ready(w, kids, 1, NULL);
    assert_int_equal(P->identify(c->b, w->pid, &id, NULL), ST_OK);
    assert_int_equal(P->read_proc(c->b, id, &m, NULL), ST_OK); /* caches the fd */
    assert_true(m.valid & ST_PM_FOOTPRINT);
    assert_int_equal(kill(w->pid, SIGKILL), 0);
    /* A zombie still reads, without memory (its mm is gone). */
    assert_int_equal(waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOWAIT), 0);
    assert_int_equal(P->read_proc(c->b, id, &m, NULL), ST_OK);
    assert_false(m.valid & ST_PM_FOOTPRINT);
    assert_false(m.valid & ST_PM_RSS);
    /* Reaped: the cached fd reads ESRCH. */
    assert_int_equal(waitpid(w->pid, NULL, 0), w->pid);
    assert_int_equal(P->read_proc(c->b, id, &m, NULL), ST_ESRCH);
    assert_int_equal(P->identify(c->b, w->pid, &id, NULL), ST_ESRCH);
    w->pid = -1; /* reaped */
}

static void command_and_signals(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "1", "--hold-ms", "7", NULL};
    wl *w = wl_start(c, args);
    st_proc_id id, wrong;
    char buf[2048], want[2048];
    st_error e;
    pid_t kids[1], u;
    int status;
    wl_ready(w, kids, 1, NULL);
    assert_int_equal(P->identify(c->b, w->pid, &id, NULL), ST_OK);
    assert_int_equal(P->command(c->b, id, buf, sizeof buf, NULL), ST_OK);
    snprintf(want, sizeof want, "%s --mib 1 --hold-ms 7", c->holdmem);
    assert_string_equal(buf, want);
    assert_int_equal(P->command(c->b, id, buf, 8, NULL), ST_OK); /* truncated */
    assert_int_equal(strlen(buf), 7);
    wrong = id;
    wrong.start++;
    assert_int_equal(P->command(c->b, wrong, buf, sizeof buf, NULL), ST_ESRCH);
    /* Wrong identity: refused, and the process is not touched. */
    assert_int_equal(P->send_signal(c->b, wrong, SIGKILL, &e), ST_ESRCH);
    assert_int_equal(waitpid(w->pid, &status, WNOHANG), 0);
    /* Another user may not signal it: EPERM. */
    u = fork();
    assert_true(u >= 0);
    if (u == 0) {
        st_backend *b2;
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(77);
        if (P->open(&b2, NULL) != ST_OK)
            _exit(2);
        _exit(P->send_signal(b2, id, SIGKILL, NULL) == ST_EPERM ? 0 : 1);
    }
    assert_int_equal(waitpid(u, &status, 0), u);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) != 77) /* 77: could not drop privileges (not root) */
        assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(waitpid(w->pid, &status, WNOHANG), 0);
    /* The right identity: delivered. */
    assert_int_equal(P->send_signal(c->b, id, SIGTERM, &e), ST_OK);
    assert_int_equal(waitpid(w->pid, &status, 0), w->pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    w->pid = -1;
    assert_int_equal(P->send_signal(c->b, id, SIGTERM, &e), ST_ESRCH);
}

static void system_numbers_match_meminfo(void **state)
{
    ctx *c = *state;
    st_sys_mem m;
    long long total = own_meminfo_kb("MemTotal"), avail, st = own_meminfo_kb("SwapTotal"),
              sf = own_meminfo_kb("SwapFree");
    double level;
    FILE *f;
    assert_int_equal(P->read_system(c->b, &m, NULL), ST_OK);
    avail = own_meminfo_kb("MemAvailable");
    assert_true(m.valid & ST_SYS_MEMTOTAL);
    assert_int_equal(m.mem_total, (uint64_t)total * 1024);
    assert_true(m.valid & ST_F_LEVEL);
    level = (double)avail * 10000.0 / (double)total;
    assert_true(m.level_c <= 10000);
    assert_true((double)m.level_c > level - 200 && (double)m.level_c < level + 200);
    assert_true(m.valid & ST_F_SWAP);
    assert_int_equal(m.swap_total, (uint64_t)st * 1024);
    assert_within(m.swap_used, (uint64_t)(st - sf) * 1024, 0.02);
    f = fopen("/proc/pressure/memory", "r");
    if (f) {
        char line[256];
        double avg10 = -1;
        assert_true(m.valid & ST_F_PRESSURE);
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "some avg10=%lf", &avg10) == 1)
                break;
        fclose(f);
        assert_true(avg10 >= 0);
        assert_true(m.pressure_c <= 10000);
    } else {
        assert_false(m.valid & ST_F_PRESSURE);
    }
    /* A second read goes through the kept descriptors. */
    assert_int_equal(P->read_system(c->b, &m, NULL), ST_OK);
    assert_int_equal(m.mem_total, (uint64_t)total * 1024);
}

static void list_all_sees_everyone(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "1", NULL};
    wl *w = wl_start(c, args);
    st_proc_vec v = {0};
    st_proc_id id;
    pid_t kids[1];
    int seen_self = 0, seen_w = 0;
    wl_ready(w, kids, 1, NULL);
    assert_int_equal(P->identify(c->b, w->pid, &id, NULL), ST_OK);
    assert_int_equal(P->list_all(c->b, &v, NULL), ST_OK);
    for (size_t i = 0; i < v.len; i++) {
        if (v.v[i].id.pid == getpid()) {
            seen_self = 1;
            assert_int_equal(v.v[i].ppid, getppid());
        }
        if (v.v[i].id.pid == w->pid) {
            seen_w = 1;
            assert_int_equal(v.v[i].id.start, id.start);
            assert_int_equal(v.v[i].ppid, getpid());
        }
    }
    assert_true(seen_self && seen_w);
    st_proc_vec_free(&v);
}

static void gone_process_cannot_be_watched(void **state)
{
    ctx *c = *state;
    st_tree t;
    st_error e;
    pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0)
        _exit(0);
    assert_int_equal(waitpid(p, NULL, 0), p);
    assert_int_equal(st_tree_init(&t, P, c->b, p, 0.5, &e), ST_ESRCH);
    assert_int_equal(e.code, ST_ESRCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(one_process_reads_its_own_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(tree_sums_every_member_incl_thread_child, setup, teardown),
        cmocka_unit_test_setup_teardown(members_leave_and_join, setup, teardown),
        cmocka_unit_test_setup_teardown(child_of_new_thread_is_found, setup, teardown),
        cmocka_unit_test_setup_teardown(over_the_fd_cap_reads_the_same, setup, teardown),
        cmocka_unit_test_setup_teardown(backend_leaves_no_fd_open, setup, teardown),
        cmocka_unit_test_setup_teardown(stranger_is_not_adopted, setup, teardown),
        cmocka_unit_test_setup_teardown(reused_pid_is_not_read, setup, teardown),
        cmocka_unit_test_setup_teardown(cached_fd_never_reads_reused_pid, setup, teardown),
        cmocka_unit_test_setup_teardown(kernel_peak_catches_unsampled_spike, setup, teardown),
        cmocka_unit_test_setup_teardown(root_exit_leaves_survivors_watched, setup, teardown),
        cmocka_unit_test_setup_teardown(status_fd_stays_with_its_process, setup, teardown),
        cmocka_unit_test_setup_teardown(command_and_signals, setup, teardown),
        cmocka_unit_test_setup_teardown(system_numbers_match_meminfo, setup, teardown),
        cmocka_unit_test_setup_teardown(list_all_sees_everyone, setup, teardown),
        cmocka_unit_test_setup_teardown(gone_process_cannot_be_watched, setup, teardown),
    };
    if (getenv("TEST_FILTER")) /* e.g. TEST_FILTER='kernel_peak*' */
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
