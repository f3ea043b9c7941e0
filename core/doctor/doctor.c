/* doctor.c: `stagetop doctor`'s checks and facts (include/stagetop/doctor.h,
 * docs/doctor.md).  Each lane is read through the backend (the platform
 * table the monitor samples with), then through its reference
 * (doctor_ref.c), then through the backend again: the reference agrees
 * when it lies within the tolerance of the two backend readings. */
#include "stagetop/doctor.h"
#include "doctor_internal.h"
#include "stagetop/clock.h"
#include "stagetop/gpu.h"
#include "stagetop/lanes.h"
#include "stagetop/sample.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024ull * 1024ull)
#define CHILD_READY_S 120.0 /* filling 256 MiB on a loaded machine */

typedef struct doc_ctx {
    const st_platform *plat;
    st_backend *b;
    st_proc_id id;
    st_gpu *gpu;
} doc_ctx;

/* What doctor checks: the lanes whose row names a reference check
 * (stagetop/lanes.h: doctor, doctor_rank), in rank order, and doctor's own
 * check of the kernel's peak (not a lane: the process's high-water mark)
 * after the rows of rank <= PEAK_AFTER_RANK. */
#define PEAK_AFTER_RANK 2
#define PEAK_NAME "kernel peak"

/* One backend reading for check l (NULL: the kernel peak): 1 with *v, 0
 * when the system has none, or a negative status when the process cannot
 * be read any more. */
static int read_lane(doc_ctx *x, const st_lane *l, uint64_t *v, st_error *err)
{
    st_proc_mem pm;
    st_sys_mem sm;
    int rc;
    if (!l || l->source == ST_LS_PROC || l->rule == ST_LR_RATE) {
        /* the process's own field, or the counter a rate is made of */
        if ((rc = x->plat->read_proc(x->b, x->id, &pm, err)) != ST_OK)
            return rc;
        unsigned bit = !l ? ST_PM_PEAK : l->source == ST_LS_PROC ? l->pm_bit : ST_PM_COUNTERS;
        if (!(pm.valid & bit))
            return 0;
        if (!l) {
            *v = pm.peak;
        } else {
            const unsigned char *p = (const unsigned char *)&pm;
            p += l->source == ST_LS_PROC ? l->pm_offset : l->counter_offset;
            *v = *(const uint64_t *)(const void *)p;
            if (l->source != ST_LS_PROC && l->counter_div > 1)
                *v /= l->counter_div;
        }
        return 1;
    }
    if (l->source == ST_LS_GROUP) { /* the tree's GPU memory: the process's own */
        uint64_t total = 0;
        if (!x->gpu || st_gpu_read(x->gpu, &x->id.pid, 1, &total, NULL, NULL) != ST_OK)
            return 0;
        *v = total;
        return 1;
    }
    if (l->sys_bit && x->plat->read_system(x->b, &sm, NULL) == ST_OK && (sm.valid & l->sys_bit)) {
        *v = st_lane_sys_raw(l, &sm);
        return 1;
    }
    return 0;
}

/* How doctor writes check l's values (NULL: the kernel peak). */
static int unit_of(const doc_ctx *x, const st_lane *l)
{
    if (!l)
        return ST_DOC_BYTES;
    switch (l->unit) {
    case ST_LU_BYTES: return ST_DOC_BYTES;
    case ST_LU_CPU: return ST_DOC_MS;
    case ST_LU_PER_S: return ST_DOC_COUNT;
    case ST_LU_PRESSURE: return x->plat->pressure_is_level ? ST_DOC_STATE : ST_DOC_PERCENT_C;
    default: return ST_DOC_PERCENT_C;
    }
}

/* Check l (NULL: the kernel peak): backend, reference, backend again. */
static int check_lane(doc_ctx *x, const st_lane *l, st_doctor_check *c, st_error *err)
{
    int rc;
    memset(c, 0, sizeof *c);
    snprintf(c->lane, sizeof c->lane, "%s", l ? l->doctor : PEAK_NAME);
    c->unit = unit_of(x, l);
    c->rule = ST_DOC_WITHIN;
    c->ok = ST_DOC_NOT_CHECKED;
    rc = read_lane(x, l, &c->value, err);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        int own = !l || l->source == ST_LS_PROC || l->rule == ST_LR_RATE; /* the process's */
        if (l && l->platforms == ST_LPL_DARWIN && x->plat->doctor_refs != ST_DOCTOR_REFS_MACOS) {
            mac_only(c, l->key, x->plat);
            return ST_OK;
        }
        snprintf(c->note, sizeof c->note, "%s", own ?
                 "the backend read none for this process (a zombie or a kernel thread has no memory; "
                 "a kernel peak needs RUSAGE_INFO_V4 on macOS)" : "the backend has none on this system");
        return ST_OK;
    }
    c->has_value = 1;
    st_doctor_reference(x->plat, x->id.pid, c);
    st_sys_mem sw;
    if (l && l->sys_bit == ST_SYS_SWAP && x->plat->read_system(x->b, &sw, NULL) == ST_OK &&
        (sw.valid & ST_SYS_SWAPTOTAL) && sw.swap_total == 0 && !c->note[0])
        snprintf(c->note, sizeof c->note, "no swap is configured here (swap total 0): used is 0, "
                 "and a --swap-budget can never trigger");
    rc = read_lane(x, l, &c->after, err);
    if (rc < 0)
        return rc;
    c->has_after = rc == 1;
    return ST_OK;
}

/* Every check in the report's order into r (the GPU's only with a GPU
 * reader). */
static int check_all(doc_ctx *x, st_doctor_report *r, st_error *err)
{
    int ids[ST_LANE_COUNT], rc = ST_OK, peak_done = 0;
    size_t n = st_lanes_order(ST_LO_DOCTOR, ids);
    for (size_t k = 0; k <= n && rc == ST_OK && r->n < ST_DOC_MAX_CHECKS; k++) {
        const st_lane *l = k < n ? &st_lanes[ids[k]] : NULL;
        if (!peak_done && (!l || l->doctor_rank > PEAK_AFTER_RANK)) {
            peak_done = 1;
            if ((rc = check_lane(x, NULL, &r->checks[r->n], err)) != ST_OK)
                break;
            r->n++;
        }
        if (!l || (l->source == ST_LS_GROUP && !x->gpu) || r->n >= ST_DOC_MAX_CHECKS)
            continue;
        rc = check_lane(x, l, &r->checks[r->n], err);
        if (rc == ST_OK)
            r->n++;
    }
    return rc;
}

static void facts(doc_ctx *x, const st_doctor_opts *o, st_doctor_report *r)
{
    st_doctor_facts *f = &r->facts;
    struct utsname u;
    struct rlimit rl;
    st_proc_mem pm;
    st_sys_mem sm;
    st_proc_id one = {1, 0};
    st_error e;
    int got_one = 0;

    if (uname(&u) == 0)
        snprintf(f->os, sizeof f->os, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
    st_doctor_os_release(x->plat, f->os_release, sizeof f->os_release);
    f->kernel_peak = x->plat->read_proc(x->b, x->id, &pm, NULL) == ST_OK && (pm.valid & ST_PM_PEAK);
    /* macOS: the backend asks for RUSAGE_INFO_V4 and falls back to V2,
     * which has no lifetime peak (docs/metrics.md). */
    snprintf(f->rusage_flavor, sizeof f->rusage_flavor, "%s",
             !x->plat->rusage_flavors ? "n/a" : f->kernel_peak ? "V4" : "V2");
    f->psi = x->plat->pressure_is_level ? -1
           : x->plat->read_system(x->b, &sm, NULL) == ST_OK && (sm.valid & ST_SYS_PRESSURE);
    f->is_root = geteuid() == 0;
    st_error_clear(&e);
    if (x->plat->identify(x->b, 1, &one, &e) == ST_OK && (got_one = 1) &&
        x->plat->read_proc(x->b, one, &pm, &e) == ST_OK) {
        f->others_readable = 1;
        snprintf(f->others_detail, sizeof f->others_detail, "pid 1's memory is readable%s",
                 f->is_root ? " (running as root)" : "");
    } else {
        snprintf(f->others_detail, sizeof f->others_detail, "pid 1: %s", e.msg);
    }
    if (got_one && x->plat->release)
        x->plat->release(x->b, one);
    f->fd_soft = f->fd_hard = UINT64_MAX;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        f->fd_soft = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
        f->fd_hard = rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_max;
    }
    /* What one sample of one process costs: read_proc + read_system. */
    f->samples_timed = o->samples > 0 ? o->samples : 200;
    {
        double t0;
        int n = 0;
        (void)x->plat->read_proc(x->b, x->id, &pm, NULL); /* warm: fds opened */
        t0 = st_now();
        for (int i = 0; i < f->samples_timed; i++) {
            if (x->plat->read_proc(x->b, x->id, &pm, NULL) != ST_OK)
                break;
            (void)x->plat->read_system(x->b, &sm, NULL);
            n++;
        }
        f->samples_timed = n;
        f->us_per_sample = n ? (st_now() - t0) * 1e6 / n : 0;
    }
}

static void gpu_facts(doc_ctx *x, const st_doctor_opts *o, st_doctor_facts *f)
{
    st_error e;
    st_error_clear(&e);
    if (o->no_gpu) {
        snprintf(f->nvml_detail, sizeof f->nvml_detail, "not asked (--no-gpu)");
        return;
    }
    if (st_gpu_open(&x->gpu, o->gpu_lib, &e) != ST_OK) {
        x->gpu = NULL;
        snprintf(f->nvml_detail, sizeof f->nvml_detail, "%s", e.msg[0] ? e.msg : "not available");
        return;
    }
    f->nvml_found = 1;
    snprintf(f->nvml_detail, sizeof f->nvml_detail, "found");
    snprintf(f->nvml_version, sizeof f->nvml_version, "%s", st_gpu_version(x->gpu));
    {
        const st_gpu_device *d;
        uint64_t dummy;
        (void)st_gpu_read(x->gpu, &x->id.pid, 1, &dummy, NULL, NULL); /* fills the device list */
        size_t n = st_gpu_devices(x->gpu, &d);
        f->ngpu = n;
        for (size_t i = 0; i < n && i < ST_DOC_MAX_GPUS; i++)
            snprintf(f->gpu_names[i], sizeof f->gpu_names[i], "%s", d[i].name);
    }
}

/* Linux, doctor's own child: wait4's ru_maxrss is the kernel's high-water
 * mark of the resident set (the same counter as VmHWM) reached through
 * another path (the rusage of a reaped child). */
static void own_peak(st_doctor_check *c, uint64_t maxrss_kib)
{
    if (!c->has_value || maxrss_kib == 0)
        return;
    c->has_ref = 1;
    c->rule = ST_DOC_WITHIN;
    c->ref = maxrss_kib * 1024;
    c->tol = c->value / 100 > 4 * MIB ? c->value / 100 : 4 * MIB;
    snprintf(c->source, sizeof c->source, "wait4() ru_maxrss (KiB) of the child, after it was killed");
    c->note[0] = '\0';
}

int st_doctor_run(const st_platform *plat, const st_doctor_opts *o, st_doctor_report *r, st_error *err)
{
    doc_ctx x;
    st_doctor_child child = {0, -1};
    uint64_t maxrss = 0;
    int rc;

    memset(r, 0, sizeof *r);
    memset(&x, 0, sizeof x);
    x.plat = plat;
    r->platform = plat->name;
    r->footprint_metric = plat->footprint_metric;
    r->peak_metric = plat->peak_metric;
    r->pid = o->pid;
    if (o->pid <= 0) {
        r->child_bytes = o->child_bytes ? o->child_bytes : 256 * MIB;
        if ((rc = st_doctor_child_start(&child, r->child_bytes, CHILD_READY_S, err)) != ST_OK)
            return rc;
        r->pid = child.pid;
        r->own_child = 1;
    }
    if ((rc = plat->open(&x.b, err)) != ST_OK) {
        st_doctor_child_stop(&child, NULL);
        return rc;
    }
    rc = plat->identify(x.b, r->pid, &x.id, err);
    if (rc == ST_OK) {
        st_proc_mem pm;
        rc = plat->read_proc(x.b, x.id, &pm, err); /* refused (another user's) or gone */
    }
    if (rc == ST_OK) {
        gpu_facts(&x, o, &r->facts);
        rc = check_all(&x, r, err);
        if (rc == ST_OK) /* the wired limit, the MPS ratios as launched (macOS) */
            st_doctor_mac_checks(plat, x.b, x.id, r);
        if (rc != ST_OK && err) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            st_error_set(err, rc, err->sys_errno, "process %ld could not be read during the check: %s",
                         (long)r->pid, why);
        }
    }
    if (rc == ST_OK)
        facts(&x, o, r);
    st_gpu_close(x.gpu);
    plat->close(x.b);
    st_doctor_child_stop(&child, &maxrss);
    if (rc != ST_OK)
        return rc;
    if (r->own_child && plat->peak_is_maxrss)
        for (size_t i = 0; i < r->n; i++)
            if (strcmp(r->checks[i].lane, PEAK_NAME) == 0)
                own_peak(&r->checks[i], maxrss);
    r->ok = 1;
    for (size_t i = 0; i < r->n; i++) {
        st_doctor_judge(&r->checks[i]);
        if (r->checks[i].ok == ST_DOC_MISMATCH)
            r->ok = 0;
    }
    return ST_OK;
}

void st_doctor_gpu_line(const char *lib, char *buf, size_t len)
{
    st_gpu *g;
    st_error e;
    st_error_clear(&e);
    if (st_gpu_open(&g, lib && *lib ? lib : NULL, &e) == ST_OK) {
        const st_gpu_device *d;
        size_t n = st_gpu_devices(g, &d);
        snprintf(buf, len, "NVML found, %zu device(s)%s%s", n, n ? ", first: " : "", n ? d[0].name : "");
        st_gpu_close(g);
    } else {
        snprintf(buf, len, "%s", e.msg[0] ? e.msg : "not available");
    }
}
