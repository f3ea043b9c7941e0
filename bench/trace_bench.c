/* trace_bench.c: import and export of a large trace (default 1,000,000
 * samples), each timed, plus the peak extra memory of the export.
 *   trace-bench DIR [N]
 * writes DIR/bench.json and DIR/bench.jsonl and prints "key value" lines
 * that bench/trace.sh turns into a table. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../tests/selfstat.h"
#include "stagetop/trace.h"

static double now(void) { return selfstat_clock(CLOCK_MONOTONIC); }

/* Reset VmHWM to the current RSS (Linux >= 4.0); 0 on success. */
static int reset_hwm(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0)
        return -1;
    int ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok ? 0 : -1;
}

static long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: trace-bench DIR [N]\n");
        return 2;
    }
    size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
    char doc[4096], jsonl[4096];
    snprintf(doc, sizeof doc, "%s/bench.json", argv[1]);
    snprintf(jsonl, sizeof jsonl, "%s/bench.jsonl", argv[1]);

    st_trace_meta meta;
    memset(&meta, 0, sizeof meta);
    snprintf(meta.stagetop, sizeof meta.stagetop, "0.1.0");
    snprintf(meta.platform, sizeof meta.platform, "linux");
    snprintf(meta.command, sizeof meta.command, "python generate.py --steps 20");
    meta.interval = 0.5;
    meta.mem_total = 25769803776ULL;
    st_sample *s = malloc(n * sizeof *s);
    st_event_list ev;
    st_summary sum;
    st_error e;
    st_event_list_init(&ev, 0);
    st_summary_init(&sum);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        memset(&s[i], 0, sizeof s[i]);
        s[i].t_ms = (uint32_t)(i * 500 % 4000000000u);
        s[i].footprint = 20000000000ULL + x % 30000000000ULL;
        s[i].rss = s[i].footprint / 3 * 2;
        s[i].swap_used = 12000000000ULL + (x >> 20) % 8000000000ULL;
        s[i].level_c = (uint16_t)(x % 10001);
        s[i].procs = 1 + (uint32_t)(x % 7);
        s[i].valid = ST_F_FOOTPRINT | ST_F_RSS | ST_F_SWAP | ST_F_LEVEL | ST_F_PROCS;
        if (i % 5000 == 0) {
            st_event one;
            st_event_init(&one, s[i].t_ms, ST_EV_STAGE);
            snprintf(one.stage, sizeof one.stage, "stage-%zu", i / 5000);
            one.has = ST_EVF_STAGE;
            st_event_list_add(&ev, &one, NULL);
            st_summary_add_event(&sum, &one, NULL);
        }
        st_summary_add_sample(&sum, &s[i], NULL);
    }
    st_summary_finish(&sum);
    st_samples_view v = { s, n, NULL, 0 };
    printf("samples %zu\nevents %zu\n", n, ev.len);

    /* export: time and peak extra memory */
    long rss0 = selfstat_kib("VmRSS");
    int hwm_ok = reset_hwm() == 0;
    double t0 = now(), c0 = selfstat_cpu();
    if (st_trace_export(doc, &meta, v, &ev, &sum, 0, &e)) {
        fprintf(stderr, "export: %s\n", e.msg);
        return 1;
    }
    double t_export = now() - t0;
    long hwm = selfstat_kib("VmHWM");
    printf("export_s %.3f\nexport_cpu %.3f\nexport_mb %.1f\n", t_export, selfstat_cpu() - c0, file_size(doc) / 1e6);
    if (hwm_ok && rss0 > 0 && hwm > 0)
        printf("export_extra_kib %ld\n", hwm - rss0);

    /* import of the document */
    st_trace t;
    t0 = now(), c0 = selfstat_cpu();
    if (st_trace_load_file(doc, &t, &e)) {
        fprintf(stderr, "import: %s\n", e.msg);
        return 1;
    }
    double t_import = now() - t0, c_import = selfstat_cpu() - c0;
    int same = t.n_samples == n && memcmp(t.samples, s, n * sizeof *s) == 0;
    printf("import_s %.3f\nimport_cpu %.3f\nimport_same %d\n", t_import, c_import, same);
    st_trace_free(&t);

    /* the JSONL record stream: recorder (one write per line), then import */
    st_recorder *r;
    t0 = now(), c0 = selfstat_cpu();
    if (st_recorder_open(&r, jsonl, -1, ST_REC_OVERWRITE, &e) || st_recorder_start(r, &meta, &e))
        return 1;
    st_recorder_set_sync(r, ST_REC_SYNC_NEVER); /* the writing alone; bench/durability.sh: syncs */
    for (size_t i = 0, j = 0; i < n; i++) {
        while (j < ev.len && ev.v[j].t_ms <= s[i].t_ms)
            st_recorder_event(r, &ev.v[j++], NULL);
        if (st_recorder_sample(r, &s[i], &e)) {
            fprintf(stderr, "record: %s\n", e.msg);
            return 1;
        }
    }
    st_recorder_end(r, &sum, 0, NULL);
    st_recorder_close(r);
    printf("record_s %.3f\nrecord_cpu %.3f\nrecord_mb %.1f\n", now() - t0, selfstat_cpu() - c0, file_size(jsonl) / 1e6);
    t0 = now(), c0 = selfstat_cpu();
    if (st_trace_load_file(jsonl, &t, &e)) {
        fprintf(stderr, "import jsonl: %s\n", e.msg);
        return 1;
    }
    printf("import_jsonl_s %.3f\nimport_jsonl_cpu %.3f\n", now() - t0, selfstat_cpu() - c0);
    st_trace_free(&t);

    free(s);
    st_event_list_free(&ev);
    st_summary_free(&sum);
    return 0;
}
