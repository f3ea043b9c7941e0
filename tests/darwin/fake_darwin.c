/* fake_darwin.c: the scripted macOS kernel of fake_darwin.h. */
#include "fake_darwin.h"
#include "fake_metal.h"
#include "fake_iokit.h"

#include <mach/mach.h>
#include <mach/mach_time.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <libproc.h>

#define PROCSLOP 5 /* XNU's probe answer has room for 5 more processes */

static struct {
    fake_proc *v;
    size_t n, cap;
    fake_darwin_knobs k;
} F;

void fake_darwin_reset(void)
{
    F.n = 0;
    memset(&F.k, 0, sizeof F.k);
    F.k.swap_ok = F.k.level_ok = F.k.pressure_ok = F.k.memsize_ok = 1;
    F.k.memsize = 48ull << 30;
    F.k.tb_numer = 125;
    F.k.tb_denom = 3;
    F.k.page_size = 16384;
    F.k.vm_stats_ok = 1;
    F.k.level = 80;
    F.k.pressure = 1;
    F.k.swap_total = 1ull << 30;
    F.k.swap_avail = 1ull << 30;
    F.k.argmax = 1 << 20;
    F.k.reuse_on_read = -1;
    fake_metal_reset();
    fake_iokit_reset();
}

fake_darwin_knobs *fake_darwin_knobs_get(void) { return &F.k; }

void fake_darwin_free(void)
{
    free(F.v);
    F.v = NULL;
    F.n = F.cap = 0;
}

size_t fake_darwin_count(void) { return F.n; }

fake_proc *fake_darwin_find(int32_t pid)
{
    for (size_t i = 0; i < F.n; i++)
        if (F.v[i].pid == pid)
            return &F.v[i];
    return NULL;
}

void fake_darwin_set_argv(fake_proc *p, const char *path, int argc, const char *const *argv)
{
    size_t o = 0;
    snprintf(p->path, sizeof p->path, "%s", path);
    for (int i = 0; i < argc; i++) {
        size_t l = strlen(argv[i]) + 1;
        if (o + l > sizeof p->args)
            break;
        memcpy(p->args + o, argv[i], l);
        o += l;
        p->argc = i + 1;
    }
    p->args_len = o;
}

fake_proc *fake_darwin_add(int32_t pid, int32_t ppid, uint64_t start_us, const char *name)
{
    const char *argv[1] = {name};
    char path[sizeof F.v->path];
    fake_proc *p;

    if (fake_darwin_find(pid))
        return NULL;
    if (F.n == F.cap) {
        size_t nc = F.cap ? F.cap * 2 : 64;
        fake_proc *nv = realloc(F.v, nc * sizeof *nv);
        if (!nv)
            return NULL;
        F.v = nv;
        F.cap = nc;
    }
    const fake_proc *parent = fake_darwin_find(ppid);
    int32_t pgid = parent ? parent->pgid : pid;
    p = &F.v[F.n++];
    memset(p, 0, sizeof *p);
    p->pid = pid;
    p->ppid = ppid;
    p->pgid = pgid;
    p->start_us = start_us;
    snprintf(p->comm, sizeof p->comm, "%s", name);
    snprintf(path, sizeof path, "/usr/bin/%.200s", name);
    fake_darwin_set_argv(p, path, 1, argv);
    return p;
}

/* XNU, bsd/kern/kern_exit.c (apple-oss-distributions/xnu), proc_exit():
 * "Before this process becomes a zombie, stash resource usage stats in the
 * proc for external observers to query via proc_pid_rusage()":
 * gather_rusage_info(p, &rup->ri, ...); rup->ri.ri_phys_footprint = 0;
 * p->p_ru = rup.  Then, for each child q: a zombie one is reaped
 * (reap_child_locked(p, q, REAP_DEAD_PARENT ...)), a live one goes to
 * launchd (proc_reparentlocked(q, initproc, 0, 1)), and only after that is
 * p->p_stat = SZOMB set: the children have left before anyone can see the
 * zombie.  The saved record is what proc_get_rusage (kern_resource.c)
 * copies out while p->p_ru is set. */
int fake_darwin_exit(int32_t pid)
{
    fake_proc *p = fake_darwin_find(pid);
    if (!p)
        return -1;
    if (p->zombie)
        return 0;
    for (size_t i = 0; i < F.n;) {
        if (F.v[i].ppid == pid && F.v[i].zombie) {
            F.v[i] = F.v[--F.n]; /* reaped by the system */
            continue;
        }
        if (F.v[i].ppid == pid)
            F.v[i].ppid = 1;
        i++;
    }
    fake_darwin_find(pid)->zombie = 1;
    return 0;
}

int fake_darwin_remove(int32_t pid)
{
    fake_proc *p;
    if (fake_darwin_exit(pid) != 0)
        return -1;
    p = fake_darwin_find(pid);
    *p = F.v[--F.n];
    return 0;
}

static void fill_kinfo(const fake_proc *p, struct kinfo_proc *kp)
{
    memset(kp, 0, sizeof *kp);
    kp->kp_proc.p_starttime.tv_sec = (int64_t)(p->start_us / 1000000u);
    kp->kp_proc.p_starttime.tv_usec = (int32_t)(p->start_us % 1000000u);
    kp->kp_proc.p_pid = p->pid;
    kp->kp_proc.p_stat = p->zombie ? SZOMB : SRUN;
    if (p->exiting) /* P_LEXIT shown as P_WEXIT: bsd/kern/kern_sysctl.c:1204-1205 */
        kp->kp_proc.p_flag |= P_WEXIT;
    memcpy(kp->kp_proc.p_comm, p->comm, sizeof kp->kp_proc.p_comm);
    kp->kp_eproc.e_ppid = p->ppid;
    kp->kp_eproc.e_pgid = p->pgid; /* bsd/kern/kern_sysctl.c:1077 (p->p_pgrpid) */
    kp->kp_eproc.e_ucred.cr_uid = p->other_user ? 0 : 501;
}

static int fail(int e)
{
    errno = e;
    return -1;
}

/* KERN_PROC_ALL as XNU answers it: a NULL buffer gets the size for every
 * process plus PROCSLOP; a buffer too small gets ENOMEM. */
static int proc_all(void *oldp, size_t *oldlenp)
{
    size_t need = F.n * sizeof(struct kinfo_proc);
    if (!oldp) {
        F.k.probes++;
        *oldlenp = need + PROCSLOP * sizeof(struct kinfo_proc);
        for (int g = 0; g < F.k.grow_after_probe; g++)
            fake_darwin_add(50000 + (int32_t)F.n, 1, 1700000000000000ull + F.n, "newcomer");
        F.k.grow_after_probe = 0;
        return 0;
    }
    F.k.fetches++;
    if (F.k.enomem_fetches > 0) {
        F.k.enomem_fetches--;
        return fail(ENOMEM);
    }
    if (*oldlenp < need)
        return fail(ENOMEM);
    for (size_t i = 0; i < F.n; i++)
        fill_kinfo(&F.v[i], (struct kinfo_proc *)oldp + i);
    *oldlenp = need;
    return 0;
}

/* KERN_PROCARGS2 as XNU answers it (apple-oss-distributions/xnu, tag
 * xnu-11417.101.15; file:line there).
 *
 * The area exec leaves at the top of the new stack, bsd/kern/kern_exec.c:
 * exec_save_path() writes "executable_path=" and the path with its NUL
 * (536-575); exec_extract_strings() pads with NULs to the pointer size
 * (6105-6114), copies the argv strings (6119 ip_startargv), the environment
 * strings (6236-6266), pads again (6275-6284), and the apple strings follow
 * (6286-6287 ip_endenvv; exec_add_apple_strings() 6425-6500 always adds
 * pfz=, stack_guard=, malloc_entropy= and ptr_munge=).  p_argc and
 * p_argslen (the whole area) are recorded at 5987-5992.
 *
 * bsd/kern/kern_sysctl.c, sysctl_procargsx():
 *  - the copy starts at the path: argslen -= strlen(EXECUTABLE_KEY)
 *    (1421-1430); the buffer's first word is argc (1358-1360, 1607-1611);
 *  - a buffer of 4 bytes or less, or more than ARG_MAX + 4: EINVAL
 *    (1358-1368; the size_t buflen wraps below 4);
 *  - no such process, or one exiting (proc_find() NULL, kern_proc.c
 *    2161-2197): EINVAL (1373-1378); a task no longer IPC-active: EINVAL
 *    (1459-1463) — a zombie here;
 *  - another uid, the caller not root: EINVAL (1439-1447);
 *  - a target that is cs_restricted (CS_RESTRICT, kern_cs.c 1738-1742),
 *    the caller not itself, SIP on, no entitlement: the copy ends after the
 *    path, its padding and argc strings (1380-1399, 1520-1546);
 *  - a buffer smaller than the area: the area's LAST buflen bytes
 *    (1553-1605), so its start is lost;
 *  - no buffer: the size, argslen + 4 rounded up to 4 (1683-1697). */
#define XNU_ARG_MAX (1024 * 1024) /* bsd/sys/syslimits.h:75, macOS */
#define EXEC_KEY "executable_path="
static int procargs2(int32_t pid, void *oldp, size_t *oldlenp)
{
    static const char def_env[] = "PATH=/usr/bin:/bin";
    static const char apple[] = "pfz=0x7ffffff0c000\0stack_guard=0x3c6f00e2a1b4d700\0"
                                "malloc_entropy=0x1d2c3b4a59687706,0x2e1f0a9b8c7d6e5f\0"
                                "ptr_munge=0x5a4b3c2d1e0f9a8b";
    const fake_proc *p = fake_darwin_find(pid);
    const size_t klen = strlen(EXEC_KEY);

    if (!p || p->other_user || p->zombie)
        return fail(EINVAL);
    if (p->raw_args) { /* malformed bytes, as the test wrote them */
        if (!oldp || *oldlenp < p->raw_len)
            return fail(EINVAL);
        memcpy(oldp, p->raw_args, p->raw_len);
        *oldlenp = p->raw_len;
        return 0;
    }
    const char *env = p->env ? p->env : def_env;
    size_t env_len = p->env ? p->env_len : sizeof def_env;
    size_t cap = klen + strlen(p->path) + 1 + 8 + p->args_len + env_len + 8 + sizeof apple;
    char *area = malloc(cap);
    size_t n, argv_end;
    if (!area)
        return fail(ENOMEM);
    memcpy(area, EXEC_KEY, klen);
    n = klen;
    memcpy(area + n, p->path, strlen(p->path) + 1);
    n += strlen(p->path) + 1;
    while (n % 8)
        area[n++] = '\0';
    memcpy(area + n, p->args, p->args_len);
    n += p->args_len;
    argv_end = n;
    memcpy(area + n, env, env_len);
    n += env_len;
    while (n % 8)
        area[n++] = '\0';
    memcpy(area + n, apple, sizeof apple);
    n += sizeof apple;

    const char *data = area + klen;
    size_t argslen = (p->env_restricted ? argv_end : n) - klen;
    if (!oldp) {
        *oldlenp = (argslen + sizeof(int) + 3) & ~(size_t)3;
        free(area);
        return 0;
    }
    if (*oldlenp <= sizeof(int) || *oldlenp - sizeof(int) > XNU_ARG_MAX) {
        free(area);
        return fail(EINVAL);
    }
    size_t buflen = *oldlenp - sizeof(int);
    if (buflen < argslen) { /* the end of the area */
        data += argslen - buflen;
        argslen = buflen;
    }
    memcpy(oldp, &p->argc, sizeof(int));
    memcpy((char *)oldp + sizeof(int), data, argslen);
    *oldlenp = argslen + sizeof(int);
    free(area);
    return 0;
}

int sysctl(int *name, unsigned int namelen, void *oldp, size_t *oldlenp, void *newp,
           size_t newlen)
{
    if (newp || newlen || !oldlenp)
        return fail(EPERM);
    if (namelen == 4 && name[0] == CTL_KERN && name[1] == KERN_PROC) {
        if (name[2] == KERN_PROC_ALL)
            return proc_all(oldp, oldlenp);
        if (name[2] == KERN_PROC_PID) {
            const fake_proc *p = fake_darwin_find(name[3]);
            F.k.pid_lookups++;
            if (!oldp) {
                *oldlenp = (1 + PROCSLOP) * sizeof(struct kinfo_proc);
                return 0;
            }
            if (*oldlenp < sizeof(struct kinfo_proc))
                return fail(ENOMEM);
            if (!p) { /* no such pid: success with nothing written */
                *oldlenp = 0;
                return 0;
            }
            fill_kinfo(p, oldp);
            *oldlenp = sizeof(struct kinfo_proc);
            return 0;
        }
    }
    if (namelen == 2 && name[0] == CTL_KERN && name[1] == KERN_ARGMAX) {
        if (!oldp || *oldlenp < sizeof(int))
            return fail(ENOMEM);
        memcpy(oldp, &F.k.argmax, sizeof(int));
        *oldlenp = sizeof(int);
        return 0;
    }
    if (namelen == 3 && name[0] == CTL_KERN && name[1] == KERN_PROCARGS2)
        return procargs2(name[2], oldp, oldlenp);
    return fail(ENOENT);
}

static int give(void *oldp, size_t *oldlenp, const void *v, size_t n)
{
    if (!oldp) {
        *oldlenp = n;
        return 0;
    }
    if (*oldlenp < n)
        return fail(ENOMEM);
    memcpy(oldp, v, n);
    *oldlenp = n;
    return 0;
}

int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
{
    if (newp || newlen || !oldlenp)
        return fail(EPERM);
    if (!strcmp(name, "vm.swapusage") && F.k.swap_ok) {
        struct xsw_usage x = {F.k.swap_total, F.k.swap_avail, F.k.swap_used, 16384, 1};
        return give(oldp, oldlenp, &x, sizeof x);
    }
    if (!strcmp(name, "kern.memorystatus_level") && F.k.level_ok)
        return give(oldp, oldlenp, &F.k.level, sizeof F.k.level);
    if (!strcmp(name, "kern.memorystatus_vm_pressure_level") && F.k.pressure_ok)
        return give(oldp, oldlenp, &F.k.pressure, sizeof F.k.pressure);
    if (!strcmp(name, "hw.memsize") && F.k.memsize_ok)
        return give(oldp, oldlenp, &F.k.memsize, sizeof F.k.memsize);
    int mrc; /* iogpu.wired_limit_mb: the fake Metal's (fake_metal.c) */
    if (fake_metal_sysctlbyname(name, oldp, oldlenp, &mrc))
        return mrc;
    return fail(ENOENT);
}

int proc_pid_rusage(int pid, int flavor, rusage_info_t *buffer)
{
    static const size_t sizes[] = {96, 144, 160, 232, 296};
    struct rusage_info_v4 ri;
    fake_proc *p;

    if (flavor == RUSAGE_INFO_V4)
        F.k.rusage_v4++;
    else if (flavor == RUSAGE_INFO_V2)
        F.k.rusage_v2++;
    else
        F.k.rusage_other++;
    if (flavor < 0 || flavor > RUSAGE_INFO_V4 || (flavor == RUSAGE_INFO_V4 && F.k.v4_refused) ||
        F.k.rusage_einval)
        return fail(EINVAL);
    if (pid == F.k.reuse_on_read && (p = fake_darwin_find(pid))) {
        uint64_t start = p->start_us + 1000000u;
        F.k.reuse_on_read = -1;
        fake_darwin_remove(pid);
        p = fake_darwin_add(pid, 1, start, "imposter");
        p->footprint = p->resident = p->peak = 7777777;
    }
    p = fake_darwin_find(pid);
    if (!p)
        return fail(ESRCH);
    if (p->other_user)
        return fail(EPERM);
    if (p->zombie && F.k.real_zombies) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != pid)
            return fail(ESRCH); /* reaped: gone for good */
    }
    memset(&ri, 0, sizeof ri);
    /* A zombie's answer is the record saved at exit (fake_darwin_exit):
     * footprint zeroed, resident size and lifetime peak as they were. */
    ri.ri_phys_footprint = p->zombie ? 0 : p->footprint;
    ri.ri_resident_size = p->resident;
    ri.ri_lifetime_max_phys_footprint = p->peak;
    ri.ri_proc_start_abstime = p->start_abs ? p->start_abs : p->start_us * 1000u;
    ri.ri_user_time = p->user_abs;
    ri.ri_system_time = p->system_abs;
    ri.ri_pageins = p->pageins;
    ri.ri_child_user_time = p->child_user_abs;
    ri.ri_child_system_time = p->child_system_abs;
    ri.ri_child_pageins = p->child_pageins;
    /* Only the flavor's own bytes are written, as XNU does. */
    memcpy((void *)buffer, &ri, sizes[flavor]);
    return 0;
}

/* Like libproc: the length written, or 0 with errno set. */
int proc_pidpath(int pid, void *buffer, uint32_t buffersize)
{
    const fake_proc *p = fake_darwin_find(pid);
    size_t l = p ? strlen(p->path) : 0;

    errno = !p ? ESRCH : l == 0 ? EPERM : l + 1 > buffersize ? ENOMEM : 0;
    if (errno)
        return 0;
    memcpy(buffer, p->path, l + 1);
    return (int)l;
}

int st_fake_kill(pid_t pid, int sig)
{
    fake_proc *p;

    if (F.k.n_kills < FAKE_KILL_LOG)
        F.k.kills[F.k.n_kills] = (fake_kill_rec){pid, sig};
    F.k.n_kills++;
    p = fake_darwin_find(pid);
    if (!p)
        return fail(ESRCH);
    if (p->other_user)
        return fail(EPERM);
    if (sig == SIGKILL) /* it exits: a zombie until its parent reaps it */
        fake_darwin_exit(pid);
    return 0;
}

/* ---- Mach: the time base, the page size, the VM statistics ---- */

kern_return_t mach_timebase_info(mach_timebase_info_t info)
{
    info->numer = F.k.tb_numer;
    info->denom = F.k.tb_denom;
    return KERN_SUCCESS;
}

host_t mach_host_self(void) { return 1; }

kern_return_t host_page_size(host_t host, vm_size_t *size)
{
    (void)host;
    *size = (vm_size_t)F.k.page_size;
    return KERN_SUCCESS;
}

kern_return_t host_statistics64(host_t host, host_flavor_t flavor, host_info64_t info,
                                mach_msg_type_number_t *count)
{
    vm_statistics64_data_t vm;
    (void)host;
    if (!F.k.vm_stats_ok || flavor != HOST_VM_INFO64 || *count < HOST_VM_INFO64_COUNT)
        return KERN_FAILURE;
    memset(&vm, 0, sizeof vm);
    vm.compressor_page_count = F.k.compressor_pages;
    vm.free_count = 1000;
    memcpy(info, &vm, sizeof vm);
    *count = HOST_VM_INFO64_COUNT;
    return KERN_SUCCESS;
}
