/* tui.h: the screen's boundary with main.c. */
#ifndef STAGETOP_TUI_H
#define STAGETOP_TUI_H

#include <signal.h>
#include <stdint.h>
#include "stagetop/monitor.h"
#include "stagetop/run_view.h"

typedef struct tui_opts {
    int ascii;            /* --ascii or non-UTF-8 locale */
    int color;            /* 0 when NO_COLOR is set */
    unsigned lanes;       /* --lanes: the lanes' valid bits; 0: the default set */
    int sort;             /* --sort: the list's column (enum tui_col, proc_table.h) + 1;
                             0: the default (footprint) */
    int tree;             /* --tree: the list starts as the tree */
    const char *export_dir;
    const char *job_log;  /* the launched job's log (key o), or NULL */
    int wake_fd;          /* readable when stagetop got a signal (self-pipe); -1 none */
    volatile sig_atomic_t *got_signal; /* non-zero: the signal number */
    double redraw_s;      /* minimum seconds between frames (default 0.1 .. interval) */
    struct tui_outputs *outs; /* --metrics / --notify after each sample; NULL none */
} tui_opts;

/* Parse --lanes LIST (trace keys, comma-separated; "swap" for swap_used)
 * into lane bits for tui_opts.lanes (tui/view_lanes.c).  0, or -1 with the
 * unknown name in bad. */
int tui_lanes_parse(const char *list, unsigned *mask, char *bad, size_t badlen);

/* Run the live screen until the user quits or a signal arrives.  Drives
 * st_monitor_step at st_monitor_deadline() (sampling never waits for
 * drawing), handles keys, restores the terminal before returning.  Returns
 * ST_OK; *keep_paused is set when the user chose to leave the job paused. */
int tui_live(st_monitor *m, const tui_opts *o, int *keep_paused, st_error *err);

/* The picker: the largest process trees; ST_OK with *pid, or ST_EAGAIN when
 * the user quit. */
int tui_pick(const st_platform *plat, const tui_opts *o, int32_t *pid, st_error *err);

/* `stagetop replay FILE|-`: a saved trace (stagetop JSON or JSONL, or a
 * stageload trace) in the live screen's layout, with the window movable
 * and zoomable and the trace's summary; "-" follows a JSONL stream on
 * stdin as it grows, the keys then coming from /dev/tty.  A file is read
 * whole before the screen starts, so a bad one returns its error (naming
 * the line) with the terminal untouched.  ST_OK when the user quit or a
 * signal came (o->got_signal says which). */
int tui_replay(const char *path, const tui_opts *o, st_error *err);

/* Crashes (tui/crash.c): install the handler of SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT, SIGSYS and SIGTRAP; tell it the job (after each sample:
 * the members of a job stagetop paused, a launched job's group) and the
 * terminal (saved before the screen starts, on while it is up). */
void tui_crash_install(void);
void tui_crash_job(const st_run_view *rv);
void tui_crash_term_save(void);
void tui_crash_term_on(int on);

#endif
