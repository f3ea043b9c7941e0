/* doctor_ref.c: the reference reading of each lane, per system, chosen by
 * the platform table's doctor_refs capability (platform.h).  Every reference comes
 * from a file or a tool the backend does not read (docs/doctor.md has the
 * table and why each tolerance is what it is).  Both systems' functions
 * are compiled everywhere: they only read files and run tools, which fail
 * cleanly where they do not exist. */
#include "stagetop/doctor.h"

#include <stdio.h>
#include <string.h>

#define MIB (1024ull * 1024ull)
#define RUN_TIMEOUT 20.0 /* seconds: vmmap on a large process is slow */
#define OUTCAP 65536

typedef struct ref_buf {
    char text[OUTCAP];
    size_t len;
} ref_buf;

/* max(1% of v, floor): a quiet process's memory moves a little between two
 * reads (allocator, stack, page tables); floor covers a small one. */
static uint64_t tol_of(uint64_t v, uint64_t floor)
{
    return v / 100 > floor ? v / 100 : floor;
}

static void no_ref(st_doctor_check *c, const char *source, const st_error *e)
{
    c->has_ref = 0;
    snprintf(c->source, sizeof c->source, "%s", source);
    snprintf(c->note, sizeof c->note, "no reference: %s", e->msg);
}

static void set_ref(st_doctor_check *c, uint64_t ref, uint64_t tol, const char *source)
{
    c->has_ref = 1;
    c->ref = ref;
    c->tol = tol;
    snprintf(c->source, sizeof c->source, "%s", source);
}

static int run(const char *const argv[], ref_buf *b, st_error *e)
{
    return st_doctor_run_tool(argv, RUN_TIMEOUT, b->text, sizeof b->text, &b->len, e);
}

static void pid_str(int32_t pid, char *buf, size_t len)
{
    snprintf(buf, len, "%ld", (long)pid);
}

/* `ps -o rss= -p PID` in bytes (KiB on both systems). */
static int ps_rss(int32_t pid, uint64_t *bytes, st_error *e)
{
    ref_buf b;
    char p[24];
    uint64_t kib;
    const char *argv[] = {"ps", "-o", "rss=", "-p", p, NULL};
    pid_str(pid, p, sizeof p);
    if (run(argv, &b, e) != ST_OK || st_doctor_parse_uint(b.text, b.len, &kib, e) != ST_OK)
        return ST_EIO;
    *bytes = kib * 1024;
    return ST_OK;
}

/* ---- Linux ---------------------------------------------------------------- */

static void lx_footprint(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    char path[64], src[128];
    st_doctor_smaps sm;
    st_error e;
    snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", (long)pid);
    snprintf(src, sizeof src, "%s: Anonymous + Swap + Pss_Shmem", path);
    if (st_doctor_read_file(path, b.text, sizeof b.text, &b.len, &e) != ST_OK ||
        st_doctor_parse_smaps_rollup(b.text, b.len, &sm, &e) != ST_OK) {
        no_ref(c, src, &e);
        return;
    }
    set_ref(c, sm.anonymous + sm.swap + sm.pss_shmem, tol_of(c->value, 4 * MIB), src);
}

static void any_rss(int32_t pid, st_doctor_check *c)
{
    st_error e;
    uint64_t v;
    if (ps_rss(pid, &v, &e) != ST_OK) {
        no_ref(c, "ps -o rss= -p PID", &e);
        return;
    }
    set_ref(c, v, tol_of(c->value, 4 * MIB), "ps -o rss= -p PID (KiB)");
}

/* `ps -o time=` (CPU time, user + system, of the process itself; Linux in
 * whole seconds, macOS in hundredths) and `ps -o majflt=`: the counters the
 * cpu and pageins lanes are rates of, read by another program. */
/* `ps -o FIELD= -p PID` read by parse into *v; 0, or -1 after no_ref
 * (source: the command as the report names it). */
static int ps_value(int32_t pid, const char *field, const char *source,
                    int (*parse)(const char *, size_t, uint64_t *, st_error *), uint64_t *v,
                    st_doctor_check *c)
{
    ref_buf b;
    char p[24];
    st_error e;
    const char *argv[] = {"ps", "-o", field, "-p", p, NULL};
    pid_str(pid, p, sizeof p);
    if (run(argv, &b, &e) != ST_OK || parse(b.text, b.len, v, &e) != ST_OK) {
        no_ref(c, source, &e);
        return -1;
    }
    return 0;
}

static void any_cpu(int32_t pid, st_doctor_check *c)
{
    uint64_t ms;
    if (ps_value(pid, "time=", "ps -o time= -p PID", st_doctor_parse_cputime, &ms, c) != 0)
        return;
    /* ps truncates: Linux to the second below, macOS to the hundredth */
    c->rule = ST_DOC_WITHIN;
    set_ref(c, ms, 1000 + c->value / 100, "ps -o time= -p PID (CPU time, user + system)");
}

static void lx_pageins(int32_t pid, st_doctor_check *c)
{
    uint64_t v;
    if (ps_value(pid, "majflt=", "ps -o majflt= -p PID", st_doctor_parse_uint, &v, c) != 0)
        return;
    set_ref(c, v, 2 + c->value / 100, "ps -o majflt= -p PID (major faults)");
}

/* Apple's ps never fills the rusage fields (adv_cmds-237 ps/ps.c:1233,
 * saveuser() sets u_valid = 0), so `ps -o majflt=` prints "-" on a Mac
 * (ps/print.c:1186-1196, rvar).  top reads
 * the task's pageins with task_info(TASK_EVENTS_INFO) (top-144 libtop.c
 * libtop_pinfo_update_events_info, 1512-1528): the same kernel counter as
 * the backend's ri_pageins (xnu-11417.101.15 osfmk/kern/task.c:5743 and
 * osfmk/kern/bsd_kern.c:1274, both counter_load(&task->pageins); task_info
 * caps it at INT32_MAX). */
static void dw_pageins(int32_t pid, st_doctor_check *c)
{
    static const char src[] = "top -l 1 -pid PID -stats pid,pageins";
    ref_buf b;
    char p[24];
    st_error e;
    uint64_t v;
    const char *argv[] = {"top", "-l", "1", "-pid", p, "-stats", "pid,pageins", NULL};
    pid_str(pid, p, sizeof p);
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_top_pageins(b.text, b.len, pid, &v, &e) != ST_OK) {
        no_ref(c, src, &e);
        return;
    }
    set_ref(c, v, 2 + c->value / 100, "top -l 1 -pid PID -stats pid,pageins (task pageins)");
}

static void lx_peak(int32_t pid, st_doctor_check *c)
{
    any_rss(pid, c);
    c->rule = ST_DOC_AT_LEAST;
    if (c->has_ref)
        snprintf(c->note, sizeof c->note, "no other file has VmHWM: a peak is at least the rss now");
}

static void lx_swap(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    uint64_t used, total;
    st_error e;
    (void)pid;
    if (st_doctor_read_file("/proc/swaps", b.text, sizeof b.text, &b.len, &e) != ST_OK ||
        st_doctor_parse_proc_swaps(b.text, b.len, &used, &total, &e) != ST_OK) {
        no_ref(c, "/proc/swaps", &e);
        return;
    }
    /* system-wide: other processes swap in and out between the reads */
    set_ref(c, used, tol_of(total, 16 * MIB), "/proc/swaps: sum of Used (KiB)");
}

static void lx_level(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    const char *argv[] = {"free", "-b", NULL};
    st_doctor_free f;
    st_error e;
    (void)pid;
    memset(&f, 0, sizeof f);
    st_error_clear(&e);
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_free(b.text, b.len, &f, &e) != ST_OK ||
        f.mem_total < 1024) {
        if (e.code == ST_OK)
            st_error_set(&e, ST_EPARSE, 0, "free -b: no total");
        no_ref(c, "free -b", &e);
        return;
    }
    set_ref(c, f.mem_available / 1024 * 10000 / (f.mem_total / 1024), 200,
            "free -b: available x 100 / total");
}

static void lx_pressure(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    uint16_t v;
    st_error e;
    (void)pid;
    if (st_doctor_read_file("/proc/pressure/memory", b.text, sizeof b.text, &b.len, &e) != ST_OK ||
        st_doctor_parse_psi_some(b.text, b.len, &v, &e) != ST_OK) {
        no_ref(c, "/proc/pressure/memory", &e);
        return;
    }
    set_ref(c, v, 200, "/proc/pressure/memory read again, doctor's own parser (no other kernel source)");
}

/* ---- macOS ----------------------------------------------------------------- */

/* `footprint -p PID`, else `vmmap --summary PID`. */
static int dw_fp(int32_t pid, st_doctor_fp *fp, char *src, size_t srclen, st_error *e)
{
    ref_buf b;
    char p[24];
    const char *fp_argv[] = {"footprint", "-p", p, NULL};
    const char *vm_argv[] = {"vmmap", "--summary", p, NULL};
    pid_str(pid, p, sizeof p);
    if (run(fp_argv, &b, e) == ST_OK && st_doctor_parse_footprint(b.text, b.len, fp, e) == ST_OK) {
        snprintf(src, srclen, "footprint -p PID");
        return ST_OK;
    }
    if (run(vm_argv, &b, e) == ST_OK && st_doctor_parse_vmmap(b.text, b.len, fp, e) == ST_OK) {
        snprintf(src, srclen, "vmmap --summary PID");
        return ST_OK;
    }
    snprintf(src, srclen, "footprint -p PID, vmmap --summary PID");
    return ST_EIO;
}

static void dw_footprint(int32_t pid, st_doctor_check *c)
{
    st_doctor_fp fp;
    st_error e;
    char src[96], full[160];
    if (dw_fp(pid, &fp, src, sizeof src, &e) != ST_OK) {
        no_ref(c, src, &e);
        return;
    }
    snprintf(full, sizeof full, "%s: %s", src, strcmp(src, "vmmap --summary PID") == 0 ?
             "Physical footprint" : "phys_footprint");
    set_ref(c, fp.now, tol_of(c->value, 4 * MIB) + fp.now_res, full);
}

static void dw_peak(int32_t pid, st_doctor_check *c)
{
    st_doctor_fp fp;
    st_error e;
    char src[96], full[160];
    if (dw_fp(pid, &fp, src, sizeof src, &e) != ST_OK) {
        no_ref(c, src, &e);
        return;
    }
    if (!(fp.valid & ST_DOC_FP_PEAK)) {
        st_error_set(&e, ST_EPARSE, 0, "%s printed no peak", src);
        no_ref(c, src, &e);
        return;
    }
    snprintf(full, sizeof full, "%s: %s", src, strcmp(src, "vmmap --summary PID") == 0 ?
             "Physical footprint (peak)" : "phys_footprint_peak");
    set_ref(c, fp.peak, tol_of(c->value, 4 * MIB) + fp.peak_res, full);
}

static void dw_swap(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    const char *argv[] = {"sysctl", "-n", "vm.swapusage", NULL};
    uint64_t total, used, res;
    st_error e;
    (void)pid;
    if (run(argv, &b, &e) != ST_OK ||
        st_doctor_parse_swapusage(b.text, b.len, &total, &used, &res, &e) != ST_OK) {
        no_ref(c, "sysctl -n vm.swapusage", &e);
        return;
    }
    set_ref(c, used, tol_of(total, 16 * MIB) + res, "sysctl -n vm.swapusage: used");
}

static void dw_level(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    const char *argv[] = {"memory_pressure", NULL}; /* never with arguments: they apply pressure */
    uint16_t v;
    st_error e;
    (void)pid;
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_memory_pressure(b.text, b.len, &v, &e) != ST_OK) {
        no_ref(c, "memory_pressure", &e);
        return;
    }
    set_ref(c, v, 200, "memory_pressure: System-wide memory free percentage");
}

static void dw_pressure(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    const char *argv[] = {"sysctl", "-n", "kern.memorystatus_vm_pressure_level", NULL};
    uint64_t v = 0;
    st_error e;
    (void)pid;
    st_error_clear(&e);
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_uint(b.text, b.len, &v, &e) != ST_OK || v > 100) {
        if (e.code == ST_OK)
            st_error_set(&e, ST_EPARSE, 0, "level %llu out of range", (unsigned long long)v);
        no_ref(c, "sysctl -n kern.memorystatus_vm_pressure_level", &e);
        return;
    }
    set_ref(c, v * 100, 0, "sysctl -n kern.memorystatus_vm_pressure_level (x100)");
}

/* The whole machine's GPU memory (the gpu system lane): ioreg's "In use
 * system memory", summed over the accelerators (doctor_mac.c's parser says
 * why); other programs move it between reads. */
static void dw_gpu_system(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    uint64_t bytes;
    int n;
    st_error e;
    char src[160];
    const char *argv[] = {"ioreg", "-r", "-d", "1", "-w", "0", "-c", "IOAccelerator", NULL};
    (void)pid;
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_ioreg_in_use(b.text, b.len, &bytes, &n, &e) != ST_OK) {
        no_ref(c, "ioreg -r -d 1 -w 0 -c IOAccelerator: \"In use system memory\"", &e);
        return;
    }
    snprintf(src, sizeof src, "ioreg -r -d 1 -w 0 -c IOAccelerator: \"In use system memory\", "
             "%d service(s) summed", n);
    set_ref(c, bytes, tol_of(c->value, 16 * MIB), src);
}

/* The process's graphics-tagged memory (the metal lane's one process):
 * footprint's "(graphics)" categories (doctor_parse_mac.c says why). */
static void dw_metal(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    char p[24], src[160];
    uint64_t bytes, res;
    int rows;
    st_error e;
    const char *argv[] = {"footprint", "-p", p, NULL};
    pid_str(pid, p, sizeof p);
    if (run(argv, &b, &e) != ST_OK ||
        st_doctor_parse_footprint_graphics(b.text, b.len, &bytes, &res, &rows, &e) != ST_OK) {
        no_ref(c, "footprint -p PID: the (graphics) categories' Dirty", &e);
        return;
    }
    snprintf(src, sizeof src, "footprint -p PID: Dirty of the %d (graphics) categor%s", rows,
             rows == 1 ? "y" : "ies");
    set_ref(c, bytes, tol_of(c->value, 4 * MIB) + res, src);
}

/* The process's memory in the compressor (tree_compressed's one process):
 * vmmap's TOTAL SWAPPED SIZE. */
static void dw_compressed(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    char p[24];
    uint64_t bytes, res;
    st_error e;
    const char *argv[] = {"vmmap", "--summary", p, NULL};
    pid_str(pid, p, sizeof p);
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_vmmap_swapped(b.text, b.len, &bytes, &res, &e) != ST_OK) {
        no_ref(c, "vmmap --summary PID: TOTAL SWAPPED SIZE", &e);
        return;
    }
    set_ref(c, bytes, tol_of(c->value, 4 * MIB) + res, "vmmap --summary PID: TOTAL SWAPPED SIZE");
}

/* ---- GPU (NVIDIA, Linux) -------------------------------------------------------- */

static void lx_gpu(int32_t pid, st_doctor_check *c)
{
    ref_buf b;
    const char *argv[] = {"nvidia-smi", "--query-compute-apps=pid,used_memory",
                          "--format=csv,noheader,nounits", NULL};
    uint64_t bytes;
    int lines;
    st_error e;
    if (run(argv, &b, &e) != ST_OK || st_doctor_parse_nvsmi(b.text, b.len, pid, &bytes, &lines, &e) != ST_OK) {
        no_ref(c, "nvidia-smi --query-compute-apps=pid,used_memory", &e);
        return;
    }
    /* nvidia-smi prints whole MiB: one MiB of rounding */
    set_ref(c, bytes, MIB, "nvidia-smi --query-compute-apps=pid,used_memory (MiB)");
}

/* ---- dispatch ------------------------------------------------------------------ */

typedef void (*ref_fn)(int32_t pid, st_doctor_check *c);

typedef struct sys_refs {
    enum st_doctor_refs refs;
    const char *lane[12];
    ref_fn fn[12];
} sys_refs;

/* macOS has no GPU lane: Metal memory is inside the footprint (and is
 * the metal lane); the system's GPU memory (gpu system) is ioreg's. */
static const sys_refs refs[] = {
    {ST_DOCTOR_REFS_PROC,
     {"footprint", "rss", "kernel peak", "swap used", "level", "pressure", "gpu", "cpu", "pageins"},
     {lx_footprint, any_rss, lx_peak, lx_swap, lx_level, lx_pressure, lx_gpu, any_cpu, lx_pageins}},
    {ST_DOCTOR_REFS_MACOS,
     {"footprint", "rss", "kernel peak", "swap used", "level", "pressure", NULL, "cpu", "pageins",
      "gpu system", "metal", "compressed"},
     {dw_footprint, any_rss, dw_peak, dw_swap, dw_level, dw_pressure, NULL, any_cpu, dw_pageins,
      dw_gpu_system, dw_metal, dw_compressed}},
};

void st_doctor_reference(const st_platform *plat, int32_t pid, st_doctor_check *c)
{
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        if (refs[i].refs != plat->doctor_refs)
            continue;
        for (size_t k = 0; k < sizeof refs[i].lane / sizeof refs[i].lane[0]; k++) {
            if (refs[i].lane[k] && strcmp(refs[i].lane[k], c->lane) == 0) {
                refs[i].fn[k](pid, c);
                return;
            }
        }
    }
    c->has_ref = 0;
    snprintf(c->note, sizeof c->note, "no reference for %s on %s", c->lane,
             plat->name ? plat->name : "this system");
}

void st_doctor_os_release(const st_platform *plat, char *buf, size_t len)
{
    ref_buf b;
    st_error e;
    buf[0] = '\0';
    if (plat->doctor_refs == ST_DOCTOR_REFS_MACOS) {
        const char *v_argv[] = {"sw_vers", "-productVersion", NULL};
        const char *b_argv[] = {"sw_vers", "-buildVersion", NULL};
        char ver[64] = "";
        if (run(v_argv, &b, &e) == ST_OK) {
            b.text[strcspn(b.text, "\n")] = '\0';
            snprintf(ver, sizeof ver, "%.63s", b.text);
        }
        if (ver[0] && run(b_argv, &b, &e) == ST_OK) {
            b.text[strcspn(b.text, "\n")] = '\0';
            snprintf(buf, len, "macOS %s (%.32s)", ver, b.text);
        } else if (ver[0]) {
            snprintf(buf, len, "macOS %s", ver);
        }
        return;
    }
    if (st_doctor_read_file("/etc/os-release", b.text, sizeof b.text, &b.len, &e) == ST_OK) {
        const char *p = strstr(b.text, "PRETTY_NAME=");
        if (p && (p == b.text || p[-1] == '\n')) {
            size_t n;
            p += strlen("PRETTY_NAME=");
            if (*p == '"')
                p++;
            n = strcspn(p, "\"\n");
            snprintf(buf, len, "%.*s", (int)n, p);
        }
    }
}
