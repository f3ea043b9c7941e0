/* durability_bench.c: two costs of keeping a trace safe.
 *   durability-bench outside N
 *       the summary of N load events noted "outside_stage" with distinct
 *       names in random order (stageload marks loads outside any stage):
 *       "outside_s", "outside_names" lines;
 *   durability-bench record DIR N MODE
 *       N sample lines recorded to DIR/rec-MODE.jsonl with --record-sync
 *       MODE (never, 1s, always), as fast as they can be written:
 *       "record_us_per_line", "record_syncs" lines.
 * bench/durability.sh turns them into a table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tests/selfstat.h"
#include "stagetop/summary.h"
#include "stagetop/trace.h"

static double now(void) { return selfstat_clock(CLOCK_MONOTONIC); }

static int outside(size_t n)
{
    size_t *order = malloc(n * sizeof *order);
    if (!order)
        return 1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    uint64_t x = 88172645463325252ULL;
    for (size_t i = n; i > 1; i--) { /* Fisher-Yates with xorshift */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = (size_t)(x % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    st_summary s;
    st_summary_init(&s);
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        st_event ev;
        st_event_init(&ev, (uint32_t)i, ST_EV_LOAD);
        snprintf(ev.name, sizeof ev.name, "model.layers.%zu.weight", order[i]);
        snprintf(ev.note, sizeof ev.note, "outside_stage");
        ev.has = ST_EVF_NAME | ST_EVF_NOTE;
        if (st_summary_add_event(&s, &ev, NULL) != ST_OK)
            return 1;
    }
    st_summary_finish(&s);
    printf("outside_s %.3f\noutside_names %zu\n", now() - t0, s.n_outside_stage);
    st_summary_free(&s);
    free(order);
    return 0;
}

static int record(const char *dir, size_t n, const char *mode)
{
    char path[4096];
    int m = strcmp(mode, "never") == 0 ? ST_REC_SYNC_NEVER
          : strcmp(mode, "always") == 0 ? ST_REC_SYNC_ALWAYS : ST_REC_SYNC_1S;
    snprintf(path, sizeof path, "%s/rec-%s.jsonl", dir, mode);
    st_recorder *r;
    st_error e;
    if (st_recorder_open(&r, path, -1, ST_REC_OVERWRITE, &e) != ST_OK) {
        fprintf(stderr, "record: %s\n", e.msg);
        return 1;
    }
    st_recorder_set_sync(r, m);
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        st_sample s;
        memset(&s, 0, sizeof s);
        s.t_ms = (uint32_t)(i * 500);
        s.footprint = 20000000000ULL + i * 4096;
        s.rss = s.footprint / 2;
        s.swap_used = i * 512;
        s.level_c = (uint16_t)(9000 - i % 1000);
        s.procs = 3;
        s.valid = ST_F_FOOTPRINT | ST_F_RSS | ST_F_SWAP | ST_F_LEVEL | ST_F_PROCS;
        if (st_recorder_sample(r, &s, &e) != ST_OK) {
            fprintf(stderr, "record: %s\n", e.msg);
            return 1;
        }
    }
    double dt = now() - t0;
    printf("record_us_per_line %.2f\nrecord_syncs %llu\nrecord_s %.3f\n", dt * 1e6 / (double)n,
           (unsigned long long)st_recorder_syncs(r), dt);
    st_recorder_close(r);
    unlink(path);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "outside") == 0)
        return outside(strtoul(argv[2], NULL, 10));
    if (argc == 5 && strcmp(argv[1], "record") == 0)
        return record(argv[2], strtoul(argv[3], NULL, 10), argv[4]);
    fprintf(stderr, "usage: durability-bench outside N | record DIR N never|1s|always\n");
    return 2;
}
