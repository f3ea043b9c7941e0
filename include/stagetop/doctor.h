/* doctor.h: `stagetop doctor`, every lane checked against a reading that
 * does not share the monitor's code path (docs/doctor.md).
 *
 *  - core/doctor/doctor_parse.c: parsers of the reference tools' text output
 *    (macOS footprint, vmmap, sysctl, memory_pressure; Linux smaps_rollup,
 *    /proc/swaps, free; ps; nvidia-smi).  Pure functions on memory, tested
 *    on captured real outputs (tests/fixtures/macos/).
 *  - core/doctor/doctor_run.c: a small runner for those tools (posix_spawn, a
 *    timeout, output captured) and the child doctor checks when no pid is
 *    given (it holds random bytes and says when it is ready).
 *  - core/doctor/doctor.c, core/doctor/doctor_ref.c: the checks and the facts.
 *  - core/doctor/doctor_json.c: the report as JSON.
 * Nothing here prints; tui/cmd_doctor.c does. */
#ifndef STAGETOP_DOCTOR_H
#define STAGETOP_DOCTOR_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"
#include "stagetop/mps_advice.h"
#include "stagetop/platform.h"

struct st_jw;

/* ---- parsers (core/doctor/doctor_parse.c) ---- */

/* A size as the macOS tools print it: "1.2G", "213.8M", "2192K", "142 MB",
 * "253904480 B", "0 B" (binary units).  *res gets one unit of the last
 * printed digit (0.1 GiB for "1.2G", 1 for "N B"): the reading's
 * resolution, which a tolerance must allow for. */
int st_doctor_parse_size(const char *s, size_t n, uint64_t *bytes, uint64_t *res, st_error *err);

/* Valid bits of st_doctor_fp. */
enum { ST_DOC_FP_NOW = 1u << 0, ST_DOC_FP_PEAK = 1u << 1 };

/* The physical footprint and its peak, bytes, with their resolutions. */
typedef struct st_doctor_fp {
    uint64_t now, now_res, peak, peak_res;
    unsigned valid;
} st_doctor_fp;

/* `vmmap --summary PID` (also the header of leaks and sample):
 * "Physical footprint:" and "Physical footprint (peak):". */
int st_doctor_parse_vmmap(const char *text, size_t len, st_doctor_fp *out, st_error *err);
/* `footprint -p PID`: "phys_footprint:" and "phys_footprint_peak:" of its
 * "Auxiliary data", else the "Footprint: N UNIT" of the header line. */
int st_doctor_parse_footprint(const char *text, size_t len, st_doctor_fp *out, st_error *err);
/* `sysctl vm.swapusage` or `sysctl -n vm.swapusage`:
 * "total = 2048.00M  used = 1462.50M  free = 585.50M  (encrypted)". */
int st_doctor_parse_swapusage(const char *text, size_t len, uint64_t *total, uint64_t *used,
                           uint64_t *res, st_error *err);
/* `memory_pressure` (no arguments!): "System-wide memory free percentage:
 * 86%", in hundredths of a percent. */
int st_doctor_parse_memory_pressure(const char *text, size_t len, uint16_t *free_c, st_error *err);
/* One unsigned integer, blanks around it (`ps -o rss= -p PID`,
 * `sysctl -n kern.memorystatus_vm_pressure_level`). */
int st_doctor_parse_uint(const char *text, size_t len, uint64_t *v, st_error *err);
/* `top -l 1 -pid PID -stats pid,pageins` (Apple's top): the PAGEINS cell
 * of pid's row (a trailing + or - ignored). */
int st_doctor_parse_top_pageins(const char *text, size_t len, int32_t pid, uint64_t *v,
                                st_error *err);
/* `ps -o time=`: [[DD-]HH:]MM:SS[.ss] (Linux whole seconds, macOS
 * hundredths) in milliseconds. */
int st_doctor_parse_cputime(const char *text, size_t len, uint64_t *ms, st_error *err);
/* `nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,
 * nounits`: the MiB of every line of pid, summed (one line per GPU), in
 * bytes.  *lines counts pid's lines; "[N/A]" values are skipped. */
int st_doctor_parse_nvsmi(const char *text, size_t len, int32_t pid, uint64_t *bytes, int *lines,
                       st_error *err);

/* /proc/PID/smaps_rollup, bytes (Pss_Anon and SwapPss: Linux 5.8 on). */
enum { ST_DOC_SM_PSS_SHMEM = 8, ST_DOC_SM_PSS_ANON = 16, ST_DOC_SM_SWAP_PSS = 32 };
typedef struct st_doctor_smaps {
    uint64_t rss, anonymous, swap, pss_shmem, pss_anon, swap_pss;
    unsigned valid; /* 1 rss, 2 anonymous, 4 swap, 8 pss_shmem, 16 pss_anon, 32 swap_pss */
} st_doctor_smaps;
int st_doctor_parse_smaps_rollup(const char *text, size_t len, st_doctor_smaps *out, st_error *err);
/* /proc/swaps: the Used column (KiB) summed over devices, bytes. */
int st_doctor_parse_proc_swaps(const char *text, size_t len, uint64_t *used, uint64_t *total,
                            st_error *err);
/* `free -b`: Mem: total and available, Swap: total and used, bytes. */
typedef struct st_doctor_free {
    uint64_t mem_total, mem_available, swap_total, swap_used;
} st_doctor_free;
int st_doctor_parse_free(const char *text, size_t len, st_doctor_free *out, st_error *err);
/* /proc/pressure/memory: the "some" line's avg10, hundredths of a percent. */
int st_doctor_parse_psi_some(const char *text, size_t len, uint16_t *avg10_c, st_error *err);

/* ---- runner and the held child (core/doctor/doctor_run.c) ---- */

/* Run argv[0] (found on PATH) with argv, stdin and stderr on /dev/null and
 * LC_ALL=C; its stdout (at most cap-1 bytes, NUL-terminated) goes to out.
 * Killed after timeout_s.  ST_ENOTSUP when the tool is not installed,
 * ST_EIO when it failed (exit status in the message) or timed out. */
int st_doctor_run_tool(const char *const argv[], double timeout_s, char *out, size_t cap, size_t *len,
               st_error *err);
/* Read a whole (small) file into out (cap-1 bytes at most). */
int st_doctor_read_file(const char *path, char *out, size_t cap, size_t *len, st_error *err);

typedef struct st_doctor_child {
    int32_t pid;  /* 0: none */
    int life_fd;  /* its end of the life pipe: closing it ends the child */
} st_doctor_child;

/* Fork a child that fills `bytes` with pseudo-random bytes (they do not
 * compress), touches them, writes one byte on a pipe and waits for the
 * life pipe to close.  Waits up to timeout_s for it to be ready. */
int st_doctor_child_start(st_doctor_child *c, uint64_t bytes, double timeout_s, st_error *err);
/* Kill and reap the child (safe when none); *maxrss (may be NULL) gets
 * wait4's ru_maxrss as the system gives it (KiB on Linux, bytes on
 * macOS), 0 if unknown. */
void st_doctor_child_stop(st_doctor_child *c, uint64_t *maxrss);

/* ---- the checks (core/doctor/doctor.c) ---- */

enum st_doctor_unit { ST_DOC_BYTES = 0, ST_DOC_PERCENT_C = 1, ST_DOC_STATE = 2, ST_DOC_MS = 3, ST_DOC_COUNT = 4,
                      ST_DOC_RATIO = 5 /* thousandths (PyTorch's MPS ratios) */ };
/* A ratio that is not set (ST_DOC_RATIO): "unset" in the table, null in JSON. */
#define ST_DOC_UNSET UINT64_MAX
enum st_doctor_rule { ST_DOC_WITHIN = 0, ST_DOC_AT_LEAST = 1 };
enum st_doctor_ok { ST_DOC_NOT_CHECKED = -1, ST_DOC_MISMATCH = 0, ST_DOC_AGREES = 1 };

typedef struct st_doctor_check {
    char lane[16];      /* footprint, rss, kernel peak, swap used, level, pressure, gpu, cpu, pageins */
    int unit;           /* enum st_doctor_unit (percent: hundredths) */
    int rule;           /* enum st_doctor_rule */
    int has_value, has_after, has_ref;
    uint64_t value, after, ref, tol; /* after: the backend read again after the reference */
    int ok;             /* enum st_doctor_ok */
    char source[300];   /* where the reference came from */
    char note[300];     /* why not checked, or what the rule means */
} st_doctor_check;

#define ST_DOC_MAX_CHECKS 20
#define ST_DOC_MAX_GPUS 8

typedef struct st_doctor_facts {
    char os[300];           /* uname: sysname release version machine */
    char os_release[128];   /* PRETTY_NAME (Linux) or sw_vers (macOS) */
    char rusage_flavor[8];  /* "V4", "V2", "n/a" */
    int kernel_peak;        /* the backend reads a kernel peak */
    int nvml_found;
    char nvml_detail[300];  /* why not, or "found" */
    char nvml_version[64];  /* driver version, "" when unknown */
    size_t ngpu;
    char gpu_names[ST_DOC_MAX_GPUS][64];
    int psi;                /* 1 present, 0 absent, -1 not this system */
    int others_readable;    /* pid 1's memory readable through the backend */
    char others_detail[300];
    int is_root;
    uint64_t fd_soft, fd_hard; /* UINT64_MAX: unlimited */
    double us_per_sample;   /* read_proc + read_system, averaged */
    int samples_timed;
} st_doctor_facts;

typedef struct st_doctor_report {
    const char *platform;   /* st_platform.name */
    const char *footprint_metric, *peak_metric;
    int32_t pid;
    int own_child;          /* the pid is doctor's own child */
    uint64_t child_bytes;
    st_doctor_facts facts;
    st_doctor_check checks[ST_DOC_MAX_CHECKS];
    size_t n;
    int ok;                 /* no check disagrees */
    st_mps_advice mps;      /* a Mac process that uses Metal: what its MPS cap means */
} st_doctor_report;

typedef struct st_doctor_opts {
    int32_t pid;            /* 0: start a child */
    uint64_t child_bytes;   /* its memory (default 256 MiB) */
    const char *gpu_lib;    /* NVML path (NULL: the default search) */
    int no_gpu;
    int samples;            /* backend samples timed for us_per_sample */
} st_doctor_opts;

/* Run every check.  Fails (ST_ESRCH, ST_EPERM, ...) only when the pid
 * cannot be watched at all; a lane that disagrees is in the report. */
int st_doctor_run(const st_platform *plat, const st_doctor_opts *o, st_doctor_report *r,
                  st_error *err);

/* ---- the references of each system (core/doctor/doctor_ref.c) ---- */

/* Fill the reference of check c (lane, value already set) for pid from the
 * references plat names (its doctor_refs capability: /proc files and
 * tools, or macOS's tools).  Leaves c->has_ref 0 and a note when there is
 * none. */
void st_doctor_reference(const st_platform *plat, int32_t pid, st_doctor_check *c);
/* ---- the tree's memory counted once (core/doctor/doctor_share.c) ---- */

/* pid's proportional share, Pss_Anon + Pss_Shmem + SwapPss of
 * /proc/PID/smaps_rollup, read and parsed by doctor's own code (not the
 * backend's reader).  ST_ENOTSUP when the kernel has no Pss_Anon or
 * Pss_Shmem (before 5.8). */
int st_doctor_pss_reference(int32_t pid, uint64_t *pss, st_error *err);
/* doctor -p's counted-once check: c->value (and c->after, when has_after)
 * is the tree's footprint as the screen sums it, sum_pss the members'
 * st_doctor_pss_reference summed.  Agrees within ST_DOC_SHARE_PCT (2) % of sum_pss +
 * 1 MiB); a tree sum above that counts shared memory more than once, and
 * c->note says so with both numbers. */
#define ST_DOC_SHARE_PCT 2
void st_doctor_share_judge(st_doctor_check *c, uint64_t sum_pss);

/* The OS release line (PRETTY_NAME, sw_vers), by the same capability. */
void st_doctor_os_release(const st_platform *plat, char *buf, size_t len);

/* ---- JSON (core/doctor/doctor_json.c) ---- */

/* The report as one JSON object (docs/doctor.md). */
void st_doctor_json(struct st_jw *w, const st_doctor_report *r);
/* The same written to fd (stdout for `stagetop doctor --json`): 0, or the
 * errno of the failed write. */
int st_doctor_json_write(int fd, const st_doctor_report *r);
/* Decide c->ok: WITHIN agrees when ref is within tol of value, of after,
 * or between them (memory moves between reads); AT_LEAST agrees when
 * value + tol >= ref. */
void st_doctor_judge(st_doctor_check *c);

/* ---- the Mac's GPU and MPS numbers (core/doctor/doctor_mac.c) ---- */

/* `ioreg -r -d 1 -w 0 -c IOAccelerator`: the sum of every "In use system
 * memory"=N (not "... (driver)"), and how many there were; ST_EPARSE when
 * none. */
int st_doctor_parse_ioreg_in_use(const char *text, size_t len, uint64_t *bytes, int *services,
                                 st_error *err);
/* `ps -E -ww -o command= -p PID`: the value of the last " name=" on the
 * first line into buf (*found 0 and buf "" when it is not there). */
int st_doctor_parse_ps_env(const char *text, size_t len, const char *name, char *buf, size_t blen,
                           int *found, st_error *err);
/* Append the checks of the wired limit and of the MPS ratios as pid was
 * launched (macOS; elsewhere rows that say they are macOS only), and fill
 * r->mps: what the MPS cap means for this process (ST_MPS_NONE when it
 * does not use Metal, and everywhere but on a Mac). */
void st_doctor_mac_checks(const st_platform *plat, st_backend *b, st_proc_id id, st_doctor_report *r);

/* ---- the Mac's Metal and compressed memory (core/doctor/doctor_parse_mac.c) ---- */

/* `footprint -p PID`: the Dirty of every category whose name ends in
 * "(graphics)" (VM_LEDGER_TAG_GRAPHICS: "IOAccelerator (graphics)",
 * "Owned physical footprint (unmapped) (graphics)"), summed; *res the
 * printed resolutions summed, *rows how many.  0 bytes when the table has
 * no such row; ST_EPARSE when there is no category table. */
int st_doctor_parse_footprint_graphics(const char *text, size_t len, uint64_t *bytes, uint64_t *res,
                                       int *rows, st_error *err);
/* `vmmap --summary PID`: the SWAPPED SIZE of the region-type table's TOTAL
 * row (the column found by its header); ST_EPARSE when vmmap prints no
 * such column (macOS 10.12) or no such row. */
int st_doctor_parse_vmmap_swapped(const char *text, size_t len, uint64_t *bytes, uint64_t *res,
                                  st_error *err);

/* One line on the GPU lane for --help: "NVML found, N device(s), first:
 * NAME" or why there is none (lib: the NVML path, NULL or "": the default). */
void st_doctor_gpu_line(const char *lib, char *buf, size_t len);

#endif
