/* fakeplat.h: one scripted backend for the tests, plugged into the same
 * st_platform table as the real ones (include/stagetop/platform.h).
 *
 * The script is a table of processes and the system's numbers, which the
 * test fills when the backend is opened (fakeplat_on_open) and may change
 * between steps.  What the fake implements of the platform's contract:
 *  - a process is (pid, start): identify, read_proc and send_signal see only
 *    a live row whose start matches (ST_ESRCH otherwise);
 *  - descendants: the root (root.start must match) and every live row below
 *    it, parents before children; list_all: every live row;
 *  - command: command_prefix and the pid ("fake-1000" unless the test sets
 *    another prefix);
 *  - send_signal: recorded (signals, signalled_pid); SIGTERM and SIGKILL end
 *    the process; with refuse_signals set every signal fails with ST_EPERM,
 *    as another user's process does, and is counted in n_refused;
 *  - release: counted.
 * The backend open() made stays readable after close (a test checks what
 * close did) until the next open frees it. */
#ifndef STAGETOP_TESTS_FAKEPLAT_H
#define STAGETOP_TESTS_FAKEPLAT_H

#include <stdint.h>
#include "stagetop/platform.h"

#define FAKEPLAT_MAX_PROCS 16
#define FAKEPLAT_MAX_SIGNALS 64

struct st_backend {
    /* the script */
    st_proc_mem procs[FAKEPLAT_MAX_PROCS]; /* id, ppid, memory and valid bits */
    int alive[FAKEPLAT_MAX_PROCS];
    int n_procs;                           /* rows in use */
    st_sys_mem sys;                        /* read_system's answer */
    const char *command_prefix;            /* command: this and the pid */
    int refuse_signals;                    /* every signal: ST_EPERM */
    void *user;                            /* the test's own state */
    /* what happened */
    int signals[FAKEPLAT_MAX_SIGNALS];     /* delivered, in order */
    int32_t signalled_pid[FAKEPLAT_MAX_SIGNALS];
    int n_signals;
    int n_refused;                         /* refused (refuse_signals) */
    uint64_t releases;                     /* release() calls */
};

/* name "fake", footprint_metric "fake_footprint", peak_metric "fake_peak". */
extern const st_platform fakeplat;

/* setup(b) fills the script of every backend open() makes from now on (NULL:
 * an empty table).  It may fail with a status and err. */
typedef int fakeplat_setup_fn(st_backend *b, st_error *err);
void fakeplat_on_open(fakeplat_setup_fn *setup);

/* Adds a live row (pid, start, ppid) with no memory; returns it. */
st_proc_mem *fakeplat_add(st_backend *b, int32_t pid, uint64_t start, int32_t ppid);

#endif
