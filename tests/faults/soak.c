/* soak: push N samples through the whole data path -- a scripted backend
 * (tests/fakeplat.c in the st_platform table), the monitor,
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
 * The driver writes sample k's script into the backend before each step. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stagetop/monitor.h"
#include "../fakeplat.h"
#include "../selfstat.h"

#define N_FIXED 4
#define MIB (1024u * 1024u)

/* The backend open() made (tests/fakeplat.c; the driver writes the script
 * of sample k into it before each step). */
static st_backend *current;

static uint64_t fixed_fp(uint64_t k, int i)
{
    return (uint64_t)(i + 1) * MIB + ((k * 7919u + (uint64_t)i * 104729u) % 65536u) * 4096u;
}

static int churn_alive(uint64_t k) { return (k / 500) % 2 == 1; }
static int32_t churn_pid_at(uint64_t k) { return 6000 + (int32_t)((k / 500) % 20000); }

/* Sample k of the script (the comment at the top). */
static void script_at(st_backend *b, uint64_t k)
{
    for (int i = 0; i < N_FIXED; i++) {
        b->procs[i].footprint = fixed_fp(k, i);
        b->procs[i].rss = b->procs[i].footprint + MIB;
    }
    b->alive[N_FIXED] = churn_alive(k);
    b->procs[N_FIXED].id.pid = churn_pid_at(k);
    b->procs[N_FIXED].id.start = 1000 + k / 500;
    b->sys.swap_used = (k % 100) * 4096;
    b->sys.level_c = (uint16_t)(5000 + k % 3000);
}

/* The fixed four (rows 0..3) and the churn child (row 4); nothing signals. */
static int script_open(st_backend *b, st_error *err)
{
    for (int i = 0; i < N_FIXED + 1; i++) {
        st_proc_mem *p = fakeplat_add(b, 5000 + i, 100, i ? 5000 : 1);
        if (!p)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "the fake backend is full");
        p->valid = ST_PM_FOOTPRINT | ST_PM_RSS | ST_PM_PEAK;
        p->peak = i < N_FIXED ? 512ull * MIB : 0;
    }
    b->command_prefix = "soak-job ";
    b->refuse_signals = 1;
    b->sys.mem_total = 32ull << 30;
    b->sys.swap_total = 8ull << 30;
    b->sys.valid = ST_SYS_SWAP | ST_SYS_LEVEL | ST_SYS_MEMTOTAL | ST_SYS_SWAPTOTAL;
    script_at(b, 0);
    current = b;
    return ST_OK;
}

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
    fakeplat_on_open(script_open);
    if (st_monitor_open(&m, &fakeplat, &o, 5000, NULL, 0.0, &e) != ST_OK) {
        fprintf(stderr, "soak: open: %s\n", e.msg);
        return 1;
    }
    st_monitor_start(&m, 0.0);
    uint64_t checkpoints[3] = {n / 10, n / 2, n};
    int next_cp = 0;
    double seg_start = selfstat_clock(CLOCK_MONOTONIC), seg_k = 0;
    for (uint64_t k = 0; k < n; k++) {
        script_at(current, k);
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
