/* test_linux_backend: the Linux backend (core/platform/platform_linux.c,
 * core/platform/linux_procs.c) against real processes: kept /proc fds stay bound to
 * their process (zombie, reaped, pid reused), no fd is left open, command
 * lines, signals by identity (pidfd), system numbers, the picker's list. */
#define _GNU_SOURCE
#include "realproc.h"
#include "stagetop/linux_parse.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

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

/* The fd-pinning property itself: a pid reused within the same clock tick
 * has the same (pid, start) identity, and only the cached status fd, bound
 * to the old process, can tell them apart. */
static void cached_fd_never_reads_reused_pid(void **state)
{
    ctx *c = *state;
    int same_tick = 0;
    if (geteuid() != 0) {
        print_message("SKIP: cached fd and a reused pid: needs root (ns_last_pid)\n");
        skip();
    }
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
    if (!same_tick) {
        print_message("SKIP: cached fd and a reused pid: never reused within one tick\n");
        skip();
    }
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
    assert_true(m.valid & ST_SYS_LEVEL);
    level = (double)avail * 10000.0 / (double)total;
    assert_true(m.level_c <= 10000);
    assert_true((double)m.level_c > level - 200 && (double)m.level_c < level + 200);
    assert_true(m.valid & ST_SYS_SWAP);
    assert_int_equal(m.swap_total, (uint64_t)st * 1024);
    assert_within(m.swap_used, (uint64_t)(st - sf) * 1024, 0.02);
    f = fopen("/proc/pressure/memory", "r");
    if (f) {
        char line[256];
        double avg10 = -1;
        assert_true(m.valid & ST_SYS_PRESSURE);
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "some avg10=%lf", &avg10) == 1)
                break;
        fclose(f);
        assert_true(avg10 >= 0);
        assert_true(m.pressure_c <= 10000);
    } else {
        assert_false(m.valid & ST_SYS_PRESSURE);
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

/* The parser on this process's own /proc/self/stat (moved here from
 * test_linux_parse.c, which a Mac builds: it has no /proc). */
/* The start time from the identity alone: the boot time (whole seconds)
 * plus the start's ticks, so between 1 s before the fork and the fork
 * itself; the same for a process gone. */
static void start_time_of_a_new_process(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "1", "--hold-ms", "5000", NULL};
    struct timespec a, z;
    clock_gettime(CLOCK_REALTIME, &a);
    wl *w = wl_start(c, args);
    clock_gettime(CLOCK_REALTIME, &z);
    pid_t kids[1];
    wl_ready(w, kids, 1, NULL);
    st_proc_id id;
    double t = 0, again = 0;
    assert_int_equal(P->identify(c->b, w->pid, &id, NULL), ST_OK);
    assert_non_null(P->start_time);
    assert_int_equal(P->start_time(c->b, id, &t, NULL), ST_OK);
    double before = (double)a.tv_sec + (double)a.tv_nsec * 1e-9, after = (double)z.tv_sec + (double)z.tv_nsec * 1e-9;
    assert_true(t >= before - 1.02);
    assert_true(t <= after + 0.001);
    kill(w->pid, SIGKILL);
    waitpid(w->pid, NULL, 0);
    w->pid = -1;
    assert_int_equal(P->start_time(c->b, id, &again, NULL), ST_OK);
    assert_true(again == t);
}

static void stat_of_this_process(void **state)
{
    char buf[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    size_t n;
    st_lx_stat st;
    (void)state;
    assert_non_null(f);
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_int_equal(st_lx_parse_stat(buf, n, &st, NULL), ST_OK);
    assert_int_equal(st.pid, getpid());
    assert_int_equal(st.ppid, getppid());
    assert_int_equal(st.state, 'R');
    assert_int_equal(st.num_threads, 1);
    assert_true(st.start > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        RP_TEST(backend_leaves_no_fd_open),
        RP_TEST(cached_fd_never_reads_reused_pid),
        RP_TEST(status_fd_stays_with_its_process),
        RP_TEST(command_and_signals),
        RP_TEST(system_numbers_match_meminfo),
        RP_TEST(list_all_sees_everyone),
        RP_TEST(gone_process_cannot_be_watched),
        RP_TEST(start_time_of_a_new_process),
        cmocka_unit_test(stat_of_this_process),
    };
    return RP_RUN(tests);
}

