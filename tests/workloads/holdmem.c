/* holdmem: a test workload that holds known amounts of memory in a known
 * process tree, and says on stdout when it is ready (no sleeps in tests).
 *
 *   holdmem [--mib N] [--children K] [--child-mib M] [--thread-child]
 *           [--threads T] [--spike MIB] [--hold-ms MS] [--spike-in-child]
 *           [--exit-child-after MS]
 *
 * --mib N           the root allocates N MiB and fills it with pseudo-random
 *                   bytes (xorshift64: pages that do not compress)
 * --children K      K children, each holding --child-mib M MiB
 * --thread-child    one more child, forked from a non-main thread (it is
 *                   listed only in that thread's /proc/.../children file)
 * --threads T       T idle threads in the root
 * --spike MIB       on the stdin command "spike": allocate MIB random, hold
 *                   --hold-ms MS, munmap, stay alive (in child 0 with
 *                   --spike-in-child, else in the root)
 * --exit-child-after MS   child 0 exits MS ms after it is ready
 * --cow-children K  after the root has filled its memory, K more children
 *                   that keep it (copy-on-write: each page shared by all)
 *                   and hold nothing of their own
 * --shm             the root's memory is a file of /dev/shm (unlinked at
 *                   once) mapped shared; --cow-children read every page of
 *                   it, so it is in each one's RssShmem
 * (stdin "rewrite": the root writes new random bytes over its --mib, so
 * copy-on-write pages break: its copy becomes its own; "rewritten" after)
 *
 * Children are forked before the root fills its memory, so no page is
 * shared copy-on-write (a shared page would count in both processes' RSS).
 *
 * Protocol (root's stdout, one line each, flushed):
 *   child <pid> <mib> main|thread   a child is ready (its memory touched)
 *   ready <pid> <nprocs>            everything is ready
 *   spiked <pid> <mib>              a spike was allocated, held and freed
 *   exited <pid>                    child 0 exited and was reaped
 *   error <text>                    something failed (then exit 1)
 * Commands on the root's stdin, one a line: "spike", "exit-child", "fork"
 * (one more child, announced by a "child" line), "thread-fork" (a new
 * thread that forks one more child and stays).  End of stdin or SIGTERM
 * ends the whole tree (children exit when the root's pipes close). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <fcntl.h>
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

typedef struct opts {
    long mib, children, child_mib, threads, spike, hold_ms, exit_after_ms;
    long cow_children;
    int thread_child, spike_in_child, shm;
} opts;

typedef struct msg { /* child -> root, one write (atomic: < PIPE_BUF) */
    int32_t kind;    /* 'R' ready, 'T' ready (thread child), 'S' spiked, 'X' exiting */
    int32_t pid;
} msg;

static opts o = {.hold_ms = 50, .exit_after_ms = -1};
static int report_fd[2] = {-1, -1}; /* children write, root reads */
static int life_fd[2] = {-1, -1};   /* root holds the write end; EOF = root gone */
static void *root_mem;
static size_t root_len;
static int keeps_root; /* a --cow-children child: it keeps root_mem */

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...);
static void say(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (write(1, line, (size_t)n) < 0)
        _exit(1);
}

static void die(const char *what)
{
    say("error %s: %s", what, strerror(errno));
    exit(1);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* mmap mib MiB (shared, a /dev/shm file's, with shm) and fill every byte
 * with xorshift64 output. */
static void *fill_random_in(long mib, size_t *len, int shm)
{
    uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)time(NULL) ^ 0x5DEECE66Dull;
    uint64_t *p;
    size_t n;
    *len = (size_t)mib << 20;
    if (*len == 0)
        return NULL;
    if (shm) {
        char path[64];
        int fd;
        snprintf(path, sizeof path, "/dev/shm/holdmem-%d", (int)getpid());
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
            die("/dev/shm");
        unlink(path);
        if (ftruncate(fd, (off_t)*len) != 0)
            die("ftruncate /dev/shm");
        p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
    } else {
        p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (p == MAP_FAILED)
        die("mmap");
    n = *len / sizeof *p;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = x;
    }
    return p;
}

static void *fill_random(long mib, size_t *len) { return fill_random_in(mib, len, 0); }

static void send_msg(int32_t kind)
{
    msg m = {kind, (int32_t)getpid()};
    if (write(report_fd[1], &m, sizeof m) != (ssize_t)sizeof m)
        _exit(1);
}

static void spike(void)
{
    size_t len;
    void *p = fill_random(o.spike, &len);
    sleep_ms(o.hold_ms);
    if (p)
        munmap(p, len);
}

/* A child's life: hold memory, report, obey commands until the root goes. */
static void child_main(int cmd_fd, int is_first, int32_t ready_kind)
{
    size_t len;
    char c;
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* elsewhere: the getppid() check below */
#endif
    if (getppid() == 1)
        _exit(0);
    if (root_mem && keeps_root) { /* map every shared page (a read each) */
        volatile const unsigned char *q = root_mem;
        unsigned sum = 0;
        for (size_t i = 0; i < root_len; i += 4096)
            sum += q[i];
        (void)sum;
    } else if (root_mem) { /* forked late: drop the root's pages */
        munmap(root_mem, root_len);
    }
    close(report_fd[0]);
    close(life_fd[1]);
    (void)fill_random(o.child_mib, &len);
    send_msg(ready_kind);
    if (is_first && o.exit_after_ms >= 0) {
        sleep_ms(o.exit_after_ms);
        send_msg('X');
        _exit(0);
    }
    while (read(cmd_fd, &c, 1) == 1) {
        if (c == 'S') {
            spike();
            send_msg('S');
        } else if (c == 'X') {
            send_msg('X');
            _exit(0);
        }
    }
    _exit(0);
}

typedef struct child { pid_t pid; int cmd_w; } child;

/* Fork a child; the first one gets its own command pipe. */
static child start_child(int first, int32_t ready_kind)
{
    child ch = {-1, -1};
    int cmd[2] = {-1, -1};
    if (first && pipe(cmd) != 0)
        die("pipe");
    ch.pid = fork();
    if (ch.pid < 0)
        die("fork");
    if (ch.pid == 0) {
        if (first)
            close(cmd[1]);
        child_main(first ? cmd[0] : life_fd[0], first, ready_kind);
    }
    if (first) {
        close(cmd[0]);
        ch.cmd_w = cmd[1];
    }
    return ch;
}

static void *thread_forker(void *arg)
{
    (void)arg;
    (void)start_child(0, 'T');
    /* Stay alive: if this thread exited, the child would be moved to
     * another thread's children list. */
    for (;;)
        pause();
    return NULL;
}

static void *idle_thread(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

static msg wait_msg(void)
{
    msg m;
    ssize_t n;
    while ((n = read(report_fd[0], &m, sizeof m)) < 0 && errno == EINTR) {
    }
    if (n != (ssize_t)sizeof m)
        die("report pipe");
    return m;
}

static long num_arg(int argc, char **argv, int *i)
{
    char *end;
    long v;
    if (*i + 1 >= argc) {
        say("error %s needs a number", argv[*i]);
        exit(2);
    }
    v = strtol(argv[++*i], &end, 10);
    if (*end || v < 0) {
        say("error bad number for %s", argv[*i - 1]);
        exit(2);
    }
    return v;
}

static void parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--mib")) o.mib = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--children")) o.children = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--child-mib")) o.child_mib = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--threads")) o.threads = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--spike")) o.spike = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--hold-ms")) o.hold_ms = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--exit-child-after")) o.exit_after_ms = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--cow-children")) o.cow_children = num_arg(argc, argv, &i);
        else if (!strcmp(a, "--shm")) o.shm = 1;
        else if (!strcmp(a, "--thread-child")) o.thread_child = 1;
        else if (!strcmp(a, "--spike-in-child")) o.spike_in_child = 1;
        else {
            say("error unknown option %s", a);
            exit(2);
        }
    }
    if (o.spike_in_child && o.children < 1) {
        say("error --spike-in-child needs --children >= 1");
        exit(2);
    }
}

/* Handle one report message that arrives outside a command. */
static void on_report(const msg *m, child *first)
{
    if (m->kind == 'X' && first->pid == m->pid) {
        waitpid(first->pid, NULL, 0);
        say("exited %d", (int)m->pid);
        first->pid = -1;
    }
}

int main(int argc, char **argv)
{
    child first = {-1, -1};
    long nchildren;
    pthread_t th;
    char line[64];
    size_t used = 0;

    parse(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    if (pipe(report_fd) != 0 || pipe(life_fd) != 0)
        die("pipe");
    for (long k = 0; k < o.children; k++) {
        child ch = start_child(k == 0, 'R');
        if (k == 0)
            first = ch;
    }
    if (o.thread_child && pthread_create(&th, NULL, thread_forker, NULL) != 0)
        die("pthread_create");
    for (long k = 0; k < o.threads; k++)
        if (pthread_create(&th, NULL, idle_thread, NULL) != 0)
            die("pthread_create");
    nchildren = o.children + (o.thread_child ? 1 : 0);
    for (long k = 0; k < nchildren; k++) {
        msg m = wait_msg();
        say("child %d %ld %s", (int)m.pid, o.child_mib,
            m.kind == 'T' ? "thread" : "main");
    }
    root_mem = fill_random_in(o.mib, &root_len, o.shm);
    keeps_root = 1;
    for (long k = 0; k < o.cow_children; k++) {
        child ch = start_child(0, 'R');
        msg m;
        while ((m = wait_msg()).kind != 'R' || m.pid != ch.pid)
            on_report(&m, &first);
        say("child %d %ld main", (int)ch.pid, o.child_mib);
    }
    keeps_root = 0;
    say("ready %d %ld", (int)getpid(), 1 + nchildren + o.cow_children);

    for (;;) {
        struct pollfd pf[2] = {{0, POLLIN, 0}, {report_fd[0], POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            die("poll");
        }
        if (pf[1].revents & POLLIN) {
            msg m = wait_msg();
            on_report(&m, &first);
        }
        if (!(pf[0].revents & (POLLIN | POLLHUP)))
            continue;
        {
            ssize_t n = read(0, line + used, sizeof line - 1 - used);
            char *nl;
            if (n <= 0)
                break; /* stdin closed: end the tree */
            used += (size_t)n;
            line[used] = '\0';
            while ((nl = strchr(line, '\n')) != NULL) {
                *nl = '\0';
                if (!strcmp(line, "spike") && o.spike > 0) {
                    if (o.spike_in_child && first.pid > 0) {
                        msg m;
                        if (write(first.cmd_w, "S", 1) != 1)
                            die("command pipe");
                        while ((m = wait_msg()).kind != 'S')
                            on_report(&m, &first);
                        say("spiked %d %ld", (int)m.pid, o.spike);
                    } else {
                        spike();
                        say("spiked %d %ld", (int)getpid(), o.spike);
                    }
                } else if (!strcmp(line, "exit-child") && first.pid > 0) {
                    msg m;
                    if (write(first.cmd_w, "X", 1) != 1)
                        die("command pipe");
                    do {
                        m = wait_msg();
                        on_report(&m, &first);
                    } while (first.pid > 0);
                } else if (!strcmp(line, "thread-fork")) {
                    msg m;
                    if (pthread_create(&th, NULL, thread_forker, NULL) != 0)
                        die("pthread_create");
                    while ((m = wait_msg()).kind != 'T')
                        on_report(&m, &first);
                    say("child %d %ld thread", (int)m.pid, o.child_mib);
                } else if (!strcmp(line, "rewrite") && root_mem) {
                    uint64_t *q = root_mem, x = 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
                    for (size_t i = 0; i < root_len / sizeof *q; i++) {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        q[i] = x;
                    }
                    say("rewritten %d", (int)getpid());
                } else if (!strcmp(line, "fork")) {
                    child ch = start_child(0, 'R');
                    msg m;
                    while ((m = wait_msg()).kind != 'R' || m.pid != ch.pid)
                        on_report(&m, &first);
                    say("child %d %ld main", (int)ch.pid, o.child_mib);
                }
                used -= (size_t)(nl + 1 - line);
                memmove(line, nl + 1, used + 1);
            }
            if (used >= sizeof line - 1)
                used = 0; /* an over-long line: drop it */
        }
    }
    return 0;
}
