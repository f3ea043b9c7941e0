/* fakeplat.c: the tests' scripted backend (fakeplat.h says what it does). */
#include "fakeplat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fakeplat_setup_fn *setup_fn; /* the script of the next open() */
static st_backend *last;            /* the backend the last open() made */

void fakeplat_on_open(fakeplat_setup_fn *setup) { setup_fn = setup; }

st_proc_mem *fakeplat_add(st_backend *b, int32_t pid, uint64_t start, int32_t ppid)
{
    if (b->n_procs >= FAKEPLAT_MAX_PROCS)
        return NULL;
    int i = b->n_procs++;
    memset(&b->procs[i], 0, sizeof b->procs[i]);
    b->procs[i].id.pid = pid;
    b->procs[i].id.start = start;
    b->procs[i].ppid = ppid;
    b->alive[i] = 1;
    return &b->procs[i];
}

static int f_open(st_backend **out, st_error *err)
{
    free(last);
    last = calloc(1, sizeof *last);
    if (!last)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    last->command_prefix = "fake-";
    if (setup_fn) {
        int rc = setup_fn(last, err);
        if (rc != ST_OK)
            return rc;
    }
    *out = last;
    return ST_OK;
}

/* Kept for the test until the next open. */
static void f_close(st_backend *b) { (void)b; }

/* The live row of pid, -1 when there is none. */
static int find(const st_backend *b, int32_t pid)
{
    for (int i = 0; i < b->n_procs; i++)
        if (b->alive[i] && b->procs[i].id.pid == pid)
            return i;
    return -1;
}

/* The live row of that process (pid and start), -1 when it is gone. */
static int find_id(const st_backend *b, st_proc_id id)
{
    int i = find(b, id.pid);
    return i >= 0 && b->procs[i].id.start == id.start ? i : -1;
}

static int f_identify(st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    int i = find(b, pid);
    if (i < 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process with pid %d", (int)pid);
    *out = b->procs[i].id;
    return ST_OK;
}

static int push_row(const st_backend *b, int i, st_proc_vec *out, st_error *err)
{
    st_proc_ref ref = {b->procs[i].id, b->procs[i].ppid};
    return st_proc_vec_push(out, &ref, err);
}

/* Breadth first from the root: parents before children. */
static int f_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    int in[FAKEPLAT_MAX_PROCS] = {0};
    int r = find_id(b, root);
    st_proc_vec_clear(out);
    if (r < 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "gone");
    in[r] = 1;
    int rc = push_row(b, r, out, err);
    for (size_t k = 0; rc == ST_OK && k < out->len; k++)
        for (int i = 0; rc == ST_OK && i < b->n_procs; i++)
            if (b->alive[i] && !in[i] && b->procs[i].ppid == out->v[k].id.pid) {
                in[i] = 1;
                rc = push_row(b, i, out, err);
            }
    return rc;
}

static int f_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err)
{
    int i = find_id(b, id);
    if (i < 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "gone");
    *out = b->procs[i];
    return ST_OK;
}

static void f_release(st_backend *b, st_proc_id id)
{
    (void)id;
    b->releases++;
}

static int f_read_system(st_backend *b, st_sys_mem *out, st_error *err)
{
    (void)err;
    *out = b->sys;
    return ST_OK;
}

static int f_command(st_backend *b, st_proc_id id, char *buf, size_t len, st_error *err)
{
    (void)err;
    snprintf(buf, len, "%s%d", b->command_prefix, (int)id.pid);
    return ST_OK;
}

static int f_list_all(st_backend *b, st_proc_vec *out, st_error *err)
{
    st_proc_vec_clear(out);
    for (int i = 0; i < b->n_procs; i++)
        if (b->alive[i]) {
            int rc = push_row(b, i, out, err);
            if (rc != ST_OK)
                return rc;
        }
    return ST_OK;
}

static int f_send_signal(st_backend *b, st_proc_id id, int sig, st_error *err)
{
    if (b->refuse_signals) {
        b->n_refused++;
        return st_error_set(err, ST_EPERM, EPERM, "signal %d to process %d: Operation not permitted",
                            sig, (int)id.pid);
    }
    int i = find_id(b, id);
    if (i < 0)
        return st_error_set(err, ST_ESRCH, ESRCH, "gone");
    if (b->n_signals < FAKEPLAT_MAX_SIGNALS) {
        b->signals[b->n_signals] = sig;
        b->signalled_pid[b->n_signals++] = id.pid;
    }
    if (sig == SIGKILL || sig == SIGTERM)
        b->alive[i] = 0;
    return ST_OK;
}

const st_platform fakeplat = {
    .name = "fake", .footprint_metric = "fake_footprint", .peak_metric = "fake_peak",
    .open = f_open, .close = f_close, .identify = f_identify, .descendants = f_descendants,
    .read_proc = f_read_proc, .release = f_release, .read_system = f_read_system,
    .command = f_command, .list_all = f_list_all, .send_signal = f_send_signal,
    .become_subreaper = NULL, /* a fake tree has no orphans to adopt */
};
