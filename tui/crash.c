/* crash.c: what a crash of stagetop leaves behind.
 *
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS and SIGTRAP cannot end
 * stagetop through its main loop (the state may be broken), so their
 * handler does only async-signal-safe work with what it was told before:
 * SIGTERM + SIGCONT to the process group of a job stagetop launched (while
 * its root is unreaped, so the group number is the job's), SIGCONT to the
 * members of a job stagetop paused, the terminal out of the alternate
 * screen with the cursor back and the modes saved before the screen started
 * (tcsetattr), one line on stderr, then the signal again with its default
 * action (core dump).  The member list is the one of the latest sample: a
 * member that exited and whose pid was reused since could get a SIGCONT
 * (harmless unless it was stopped).  SIGKILL cannot be caught: it leaves a
 * paused job stopped and the terminal in the alternate screen.
 *
 * The state below is global because a signal handler can reach nothing
 * else; only the functions of this file touch it. */
#include "tui.h"
#include "viewdraw.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define CRASH_MAX_PIDS 4096

static struct {
    volatile sig_atomic_t npids;      /* 0 while pids[] is being written */
    int32_t pids[CRASH_MAX_PIDS];     /* a job stagetop paused: its members */
    volatile sig_atomic_t pgid;       /* a launched job's group, 0 none */
    volatile sig_atomic_t has_term;   /* the screen is up: restore it */
    volatile sig_atomic_t has_tio;    /* tio holds the modes to restore */
    struct termios tio;               /* the terminal before the screen */
    char leave[128];                  /* rmcup, cnorm, sgr0 */
    size_t leave_len;
} crash;

static void put(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void on_crash(int sig)
{
    if (crash.pgid > 1) {
        kill(-(pid_t)crash.pgid, SIGTERM);
        kill(-(pid_t)crash.pgid, SIGCONT);
    }
    for (sig_atomic_t i = crash.npids; i-- > 0;)
        kill((pid_t)crash.pids[i], SIGCONT);
    if (crash.has_term) {
        put(STDOUT_FILENO, crash.leave, crash.leave_len);
        if (crash.has_tio)
            tcsetattr(STDIN_FILENO, TCSANOW, &crash.tio);
    }
    char msg[96] = "\r\nstagetop: crashed (signal ", num[12];
    int n = 0, v = sig;
    do {
        num[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < 11);
    size_t len = strlen(msg);
    while (n > 0)
        msg[len++] = num[--n];
    const char *tail = "); the job was resumed\n";
    memcpy(msg + len, tail, strlen(tail));
    len += strlen(tail);
    put(STDERR_FILENO, msg, len);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig); /* SA_NODEFER: delivered now, with the default action */
}

void tui_crash_install(void)
{
    static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_NODEFER | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i], &sa, NULL);
}

void tui_crash_job(const st_run_view *rv)
{
    crash.pgid = rv->job_launched && rv->exit_code < 0 && rv->job_state != ST_JOB_EXITED ? rv->job_pid : 0;
    if (!(rv->paused_by_us && rv->job_state == ST_JOB_PAUSED)) {
        crash.npids = 0;
        return;
    }
    crash.npids = 0;
    size_t n = rv->n_members < CRASH_MAX_PIDS ? rv->n_members : CRASH_MAX_PIDS;
    size_t k = 0;
    int32_t self = (int32_t)getpid();
    for (size_t i = 0; i < n; i++) /* pause never stopped pid 1 or stagetop: leave them out */
        if (rv->members[i].id.pid > 1 && rv->members[i].id.pid != self)
            crash.pids[k++] = rv->members[i].id.pid;
    crash.npids = (sig_atomic_t)k;
}

void tui_crash_term_save(void)
{
    crash.has_term = 0;
    crash.has_tio = tcgetattr(STDIN_FILENO, &crash.tio) == 0;
}

static void leave_add(const char *cap)
{
    char *s = tigetstr((char *)cap);
    if (!s || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if (crash.leave_len + n < sizeof crash.leave) {
        memcpy(crash.leave + crash.leave_len, s, n);
        crash.leave_len += n;
    }
}

void tui_crash_term_on(int on)
{
    if (!on) {
        crash.has_term = 0;
        return;
    }
    crash.leave_len = 0;
    leave_add("sgr0");
    leave_add("cnorm");
    leave_add("rmcup");
    crash.has_term = 1;
}
