/* soak: push N samples through the whole data path -- a scripted backend
 * (the st_platform table, as tests/unit/test_monitor.c does), the monitor,
 * the tree, the ring, the summary, the JSONL record stream and the JSON
 * export -- with a simulated clock (10 ms a sample), and report stagetop's
 * own memory along the way.
 *
 *   soak N HISTORY_S OUTDIR
 *
 * Writes OUTDIR/soak.jsonl (the record: start, N samples, a mark every
 * 100,000 samples, end) and OUTDIR/soak.json (the export at the end: what
 * the ring holds), exporting also at N/10 and N/2 (then deleted), and prints
 *   checkpoint SAMPLES VmRSS_KiB STEP_US EXPORT_S
 *   done N ring_len RING_LEN ring_cap RING_CAP dropped DROPPED hwm_kib KIB
 * tests/faults/check_soak.py checks both files against the script below,
 * computed again in Python, not read back from stagetop.
 *
 * The script, for sample k (t = k * 10 ms):
 *   four members (root 5000, children 5001..5003): footprint
 *     (i + 1) MiB + ((k * 7919 + i * 104729) % 65536) * 4096, rss that + 1 MiB;
 *   a fifth process, a child of the root with no memory, alive while
 *     (k / 500) is odd, a new pid (and start) each time;
 *   system: swap_used (k % 100) * 4096, level 50.00 % + (k % 3000) / 100.
 * The backend is told k before each step. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/monitor.h"
#include "../selfstat.h"

#define N_FIXED 4
#define MIB (1024u * 1024u)

struct st_backend {
    uint64_t k;          /* the sample being taken */
    int32_t churn_pid;   /* the fifth process's pid in this phase */
    uint64_t releases;   /* release() calls (members forgotten) */
};

/* The backend open() made (the driver sets its k before each step). */
static struct st_backend *current;

static uint64_t fixed_fp(uint64_t k, int i)
{
    return (uint64_t)(i + 1) * MIB + ((k * 7919u + (uint64_t)i * 104729u) % 65536u) * 4096u;
}

static int churn_alive(uint64_t k) { return (k / 500) % 2 == 1; }
static int32_t churn_pid_at(uint64_t k) { return 6000 + (int32_t)((k / 500) % 20000); }

static int f_open(st_backend **out, st_error *err)
{
    struct st_backend *b = calloc(1, sizeof *b);
    if (!b)
        return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory");
    current = b;
    *out = b;
    return ST_OK;
}

static void f_close(st_backend *b)
{
    if (current == b)
        current = NULL;
    free(b);
}

/* Who is alive now: the fixed four always; the churn child in odd phases. */
static int f_identify(st_backend *b, int32_t pid, st_proc_id *out, st_error *err)
{
    if (pid >= 5000 && pid < 5000 + N_FIXED) {
        out->pid = pid;
        out->start = 100;
        return ST_OK;
    }
    if (churn_alive(b->k) && pid == churn_pid_at(b->k)) {
        out->pid = pid;
        out->start = 1000 + b->k / 500;
        return ST_OK;
    }
    return st_error_set(err, ST_ESRCH, ESRCH, "no process %d", (int)pid);
}

static int f_descendants(st_backend *b, st_proc_id root, st_proc_vec *out, st_error *err)
{
    st_proc_vec_clear(out);
    if (root.pid != 5000 || root.start != 100)
        return st_error_set(err, ST_ESRCH, ESRCH, "gone");
    for (int i = 0; i < N_FIXED; i++) {
        st_proc_ref r = {{5000 + i, 100}, i ? 5000 : 1};
        int rc = st_proc_vec_push(out, &r, err);
        if (rc != ST_OK)
            return rc;
    }
    if (churn_alive(b->k)) {
        st_proc_ref r = {{churn_pid_at(b->k), 1000 + b->k / 500}, 5000};
        return st_proc_vec_push(out, &r, err);
    }
    return ST_OK;
}

static int f_read_proc(st_backend *b, st_proc_id id, st_proc_mem *out, st_error *err)
{
    st_proc_id now;
    if (f_identify(b, id.pid, &now, NULL) != ST_OK || now.start != id.start)
        return st_error_set(err, ST_ESRCH, ESRCH, "gone");
    memset(out, 0, sizeof *out);
    out->id = id;
    out->ppid = id.pid == 5000 ? 1 : 5000;
    out->valid = ST_PM_FOOTPRINT | ST_PM_RSS | ST_PM_PEAK;
    if (id.pid < 5000 + N_FIXED) {
        out->footprint = fixed_fp(b->k, id.pid - 5000);
        out->rss = out->footprint + MIB;
        out->peak = 512ull * MIB;
    }
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
    memset(out, 0, sizeof *out);
    out->mem_total = 32ull << 30;
    out->swap_total = 8ull << 30;
    out->swap_used = (b->k % 100) * 4096;
    out->level_c = (uint16_t)(5000 + b->k % 3000);
    out->valid = ST_F_SWAP | ST_F_LEVEL | ST_SYS_MEMTOTAL | ST_SYS_SWAPTOTAL;
    return ST_OK;
}

static int f_command(st_backend *b, st_proc_id id, char *buf, size_t len, st_error *err)
{
    (void)b;
    (void)err;
    snprintf(buf, len, "soak-job %d", (int)id.pid);
    return ST_OK;
}

static int f_list_all(st_backend *b, st_proc_vec *out, st_error *err)
{
    st_proc_id root = {5000, 100};
    return f_descendants(b, root, out, err);
}

static int f_send_signal(st_backend *b, st_proc_id id, int sig, st_error *err)
{
    (void)b;
    (void)sig;
    return st_error_set(err, ST_EPERM, EPERM, "the soak signals no one (%d)", (int)id.pid);
}

static const st_platform scripted = {
    .name = "soak", .footprint_metric = "scripted", .peak_metric = "scripted",
    .open = f_open, .close = f_close, .identify = f_identify, .descendants = f_descendants,
    .read_proc = f_read_proc, .release = f_release, .read_system = f_read_system,
    .command = f_command, .list_all = f_list_all, .send_signal = f_send_signal,
};



int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: soak SAMPLES HISTORY_S OUTDIR\n");
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10);
    double history = atof(argv[2]);
    const char *dir = argv[3];
    char rec[4096], out[4096];
    snprintf(rec, sizeof rec, "%s/soak.jsonl", dir);
    snprintf(out, sizeof out, "%s/soak.json", dir);
    setvbuf(stdout, NULL, _IOLBF, 0);

    st_monitor m;
    st_monitor_opts o;
    st_error e;
    st_monitor_opts_default(&o);
    o.interval = 0.01;
    o.history_s = history;
    o.no_gpu = 1;
    o.record_path = rec;
    current = NULL;
    if (st_monitor_open(&m, &scripted, &o, 5000, NULL, 0.0, &e) != ST_OK) {
        fprintf(stderr, "soak: open: %s\n", e.msg);
        return 1;
    }
    st_monitor_start(&m, 0.0);
    uint64_t checkpoints[3] = {n / 10, n / 2, n};
    int next_cp = 0;
    double seg_start = selfstat_clock(CLOCK_MONOTONIC), seg_k = 0;
    for (uint64_t k = 0; k < n; k++) {
        current->k = k;
        if (st_monitor_step(&m, (double)k * o.interval, &e) != ST_OK) {
            fprintf(stderr, "soak: step %llu: %s\n", (unsigned long long)k, e.msg);
            return 1;
        }
        if (k % 100000 == 99999) {
            char note[32];
            snprintf(note, sizeof note, "k=%llu", (unsigned long long)k);
            st_monitor_mark(&m, note, (double)k * o.interval, NULL);
        }
        if (next_cp < 3 && k + 1 == checkpoints[next_cp]) {
            double step_us = (selfstat_clock(CLOCK_MONOTONIC) - seg_start) / ((double)(k + 1) - seg_k) * 1e6;
            long rss = selfstat_kib("VmRSS");
            double t = selfstat_clock(CLOCK_MONOTONIC);
            if (st_monitor_export(&m, out, &e) != ST_OK) {
                fprintf(stderr, "soak: export at %llu: %s\n", (unsigned long long)(k + 1), e.msg);
                return 1;
            }
            double export_s = selfstat_clock(CLOCK_MONOTONIC) - t;
            if (next_cp < 2)
                unlink(out);
            printf("checkpoint %llu %ld %.2f %.3f\n", (unsigned long long)(k + 1), rss, step_us, export_s);
            next_cp++;
            seg_start = selfstat_clock(CLOCK_MONOTONIC);
            seg_k = (double)(k + 1);
        }
    }
    if (st_monitor_warning(&m, ST_WARN_RECORD)[0]) {
        fprintf(stderr, "soak: %s\n", st_monitor_warning(&m, ST_WARN_RECORD));
        return 1;
    }
    printf("done %llu ring_len %zu ring_cap %zu dropped %llu releases %llu hwm_kib %ld\n",
           (unsigned long long)n, st_ring_len(&m.ring), m.ring.cap,
           (unsigned long long)(m.dropped + st_ring_overwritten(&m.ring)),
           (unsigned long long)current->releases, selfstat_kib("VmHWM"));
    if (st_monitor_close(&m, 0, &e) != ST_OK) {
        fprintf(stderr, "soak: close: %s\n", e.msg);
        return 1;
    }
    return 0;
}
