/* test_summary.c: the incremental summary against hand-computed cases and
 * against a naive oracle written straight from stageload's definition
 * (windows recomputed from scratch over the whole prefix each time). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stagetop/summary.h"
#include "stagetop/trace.h"
#include "testutil.h"

static void feed_sample(st_summary *s, uint32_t t, uint64_t fp, uint64_t swap, uint16_t level_c)
{
    st_sample x = smp(t, fp, swap, level_c);
    assert_int_equal(st_summary_add_sample(s, &x, NULL), ST_OK);
}

static void feed_stage(st_summary *s, uint32_t t, const char *name)
{
    st_event ev;
    st_event_init(&ev, t, ST_EV_STAGE);
    st_event_set_str(ev.stage, sizeof ev.stage, name);
    ev.has = ST_EVF_STAGE;
    assert_int_equal(st_summary_add_event(s, &ev, NULL), ST_OK);
}

static void test_empty(void **state)
{
    (void)state;
    st_summary s;
    st_summary_init(&s);
    st_summary_finish(&s);
    assert_int_equal(s.n_samples, 0);
    assert_int_equal(s.peak_footprint, 0);
    assert_false(s.has_swap);
    assert_false(s.has_level);
    assert_false(s.has_kernel_peak);
    assert_int_equal(s.n_stages, 0);
    st_summary_free(&s);
}

static void test_basic_fields(void **state)
{
    (void)state;
    st_summary s;
    st_summary_init(&s);
    feed_sample(&s, 100, 50, 1000, 9000);
    feed_sample(&s, 600, 80, 3000, 7550);
    feed_sample(&s, 1100, 70, 2000, 8000);
    st_sample g = smp(1600, 10, 500, 9900);
    g.valid |= ST_F_GPU | ST_F_RSS;
    g.gpu = 4096;
    g.rss = 77;
    assert_int_equal(st_summary_add_sample(&s, &g, NULL), ST_OK);
    st_summary_add_kernel_peak(&s, 300);
    st_summary_add_kernel_peak(&s, 200);
    st_summary_finish(&s);
    assert_int_equal(s.n_samples, 4);
    assert_int_equal(s.first_t_ms, 100);
    assert_int_equal(s.last_t_ms, 1600);
    assert_int_equal(s.peak_footprint, 80);
    assert_int_equal(s.peak_rss, 77);
    assert_true(s.has_gpu);
    assert_int_equal(s.peak_gpu, 4096);
    assert_true(s.has_swap);
    assert_int_equal(s.swap_start, 1000);
    assert_int_equal(s.swap_peak, 3000);
    assert_int_equal(s.swap_end, 500);
    assert_int_equal(s.min_level_c, 7550);
    assert_int_equal(s.kernel_peak, 300);
    /* no stage events: one "setup" window from 0 to the last sample */
    assert_int_equal(s.n_stages, 1);
    assert_string_equal(s.stages[0].stage, "setup");
    assert_int_equal(s.stages[0].seconds_ms, 1600);
    assert_int_equal(s.stages[0].peak_footprint, 80);
    st_summary_free(&s);
}

static void test_missing_fields(void **state)
{
    (void)state;
    st_summary s;
    st_sample x;
    st_summary_init(&s);
    memset(&x, 0, sizeof x);
    x.t_ms = 5;
    x.valid = ST_F_LEVEL;
    x.level_c = 4000;
    x.footprint = 999; /* not valid: ignored */
    assert_int_equal(st_summary_add_sample(&s, &x, NULL), ST_OK);
    st_summary_finish(&s);
    assert_int_equal(s.peak_footprint, 0);
    assert_false(s.has_swap);
    assert_true(s.has_level);
    assert_int_equal(s.n_stages, 1);
    assert_false(s.stages[0].has_peak);
    st_summary_free(&s);
}

static void test_stage_at_zero_drops_setup(void **state)
{
    (void)state;
    st_summary s;
    /* event before the sample at t = 0 */
    st_summary_init(&s);
    feed_stage(&s, 0, "load");
    feed_sample(&s, 0, 10, 0, 100);
    feed_sample(&s, 500, 30, 0, 100);
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 1);
    assert_string_equal(s.stages[0].stage, "load");
    assert_int_equal(s.stages[0].seconds_ms, 500);
    assert_int_equal(s.stages[0].peak_footprint, 30);
    st_summary_free(&s);
    /* the sample at t = 0 came first: the implicit setup becomes "load" */
    st_summary_init(&s);
    feed_sample(&s, 0, 10, 0, 100);
    feed_stage(&s, 0, "load");
    feed_stage(&s, 0, "run");
    feed_sample(&s, 500, 30, 0, 100);
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 2);
    assert_string_equal(s.stages[0].stage, "load");
    assert_int_equal(s.stages[0].seconds_ms, 0);
    assert_true(s.stages[0].has_peak); /* the sample it already held */
    assert_string_equal(s.stages[1].stage, "run");
    assert_int_equal(s.stages[1].seconds_ms, 500);
    assert_int_equal(s.stages[1].peak_footprint, 30);
    st_summary_free(&s);
}

/* The stage rule's order and where the run places an event that comes
 * after a later sample (monitor_events.c): one past that sample, never
 * before the last event; a first stage while every sample is at 0 takes
 * them (as a reader sorting by t puts it before them). */
static void test_event_floor(void **state)
{
    (void)state;
    st_summary s;
    assert_true(st_stage_event_first(500, 500));
    assert_true(st_stage_event_first(499, 500));
    assert_false(st_stage_event_first(501, 500));
    st_summary_init(&s);
    assert_int_equal(st_summary_event_floor(&s, ST_EV_STAGE, 0), 0);
    feed_sample(&s, 0, 10, 0, 100);
    assert_int_equal(st_summary_event_floor(&s, ST_EV_STAGE, 0), 0);
    assert_int_equal(st_summary_event_floor(&s, ST_EV_MARK, 0), 1);
    feed_stage(&s, 0, "load");
    assert_int_equal(st_summary_event_floor(&s, ST_EV_STAGE, 0), 1);
    feed_sample(&s, 500, 30, 0, 100);
    assert_int_equal(st_summary_event_floor(&s, ST_EV_STAGE, 0), 501);
    assert_int_equal(st_summary_event_floor(&s, ST_EV_LOAD, 700), 700);
    st_summary_free(&s);
}

/* Each stage window keeps every lane's statistics (lanes.h) over its own
 * samples, and its activity is read off them. */
static void test_stage_lanes(void **state)
{
    (void)state;
    st_summary s;
    st_summary_init(&s);
    feed_sample(&s, 0, 10, 5, 9000);
    feed_stage(&s, 100, "a");
    feed_sample(&s, 200, 40, 6, 8000);
    st_sample x = smp(300, 20, 7, 8500);
    x.cpu_c = 10000; /* one core for the 100 ms since the last sample */
    x.valid |= ST_F_CPU;
    assert_int_equal(st_summary_add_sample(&s, &x, NULL), ST_OK);
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 2);
    const st_lane_stats *a = &s.stages[1].lanes;
    assert_int_equal(a->first[ST_LANE_FOOTPRINT], 40);
    assert_int_equal(a->last[ST_LANE_FOOTPRINT], 20);
    assert_int_equal(a->max[ST_LANE_FOOTPRINT], 40);
    assert_int_equal(a->min[ST_LANE_LEVEL], 8000);
    assert_int_equal(s.stages[0].lanes.first[ST_LANE_FOOTPRINT], 10);
    assert_false(s.stages[0].lanes.has & ST_F_CPU);
    assert_true(s.stages[1].act.has & ST_F_CPU);
    assert_true(s.stages[1].act.cpu_s > 0.0999 && s.stages[1].act.cpu_s < 0.1001);
    assert_int_equal(s.stages[1].act.peak_cpu_c, 10000);
    assert_true(s.act.cpu_s == s.stages[1].act.cpu_s);
    st_summary_free(&s);
}

static void feed_kind(st_summary *s, uint32_t t, int kind, const char *note)
{
    st_event ev;
    st_event_init(&ev, t, kind);
    if (note) {
        st_event_set_str(ev.note, sizeof ev.note, note);
        ev.has |= ST_EVF_NOTE;
    }
    assert_int_equal(st_summary_add_event(s, &ev, NULL), ST_OK);
}

/* Pauses: how many, the guard's (a pause right after a budget event that
 * paused), the time paused over the run and each stage's share of it; a
 * pause still open counts to the last sample. */
static void test_pauses(void **state)
{
    (void)state;
    st_summary s;
    st_summary_init(&s);
    feed_sample(&s, 0, 10, 0, 9000);
    feed_stage(&s, 1000, "a");
    feed_sample(&s, 1000, 10, 0, 9000);
    feed_kind(&s, 2000, ST_EV_BUDGET, "pause");
    feed_kind(&s, 2000, ST_EV_PAUSE, NULL);
    feed_sample(&s, 2500, 10, 0, 9000);
    feed_stage(&s, 3000, "b"); /* the pause goes on across the stage */
    feed_kind(&s, 3500, ST_EV_RESUME, NULL);
    feed_kind(&s, 4000, ST_EV_PAUSE, NULL); /* the user's */
    feed_kind(&s, 4100, ST_EV_PAUSE, NULL); /* already paused: not another */
    feed_sample(&s, 5000, 10, 0, 9000);
    assert_int_equal(s.n_pauses, 2);
    assert_int_equal(s.n_guard_pauses, 1);
    assert_int_equal(st_summary_paused_ms(&s), 1500 + 1000);
    st_stage_row r;
    st_summary_stage(&s, 1, &r);
    assert_string_equal(r.stage, "a");
    assert_int_equal(r.seconds_ms, 2000);
    assert_int_equal(r.paused_ms, 1000);
    st_summary_stage(&s, 2, &r);
    assert_string_equal(r.stage, "b");
    assert_int_equal(r.paused_ms, 500 + 1000); /* 3000-3500, and 4000 to the end */
    feed_kind(&s, 5000, ST_EV_RESUME, NULL);
    st_summary_finish(&s);
    assert_int_equal(st_summary_paused_ms(&s), 2500);
    st_summary_stage(&s, 0, &r);
    assert_int_equal(r.paused_ms, 0);
    st_summary_free(&s);
}

static void test_stage_after_end(void **state)
{
    (void)state;
    /* samples 100@10, 600@40, 1100@30; stages a@800, late@2500, later@3000.
     * stageload: setup [0,800) -> peak 40; a [800,2500) -> 30;
     * late [2500,3000) -> none; later [3000, end=1100]: -1.9 s, and the
     * sample at t == t1 == end -> 30. */
    st_summary s;
    st_summary_init(&s);
    feed_sample(&s, 100, 10, 0, 5000);
    feed_sample(&s, 600, 40, 100, 4500);
    feed_stage(&s, 800, "a");
    feed_sample(&s, 1100, 30, 50, 4700);
    feed_stage(&s, 2500, "late");
    feed_stage(&s, 3000, "later");
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 4);
    assert_int_equal(s.stages[0].seconds_ms, 800);
    assert_int_equal(s.stages[0].peak_footprint, 40);
    assert_int_equal(s.stages[1].seconds_ms, 1700);
    assert_int_equal(s.stages[1].peak_footprint, 30);
    assert_int_equal(s.stages[2].seconds_ms, 500);
    assert_false(s.stages[2].has_peak);
    assert_string_equal(s.stages[3].stage, "later");
    assert_int_equal(s.stages[3].seconds_ms, -1900);
    assert_true(s.stages[3].has_peak);
    assert_int_equal(s.stages[3].peak_footprint, 30);
    st_summary_free(&s);
}

static void test_stage_at_end(void **state)
{
    (void)state;
    /* stages b and c at 1200 == the last sample time; two samples there. */
    st_summary s;
    st_summary_init(&s);
    feed_sample(&s, 200, 10, 1, 5000);
    feed_stage(&s, 500, "a");
    feed_sample(&s, 700, 70, 2, 4000);
    feed_stage(&s, 1200, "b");
    feed_stage(&s, 1200, "c");
    feed_sample(&s, 1200, 20, 3, 4100);
    feed_sample(&s, 1200, 90, 2, 4200);
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 4);
    assert_int_equal(s.stages[1].peak_footprint, 90); /* a: [500,1200) + end samples */
    assert_int_equal(s.stages[2].seconds_ms, 0);
    assert_int_equal(s.stages[2].peak_footprint, 90); /* b: empty, end rule */
    assert_int_equal(s.stages[3].peak_footprint, 90);
    /* finish again: idempotent */
    st_summary_finish(&s);
    assert_int_equal(s.stages[1].peak_footprint, 90);
    /* feeding more reopens: a later sample ends the end rule for a and b */
    feed_sample(&s, 1500, 5, 2, 4200);
    st_summary_finish(&s);
    assert_int_equal(s.stages[1].peak_footprint, 70);
    assert_false(s.stages[2].has_peak);
    assert_int_equal(s.stages[3].peak_footprint, 90);
    assert_int_equal(s.stages[3].seconds_ms, 300);
    st_summary_free(&s);
}

static void test_empty_tree_is_no_stage_reading(void **state)
{
    (void)state;
    /* a stage marked just before the job went: its only sample is of the
     * empty tree (procs 0, footprint 0): no peak, not "0 B" */
    st_summary s;
    st_summary_init(&s);
    st_sample live = smp(100, 300, 0, 5000), gone = smp(600, 0, 0, 5000);
    live.procs = 2, gone.procs = 0;
    live.valid |= ST_F_PROCS, gone.valid |= ST_F_PROCS;
    assert_int_equal(st_summary_add_sample(&s, &live, NULL), ST_OK);
    feed_stage(&s, 500, "late");
    assert_int_equal(st_summary_add_sample(&s, &gone, NULL), ST_OK);
    st_summary_finish(&s);
    assert_int_equal(s.n_stages, 2);
    assert_true(s.stages[0].has_peak);
    assert_int_equal(s.stages[0].peak_footprint, 300);
    assert_string_equal(s.stages[1].stage, "late");
    assert_false(s.stages[1].has_peak);
    assert_int_equal(s.stages[1].seconds_ms, 100);
    st_stage_row row;
    st_summary_stage(&s, 1, &row);
    assert_false(row.has_peak);
    assert_int_equal(s.peak_footprint, 300);
    st_summary_free(&s);
}

static void test_loads_releases(void **state)
{
    (void)state;
    st_summary s;
    st_event ev;
    st_summary_init(&s);
    const struct { int kind; const char *name; const char *note; uint64_t nb; double sec; } evs[] = {
        { ST_EV_LOAD, "vae", "outside_stage", 300, 0.25 },
        { ST_EV_LOAD, "clip", "outside_stage", 200, 0.125 },
        { ST_EV_RELOAD, "vae", "outside_stage", 300, 0.5 },
        { ST_EV_LOAD, "unet", NULL, 5000, -1 },
        { ST_EV_RELEASE, "unet", NULL, 5000, -1 },
        { ST_EV_RELEASE, "vae", NULL, 0, -1 },
        { ST_EV_MARK, NULL, "outside_stage", 0, -1 },
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
        st_event_init(&ev, (uint32_t)i, evs[i].kind);
        if (evs[i].name) { st_event_set_str(ev.name, sizeof ev.name, evs[i].name); ev.has |= ST_EVF_NAME; }
        if (evs[i].note) { st_event_set_str(ev.note, sizeof ev.note, evs[i].note); ev.has |= ST_EVF_NOTE; }
        if (evs[i].nb) { ev.nbytes = evs[i].nb; ev.has |= ST_EVF_NBYTES; }
        if (evs[i].sec >= 0) { ev.seconds = evs[i].sec; ev.has |= ST_EVF_SECONDS; }
        assert_int_equal(st_summary_add_event(&s, &ev, NULL), ST_OK);
    }
    st_summary_finish(&s);
    assert_int_equal(s.loads_count, 4);
    assert_int_equal(s.loads_bytes, 5800);
    assert_true(s.loads_seconds == 0.875);
    assert_int_equal(s.releases_count, 2);
    assert_int_equal(s.releases_bytes, 5000);
    assert_int_equal(s.n_outside_stage, 2);
    assert_string_equal(s.outside_stage[0], "clip");
    assert_string_equal(s.outside_stage[1], "vae");
    st_summary_free(&s);
}

/* ---- the oracle ---- */

typedef struct { uint32_t t; uint64_t fp; int is_stage; char name[8]; } item;
typedef struct { char name[8]; int64_t secs; int has; uint64_t peak; } owin;

/* stageload's windows over items[0..n) (time ordered), from scratch. */
static size_t oracle(const item *it, size_t n, owin *out)
{
    uint32_t end = 0;
    int any = 0;
    for (size_t i = 0; i < n; i++)
        if (!it[i].is_stage) { end = it[i].t; any = 1; }
    if (!any)
        return 0;
    struct { uint32_t t0; const char *name; } b[512];
    size_t nb = 0, first = (size_t)-1;
    for (size_t i = 0; i < n; i++)
        if (it[i].is_stage) { first = i; break; }
    if (first == (size_t)-1 || it[first].t > 0)
        b[nb].t0 = 0, b[nb++].name = "setup";
    for (size_t i = 0; i < n; i++)
        if (it[i].is_stage)
            b[nb].t0 = it[i].t, b[nb++].name = it[i].name;
    for (size_t w = 0; w < nb; w++) {
        uint32_t t0 = b[w].t0, t1 = w + 1 < nb ? b[w + 1].t0 : end;
        snprintf(out[w].name, sizeof out[w].name, "%s", b[w].name);
        out[w].secs = (int64_t)t1 - (int64_t)t0;
        out[w].has = 0;
        out[w].peak = 0;
        for (size_t i = 0; i < n; i++) {
            if (it[i].is_stage)
                continue;
            uint32_t t = it[i].t;
            if ((t0 <= t && t < t1) || (t == t1 && t1 == end)) {
                if (!out[w].has || it[i].fp > out[w].peak)
                    out[w].peak = it[i].fp;
                out[w].has = 1;
            }
        }
    }
    return nb;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(uint64_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
}

static void compare(const st_summary *s, const item *it, size_t n)
{
    owin w[512];
    size_t nw = oracle(it, n, w);
    size_t ns = 0;
    uint64_t peak = 0;
    for (size_t i = 0; i < n; i++)
        if (!it[i].is_stage) {
            ns++;
            if (it[i].fp > peak)
                peak = it[i].fp;
        }
    assert_int_equal(s->n_samples, ns);
    assert_int_equal(s->peak_footprint, peak);
    if (ns == 0)
        return;
    assert_int_equal(s->n_stages, nw);
    for (size_t k = 0; k < nw; k++) {
        assert_string_equal(s->stages[k].stage, w[k].name);
        assert_int_equal(s->stages[k].seconds_ms, w[k].secs);
        assert_int_equal(s->stages[k].has_peak, w[k].has);
        if (w[k].has)
            assert_int_equal(s->stages[k].peak_footprint, w[k].peak);
    }
}

static void test_random_vs_oracle(void **state)
{
    (void)state;
    item it[400];
    for (int round = 0; round < 1500; round++) {
        size_t n = 1 + rnd(60);
        uint32_t t = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t step = rnd(4);
            t += step == 0 ? 0 : step == 1 ? (uint32_t)rnd(3) : (uint32_t)rnd(800);
            it[i].t = t;
            it[i].is_stage = rnd(4) == 0;
            it[i].fp = rnd(1000);
            snprintf(it[i].name, sizeof it[i].name, "s%zu", i);
        }
        /* an event at the same t as a sample goes first (summary.h): order
         * each run of equal t as stages, then samples (stable) */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && it[j].t == it[j - 1].t && it[j].is_stage && !it[j - 1].is_stage; j--) {
                item x = it[j];
                it[j] = it[j - 1];
                it[j - 1] = x;
            }
        st_summary s;
        st_summary_init(&s);
        for (size_t i = 0; i < n; i++) {
            if (it[i].is_stage)
                feed_stage(&s, it[i].t, it[i].name);
            else
                feed_sample(&s, it[i].t, it[i].fp, 0, 0);
            if (rnd(5) == 0) { /* finish in the middle, then keep feeding */
                st_summary_finish(&s);
                compare(&s, it, i + 1);
            }
        }
        st_summary_finish(&s);
        compare(&s, it, n);
        st_summary_free(&s);
    }
}

/* ---- outside_stage: sorted, unique ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void outside_stage_sorted_unique(void **state)
{
    (void)state;
    enum { N = 20000, DISTINCT = 7001 };
    static char names[N][32];
    static char *ref[N];
    st_summary s;
    st_summary_init(&s);
    srand((unsigned)time(NULL));
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "w%d", rand() % DISTINCT);
        st_event ev;
        st_event_init(&ev, (uint32_t)i, i % 2 ? ST_EV_LOAD : ST_EV_RELOAD);
        memcpy(ev.name, names[i], sizeof names[i]); /* 32 bytes, NUL included */
        snprintf(ev.note, sizeof ev.note, "outside_stage");
        ev.has = ST_EVF_NAME | ST_EVF_NOTE;
        assert_int_equal(st_summary_add_event(&s, &ev, NULL), ST_OK);
        if (i == N / 2)
            st_summary_finish(&s); /* finish, then feed more */
    }
    /* the writer of a summary fed since finish: sorted, unique already */
    char *json = st_summary_to_json(&s, NULL);
    assert_non_null(json);
    st_summary_finish(&s);
    /* reference: qsort + dedupe */
    for (size_t i = 0; i < N; i++)
        ref[i] = names[i];
    qsort(ref, N, sizeof *ref, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < N; i++)
        if (k == 0 || strcmp(ref[k - 1], ref[i]) != 0)
            ref[k++] = ref[i];
    assert_int_equal(s.n_outside_stage, k);
    for (size_t i = 0; i < k; i++)
        assert_string_equal(s.outside_stage[i], ref[i]);
    cJSON *j = cJSON_Parse(json);
    assert_non_null(j);
    cJSON *arr = cJSON_GetObjectItem(j, "outside_stage");
    assert_true(cJSON_IsArray(arr));
    assert_int_equal((size_t)cJSON_GetArraySize(arr), k);
    for (size_t i = 0; i < k; i++)
        assert_string_equal(cJSON_GetArrayItem(arr, (int)i)->valuestring, ref[i]);
    cJSON_Delete(j);
    free(json);
    st_summary_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_basic_fields),
        cmocka_unit_test(test_missing_fields),
        cmocka_unit_test(test_stage_at_zero_drops_setup),
        cmocka_unit_test(test_event_floor),
        cmocka_unit_test(test_pauses),
        cmocka_unit_test(test_stage_lanes),
        cmocka_unit_test(test_stage_after_end),
        cmocka_unit_test(test_stage_at_end),
        cmocka_unit_test(test_empty_tree_is_no_stage_reading),
        cmocka_unit_test(test_loads_releases),
        cmocka_unit_test(test_random_vs_oracle),
        cmocka_unit_test(outside_stage_sorted_unique),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
