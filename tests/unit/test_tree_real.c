/* test_tree_real: st_tree against REAL processes that the test spawns
 * (tests/workloads/holdmem, which fills its memory with random bytes).
 * Expected numbers come from the test's own reading of /proc (realproc.h).
 * No sleeps: the test waits on holdmem's "ready"/"child"/"spiked"/"exited"
 * lines, and drives st_tree_sample with its own `now` values. */
#define _GNU_SOURCE
#include "realproc.h"

#include <time.h>

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
    assert_true(s.footprint >= 64 * MIB);
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
    want = own_counted(w->pid);
    for (int i = 0; i < n; i++) {
        assert_true(member_has(&t, kids[i]));
        want += own_counted(kids[i]);
    }
    assert_true(s.footprint >= (32 + 3 * 16) * MIB);
    assert_within(s.footprint, want, 0.02);
    st_tree_free(&t);
}

/* tree_swap is the members' own VmSwap, summed (this machine may have no
 * swap: then every VmSwap line reads 0 kB, and the lane says 0, present). */
static void tree_swap_is_the_members_vmswap(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "16", "--children", "2", "--child-mib", "8", NULL};
    wl *w = wl_start(c, args);
    st_tree t;
    st_sample s = {0};
    pid_t kids[2];
    int n = wl_ready(w, kids, 2, NULL);
    assert_int_equal(n, 2);
    assert_int_equal(st_tree_init(&t, P, c->b, w->pid, 0.5, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 0.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 3);
    assert_true(st_sample_has(&s, ST_F_TREE_SWAP));
    uint64_t want = (uint64_t)own_kb(w->pid, "VmSwap") * 1024;
    for (int i = 0; i < n; i++)
        want += (uint64_t)own_kb(kids[i], "VmSwap") * 1024;
    assert_int_equal(s.tree_swap, want);
    st_tree_free(&t);
}

/* utime+stime and majflt of pid from /proc/PID/stat, read by the test. */
static void own_counters(pid_t pid, uint64_t *ticks, uint64_t *majflt)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *p = strrchr(text, ')');
    assert_non_null(p);
    unsigned long long v[13] = {0};
    /* after ')': state, then fields 4.. ; majflt is field 12, utime 14, stime 15 */
    assert_int_equal(sscanf(p + 2, "%*c %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                            &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9],
                            &v[10], &v[11]), 12);
    *majflt = v[8];
    *ticks = v[10] + v[11];
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A process busy on one core: the tree's cpu is its own utime+stime growth
 * over the same time (read independently from /proc), within 10 points of
 * a percent; its page-ins are its own majflt growth. */
static void cpu_is_the_members_own_cpu_time(void **state)
{
    ctx *c = *state;
    pid_t busy = fork();
    assert_true(busy >= 0);
    if (busy == 0) {
        execl("/bin/sh", "sh", "-c", "while :; do :; done", (char *)NULL);
        _exit(127);
    }
    c->extra[c->nextra++] = busy;
    st_tree t;
    st_sample s = {0};
    uint64_t tk0, tk1, mf0, mf1;
    long hz = sysconf(_SC_CLK_TCK);
    assert_int_equal(st_tree_init(&t, P, c->b, busy, 0.5, NULL), ST_OK);
    double t0 = mono_s();
    assert_int_equal(st_tree_sample(&t, t0, &s, NULL), ST_OK);
    own_counters(busy, &tk0, &mf0);
    assert_false(s.valid & ST_F_CPU); /* no base yet */
    /* wait for 40 ticks of its CPU (bounded: 30 s) */
    for (double until = t0 + 30; mono_s() < until;) {
        own_counters(busy, &tk1, &mf1);
        if (tk1 >= tk0 + 40)
            break;
        struct timespec nap = {0, 20000000};
        nanosleep(&nap, NULL);
    }
    double t1 = mono_s();
    assert_int_equal(st_tree_sample(&t, t1, &s, NULL), ST_OK);
    own_counters(busy, &tk1, &mf1);
    assert_true(st_sample_has(&s, ST_F_CPU | ST_F_PAGEINS));
    double want = (double)(tk1 - tk0) / (double)hz / (t1 - t0) * 100.0, got = s.cpu_c / 100.0;
    assert_true(want > 20); /* it did run */
    if (got < want - 10 || got > want + 10)
        fail_msg("cpu %.1f %% against its own %.1f %%", got, want);
    assert_int_equal(s.pageins_c, (uint32_t)((double)(mf1 - mf0) / (t1 - t0) * 100.0 + 0.5));
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
    assert_within(s.footprint, own_counted(w->pid) + own_counted(kids[0]) + own_counted(q), 0.02);
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
    want = own_counted(w->pid);
    for (int i = 0; i < n; i++) {
        assert_true(member_has(&t, kids[i]));
        want += own_counted(kids[i]);
    }
    assert_within(s.footprint, want, 0.02);
    st_tree_free(&t);
    P->close(small);
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
    if (geteuid() != 0) {
        print_message("SKIP: pid reuse: needs root (/proc/sys/kernel/ns_last_pid)\n");
        skip();
    }
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
    if (stranger < 0) {
        print_message("SKIP: pid reuse: another process took the pid first, 50 times\n");
        skip();
    }
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
    assert_true(t.kernel_peak < 512 * MIB); /* before: no spike yet */
    wl_cmd(w, "spike\n");
    assert_int_equal(atoi(wl_expect(w, "spiked ", line, sizeof line)), kids[0]);
    assert_int_equal(st_tree_sample(&t, 0.5, &s, NULL), ST_OK);
    assert_true(s.footprint < 512 * MIB); /* no sample saw the spike... */
    assert_true(t.kernel_peak >= 1024 * MIB); /* ...the kernel's mark did */
    /* The peak outlives the member that made it. */
    wl_cmd(w, "exit-child\n");
    wl_expect(w, "exited ", line, sizeof line);
    assert_int_equal(st_tree_sample(&t, 1.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 1);
    assert_true(t.kernel_peak >= 1024 * MIB);
    st_tree_free(&t);
}

/* discover_s: 0.5 (the root's death is seen by a read) or 0 (discovery runs
 * every sample, as at intervals >= 0.5 s: the death is seen by discovery,
 * before any read, while the dead root is still listed as the survivor's
 * parent). */
static void root_exit_survivors(void **state, double discover_s)
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
    assert_int_equal(st_tree_init(&t, P, c->b, a, discover_s, NULL), ST_OK);
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
    assert_true(s.footprint >= 16 * MIB);
    /* End b (stdin closes); it was re-parented to us, so we reap it. */
    close(hold[1]);
    assert_int_equal(waitpid(b, NULL, 0), b);
    assert_int_equal(st_tree_sample(&t, 0.3, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 0);
    /* An empty tree holds nothing: footprint 0, still a valid field (stageload's
     * summarize() reads a footprint from every sample). */
    assert_true(st_sample_has(&s, ST_F_FOOTPRINT));
    assert_int_equal(s.footprint, 0);
    assert_int_equal(st_tree_sample(&t, 1.0, &s, NULL), ST_OK);
    assert_int_equal(s.procs, 0);
    st_tree_free(&t);
    fclose(fout);
    close(go[1]);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void root_exit_leaves_survivors_watched(void **state) { root_exit_survivors(state, 0.5); }

static void root_exit_seen_by_discovery_keeps_survivors(void **state)
{
    root_exit_survivors(state, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        RP_TEST(one_process_reads_its_own_numbers),
        RP_TEST(tree_sums_every_member_incl_thread_child),
        RP_TEST(tree_swap_is_the_members_vmswap),
        RP_TEST(cpu_is_the_members_own_cpu_time),
        RP_TEST(members_leave_and_join),
        RP_TEST(child_of_new_thread_is_found),
        RP_TEST(over_the_fd_cap_reads_the_same),
        RP_TEST(stranger_is_not_adopted),
        RP_TEST(reused_pid_is_not_read),
        RP_TEST(kernel_peak_catches_unsampled_spike),
        RP_TEST(root_exit_leaves_survivors_watched),
        RP_TEST(root_exit_seen_by_discovery_keeps_survivors),
    };
    return RP_RUN(tests);
}

