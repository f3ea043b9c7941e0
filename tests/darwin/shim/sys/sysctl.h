/* Shim of macOS <sys/sysctl.h> (and the struct extern_proc it pulls in from
 * <sys/proc.h>) for building core/platform/platform_darwin.c on Linux.  glibc has no
 * <sys/sysctl.h> any more, so nothing of Linux's is hidden by this file.
 *
 * The structs have the REAL LP64 layouts of XNU (bsd/sys/sysctl.h,
 * bsd/sys/proc.h, bsd/sys/vm.h); the asserts below check sizes and the
 * offsets the backend reads, so a mistake here cannot hide a mistake in the
 * backend.  Darwin's own types are spelled as fixed-width types because
 * Linux's differ (sigset_t is 128 bytes, dev_t 8 bytes on Linux). */
#ifndef STAGETOP_SHIM_SYS_SYSCTL_H
#define STAGETOP_SHIM_SYS_SYSCTL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#if !defined(__LP64__) && !defined(_LP64)
#error "the Darwin shim models the LP64 ABI only"
#endif

#define CTL_KERN 1
#define KERN_ARGMAX 8
#define KERN_PROC 14
#define KERN_PROCARGS2 49
#define KERN_PROC_ALL 0
#define KERN_PROC_PID 1

#define MAXCOMLEN 16
#define WMESGLEN 7
#define COMAPT_MAXLOGNAME 12
#define NGROUPS 16

/* p_stat values */
#define SIDL 1
#define SRUN 2
#define SSLEEP 3
#define SSTOP 4
#define SZOMB 5

/* p_flag: exiting (sys/proc.h; KERN_PROC_PID sets it for P_LEXIT,
 * xnu-11417.101.15 bsd/kern/kern_sysctl.c:1204-1205) */
#define P_WEXIT 0x00002000

/* Darwin's struct timeval: time_t (8) + suseconds_t (int32) + padding. */
struct st_shim_timeval {
    int64_t tv_sec;
    int32_t tv_usec;
};
struct st_shim_itimerval {
    struct st_shim_timeval it_interval, it_value;
};

struct extern_proc {
    union {
        struct {
            void *__p_forw;
            void *__p_back;
        } p_st1;
        struct st_shim_timeval __p_starttime;
    } p_un;
#define p_forw p_un.p_st1.__p_forw
#define p_back p_un.p_st1.__p_back
#define p_starttime p_un.__p_starttime
    void *p_vmspace;
    void *p_sigacts;
    int p_flag;
    char p_stat;
    pid_t p_pid;
    pid_t p_oppid;
    int p_dupfd;
    char *user_stack;
    void *exit_thread;
    int p_debugger;
    int sigwait;           /* boolean_t */
    uint32_t p_estcpu;
    int p_cpticks;
    uint32_t p_pctcpu;     /* fixpt_t */
    void *p_wchan;
    char *p_wmesg;
    uint32_t p_swtime;
    uint32_t p_slptime;
    struct st_shim_itimerval p_realtimer;
    struct st_shim_timeval p_rtime;
    uint64_t p_uticks;
    uint64_t p_sticks;
    uint64_t p_iticks;
    int p_traceflag;
    void *p_tracep;
    int p_siglist;
    void *p_textvp;
    int p_holdcnt;
    uint32_t p_sigmask;    /* Darwin sigset_t */
    uint32_t p_sigignore;
    uint32_t p_sigcatch;
    unsigned char p_priority;
    unsigned char p_usrpri;
    char p_nice;
    char p_comm[MAXCOMLEN + 1];
    void *p_pgrp;
    void *p_addr;
    unsigned short p_xstat;
    unsigned short p_acflag;
    void *p_ru;
};

struct vmspace { /* <sys/vm.h>, user-space view: all dummies */
    int32_t dummy;
    char *dummy2;
    int32_t dummy3[5];
    char *dummy4[3];
};

struct _pcred {
    char pc_lock[72];
    void *pc_ucred;
    uint32_t p_ruid;
    uint32_t p_svuid;
    uint32_t p_rgid;
    uint32_t p_svgid;
    int p_refcnt;
};

struct _ucred {
    int32_t cr_ref;
    uint32_t cr_uid;
    short cr_ngroups;
    uint32_t cr_groups[NGROUPS];
};

struct kinfo_proc {
    struct extern_proc kp_proc;
    struct eproc {
        void *e_paddr;
        void *e_sess;
        struct _pcred e_pcred;
        struct _ucred e_ucred;
        struct vmspace e_vm;
        pid_t e_ppid;
        pid_t e_pgid;
        short e_jobc;
        int32_t e_tdev;    /* Darwin dev_t */
        pid_t e_tpgid;
        void *e_tsess;
        char e_wmesg[WMESGLEN + 1];
        int32_t e_xsize;   /* segsz_t */
        short e_xrssize;
        short e_xccount;
        short e_xswrss;
        int32_t e_flag;
        char e_login[COMAPT_MAXLOGNAME];
        int32_t e_spare[4];
    } kp_eproc;
};

/* vm.swapusage */
struct xsw_usage {
    uint64_t xsu_total;
    uint64_t xsu_avail;
    uint64_t xsu_used;
    uint32_t xsu_pagesize;
    int xsu_encrypted; /* boolean_t */
};

_Static_assert(sizeof(struct st_shim_timeval) == 16, "Darwin timeval is 16 bytes");
_Static_assert(sizeof(struct extern_proc) == 296, "extern_proc is 296 bytes");
_Static_assert(offsetof(struct extern_proc, p_un) == 0, "p_starttime at 0");
_Static_assert(offsetof(struct extern_proc, p_stat) == 36, "p_stat at 36");
_Static_assert(offsetof(struct extern_proc, p_pid) == 40, "p_pid at 40");
_Static_assert(offsetof(struct extern_proc, p_realtimer) == 120, "p_realtimer at 120");
_Static_assert(offsetof(struct extern_proc, p_comm) == 243, "p_comm at 243");
_Static_assert(offsetof(struct extern_proc, p_ru) == 288, "p_ru at 288");
_Static_assert(sizeof(struct vmspace) == 64, "vmspace is 64 bytes");
_Static_assert(sizeof(struct _pcred) == 104, "_pcred is 104 bytes");
_Static_assert(sizeof(struct _ucred) == 76, "_ucred is 76 bytes");
_Static_assert(sizeof(struct eproc) == 352, "eproc is 352 bytes");
_Static_assert(offsetof(struct eproc, e_ppid) == 264, "e_ppid at 264 in eproc");
_Static_assert(sizeof(struct kinfo_proc) == 648, "kinfo_proc is 648 bytes (0x288)");
_Static_assert(offsetof(struct kinfo_proc, kp_eproc) == 296, "kp_eproc at 296");
_Static_assert(offsetof(struct kinfo_proc, kp_eproc.e_ppid) == 560, "e_ppid at 560");
_Static_assert(offsetof(struct kinfo_proc, kp_eproc.e_ucred.cr_uid) == 420, "cr_uid at 420");
_Static_assert(sizeof(struct xsw_usage) == 32, "xsw_usage is 32 bytes");
_Static_assert(offsetof(struct xsw_usage, xsu_used) == 16, "xsu_used at 16");

int sysctl(int *name, unsigned int namelen, void *oldp, size_t *oldlenp, void *newp,
           size_t newlen);
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

#endif
