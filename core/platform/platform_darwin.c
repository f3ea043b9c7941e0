/* platform_darwin.c: the macOS backend (libproc + sysctl).
 *
 * Per process: proc_pid_rusage (flavor RUSAGE_INFO_V4, falling back to V2
 * for good once the kernel answers EINVAL) gives ri_phys_footprint (the
 * footprint), ri_resident_size (rss), ri_lifetime_max_phys_footprint (the
 * kernel peak, V4 only), ri_user_time + ri_system_time (CPU, in Mach time
 * units: darwin_sys.c converts them), ri_pageins and the ri_child_* part
 * of reaped children.  Identity: a process is (pid, p_starttime in
 * microseconds).  Every read is checked AFTER it happened with a
 * KERN_PROC_PID sysctl: if that pid still has the recorded start time, the
 * process was alive all through the read, so the numbers are its own; a
 * reused pid is reported as gone (ST_ESRCH) and never read as a member.
 *
 * The tree: one KERN_PROC_ALL snapshot per discovery (the tree module
 * already rate-limits discovery to >= 0.5 s), walked from the root in
 * user space.  docs/macos.md says why this beats kqueue EVFILT_PROC.
 *
 * On Linux this file is compiled only by the unit test, against the shim in
 * tests/darwin/shim (same declarations, real LP64 layouts). */
#include "darwin_internal.h"
#include "stagetop/lanes.h"
#include "stagetop/platform.h"
#include "stagetop/sample.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#include <sys/proc_info.h>
#include <sys/resource.h>
#include <libproc.h>
#include <stddef.h>

/* The LP64 layouts this file relies on (docs/macos.md).  Built on a Mac or
 * by `make check` with zig against Apple's headers (mk/macos-build.mk), they
 * check Apple's headers; built by the unit test, the shim in tests/darwin. */
#define DW_AT(type, field, off) _Static_assert(offsetof(type, field) == (off), #field " at " #off)
#define DW_SIZE(type, n) _Static_assert(sizeof(type) == (n), #type " is " #n " bytes")
DW_SIZE(struct rusage_info_v0, 96);
DW_SIZE(struct rusage_info_v1, 144);
DW_SIZE(struct rusage_info_v2, 160);
DW_SIZE(struct rusage_info_v3, 232);
DW_SIZE(struct rusage_info_v4, 296);
DW_AT(struct rusage_info_v4, ri_resident_size, 64);
DW_AT(struct rusage_info_v4, ri_phys_footprint, 72);
DW_AT(struct rusage_info_v4, ri_lifetime_max_phys_footprint, 240);
DW_AT(struct rusage_info_v4, ri_interval_max_phys_footprint, 280);
DW_AT(struct rusage_info_v0, ri_proc_start_abstime, 80);
DW_AT(struct rusage_info_v4, ri_user_time, 16);
DW_AT(struct rusage_info_v4, ri_system_time, 24);
DW_AT(struct rusage_info_v4, ri_pageins, 48);
DW_AT(struct rusage_info_v4, ri_child_user_time, 96);
DW_AT(struct rusage_info_v4, ri_child_system_time, 104);
DW_AT(struct rusage_info_v4, ri_child_pageins, 128);
DW_SIZE(struct xsw_usage, 32);
DW_AT(struct xsw_usage, xsu_total, 0);
DW_AT(struct xsw_usage, xsu_used, 16);
DW_SIZE(struct extern_proc, 296);
DW_AT(struct extern_proc, p_starttime, 0);
DW_SIZE(((struct extern_proc *)0)->p_starttime, 16);
DW_AT(struct extern_proc, p_pid, 40);
DW_AT(struct extern_proc, p_stat, 36);
DW_AT(struct extern_proc, p_comm, 243);
DW_SIZE(struct eproc, 352);
DW_SIZE(struct kinfo_proc, 648);
DW_AT(struct kinfo_proc, kp_eproc, 296);
DW_AT(struct kinfo_proc, kp_eproc.e_ppid, 560);

#define SNAP_TRIES 4          /* KERN_PROC_ALL attempts when the table grows */

/* One process of a snapshot, reduced to what the walk needs. */
typedef struct dw_node {
    int32_t pid, ppid;
    uint64_t start;
    int visited;
} dw_node;

struct st_backend {
    int flavor;               /* RUSAGE_INFO_V4, or V2 once V4 got EINVAL */
    struct kinfo_proc *snap;  /* the last KERN_PROC_ALL snapshot */
    size_t snap_n, snap_cap;  /* entries held, entries allocated */
    dw_node *nodes;           /* snapshot sorted by (ppid, pid) for the walk */
    size_t nodes_cap;
    int held, snap_fresh, nodes_fresh; /* in a discovery: one snapshot, sorted once */
    st_dw_args args;          /* KERN_PROCARGS2 buffer (darwin_args.c) */
    st_dw_sys sys;            /* system reads and units (darwin_sys.c) */
    st_dw_vm vm;              /* TASK_VM_INFO's lanes (darwin_vm.c) */
};

static uint64_t start_token(const struct kinfo_proc *kp)
{
    int64_t s = kp->kp_proc.p_starttime.tv_sec;
    int64_t us = kp->kp_proc.p_starttime.tv_usec;
    if (s < 0 || us < 0)
        return 0;
    return (uint64_t)s * 1000000u + (uint64_t)us;
}

static int errno_status(int e)
{
    switch (e) {
    case ESRCH: return ST_ESRCH;
    case EPERM: return ST_EPERM;
    case ENOMEM: return ST_ENOMEM;
    default: return ST_EIO;
    }
}

/* One process's kinfo_proc (works for every user's processes and for
 * zombies).  ST_ESRCH when there is no such pid. */
static int kinfo_one(int32_t pid, struct kinfo_proc *kp, st_error *err)
{
    int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_PID, (int)pid};
    size_t len = sizeof *kp;

    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, 0, "no process %d", (int)pid);
    memset(kp, 0, sizeof *kp);
    if (sysctl(mib, 4, kp, &len, NULL, 0) != 0) {
        int e = errno;
        return st_error_set(err, errno_status(e), e, "process %d: sysctl kern.proc.pid: %s",
                            (int)pid, strerror(e));
    }
    /* A pid that does not exist is "success, 0 bytes". */
    if (len < sizeof *kp || kp->kp_proc.p_pid != pid)
        return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
    return ST_OK;
}

/* Is id still the same process?  ST_ESRCH when gone or reused.  *kp gets
 * the fresh kinfo_proc when kp is not NULL. */
static int check_identity(st_proc_id id, struct kinfo_proc *kp, st_error *err)
{
    struct kinfo_proc tmp;
    struct kinfo_proc *k = kp ? kp : &tmp;
    int rc = kinfo_one(id.pid, k, err);
    if (rc != ST_OK)
        return rc;
    if (start_token(k) != id.start)
        return st_error_set(err, ST_ESRCH, ESRCH,
                            "process %d is gone (its pid now belongs to another process)",
                            (int)id.pid);
    return ST_OK;
}

static int darwin_open(st_backend **out, st_error *err)
{
    st_backend *b = calloc(1, sizeof *b);

    if (!b)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for the macOS backend");
    b->flavor = RUSAGE_INFO_V4;
    st_dw_sys_init(&b->sys);
    *out = b;
    return ST_OK;
}

static void darwin_close(st_backend *b)
{
    if (!b)
        return;
    free(b->snap);
    free(b->nodes);
    st_dw_args_free(&b->args);
    st_dw_sys_free(&b->sys);
    free(b);
}

static int darwin_identify_parent(st_backend *b, int32_t pid, st_proc_ref *out, st_error *err)
{
    struct kinfo_proc kp;
    int rc = kinfo_one(pid, &kp, err);
    (void)b;
    if (rc != ST_OK)
        return rc;
    out->id.pid = pid;
    out->id.start = start_token(&kp);
    out->ppid = kp.kp_eproc.e_ppid > 0 ? kp.kp_eproc.e_ppid : 0;
    return ST_OK;
}

static int darwin_identify(st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    return st_identify_by_parent(darwin_identify_parent, b, pid, out, err);
}

/* Fill b->snap with every process of the machine.  The size is probed
 * first (the kernel adds room for 5 more), a buffer with headroom is
 * allocated, and ENOMEM (the table grew in between) is retried.  Failures
 * are ST_EIO, never ST_ESRCH (which would read as "the root is gone"). */
static int take_snapshot(st_backend *b, st_error *err)
{
    int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0};
    const size_t ksz = sizeof(struct kinfo_proc);

    if (b->held && b->snap_fresh)
        return ST_OK; /* this discovery's snapshot */
    b->nodes_fresh = 0;
    for (int tries = 0; tries < SNAP_TRIES; tries++) {
        size_t need = 0, len;
        if (sysctl(mib, 4, NULL, &need, NULL, 0) != 0) {
            int e = errno;
            return st_error_set(err, ST_EIO, e, "sysctl kern.proc.all (size): %s",
                                strerror(e));
        }
        size_t want = need / ksz;
        want += want / 4 * (size_t)(tries + 1) + 16;
        if (want > b->snap_cap) {
            struct kinfo_proc *n = realloc(b->snap, want * ksz);
            if (!n)
                return st_error_set(err, ST_ENOMEM, ENOMEM,
                                    "out of memory for %zu processes", want);
            b->snap = n;
            b->snap_cap = want;
        }
        len = b->snap_cap * ksz;
        if (sysctl(mib, 4, b->snap, &len, NULL, 0) == 0) {
            b->snap_n = len / ksz;
            b->snap_fresh = b->held;
            return ST_OK;
        }
        if (errno != ENOMEM) {
            int e = errno;
            return st_error_set(err, ST_EIO, e, "sysctl kern.proc.all: %s", strerror(e));
        }
    }
    b->snap_n = 0;
    return st_error_set(err, ST_EIO, ENOMEM,
                        "sysctl kern.proc.all: the process table kept growing (%d tries)",
                        SNAP_TRIES);
}

static int node_cmp(const void *a, const void *b)
{
    const dw_node *x = a, *y = b;
    if (x->ppid != y->ppid)
        return x->ppid < y->ppid ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return 0;
}

/* Index of the first node with ppid >= ppid (nodes sorted). */
static size_t first_child(const dw_node *v, size_t n, int32_t ppid)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].ppid < ppid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* p_starttime is wall-clock time (kern_fork.c: microtime_with_abstime()
 * fills p_start and, beside it, ps_start from mach_absolute_time(), which
 * proc_pid_rusage returns as ri_proc_start_abstime), so a clock stepped back
 * between two forks makes a child look older than its parent.  Only then is
 * the monotonic start asked for: 1 when the child really started after the
 * parent, 0 when it did not or either cannot be read (docs/macos.md). */
static int started_after(int32_t child, int32_t parent)
{
    struct rusage_info_v0 c, p;
    return proc_pid_rusage(child, RUSAGE_INFO_V0, (rusage_info_t *)(void *)&c) == 0 &&
           proc_pid_rusage(parent, RUSAGE_INFO_V0, (rusage_info_t *)(void *)&p) == 0 &&
           c.ri_proc_start_abstime >= p.ri_proc_start_abstime;
}

static int darwin_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    int rc = take_snapshot(b, err);
    size_t n = b->snap_n, i;
    dw_node *r = NULL;

    st_proc_vec_clear(out);
    if (rc != ST_OK)
        return rc;
    for (i = 0; b->nodes_fresh && i < n; i++) /* the same snapshot, sorted already */
        b->nodes[i].visited = 0;
    if (b->nodes_fresh)
        goto walk;
    if (n > b->nodes_cap) {
        dw_node *nv = realloc(b->nodes, n * sizeof *nv);
        if (!nv)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu processes", n);
        b->nodes = nv;
        b->nodes_cap = n;
    }
    for (i = 0; i < n; i++) {
        const struct kinfo_proc *kp = &b->snap[i];
        b->nodes[i] = (dw_node){kp->kp_proc.p_pid, kp->kp_eproc.e_ppid, start_token(kp), 0};
    }
    qsort(b->nodes, n, sizeof *b->nodes, node_cmp);
    b->nodes_fresh = b->held;
walk:
    for (i = 0; i < n && !r; i++)
        if (b->nodes[i].pid == root.pid && b->nodes[i].start == root.start)
            r = &b->nodes[i];
    if (!r)
        return st_error_set(err, ST_ESRCH, ESRCH, "process %d is gone", (int)root.pid);
    r->visited = 1;

    st_proc_ref ref = {root, r->ppid};
    if ((rc = st_proc_vec_push(out, &ref, err)) != ST_OK)
        return rc;
    /* Breadth first over out itself: parents always precede children.  A
     * child must have started no earlier than its parent, else its ppid
     * names an older holder of the parent's pid (XNU re-parents children at
     * exit, so only a pid reused while the snapshot was taken could do
     * that); the wall clock's order is confirmed by the monotonic one. */
    for (size_t q = 0; q < out->len; q++) {
        st_proc_ref parent = out->v[q];
        for (i = first_child(b->nodes, n, parent.id.pid); i < n; i++) {
            dw_node *c = &b->nodes[i];
            if (c->ppid != parent.id.pid)
                break;
            if (c->visited || c->pid == parent.id.pid || c->pid <= 0 ||
                (c->start < parent.id.start && !started_after(c->pid, parent.id.pid)))
                continue;
            c->visited = 1;
            ref = (st_proc_ref){{c->pid, c->start}, c->ppid};
            if ((rc = st_proc_vec_push(out, &ref, err)) != ST_OK)
                return rc;
        }
    }
    return ST_OK;
}

/* One snapshot per discovery: the root's walk and each orphan's (tree.c). */
static void darwin_discovery(st_backend *b, int begin)
{
    b->held = begin;
    b->snap_fresh = b->nodes_fresh = 0;
}

static int darwin_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err)
{
    struct rusage_info_v4 ri;
    struct kinfo_proc kp;
    int r, e = 0, rc, flavor = b->flavor;

    if (id.pid <= 0)
        return st_error_set(err, ST_ESRCH, 0, "no process %d", (int)id.pid);
    memset(&ri, 0, sizeof ri);
    r = proc_pid_rusage(id.pid, flavor, (rusage_info_t *)(void *)&ri);
    e = r != 0 ? errno : 0;
    if (r != 0 && e == EINVAL && flavor == RUSAGE_INFO_V4) {
        /* An older kernel: V2 has no lifetime peak.  Remembered only when
         * V2 is accepted, so an EINVAL for another reason keeps V4. */
        memset(&ri, 0, sizeof ri);
        flavor = RUSAGE_INFO_V2;
        r = proc_pid_rusage(id.pid, flavor, (rusage_info_t *)(void *)&ri);
        e = r != 0 ? errno : 0;
        if (r == 0 || e != EINVAL)
            b->flavor = RUSAGE_INFO_V2;
    }
    if (r != 0 && e == ESRCH)
        return st_error_set(err, ST_ESRCH, e, "process %d is gone", (int)id.pid);
    if (r != 0 && e != EPERM)
        return st_error_set(err, ST_EIO, e, "process %d: proc_pid_rusage: %s", (int)id.pid,
                            strerror(e));
    st_dw_vm_reading vm = {ST_DW_VM_NO_INFO, 0, 0, 0};
    if (r == 0)
        st_dw_vm_read(&b->vm, id.pid, &vm);
    /* Identity after the read: if the pid still has id's start time, the
     * process lived through the read and the numbers (or the refusal) are
     * its own, not those of a newcomer with a reused pid. */
    if ((rc = check_identity(id, &kp, err)) != ST_OK)
        return rc;
    if (r != 0)
        return st_error_set(err, ST_EPERM, e,
                            "process %d (%.16s): not allowed to read its memory "
                            "(another user's process: run stagetop as that user or root)",
                            (int)id.pid, kp.kp_proc.p_comm);
    memset(out, 0, sizeof *out);
    out->id = id;
    out->ppid = kp.kp_eproc.e_ppid;
    /* A zombie (p_stat SZOMB, listed by KERN_PROC_ALL until reaped) answers
     * from the rusage saved at exit: ri_phys_footprint zeroed, but the
     * resident size of the moment it exited kept (kern_exit.c proc_exit,
     * kern_resource.c proc_get_rusage).  It holds no memory: no footprint,
     * no rss (the tree reads it as not live); its lifetime peak is real. */
    if (kp.kp_proc.p_stat != SZOMB) {
        out->footprint = ri.ri_phys_footprint;
        out->rss = ri.ri_resident_size;
        out->valid = ST_PM_FOOTPRINT | ST_PM_RSS;
        st_dw_vm_fill(&b->vm, id.pid, (kp.kp_proc.p_flag & P_WEXIT) != 0, &vm, out);
    }
    if (flavor == RUSAGE_INFO_V4) {
        out->peak = ri.ri_lifetime_max_phys_footprint;
        out->valid |= ST_PM_PEAK;
    }
    /* CPU in Mach time units (darwin_sys.c says why); page-ins; the reaped
     * children's part (V1 and later, so in V2 and V4 alike). */
    out->cpu_ns = st_dw_abs_to_ns(&b->sys, ri.ri_user_time + ri.ri_system_time);
    out->child_cpu_ns = st_dw_abs_to_ns(&b->sys, ri.ri_child_user_time + ri.ri_child_system_time);
    out->pageins = ri.ri_pageins;
    out->child_pageins = ri.ri_child_pageins;
    out->valid |= ST_PM_COUNTERS;
    /* XNU keeps a process SRUN whatever its threads do (sleeping is per
     * thread): only the stopped and exited states say something. */
    if (kp.kp_proc.p_stat == SSTOP || kp.kp_proc.p_stat == SZOMB) {
        out->state = kp.kp_proc.p_stat == SSTOP ? 'T' : 'Z';
        out->valid |= ST_PM_STATE;
    }
    return ST_OK;
}

static int darwin_read_system(st_backend *b, st_sys_mem *out, st_error *err)
{
    return st_dw_read_system(&b->sys, out, err);
}

static const char *darwin_lanes_note(st_backend *b)
{
    return st_dw_lanes_note(&b->sys.gpu, &b->vm);
}

static int darwin_command(st_backend *b, st_proc_id id, char *buf, size_t len, st_error *err)
{
    struct kinfo_proc kp;
    int rc, got;

    if (!buf || len == 0)
        return st_error_set(err, ST_EINVAL, 0, "no room for a command line");
    buf[0] = '\0';
    if (id.pid <= 0)
        return st_error_set(err, ST_ESRCH, 0, "no process %d", (int)id.pid);
    /* argv (own processes, or root); else the executable's path; else the
     * short name.  Every read comes before the identity check. */
    got = st_dw_args_command(&b->args, id.pid, buf, len) == 0;
    if (!got) {
        char path[PROC_PIDPATHINFO_MAXSIZE];
        int pl = proc_pidpath(id.pid, path, sizeof path);
        if (pl > 0 && (size_t)pl < sizeof path) {
            path[pl] = '\0';
            snprintf(buf, len, "%s", path);
            got = buf[0] != '\0';
        }
    }
    if ((rc = check_identity(id, &kp, err)) != ST_OK) {
        buf[0] = '\0';
        return rc;
    }
    if (!got)
        snprintf(buf, len, "%.*s", MAXCOMLEN, kp.kp_proc.p_comm);
    return ST_OK;
}

/* The group's live members, from the discovery's snapshot (kinfo_proc's
 * e_pgid is the process's p_pgrpid: bsd/kern/kern_sysctl.c:1077). */
static int darwin_group_members(st_backend *b, int32_t pgid, st_proc_vec *out, st_error *err)
{
    int rc = take_snapshot(b, err);
    st_proc_vec_clear(out);
    for (size_t i = 0; rc == ST_OK && i < b->snap_n; i++) {
        const struct kinfo_proc *kp = &b->snap[i];
        st_proc_ref ref = {{kp->kp_proc.p_pid, start_token(kp)}, kp->kp_eproc.e_ppid};
        if (kp->kp_eproc.e_pgid == pgid && ref.id.pid > 0 && kp->kp_proc.p_stat != SZOMB)
            rc = st_proc_vec_push(out, &ref, err);
    }
    return rc;
}

static int darwin_list_all(st_backend *b, st_proc_vec *out, st_error *err)
{
    int rc = take_snapshot(b, err);

    st_proc_vec_clear(out);
    if (rc != ST_OK)
        return rc;
    for (size_t i = 0; i < b->snap_n; i++) {
        const struct kinfo_proc *kp = &b->snap[i];
        st_proc_ref ref = {{kp->kp_proc.p_pid, start_token(kp)}, kp->kp_eproc.e_ppid};
        if (ref.id.pid <= 0) /* kernel_task */
            continue;
        if ((rc = st_proc_vec_push(out, &ref, err)) != ST_OK)
            return rc;
    }
    return ST_OK;
}

/* macOS has no pidfd: the identity is re-checked right before kill(), which
 * leaves a window of a few microseconds (docs/macos.md). */
static int darwin_send_signal(st_backend *b, st_proc_id id, int sig, st_error *err)
{
    int rc;

    (void)b;
    if (id.pid <= 0)
        return st_error_set(err, ST_EINVAL, 0, "refusing to signal pid %d", (int)id.pid);
    if ((rc = check_identity(id, NULL, err)) != ST_OK)
        return rc;
    if (kill(id.pid, sig) != 0) {
        int e = errno;
        if (e == EPERM)
            return st_error_set(err, ST_EPERM, e,
                                "not allowed to signal process %d (another user's process)",
                                (int)id.pid);
        return st_error_set(err, errno_status(e), e, "kill(%d, %d): %s", (int)id.pid, sig,
                            strerror(e));
    }
    return ST_OK;
}

/* The lifetime peak of an exited, unreaped child (core/run/peak.c reads it
 * between waitid(WNOWAIT) and wait4).  XNU's proc_pid_rusage answers for a
 * zombie from the rusage it saved at exit (proc_find_zombref), so
 * ri_lifetime_max_phys_footprint outlives the process until it is reaped
 * (from XNU's source; unconfirmed on a Mac). */
static int darwin_zombie_peak(st_backend *b, int32_t pid, uint64_t *out, st_error *err)
{
    struct rusage_info_v4 ri;
    if (pid <= 0)
        return st_error_set(err, ST_ESRCH, 0, "no process %d", (int)pid);
    if (b->flavor != RUSAGE_INFO_V4)
        return st_error_set(err, ST_ENOTSUP, 0, "no lifetime peak: the kernel refused RUSAGE_INFO_V4");
    memset(&ri, 0, sizeof ri);
    if (proc_pid_rusage(pid, RUSAGE_INFO_V4, (rusage_info_t *)(void *)&ri) != 0) {
        int e = errno;
        return st_error_set(err, e == EINVAL ? ST_ENOTSUP : errno_status(e), e,
                            "process %d: proc_pid_rusage: %s", (int)pid, strerror(e));
    }
    *out = ri.ri_lifetime_max_phys_footprint;
    return ST_OK;
}

static int darwin_proc_name(st_backend *b, int32_t pid, char *buf, size_t len, st_error *err)
{
    struct kinfo_proc kp;
    int rc = kinfo_one(pid, &kp, err);
    (void)b;
    if (len && rc == ST_OK)
        snprintf(buf, len, "%.*s", MAXCOMLEN, kp.kp_proc.p_comm);
    else if (len)
        buf[0] = '\0';
    return rc;
}

/* One variable of the environment id was started with, from its
 * KERN_PROCARGS2 area (darwin_args.c), of the process id still is: the
 * identity is checked after the read.  A zombie's area is refused as
 * another user's is (EINVAL): it has exited. */
static int darwin_environ_var(st_backend *b, st_proc_id id, const char *name, char *buf,
                              size_t len, st_error *err)
{
    struct kinfo_proc kp;
    int rc, irc;

    if (len)
        buf[0] = '\0';
    if (id.pid <= 0)
        return st_error_set(err, ST_ESRCH, 0, "no process %d", (int)id.pid);
    rc = st_dw_args_environ(&b->args, id.pid, name, buf, len, err);
    if ((irc = check_identity(id, &kp, err)) != ST_OK)
        rc = irc;
    else if (rc == ST_EPERM && kp.kp_proc.p_stat == SZOMB)
        rc = st_error_set(err, ST_ESRCH, ESRCH, "process %d has exited", (int)id.pid);
    if (rc != ST_OK && len)
        buf[0] = '\0';
    return rc;
}

const st_platform st_platform_native = {
    .name = "darwin",
    .footprint_metric = ST_FOOTPRINT_METRIC_DARWIN, /* lanes.h: counts a shared page per process */
    .peak_metric = "lifetime_max_phys_footprint",
    .open = darwin_open,
    .close = darwin_close,
    .identify = darwin_identify,
    .descendants = darwin_descendants,
    .discovery = darwin_discovery,
    .group_members = darwin_group_members,
    .read_proc = darwin_read_proc,
    .release = NULL,
    .read_system = darwin_read_system,
    .lanes_note = darwin_lanes_note,
    .command = darwin_command,
    .list_all = darwin_list_all,
    .send_signal = darwin_send_signal,
    .zombie_peak = darwin_zombie_peak,
    .identify_parent = darwin_identify_parent,
    .proc_name = darwin_proc_name,
    .thread_group = NULL, /* a thread id is not a pid on macOS */
    .environ_var = darwin_environ_var,
    .mps_device = st_dw_mps_device,
    .become_subreaper = NULL, /* none: orphans go to launchd (pid 1) */
    .no_gpu_lane = "no GPU lane: Metal memory is part of the footprint on macOS",
    .pressure_is_level = 1,
    .rusage_flavors = 1,
    .maxrss_in_bytes = 1,
    .doctor_refs = ST_DOCTOR_REFS_MACOS,
};
