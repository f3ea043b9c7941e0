/* outputs.h: what a watched run sends out besides the screen and the
 * record, after every sample: the --metrics file and --notify's terminal
 * notifications.  Both the live screen and headless mode call
 * tui_outputs_after_sample right after st_monitor_step. */
#ifndef STAGETOP_TUI_OUTPUTS_H
#define STAGETOP_TUI_OUTPUTS_H

#include "stagetop/metrics.h"
#include "stagetop/monitor.h"
#include "stagetop/notify.h"

typedef struct tui_outputs {
    int metrics_on;
    st_metrics mx;
    int notify_on;
    int tmux;               /* $TMUX set: the DCS passthrough form */
    int screen;             /* notifications go to the screen's terminal (stdout) */
    int fd;                 /* where notifications go; -1 none */
    int own_fd;             /* fd is /dev/tty, opened here */
    st_notifier nt;
    uint64_t notified;      /* notifications written */
    char error[256];        /* the first failure (metrics or notify), "" if none */
    int error_new;          /* 1 until the front end has shown error */
} tui_outputs;

/* Check the outputs before a job starts; holds nothing yet (an early
 * return needs no tui_outputs_close).  metrics_path NULL: no metrics file
 * (else it must outlive o); notify 0: no notifications.  With a screen
 * (screen = 1) notifications go to stdout, the screen's terminal, between
 * frames (curses has flushed everything by then; OSC sequences and the bell
 * move no cursor).  Headless, they go to /dev/tty (the controlling
 * terminal) or, when there is none, to stderr if it is a terminal;
 * otherwise ST_EINVAL ("no terminal").  ST_EIO when no file can be created
 * beside the metrics file.  labels: n_labels "name=value" strings
 * (--metrics-label) put on the job's series (ST_EINVAL when one is not a
 * valid label, st_metrics_add_label). */
int tui_outputs_open(tui_outputs *o, const char *metrics_path, const char *const *labels,
                     int n_labels, int notify, int screen, st_error *err);
/* Once the run is open: its pid, command and platform go in the metrics'
 * stagetop_run_info, and the terminal for notifications is opened. */
void tui_outputs_bind(tui_outputs *o, const st_monitor *m);

/* After a sample: rewrite the metrics file, write due notifications.
 * Failures do not stop the run: the first is kept in o->error.  Returns 1
 * once, right after that first failure (for the caller to show it). */
int tui_outputs_after_sample(tui_outputs *o, const st_monitor *m, double now);

void tui_outputs_close(tui_outputs *o);

#endif
