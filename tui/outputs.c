/* outputs.c: the --metrics file and --notify's bytes, after each sample
 * (outputs.h). */
#include "outputs.h"
#include "stagetop/run_view.h"
#include "stagetop/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void note_error(tui_outputs *o, const char *what, const char *msg)
{
    if (o->error[0])
        return;
    snprintf(o->error, sizeof o->error, "%s: %.230s", what, msg);
    o->error_new = 1;
}

/* Headless: the controlling terminal, else stderr when it is a terminal;
 * -1 when neither.  *own: the fd was opened here. */
static int notify_fd(int *own)
{
    int fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
    *own = fd >= 0;
    if (fd < 0 && isatty(STDERR_FILENO))
        fd = STDERR_FILENO;
    return fd;
}

int tui_outputs_open(tui_outputs *o, const char *metrics_path, const char *const *labels,
                     int n_labels, int notify, int screen, st_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (metrics_path) {
        int rc = st_metrics_open(&o->mx, metrics_path, err);
        if (rc != ST_OK)
            return rc;
        for (int i = 0; i < n_labels; i++)
            if ((rc = st_metrics_add_label(&o->mx, labels[i], err)) != ST_OK)
                return rc;
        o->metrics_on = 1;
    }
    if (notify) {
        const char *tm = getenv("TMUX");
        o->tmux = tm && *tm;
        o->screen = screen;
        if (!screen) { /* is there a terminal?  (opened for good in bind) */
            int own, fd = notify_fd(&own);
            if (fd < 0)
                return st_error_set(err, ST_EINVAL, 0,
                                    "--notify: no terminal to notify on (no /dev/tty, stderr is not a terminal)");
            if (own)
                close(fd);
        }
        st_notifier_init(&o->nt);
        o->notify_on = 1;
    }
    return ST_OK;
}

void tui_outputs_bind(tui_outputs *o, const st_monitor *m)
{
    if (o->metrics_on) {
        st_run_view rv;
        st_monitor_view(m, 0, &rv);
        st_metrics_set_run(&o->mx, rv.meta->pid, rv.meta->command, rv.meta->platform);
    }
    if (o->notify_on) {
        o->fd = o->screen ? STDOUT_FILENO : notify_fd(&o->own_fd);
        if (o->fd < 0) {
            o->notify_on = 0;
            note_error(o, "notify", "the terminal went away");
        }
    }
}

static int write_all(int fd, const char *p, size_t left)
{
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? errno : EIO;
        p += k;
        left -= (size_t)k;
    }
    return 0;
}

int tui_outputs_after_sample(tui_outputs *o, const st_monitor *m, double now)
{
    st_error e;
    st_run_view rv;
    if (o->metrics_on || o->notify_on)
        st_monitor_view(m, now, &rv);
    if (o->metrics_on) {
        st_metrics_values v;
        st_metrics_values_of(&rv, st_wall_now(), &v);
        st_error_clear(&e);
        if (st_metrics_write(&o->mx, &v, &e) != ST_OK)
            note_error(o, "metrics", e.msg);
    }
    if (o->notify_on) {
        st_notify_msg msg[ST_NOTIFY_NKINDS];
        char bytes[ST_NOTIFY_MAX];
        sigset_t ttou, old;
        int n = st_notify_check(&o->nt, &rv, now, msg, ST_NOTIFY_NKINDS);
        /* A headless stagetop in the background of a terminal with `stty
         * tostop` would be stopped by SIGTTOU on writing, and its guard
         * with it: with SIGTTOU blocked the kernel lets the write through. */
        sigemptyset(&ttou);
        sigaddset(&ttou, SIGTTOU);
        if (n > 0)
            sigprocmask(SIG_BLOCK, &ttou, &old);
        for (int i = 0; i < n; i++) {
            size_t len = st_notify_format(&msg[i], o->tmux, bytes, sizeof bytes);
            int rc = len ? write_all(o->fd, bytes, len) : 0;
            if (rc)
                note_error(o, "notify", strerror(rc));
            else
                o->notified++;
        }
        if (n > 0)
            sigprocmask(SIG_SETMASK, &old, NULL);
    }
    int said = o->error_new;
    o->error_new = 0;
    return said;
}

void tui_outputs_close(tui_outputs *o)
{
    if (o->metrics_on)
        st_metrics_close(&o->mx);
    if (o->own_fd && o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    o->metrics_on = o->notify_on = 0;
}
