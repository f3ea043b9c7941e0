/* The whole run's series (core/model/runseries.c): its columns against a
 * brute-force reading of the samples they cover, its memory flat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "stagetop/lanes.h"
#include "stagetop/runseries.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    uint64_t x = rng_state; /* xorshift64*: random, and the same every run */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* A random sample at t: every lane (the table's rows, whatever they are)
 * held most of the time, a random value within what its type stores
 * (under 2^32, so that a column's sum is exact in a double). */
static st_sample random_sample(uint32_t t)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    s.t_ms = t;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        if (i != ST_LANE_FOOTPRINT && rnd() % 8 == 0)
            continue; /* not read this time */
        const st_lane *l = &st_lanes[i];
        uint64_t lim = l->type == ST_LT_CENTI ? 10001 : l->type == ST_LT_U64 ? (1ull << 32) : (1ull << 31);
        st_lane_set_raw(l, &s, rnd() % lim);
    }
    return s;
}

typedef struct brute {
    uint32_t t_first, t_last, n, has;
    uint64_t min[ST_LANE_COUNT], max[ST_LANE_COUNT], first[ST_LANE_COUNT], last[ST_LANE_COUNT];
    double sum[ST_LANE_COUNT];
    uint32_t ln[ST_LANE_COUNT];
} brute;

static void brute_add(brute *b, const st_sample *s)
{
    if (!b->n)
        b->t_first = s->t_ms;
    b->t_last = s->t_ms;
    b->n++;
    b->has |= s->valid;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        if (!(s->valid & st_lane_bit(i)))
            continue;
        uint64_t v = st_lane_raw(&st_lanes[i], s);
        if (!b->ln[i] || v < b->min[i])
            b->min[i] = v;
        if (!b->ln[i] || v > b->max[i])
            b->max[i] = v;
        if (!b->ln[i])
            b->first[i] = v;
        b->last[i] = v;
        b->sum[i] += (double)v;
        b->ln[i]++;
    }
}

#define N_SAMPLES 100000

static void columns_match_brute_force(void **state)
{
    (void)state;
    st_runseries rs;
    assert_int_equal(st_runseries_init(&rs, 0, 0, NULL), ST_OK);
    size_t bytes = st_runseries_bytes(&rs);
    st_sample *all = malloc(N_SAMPLES * sizeof *all);
    assert_non_null(all);
    uint32_t t = 0;
    uint64_t gmax[ST_LANE_COUNT] = {0}, gmin[ST_LANE_COUNT];
    for (int i = 0; i < ST_LANE_COUNT; i++)
        gmin[i] = UINT64_MAX;
    for (size_t k = 0; k < N_SAMPLES; k++) {
        t += (uint32_t)(1 + rnd() % 200); /* uneven intervals: 1..200 ms */
        all[k] = random_sample(t);
        for (int i = 0; i < ST_LANE_COUNT; i++)
            if (all[k].valid & st_lane_bit(i)) {
                uint64_t v = st_lane_raw(&st_lanes[i], &all[k]);
                gmax[i] = v > gmax[i] ? v : gmax[i];
                gmin[i] = v < gmin[i] ? v : gmin[i];
            }
        st_runseries_add(&rs, &all[k]);
        assert_true(rs.used <= rs.cap);
    }
    /* bounded: the columns allocated at the start, no more */
    assert_int_equal(rs.cap, ST_RUNSERIES_COLS);
    assert_int_equal(st_runseries_bytes(&rs), bytes);
    assert_true(rs.used > rs.cap / 2 && rs.used <= rs.cap); /* over half in use after a merge */
    assert_true(rs.merges > 0);
    assert_int_equal((uint64_t)rs.n_samples, N_SAMPLES);
    assert_int_equal(rs.width_ms & (rs.width_ms - 1), 0); /* a power of two */
    /* every column against the samples it covers */
    brute *b = calloc(rs.cap, sizeof *b);
    assert_non_null(b);
    for (size_t k = 0; k < N_SAMPLES; k++) {
        size_t c = all[k].t_ms / rs.width_ms;
        assert_true(c < rs.used);
        brute_add(&b[c], &all[k]);
    }
    uint64_t cmax[ST_LANE_COUNT] = {0}, cmin[ST_LANE_COUNT];
    for (int i = 0; i < ST_LANE_COUNT; i++)
        cmin[i] = UINT64_MAX;
    for (size_t c = 0; c < rs.cap; c++) {
        const st_runseries_col *col = &rs.col[c];
        assert_int_equal(col->n, b[c].n);
        if (!b[c].n)
            continue;
        assert_int_equal(col->t_first, b[c].t_first);
        assert_int_equal(col->t_last, b[c].t_last);
        assert_int_equal(col->has, b[c].has);
        for (int i = 0; i < ST_LANE_COUNT; i++) {
            const st_runseries_lane *l = &col->lane[i];
            assert_int_equal(l->n, b[c].ln[i]);
            if (!l->n)
                continue;
            assert_int_equal(l->min, b[c].min[i]);
            assert_int_equal(l->max, b[c].max[i]);
            assert_int_equal(l->first, b[c].first[i]);
            assert_int_equal(l->last, b[c].last[i]);
            assert_true(l->sum == b[c].sum[i]);
            cmax[i] = l->max > cmax[i] ? l->max : cmax[i];
            cmin[i] = l->min < cmin[i] ? l->min : cmin[i];
        }
    }
    /* the global extremes kept exactly, in the columns and in the points */
    st_sample *pts = malloc(st_runseries_points_max(&rs) * sizeof *pts);
    assert_non_null(pts);
    size_t np = st_runseries_points(&rs, pts);
    assert_true(np <= st_runseries_points_max(&rs));
    assert_true(np < N_SAMPLES / 10);
    assert_false(st_runseries_exact(&rs));
    uint64_t pmax[ST_LANE_COUNT] = {0}, pmin[ST_LANE_COUNT];
    for (int i = 0; i < ST_LANE_COUNT; i++)
        pmin[i] = UINT64_MAX;
    for (size_t k = 0; k < np; k++) {
        if (k)
            assert_true(pts[k].t_ms >= pts[k - 1].t_ms); /* in time order */
        for (int i = 0; i < ST_LANE_COUNT; i++)
            if (pts[k].valid & st_lane_bit(i)) {
                uint64_t v = st_lane_raw(&st_lanes[i], &pts[k]);
                pmax[i] = v > pmax[i] ? v : pmax[i];
                pmin[i] = v < pmin[i] ? v : pmin[i];
            }
    }
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        assert_int_equal(cmax[i], gmax[i]);
        assert_int_equal(cmin[i], gmin[i]);
        assert_int_equal(pmax[i], gmax[i]);
        assert_int_equal(pmin[i], gmin[i]);
    }
    assert_int_equal(pts[0].t_ms, all[0].t_ms); /* the run's span */
    assert_int_equal(pts[np - 1].t_ms, all[N_SAMPLES - 1].t_ms);
    free(pts);
    free(b);
    free(all);
    st_runseries_free(&rs);
}

/* A run shorter than the columns: the points are its samples, byte for byte. */
static void short_run_exact(void **state)
{
    (void)state;
    st_runseries rs;
    assert_int_equal(st_runseries_init(&rs, 0, 0, NULL), ST_OK);
    enum { N = 600 };
    st_sample in[N];
    for (int k = 0; k < N; k++) {
        in[k] = random_sample((uint32_t)k * 100); /* 60 s at 0.1 s */
        in[k].valid |= ST_F_FOOTPRINT;
        for (int i = 0; i < ST_LANE_COUNT; i++)
            in[k].valid |= st_lane_bit(i); /* every lane: a point carries the column's lanes */
        st_runseries_add(&rs, &in[k]);
    }
    st_sample *pts = malloc(st_runseries_points_max(&rs) * sizeof *pts);
    assert_non_null(pts);
    assert_true(st_runseries_exact(&rs));
    assert_int_equal(st_runseries_points(&rs, pts), N);
    assert_memory_equal(pts, in, sizeof in);
    free(pts);
    st_runseries_free(&rs);
}

/* A column's extremes come out in the order they came. */
static void extremes_in_order(void **state)
{
    (void)state;
    st_runseries rs;
    assert_int_equal(st_runseries_init(&rs, 4, 0, NULL), ST_OK);
    /* 100 samples over 1000 ms in 4 columns: one column per 256 ms after merges */
    for (uint32_t k = 0; k < 100; k++) {
        st_sample s;
        memset(&s, 0, sizeof s);
        s.t_ms = k * 10;
        /* column 0: falls from 900 to 0 then rises; a peak at t = 300 in column 1 */
        s.footprint = k < 10 ? 900 - k * 100 : k == 30 ? 5000 : 100 + k;
        s.valid = ST_F_FOOTPRINT;
        st_runseries_add(&rs, &s);
    }
    assert_int_equal(rs.width_ms, 256);
    st_sample pts[16];
    size_t n = st_runseries_points(&rs, pts);
    assert_int_equal(n, 16); /* 4 columns of over 2 samples: 4 points each */
    /* column 0 (t 0..250): first 900 (the max), then its min 0, ... */
    assert_int_equal(pts[0].footprint, 900);
    assert_int_equal(pts[1].footprint, 900); /* the earlier extreme: the max */
    assert_int_equal(pts[2].footprint, 0);   /* the later: the min */
    assert_int_equal(pts[3].footprint, 125); /* its last, t 250 */
    /* column 1 (t 260..510): the peak 5000 at 300, min 126 before it */
    assert_int_equal(pts[5].footprint, 126);
    assert_int_equal(pts[6].footprint, 5000);
    assert_true(pts[5].t_ms < pts[6].t_ms && pts[6].t_ms <= pts[7].t_ms);
    st_runseries_free(&rs);
}

/* Memory does not grow with the run, and what a sample costs. */
static void flat_memory_and_cost(void **state)
{
    (void)state;
    st_runseries rs;
    assert_int_equal(st_runseries_init(&rs, 0, 0, NULL), ST_OK);
    size_t bytes = st_runseries_bytes(&rs);
    enum { M = 1000000 };
    st_sample s = random_sample(0);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (uint32_t k = 0; k < M; k++) {
        s.t_ms = k * 10; /* 10 ms: 2.8 h */
        s.footprint = k;
        st_runseries_add(&rs, &s);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    assert_int_equal(st_runseries_bytes(&rs), bytes);
    assert_true(rs.used <= rs.cap);
    assert_int_equal(rs.col[rs.used - 1].lane[ST_LANE_FOOTPRINT].max, M - 1);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / M;
    printf("runseries: %zu bytes, %.1f ns per sample (%d samples, every lane held)\n", bytes, ns, M);
    st_runseries_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns_match_brute_force),
        cmocka_unit_test(short_run_exact),
        cmocka_unit_test(extremes_in_order),
        cmocka_unit_test(flat_memory_and_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
