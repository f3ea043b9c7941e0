/* darwin_mps.c: the two machine numbers of PyTorch's MPS cap, for the macOS
 * backend's mps_device (darwin_internal.h; docs/metrics.md "The MPS cap").
 *
 * - The recommended working set: Metal's MTLCreateSystemDefaultDevice() and
 *   the device's recommendedMaxWorkingSetSize (a uint64_t property, bytes;
 *   what torch.mps.recommended_max_memory() returns).  Apple publishes no
 *   source for Metal: this is from Apple's Metal documentation
 *   (developer.apple.com/documentation/metal/mtlcreatesystemdefaultdevice(),
 *   .../mtldevice/recommendedmaxworkingsetsize) and the Objective-C
 *   runtime's documented C entry points (sel_registerName, objc_msgSend,
 *   developer.apple.com/documentation/objectivec), unverified until a Mac
 *   confirms it.  Metal is loaded at run time (dlopen, as NVML is: no
 *   framework at link time) in a short-lived child: stagetop never carries
 *   the framework's memory, and a login that may not reach the GPU (ssh)
 *   only loses this number.  The child writes one line to a pipe and
 *   exits; the parent waits ST_DW_MPS_TIMEOUT_MS at most, then kills it.
 * - iogpu.wired_limit_mb: the GPU driver's wired-memory limit in MiB, 0 for
 *   the system's default.  The IOGPU family is not in XNU (no "iogpu" in
 *   apple-oss-distributions/xnu at xnu-11417.101.15) and Apple publishes no
 *   source or manual page for it: read through sysctlbyname as public
 *   write-ups of `sysctl iogpu.wired_limit_mb` describe it, unverified until
 *   a Mac confirms it.  Absent (an Intel Mac, an older system): not set.
 *
 * On Linux this file is compiled only by the unit tests, against the shim
 * in tests/darwin/shim and the fake Metal of tests/darwin/fake_metal.c. */
#include "darwin_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define METAL_PATH "/System/Library/Frameworks/Metal.framework/Metal"
#define OBJC_PATH "/usr/lib/libobjc.A.dylib"

typedef void *(*create_fn)(void);
typedef void *(*sel_fn)(const char *);
typedef uint64_t (*msg_u64_fn)(void *, void *);

/* In the child: one line, "R <bytes>" or "E <why>". */
static void child_say(int fd, const char *line)
{
    size_t n = strlen(line), off = 0;
    while (off < n) {
        ssize_t w = write(fd, line + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        off += (size_t)w;
    }
}

static void child_probe(int fd)
{
    char line[96];
    void *objc = dlopen(OBJC_PATH, RTLD_NOW | RTLD_LOCAL);
    void *metal = dlopen(METAL_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!objc || !metal) {
        child_say(fd, !metal ? "E Metal.framework could not be loaded\n"
                             : "E the Objective-C runtime could not be loaded\n");
        return;
    }
    create_fn create;
    sel_fn sel;
    msg_u64_fn msg;
    void *p;
    if (!(p = dlsym(metal, "MTLCreateSystemDefaultDevice"))) {
        child_say(fd, "E no MTLCreateSystemDefaultDevice in Metal.framework\n");
        return;
    }
    memcpy(&create, &p, sizeof create);
    if (!(p = dlsym(objc, "sel_registerName"))) {
        child_say(fd, "E no sel_registerName in the Objective-C runtime\n");
        return;
    }
    memcpy(&sel, &p, sizeof sel);
    if (!(p = dlsym(objc, "objc_msgSend"))) {
        child_say(fd, "E no objc_msgSend in the Objective-C runtime\n");
        return;
    }
    memcpy(&msg, &p, sizeof msg);
    void *dev = create();
    if (!dev) {
        child_say(fd, "E no Metal device (MTLCreateSystemDefaultDevice gave none: "
                      "no GPU access from this login?)\n");
        return;
    }
    void *s = sel("recommendedMaxWorkingSetSize");
    uint64_t v = s ? msg(dev, s) : 0;
    if (!v) {
        child_say(fd, "E the Metal device gave no recommendedMaxWorkingSetSize\n");
        return;
    }
    snprintf(line, sizeof line, "R %" PRIu64 "\n", v);
    child_say(fd, line);
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Read the child's line within timeout_ms: 1 with the whole line in buf,
 * 0 at EOF without a newline, -1 timed out. */
static int read_line(int fd, char *buf, size_t len, int timeout_ms)
{
    size_t n = 0;
    double end = mono_ms() + timeout_ms;
    buf[0] = '\0';
    for (;;) {
        double left = end - mono_ms();
        if (left <= 0)
            return -1;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return 0;
        if (r == 0)
            continue; /* the deadline is checked above */
        ssize_t got = read(fd, buf + n, len - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        n += (size_t)got;
        buf[n] = '\0';
        if (memchr(buf, '\n', n) || n == len - 1)
            return memchr(buf, '\n', n) ? 1 : 0;
    }
}

void st_dw_mps_recommended(st_mps_device *out, int timeout_ms)
{
    int fds[2];
    char line[200];
    out->has_recommended = 0;
    out->recommended_max = 0;
    out->why[0] = '\0';
    if (pipe(fds) != 0) {
        snprintf(out->why, sizeof out->why, "no pipe for the Metal probe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->why, sizeof out->why, "the Metal probe could not start: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) { /* the child: nothing of it reaches stagetop's terminal, and
                       none of stagetop's handlers (the crash handler restores
                       the terminal, the others wake its loop) runs in it */
        sigset_t none;
        for (int sig = 1; sig < 32; sig++)
            if (sig != SIGKILL && sig != SIGSTOP)
                signal(sig, SIG_DFL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        close(fds[0]);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            if (null > 2)
                close(null);
        }
        child_probe(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    int got = read_line(fds[0], line, sizeof line, timeout_ms);
    close(fds[0]);
    int status = 0;
    if (got < 0)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = '\0';
    if (got < 0) {
        snprintf(out->why, sizeof out->why, "the Metal probe gave no answer in %d ms", timeout_ms);
    } else if (got == 1 && line[0] == 'R' && line[1] == ' ') {
        char *end = NULL;
        errno = 0;
        unsigned long long v = strtoull(line + 2, &end, 10);
        if (errno || end == line + 2 || *end || !v)
            snprintf(out->why, sizeof out->why, "the Metal probe's answer is not a number");
        else
            out->has_recommended = 1, out->recommended_max = (uint64_t)v;
    } else if (got == 1 && line[0] == 'E' && line[1] == ' ') {
        snprintf(out->why, sizeof out->why, "%.150s", line + 2);
    } else if (WIFSIGNALED(status)) {
        snprintf(out->why, sizeof out->why, "the Metal probe died of signal %d", WTERMSIG(status));
    } else {
        snprintf(out->why, sizeof out->why, "the Metal probe exited without an answer");
    }
}

void st_dw_mps_wired(st_mps_device *out)
{
    int mb = 0; /* the OID is an int (public write-ups; unverified) */
    size_t len = sizeof mb;
    out->has_wired_limit = 0;
    out->wired_limit = 0;
    if (sysctlbyname("iogpu.wired_limit_mb", &mb, &len, NULL, 0) == 0 && len == sizeof mb && mb > 0) {
        out->has_wired_limit = 1;
        out->wired_limit = (uint64_t)mb << 20;
    }
}

void st_dw_mps_device(st_mps_device *out)
{
    st_dw_mps_wired(out);
    st_dw_mps_recommended(out, ST_DW_MPS_TIMEOUT_MS);
}
