/* cli_signals.c: the signal handler, its self-pipe (the wake fd the
 * screen and headless loops poll) and napping until a deadline or a signal. */
#include "cli.h"
#include "tui.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* The one global of the front end: a signal handler can reach nothing else. */
volatile sig_atomic_t cli_signal;
static int wake_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    int saved = errno;
    cli_signal = sig;
    if (wake_pipe[1] >= 0) {
        char c = 1;
        ssize_t n = write(wake_pipe[1], &c, 1);
        (void)n;
    }
    errno = saved;
}

int cli_signals_install(void)
{
    if (wake_pipe[0] < 0) {
        if (pipe(wake_pipe) != 0)
            return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Every signal whose default ends the process and that can be caught
     * ends stagetop the same way: job resumed (or, launched, stopped),
     * terminal restored, exit 128+N.  The crash signals are tui/crash.c's. */
    static const int ending[] = {
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
        SIGXCPU, SIGXFSZ,
#ifdef SIGIO
        SIGIO,
#endif
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++)
        sigaction(ending[i], &sa, NULL);
#ifdef SIGRTMIN
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        sigaction(sig, &sa, NULL);
#endif
    tui_crash_install();
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    return 0;
}

int cli_wake_fd(void) { return wake_pipe[0]; }

void cli_wake_drain(void)
{
    char buf[64];
    if (wake_pipe[0] >= 0)
        while (read(wake_pipe[0], buf, sizeof buf) > 0) {
        }
}

/* Sleep until `until` (monotonic) or a signal. */
void cli_nap_until(double until)
{
    double left = until - st_now();
    if (left <= 0)
        return;
    struct pollfd p = {.fd = cli_wake_fd(), .events = POLLIN};
    int ms = (int)ceil(left * 1000.0);
    poll(&p, p.fd >= 0 ? 1 : 0, ms);
}
