/* cmd_doctor.c: `stagetop doctor [-p PID] [--json] [--no-gpu]`: every lane read
 * through the backend and through an independent reference, printed as a
 * table (or JSON) with the facts a bug report needs (docs/doctor.md).
 * Exit 0 when every checked lane agrees, 1 when one does not or the pid
 * cannot be watched, 2 on bad usage. */
#include "cli.h"
#include "stagetop/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/prerun.h"
#include "stagetop/doctor.h"
#include "stagetop/units.h"

static const char doctor_use[] = "usage: stagetop doctor [-p PID] [--json] [--no-gpu]";

static void doctor_help(void)
{
    printf("%s\n"
           "Reads every lane (footprint, rss, kernel peak, swap used, level, pressure,\n"
           "GPU) through stagetop's backend and through a source that does not share\n"
           "its code (another kernel file or a system tool), and says whether they agree.\n"
           "  -p PID    check this process (default: a child doctor starts, holding\n"
           "            256 MiB of random bytes; it is killed at the end)\n"
           "  --json    the report as one JSON object (docs/doctor.md)\n"
           "  --no-gpu  leave NVML out\n"
           "exit: 0 every lane agrees; 1 a lane disagrees or the pid cannot be watched; 2 usage\n",
           doctor_use);
}

/* A value in its unit, for the table. */
static char *fmt(const st_doctor_check *c, int has, uint64_t v, char *buf, size_t len)
{
    if (!has)
        snprintf(buf, len, "-");
    else if (c->unit == ST_DOC_PERCENT_C)
        snprintf(buf, len, "%u.%02u%%", (unsigned)(v / 100), (unsigned)(v % 100));
    else if (c->unit == ST_DOC_STATE || c->unit == ST_DOC_COUNT)
        snprintf(buf, len, "%llu", (unsigned long long)(c->unit == ST_DOC_STATE ? v / 100 : v));
    else if (c->unit == ST_DOC_RATIO)
        snprintf(buf, len, v == ST_DOC_UNSET ? "unset" : "%.3f", v / 1000.0);
    else if (c->unit == ST_DOC_MS)
        snprintf(buf, len, "%.2f s", v / 1000.0);
    else
        st_format_bytes_as((double)v, ST_UNITS_KIB_MIB, buf, len);
    return buf;
}

static void print_table(const st_doctor_report *r)
{
    const st_doctor_facts *f = &r->facts;
    size_t bad = 0, unchecked = 0;
    printf("stagetop doctor: pid %ld", (long)r->pid);
    if (r->own_child)
        printf(" (doctor's own child, holding %llu MiB of random bytes)",
               (unsigned long long)(r->child_bytes >> 20));
    printf("\n\n%-12s %-13s %-13s %-12s %-5s %s\n", "lane", "stagetop", "reference", "tolerance", "ok",
           "source");
    for (size_t i = 0; i < r->n; i++) {
        const st_doctor_check *c = &r->checks[i];
        char a[32], b[32], t[32], tol[40];
        snprintf(tol, sizeof tol, "%s%s", c->rule == ST_DOC_AT_LEAST ? "-" : "+/-",
                 fmt(c, 1, c->tol, t, sizeof t));
        printf("%-12s %-13s %-13s %-12s %-5s %s\n", c->lane, fmt(c, c->has_value, c->value, a, sizeof a),
               fmt(c, c->has_ref, c->ref, b, sizeof b), c->has_ref ? tol : "-",
               c->ok == ST_DOC_AGREES ? "ok" : c->ok == ST_DOC_MISMATCH ? "NO" : "-",
               c->source[0] ? c->source : "-");
        if (c->note[0])
            printf("%-12s   %s\n", "", c->note);
        bad += c->ok == ST_DOC_MISMATCH;
        unchecked += c->ok == ST_DOC_NOT_CHECKED;
    }
    if (r->mps.kind != ST_MPS_NONE) /* a Mac process that uses Metal */
        printf("\nMPS cap (PyTorch's, for this process as launched): %s\n", r->mps.line);
    printf("\nfacts:\n");
    printf("  os:             %s\n", f->os);
    if (f->os_release[0])
        printf("  release:        %s\n", f->os_release);
    printf("  backend:        %s (footprint %s, peak %s)\n", r->platform, r->footprint_metric, r->peak_metric);
    printf("  rusage flavor:  %s%s\n", f->rusage_flavor, strcmp(f->rusage_flavor, "n/a") == 0
           ? " (macOS's proc_pid_rusage flavors, V4 with the lifetime peak or V2; this platform"
             " reads /proc instead)" : "");
    printf("  kernel peak:    %s\n", f->kernel_peak ? "available" : "not available");
    printf("  NVML:           %s", f->nvml_found ? "found" : f->nvml_detail);
    if (f->nvml_found) {
        printf(", driver %s, %zu device(s)", f->nvml_version[0] ? f->nvml_version : "unknown", f->ngpu);
        for (size_t i = 0; i < f->ngpu && i < ST_DOC_MAX_GPUS; i++)
            printf("%s%s", i ? ", " : ": ", f->gpu_names[i]);
    }
    printf("\n  PSI:            %s\n", f->psi < 0 ? "n/a" : f->psi ? "present" : "absent");
    printf("  other users:    %s (%s)\n", f->others_readable ? "readable" : "not readable", f->others_detail);
    if (f->fd_soft == UINT64_MAX)
        printf("  fd limit:       unlimited\n");
    else
        printf("  fd limit:       %llu (hard %llu)\n", (unsigned long long)f->fd_soft,
               f->fd_hard == UINT64_MAX ? 0ull : (unsigned long long)f->fd_hard);
    char where[600]; /* made and removed again: where a launched job would run */
    st_prerun_job_group(where, sizeof where);
    printf("  job cgroup:     a launched job runs in %s\n", where);
    printf("  cost:           %.1f us per sample of one process (%d samples)\n", f->us_per_sample,
           f->samples_timed);
    if (bad)
        printf("\nresult: %zu lane(s) disagree:", bad);
    else
        printf("\nresult: every checked lane agrees");
    for (size_t i = 0; bad && i < r->n; i++)
        if (r->checks[i].ok == ST_DOC_MISMATCH)
            printf(" %s", r->checks[i].lane);
    if (unchecked)
        printf(" (%zu lane(s) had no reference or no reading here: not counted as failures)", unchecked);
    printf("\n");
}

/* -p: the tree the screen sums (the lanes above are the root alone): its
 * footprint sum against the sum of each member's reference reading
 * (st_prerun_tree_check; on Linux the members' PSS, each page counted
 * once).  Returns 1 when they disagree. */
static int print_tree(const st_platform *plat, int32_t pid)
{
    st_doctor_check c;
    st_error e;
    uint32_t procs = 0;
    uint64_t per_proc = 0;
    char a[32], bb[32], tl[32], pp[32];
    int refs = st_prerun_tree_check(plat, pid, &c, &procs, &per_proc, &e);
    if (refs < 0) {
        printf("\ntree: cannot read pid %ld's tree: %s\n", (long)pid, e.msg);
        return 0;
    }
    printf("\ntree (what the screen sums; the lanes above are pid %ld alone): %u process(es)\n",
           (long)pid, procs);
    printf("%-12s %-13s %-13s +/-%-9s %s\n", "footprint", st_format_bytes(c.value, a, sizeof a),
           refs ? st_format_bytes(c.ref, bb, sizeof bb) : "-", st_format_bytes(c.tol, tl, sizeof tl),
           !refs ? "(no reference for every member)" : c.ok == ST_DOC_AGREES ? "ok" : "DIFF");
    if (refs && c.source[0])
        printf("%-12s   reference: %s\n", "", c.source);
    if (c.note[0])
        printf("%-12s   %s\n", "", c.note);
    if (refs && plat->doctor_refs == ST_DOCTOR_REFS_PROC)
        printf("%-12s   counted once: tree %s, sum of PSS %s (%s within %d%% + 1 MiB); "
               "each process's own sum %s\n", "", st_format_bytes(c.value, a, sizeof a),
               st_format_bytes(c.ref, bb, sizeof bb), c.ok == ST_DOC_AGREES ? "agrees," : "NOT",
               ST_DOC_SHARE_PCT, st_format_bytes(per_proc, pp, sizeof pp));
    return refs && c.ok != ST_DOC_AGREES;
}

int cli_doctor(int argc, char **argv)
{
    st_doctor_opts o;
    st_doctor_report *r;
    st_error e;
    int json = 0, rc;
    memset(&o, 0, sizeof o);
    for (int i = 2; i < argc; i++) {
        if ((strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "--pid") == 0) && i + 1 < argc) {
            char *end;
            long v;
            errno = 0;
            v = strtol(argv[++i], &end, 10);
            if (!*argv[i] || *end || errno || v < 1 || v > 0x7fffffffL) {
                fprintf(stderr, "stagetop: doctor: invalid pid '%s'\n%s\n", argv[i], doctor_use);
                return CLI_EXIT_USAGE;
            }
            o.pid = (int32_t)v;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--no-gpu") == 0) {
            o.no_gpu = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            doctor_help();
            return CLI_EXIT_OK;
        } else {
            fprintf(stderr, "stagetop: doctor: unexpected argument '%s'\n%s\n", argv[i], doctor_use);
            return CLI_EXIT_USAGE;
        }
    }
    o.gpu_lib = getenv("ST_NVML_LIB");
    if (o.gpu_lib && !*o.gpu_lib)
        o.gpu_lib = NULL;
    if (o.pid && cli_check_zombie(&st_platform_native, o.pid, "doctor: "))
        return CLI_EXIT_WATCH;
    r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "stagetop: doctor: out of memory\n");
        return CLI_EXIT_WATCH;
    }
    st_error_clear(&e);
    rc = st_doctor_run(&st_platform_native, &o, r, &e);
    if (rc != ST_OK) {
        if (o.pid)
            fprintf(stderr, "stagetop: doctor: cannot check pid %ld: %s\n", (long)o.pid, e.msg);
        else
            fprintf(stderr, "stagetop: doctor: cannot check its own child: %s\n", e.msg);
        free(r);
        return CLI_EXIT_WATCH;
    }
    int tree_bad = 0;
    if (json) {
        if (st_doctor_json_write(STDOUT_FILENO, r) != 0)
            rc = -1;
    } else {
        print_table(r);
        if (o.pid)
            tree_bad = print_tree(&st_platform_native, o.pid);
        if (fflush(stdout) != 0)
            rc = -1;
    }
    rc = rc != 0 ? CLI_EXIT_WATCH : r->ok && !tree_bad ? CLI_EXIT_OK : CLI_EXIT_WATCH;
    free(r);
    return rc;
}
