/* poll_devtty.c: an LD_PRELOAD library that makes poll(2) answer as XNU's
 * does for /dev/tty, so that Linux shows what a Mac does with a program
 * that polls its controlling terminal (tests/e2e/tui_nopoll.sh).
 *
 * XNU builds poll() on kqueue (xnu-11417.101.15 bsd/kern/sys_generic.c,
 * poll_nocancel, 1742-1790): each descriptor becomes a kevent, and one whose
 * registration fails (EV_ERROR) gets `revents = POLLNVAL` (1788-1790).
 * /dev/tty's driver (cttysw, bsd/dev/arm64/conf.c:180-182) is a D_TTY
 * device without CDEVSW_SELECT_KQUEUE, so spec_kqfilter sends it to the
 * generic filter (bsd/miscfs/specfs/spec_vnops.c:913, 922-929), whose
 * attach refuses it with EINVAL (3106-3110).  When some registrations
 * failed, poll scans the others without waiting (sys_generic.c:1804-1806,
 * 1821-1822: KEVENT_FLAG_IMMEDIATE) and returns at once.
 *
 * So: every entry naming /dev/tty (the same character device as
 * stat("/dev/tty")) gets POLLNVAL; when there is one, the others are
 * polled with a zero timeout.  ppoll is left alone (macOS has none). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <poll.h>
#include <sys/stat.h>

typedef int (*poll_fn)(struct pollfd *, nfds_t, int);

static int is_devtty(int fd)
{
    struct stat a, b;
    return fd >= 0 && fstat(fd, &a) == 0 && S_ISCHR(a.st_mode) && stat("/dev/tty", &b) == 0 &&
           a.st_rdev == b.st_rdev;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    static poll_fn real;
    if (!real)
        real = (poll_fn)dlsym(RTLD_NEXT, "poll");
    int bad = 0, saved[64];
    for (nfds_t i = 0; i < n && i < 64; i++) {
        saved[i] = fds[i].fd;
        if (is_devtty(fds[i].fd)) {
            fds[i].fd = -1; /* the real poll skips it */
            bad++;
        }
    }
    if (!bad || n > 64)
        return real(fds, n, timeout);
    int rc = bad == (int)n ? 0 : real(fds, n, 0);
    for (nfds_t i = 0; i < n; i++) {
        if (fds[i].fd < 0 && saved[i] >= 0) {
            fds[i].revents = POLLNVAL;
        } else if (bad == (int)n) {
            fds[i].revents = 0;
        }
        fds[i].fd = saved[i];
    }
    return rc < 0 ? rc : rc + bad;
}
