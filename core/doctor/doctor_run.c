/* doctor_run.c: running a reference tool with a timeout, reading a small
 * file, and the child `stagetop doctor` checks when no pid is given
 * (include/stagetop/doctor.h).  The same code on Linux and macOS: POSIX
 * only (posix_spawnp, poll, fork, mmap). */
#include "stagetop/doctor.h"
#include "stagetop/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

extern char **environ;

/* The environment with LC_ALL=C (tools print numbers the same way). */
static char **c_locale_env(void)
{
    size_t n = 0, k = 0;
    char **env;
    while (environ && environ[n])
        n++;
    env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LC_ALL=", 7) != 0)
            env[k++] = environ[i];
    env[k++] = (char *)"LC_ALL=C";
    env[k] = NULL;
    return env;
}

/* Wait for pid; kill it first when kill_it.  Returns the wait status. */
static int reap(pid_t pid, int kill_it)
{
    int status = 0;
    if (kill_it)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

int st_doctor_run_tool(const char *const argv[], double timeout_s, char *out, size_t cap, size_t *len,
               st_error *err)
{
    posix_spawn_file_actions_t fa;
    int pfd[2], rc, status;
    pid_t pid;
    size_t got = 0;
    char **env;
    double deadline;

    if (!argv || !argv[0] || !out || cap == 0)
        return st_error_set(err, ST_EINVAL, EINVAL, "st_doctor_run_tool: bad arguments");
    out[0] = '\0';
    if (len)
        *len = 0;
    if (pipe(pfd) != 0)
        return st_error_set(err, ST_EIO, errno, "pipe: %s", strerror(errno));
    for (int i = 0; i < 2; i++) { /* with stdin/stdout closed, pipe() may hand out 0..2 */
        if (pfd[i] <= 2) {
            int hi = fcntl(pfd[i], F_DUPFD, 3);
            if (hi >= 0) {
                close(pfd[i]);
                pfd[i] = hi;
            }
        }
    }
    fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
    env = c_locale_env();
    if (!env || posix_spawn_file_actions_init(&fa) != 0) {
        free(env);
        close(pfd[0]);
        close(pfd[1]);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory to run %s", argv[0]);
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, pfd[1]);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(pfd[1]);
    if (rc != 0) {
        close(pfd[0]);
        if (rc == ENOENT)
            return st_error_set(err, ST_ENOTSUP, rc, "%s not found", argv[0]);
        return st_error_set(err, ST_EIO, rc, "cannot run %s: %s", argv[0], strerror(rc));
    }
    deadline = st_now() + timeout_s;
    for (;;) {
        struct pollfd p = {pfd[0], POLLIN, 0};
        double left = deadline - st_now();
        ssize_t n;
        if (left <= 0) {
            close(pfd[0]);
            reap(pid, 1);
            return st_error_set(err, ST_EIO, ETIMEDOUT, "%s did not finish in %.0f s", argv[0], timeout_s);
        }
        rc = poll(&p, 1, (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc == 0)
            continue;
        if (got + 1 < cap) {
            n = read(pfd[0], out + got, cap - 1 - got);
        } else {
            char sink[512]; /* output beyond cap: drained, not kept */
            n = read(pfd[0], sink, sizeof sink);
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (got + 1 < cap)
            got += (size_t)n;
    }
    close(pfd[0]);
    out[got] = '\0';
    if (len)
        *len = got;
    status = reap(pid, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && got == 0)
        return st_error_set(err, ST_ENOTSUP, ENOENT, "%s not found", argv[0]);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return st_error_set(err, ST_EIO, 0, "%s failed (%s %d)", argv[0],
                            WIFEXITED(status) ? "exit status" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return ST_OK;
}

int st_doctor_read_file(const char *path, char *out, size_t cap, size_t *len, st_error *err)
{
    size_t got = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return st_error_set(err, e == ENOENT ? ST_ENOTSUP : e == EACCES || e == EPERM ? ST_EPERM : ST_EIO,
                            e, "%s: %s", path, strerror(e));
    }
    while (got + 1 < cap) {
        ssize_t n = read(fd, out + got, cap - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return st_error_set(err, e == EACCES || e == EPERM ? ST_EPERM : ST_EIO, e, "%s: %s", path,
                                strerror(e));
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    out[got] = '\0';
    if (len)
        *len = got;
    return ST_OK;
}

/* ---- the held child -------------------------------------------------------- */

/* In the child: fill, touch, say ready, wait for the life pipe to close. */
static void child_main(uint64_t bytes, int ready_fd, int life_fd)
{
    uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)st_wall_time() ^ 0x2545F4914F6CDD1Dull;
    size_t n = (size_t)bytes / sizeof(uint64_t);
    uint64_t *p = NULL;
    char c = 'R';
    if (bytes > 0) {
        p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            _exit(3);
    }
    for (size_t i = 0; i < n; i++) { /* xorshift64: pages that do not compress */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = x;
    }
    if (write(ready_fd, &c, 1) != 1)
        _exit(4);
    close(ready_fd);
    while (read(life_fd, &c, 1) != 0) {
        /* EOF: doctor is gone (or closed it): end */
        if (errno != EINTR)
            break;
    }
    _exit(0);
}

int st_doctor_child_start(st_doctor_child *c, uint64_t bytes, double timeout_s, st_error *err)
{
    int ready[2], life[2];
    pid_t pid;
    char ch = 0;
    double deadline;
    c->pid = 0;
    c->life_fd = -1;
    if (bytes > ((uint64_t)SIZE_MAX >> 1))
        return st_error_set(err, ST_EINVAL, EINVAL, "cannot hold %llu bytes", (unsigned long long)bytes);
    if (pipe(ready) != 0)
        return st_error_set(err, ST_EIO, errno, "pipe: %s", strerror(errno));
    if (pipe(life) != 0) {
        int e = errno;
        close(ready[0]);
        close(ready[1]);
        return st_error_set(err, ST_EIO, e, "pipe: %s", strerror(e));
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(ready[0]);
        close(ready[1]);
        close(life[0]);
        close(life[1]);
        return st_error_set(err, ST_EIO, e, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        close(ready[0]);
        close(life[1]);
        child_main(bytes, ready[1], life[0]);
    }
    close(ready[1]);
    close(life[0]);
    fcntl(life[1], F_SETFD, FD_CLOEXEC); /* tools run later must not keep it alive */
    c->pid = (int32_t)pid;
    c->life_fd = life[1];
    deadline = st_now() + timeout_s;
    for (;;) {
        struct pollfd p = {ready[0], POLLIN, 0};
        double left = deadline - st_now();
        ssize_t n;
        int r;
        if (left <= 0) {
            close(ready[0]);
            st_doctor_child_stop(c, NULL);
            return st_error_set(err, ST_EIO, ETIMEDOUT, "the test child was not ready after %.0f s", timeout_s);
        }
        r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue;
        n = read(ready[0], &ch, 1);
        if (n < 0 && errno == EINTR)
            continue;
        break;
    }
    close(ready[0]);
    if (ch != 'R') {
        st_doctor_child_stop(c, NULL);
        return st_error_set(err, ST_ENOMEM, ENOMEM, "the test child could not hold %llu MiB",
                            (unsigned long long)(bytes >> 20));
    }
    return ST_OK;
}

void st_doctor_child_stop(st_doctor_child *c, uint64_t *maxrss)
{
    struct rusage ru;
    int status;
    if (maxrss)
        *maxrss = 0;
    if (c->life_fd >= 0) {
        close(c->life_fd);
        c->life_fd = -1;
    }
    if (c->pid <= 0)
        return;
    kill((pid_t)c->pid, SIGKILL);
    memset(&ru, 0, sizeof ru);
    while (wait4((pid_t)c->pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    if (maxrss && ru.ru_maxrss > 0)
        *maxrss = (uint64_t)ru.ru_maxrss; /* as the system gives it: KiB on Linux, bytes on macOS */
    c->pid = 0;
}
