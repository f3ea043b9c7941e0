/* fake_darwin.c: the scripted macOS kernel of fake_darwin.h. */
#include "fake_darwin.h"

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
    p = &F.v[F.n++];
    memset(p, 0, sizeof *p);
    p->pid = pid;
    p->ppid = ppid;
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
    memcpy(kp->kp_proc.p_comm, p->comm, sizeof kp->kp_proc.p_comm);
    kp->kp_eproc.e_ppid = p->ppid;
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

static int procargs2(int32_t pid, void *oldp, size_t *oldlenp)
{
    const fake_proc *p = fake_darwin_find(pid);
    char tmp[1024];
    size_t n = 0;

    if (!p || p->other_user || p->zombie)
        return fail(EINVAL); /* what XNU answers for all three */
    if (p->raw_args) {
        n = p->raw_len < sizeof tmp ? p->raw_len : sizeof tmp;
        memcpy(tmp, p->raw_args, n);
    } else { /* argc, exec path, NUL padding, argv, environment */
        static const char env[] = "PATH=/usr/bin:/bin";
        size_t pl = strlen(p->path) + 1;
        memcpy(tmp, &p->argc, sizeof p->argc);
        n = sizeof p->argc;
        memcpy(tmp + n, p->path, pl);
        n += pl;
        memset(tmp + n, 0, 3);
        n += 3;
        memcpy(tmp + n, p->args, p->args_len);
        n += p->args_len;
        memcpy(tmp + n, env, sizeof env);
        n += sizeof env;
    }
    if (!oldp || *oldlenp < n)
        return fail(EINVAL);
    memcpy(oldp, tmp, n);
    *oldlenp = n;
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
