/* spike.c: a job whose memory peak lives in a child that is gone before
 * the next sample (docs/metrics.md, "Peaks that do not leave with the
 * process").
 *
 *   spike --go FILE --exit FILE --report FILE [--mib N] [--hold-ms MS] [--no-wait]
 *
 * The root waits until FILE --go exists (the test creates it right after
 * stagetop's first sample), forks a child that maps N MiB (default 1024),
 * fills every byte with xorshift64 output (pages that neither share nor
 * compress), holds them MS ms (default 50), writes its own ru_maxrss in
 * bytes (getrusage: Linux KiB, macOS bytes) to --report (temp + rename) and
 * exits.  The root waits for it with waitpid (so its ru_maxrss reaches the
 * root's, and through the root's wait4 stagetop's), or with --no-wait only
 * until the child has exited (a pipe's end), leaving it a zombie for
 * whoever reaps it after the root exits.  The root then waits until FILE
 * --exit exists and exits 0.  It writes nothing to stdout (headless
 * --jsonl shares it).
 * The root itself stays small (a few hundred KiB). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
    fprintf(stderr, "spike: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Poll (10 ms) until path exists; give up after 300 s. */
static void wait_file(const char *path)
{
    struct stat st;
    for (long waited = 0; stat(path, &st) != 0; waited += 10) {
        if (waited > 300000) {
            fprintf(stderr, "spike: %s never appeared\n", path);
            exit(1);
        }
        sleep_ms(10);
    }
}

static void child(long mib, long hold_ms, const char *report)
{
    size_t len = (size_t)mib << 20, n = len / sizeof(uint64_t);
    uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)time(NULL) ^ 0x5DEECE66Dull;
    uint64_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        die("mmap");
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = x;
    }
    sleep_ms(hold_ms);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        die("getrusage");
#if defined(__APPLE__)
    unsigned long long bytes = (unsigned long long)ru.ru_maxrss;
#else
    unsigned long long bytes = (unsigned long long)ru.ru_maxrss * 1024ull;
#endif
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", report);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%llu\n", bytes) < 0 || fclose(f) != 0 || rename(tmp, report) != 0)
        die(report);
    _exit(0);
}

int main(int argc, char **argv)
{
    const char *go = NULL, *exit_file = NULL, *report = NULL;
    long mib = 1024, hold_ms = 50;
    int no_wait = 0, fds[2];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-wait")) {
            no_wait = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "spike: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--go"))
            go = v;
        else if (!strcmp(a, "--exit"))
            exit_file = v;
        else if (!strcmp(a, "--report"))
            report = v;
        else if (!strcmp(a, "--mib"))
            mib = atol(v);
        else if (!strcmp(a, "--hold-ms"))
            hold_ms = atol(v);
        else {
            fprintf(stderr, "spike: unknown option %s\n", a);
            return 2;
        }
    }
    if (!go || !exit_file || !report || mib <= 0 || hold_ms < 0) {
        fprintf(stderr, "usage: spike --go FILE --exit FILE --report FILE [--mib N] "
                        "[--hold-ms MS] [--no-wait]\n");
        return 2;
    }
    wait_file(go);
    if (pipe(fds) != 0)
        die("pipe");
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        close(fds[0]);
        child(mib, hold_ms, report); /* fds[1] closes when it exits */
    }
    close(fds[1]);
    if (no_wait) {
        char c;
        while (read(fds[0], &c, 1) != 0 && errno == EINTR) {
        }
    } else {
        int status;
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR)
                die("waitpid");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "spike: the child failed\n");
            return 1;
        }
    }
    close(fds[0]);
    wait_file(exit_file);
    return 0;
}
