/* test_lanes.c: the lane table (include/stagetop/lanes.h, core/model/lanes.c):
 * its rows agree with st_sample, every lane goes through a record, a
 * document and the reader unchanged at the ends of its range and is refused
 * past them, the per-lane statistics, the outputs' orders, and the system
 * reading's own valid bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "stagetop/doctor.h"
#include "stagetop/lanes.h"
#include "stagetop/platform.h"
#include "stagetop/trace.h"
#include "tmpdir.h"
#include "monitor_script.h"

static size_t size_of(const st_lane *l)
{
    return l->type == ST_LT_U64 ? 8 : l->type == ST_LT_CENTI ? 2 : 4;
}

static void test_rows_match_the_sample(void **state)
{
    (void)state;
    unsigned char used[sizeof(st_sample)] = {0};
    assert_int_equal(sizeof(st_sample), 112);
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *l = &st_lanes[i];
        assert_int_equal(l->id, i);
        assert_true(st_lane_bit(i) <= 0x8000u);
        assert_non_null(l->key);
        assert_true(strlen(l->key) > 0 && strlen(l->key) < 32); /* the reader's key buffer */
        assert_int_equal(l->key_len, strlen(l->key));
        assert_true(l->offset + size_of(l) <= offsetof(st_sample, valid));
        for (size_t b = l->offset; b < l->offset + size_of(l); b++) {
            assert_int_equal(used[b], 0); /* no two lanes share bytes */
            used[b] = 1;
        }
        assert_true(l->offset != offsetof(st_sample, t_ms));
        assert_non_null(l->range);
        assert_non_null(l->label);
        assert_non_null(l->label_inline);
        assert_non_null(l->label_short);
        assert_non_null(l->absent);
        assert_non_null(l->absent_short);
        assert_true(!l->prom_name || (l->prom_help && l->prom_rank));
        assert_true(l->axis == ST_AX_NONE || (l->plot_id && l->plot_label && l->svg_colour && l->plot_rank));
        for (int j = 0; j < i; j++)
            assert_string_not_equal(st_lanes[j].key, l->key);
        assert_ptr_equal(st_lane_by_key(l->key), l);
        char padded[ST_LANE_KEY_MAX] = {0};
        memcpy(padded, l->key, strlen(l->key));
        assert_ptr_equal(st_lane_by_padded_key(padded, NULL), l);
        for (int from = 0; from < ST_LANE_COUNT; from++) { /* wherever it starts */
            int next = from;
            assert_ptr_equal(st_lane_by_padded_key(padded, &next), l);
            assert_int_equal(next, i + 1);
        }
        assert_ptr_equal(st_lane_by_bit(st_lane_bit(i)), l);
    }
    assert_null(st_lane_by_key("footprin"));
    assert_null(st_lane_by_key("footprints"));
    assert_null(st_lane_by_key("t"));
    assert_null(st_lane_by_key(""));
    char near[ST_LANE_KEY_MAX] = "footprin";
    int next = 0;
    assert_null(st_lane_by_padded_key(near, &next));
    assert_int_equal(next, 0);
    assert_null(st_lane_by_bit(ST_F_FOOTPRINT | ST_F_RSS));
}

static void test_orders(void **state)
{
    (void)state;
    int ids[ST_LANE_COUNT];
    /* the metrics file's gauges, the screen's slots and the plot's series in
     * the order 0.2 wrote them */
    static const int prom[] = {ST_LANE_FOOTPRINT, ST_LANE_RSS, ST_LANE_GPU, ST_LANE_PROCS,
                               ST_LANE_SWAP, ST_LANE_LEVEL, ST_LANE_PRESSURE,
                               ST_LANE_TREE_SWAP, ST_LANE_CPU, ST_LANE_PAGEINS /* [lanes]: after 0.2's */,
                               ST_LANE_COMPRESSED, ST_LANE_LIMIT_FREE,
                               ST_LANE_METAL, ST_LANE_TREE_COMPRESSED /* [mps] */,
                               ST_LANE_GPU_SYSTEM /* [mps] item 4 */};
    /* the Metal lane and the system's GPU memory are shown once read, as
     * the GPU's (macOS only) */
    static const int screen[] = {ST_LANE_FOOTPRINT, ST_LANE_SWAP, ST_LANE_LEVEL, ST_LANE_GPU,
                                 ST_LANE_METAL, ST_LANE_GPU_SYSTEM};
    /* the plot's first series, in 0.2's order; any further row with an axis
     * follows them */
    static const int plot[] = {ST_LANE_FOOTPRINT, ST_LANE_SWAP, ST_LANE_GPU, ST_LANE_LEVEL};
    assert_int_equal(st_lanes_order(ST_LO_PROM, ids), 15);
    assert_memory_equal(ids, prom, sizeof prom);
    assert_int_equal(st_lanes_order(ST_LO_SCREEN, ids), 6);
    assert_memory_equal(ids, screen, sizeof screen);
    size_t with_axis = 0;
    for (int i = 0; i < ST_LANE_COUNT; i++)
        with_axis += st_lanes[i].axis != ST_AX_NONE;
    assert_int_equal(st_lanes_order(ST_LO_PLOT, ids), with_axis);
    assert_memory_equal(ids, plot, sizeof plot);
    assert_int_equal(st_lanes[ST_LANE_LEVEL].axis, ST_AX_PERCENT);
}

/* Each of a lane's labels names it alone: the screen's short labels (its
 * narrowest layout), inline and tall labels are each unique in the table. */
static void test_labels_unique(void **state)
{
    (void)state;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *a = &st_lanes[i];
        for (int j = 0; j < i; j++) {
            const st_lane *b = &st_lanes[j];
            if (strcmp(a->label_short, b->label_short) == 0)
                fail_msg("lanes %s and %s share the short label \"%s\"", a->key, b->key,
                         a->label_short);
            assert_string_not_equal(a->label_inline, b->label_inline);
            assert_string_not_equal(a->label, b->label);
        }
    }
}

/* The plot draws a series for every row with an axis, from the row alone:
 * each has its id, label, colour and line width, none shared. */
static void test_plot_rows_complete(void **state)
{
    (void)state;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *a = &st_lanes[i];
        if (a->axis == ST_AX_NONE)
            continue;
        assert_non_null(a->plot_id);
        assert_non_null(a->plot_label);
        assert_non_null(a->svg_colour);
        assert_non_null(a->plot_width);
        assert_true(a->plot_rank > 0);
        for (int j = 0; j < i; j++) {
            const st_lane *b = &st_lanes[j];
            if (b->axis == ST_AX_NONE)
                continue;
            assert_string_not_equal(a->plot_id, b->plot_id);
            assert_string_not_equal(a->svg_colour, b->svg_colour);
            assert_int_not_equal(a->plot_rank, b->plot_rank);
        }
    }
}

/* Doctor checks the rows that name a reference check (the rest say they
 * have none: NULL): each name once, in a rank of its own, known to the
 * references of every system that samples the lane, a rate with the counter
 * it is made of. */
static void test_doctor_rows(void **state)
{
    (void)state;
    int ids[ST_LANE_COUNT];
    size_t n = st_lanes_order(ST_LO_DOCTOR, ids), named = 0;
    for (int i = 0; i < ST_LANE_COUNT; i++)
        named += st_lanes[i].doctor != NULL;
    assert_int_equal(n, named);
    assert_true(n + 1 <= ST_DOC_MAX_CHECKS); /* and doctor's kernel peak */
    for (size_t k = 0; k < n; k++) {
        const st_lane *l = &st_lanes[ids[k]];
        assert_true(l->doctor_rank > 0);
        assert_true(strlen(l->doctor) < sizeof ((st_doctor_check *)0)->lane);
        if (l->rule == ST_LR_RATE)
            assert_true(l->counter_div > 0);
        for (size_t j = 0; j < k; j++) {
            assert_string_not_equal(l->doctor, st_lanes[ids[j]].doctor);
            assert_int_not_equal(l->doctor_rank, st_lanes[ids[j]].doctor_rank);
        }
        /* Linux's references know it (a lane Linux samples) */
        if (l->platforms & ST_LPL_LINUX) {
            st_platform plat;
            st_doctor_check c;
            memset(&plat, 0, sizeof plat);
            memset(&c, 0, sizeof c);
            plat.doctor_refs = ST_DOCTOR_REFS_PROC;
            plat.name = "linux";
            snprintf(c.lane, sizeof c.lane, "%s", l->doctor);
            c.value = 1;
            c.has_value = 1;
            c.unit = ST_DOC_BYTES;
            st_doctor_reference(&plat, (int32_t)getpid(), &c);
            assert_null(strstr(c.note, "no reference for"));
        }
    }
}

/* The largest raw value the reader takes for l. */
static uint64_t max_of(const st_lane *l)
{
    return l->max ? l->max : (1ull << 53);
}

/* Every lane at 0, at a middle value and at its maximum goes through a JSONL
 * record, the exporter and the document reader unchanged. */
static void test_round_trip(void **state)
{
    const char *dir = *state;
    char path[512], line[512], *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    fputs("{\"type\":\"start\",\"interval\":0.5}\n", mem);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < ST_LANE_COUNT; i++) {
            const st_lane *l = &st_lanes[i];
            uint64_t raw = k == 0 ? 0 : k == 1 ? max_of(l) / 3 + 7 : max_of(l);
            char num[48];
            if (st_lane_centi(l))
                snprintf(num, sizeof num, "%llu.%02llu", (unsigned long long)(raw / 100),
                         (unsigned long long)(raw % 100));
            else
                snprintf(num, sizeof num, "%llu", (unsigned long long)raw);
            snprintf(line, sizeof line, "{\"type\":\"sample\",\"t\":%d,\"%s\":%s}\n",
                     k * ST_LANE_COUNT + i, l->key, num);
            fputs(line, mem);
        }
    fclose(mem);
    st_trace t, u;
    st_error e;
    st_trace_init(&t);
    st_trace_init(&u);
    assert_int_equal(st_trace_load_mem(text, len, &t, &e), ST_OK);
    assert_int_equal(t.n_samples, 3 * ST_LANE_COUNT);
    snprintf(path, sizeof path, "%s/all.json", dir);
    assert_int_equal(st_trace_export(path, &t.meta, st_trace_view(&t), &t.events, &t.summary, 0, &e),
                     ST_OK);
    assert_int_equal(st_trace_load_file(path, &u, &e), ST_OK);
    assert_int_equal(u.n_samples, t.n_samples);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < ST_LANE_COUNT; i++) {
            const st_lane *l = &st_lanes[i];
            const st_sample *a = &t.samples[k * ST_LANE_COUNT + i], *b = &u.samples[k * ST_LANE_COUNT + i];
            uint64_t raw = k == 0 ? 0 : k == 1 ? max_of(l) / 3 + 7 : max_of(l);
            assert_int_equal(a->valid, st_lane_bit(i));
            assert_int_equal(st_lane_raw(l, a), raw);
            assert_int_equal(b->valid, a->valid);
            assert_int_equal(st_lane_raw(l, b), raw);
        }
    st_trace_free(&t);
    st_trace_free(&u);
    free(text);
}

/* One past the maximum, a negative, a string, a boolean, and a fraction
 * of a byte: refused, naming the key. */
static void test_range_refused(void **state)
{
    (void)state;
    for (int i = 0; i < ST_LANE_COUNT; i++) {
        const st_lane *l = &st_lanes[i];
        char doc[256], num[48];
        uint64_t over = max_of(l) + 1;
        if (st_lane_centi(l))
            snprintf(num, sizeof num, "%llu.%02llu", (unsigned long long)(over / 100),
                     (unsigned long long)(over % 100));
        else
            snprintf(num, sizeof num, "%llu", (unsigned long long)over);
        /* (the scaled lanes, hundredths and procs, round a further decimal
         * as 0.2 did: only bytes refuse a fraction) */
        const char *bad[] = {num, "-1", "\"1\"", "true", "1.5"};
        for (size_t k = 0; k < (l->type == ST_LT_U64 ? 5u : 4u); k++) {
            st_trace t;
            st_error e;
            st_trace_init(&t);
            snprintf(doc, sizeof doc, "{\"type\":\"sample\",\"t\":1,\"%s\":%s}\n", l->key, bad[k]);
            assert_int_equal(st_trace_load_mem(doc, strlen(doc), &t, &e), ST_EPARSE);
            char quoted[48];
            snprintf(quoted, sizeof quoted, "\"%s\"", l->key);
            assert_non_null(strstr(e.msg, quoted));
            st_trace_free(&t);
        }
        /* null: the lane is not available, not an error */
        st_trace t;
        st_error e;
        st_trace_init(&t);
        snprintf(doc, sizeof doc, "{\"type\":\"sample\",\"t\":1,\"%s\":null}\n", l->key);
        assert_int_equal(st_trace_load_mem(doc, strlen(doc), &t, &e), ST_OK);
        assert_int_equal(t.samples[0].valid, 0);
        st_trace_free(&t);
    }
}

/* The definitions that count a shared page once per process: said only
 * over a tree that has more than one process to share it. */
static void test_shared_per_process(void **state)
{
    (void)state;
    assert_true(st_lanes_shared_per_process("phys_footprint", 2));
    assert_true(st_lanes_shared_per_process("anon+shmem+swap", 3));
    assert_false(st_lanes_shared_per_process("phys_footprint", 1));
    assert_false(st_lanes_shared_per_process("anon+shmem+swap", 0));
    assert_false(st_lanes_shared_per_process("pss_anon+pss_shmem+swap_pss", 5));
    assert_false(st_lanes_shared_per_process("", 5));
    assert_false(st_lanes_shared_per_process(NULL, 5));
    assert_false(st_lanes_shared_per_process("phys_footprint2", 5));
    assert_false(st_lanes_shared_per_process("PHYS_FOOTPRINT", 5));
}

static void test_stats(void **state)
{
    (void)state;
    st_lane_stats st;
    memset(&st, 0, sizeof st);
    st_sample s = {0};
    s.t_ms = 1000;
    s.footprint = 300;
    s.level_c = 5000;
    s.valid = ST_F_FOOTPRINT | ST_F_LEVEL;
    st_lane_stats_add(&st, &s, 0);
    s.t_ms = 3000;
    s.footprint = 100;
    s.level_c = 2550;
    st_lane_stats_add(&st, &s, 0);
    s.t_ms = 3500;
    s.footprint = 500;
    s.valid = ST_F_FOOTPRINT; /* no level this time */
    st_lane_stats_add(&st, &s, 0);
    assert_int_equal(st.has, ST_F_FOOTPRINT | ST_F_LEVEL);
    assert_int_equal(st.min[ST_LANE_FOOTPRINT], 100);
    assert_int_equal(st.max[ST_LANE_FOOTPRINT], 500);
    assert_int_equal(st.min[ST_LANE_LEVEL], 2550);
    assert_int_equal(st.max[ST_LANE_LEVEL], 5000);
    assert_int_equal(st.first[ST_LANE_FOOTPRINT], 300);
    assert_int_equal(st.last[ST_LANE_FOOTPRINT], 500);
    assert_int_equal(st.last[ST_LANE_LEVEL], 2550); /* the last sample that had it */
    /* a rate's integral from its row: CPU 150% for 2 s then 50% for 1 s is
     * 3.5 CPU seconds; page-ins 10/s for 2 s; a lane without a divisor none */
    memset(&st, 0, sizeof st);
    s.valid = ST_F_CPU | ST_F_PAGEINS | ST_F_FOOTPRINT;
    s.cpu_c = 15000;
    s.pageins_c = 1000;
    st_lane_stats_add(&st, &s, 2000);
    s.cpu_c = 5000;
    s.valid = ST_F_CPU;
    st_lane_stats_add(&st, &s, 1000);
    assert_true(fabs(st.integral[ST_LANE_CPU] - 3.5) < 1e-9);
    assert_true(fabs(st.integral[ST_LANE_PAGEINS] - 20.0) < 1e-9);
    assert_true(st.integral[ST_LANE_FOOTPRINT] == 0);
    assert_int_equal(st.max[ST_LANE_CPU], 15000);
    assert_int_equal(st.last[ST_LANE_CPU], 5000);

}

/* The system reading has its own valid bits (platform.h), not the lanes':
 * the monitor copies each of the three system lanes by its own bit. */
static void test_sys_bits_own_space(void **state)
{
    (void)state;
    const unsigned sys = ST_SYS_SWAP | ST_SYS_LEVEL | ST_SYS_PRESSURE | ST_SYS_MEMTOTAL | ST_SYS_SWAPTOTAL;
    assert_int_equal(__builtin_popcount(sys), 5);
    static const struct { unsigned sys, lanes; } cases[] = {
        {ST_SYS_PRESSURE | ST_SYS_MEMTOTAL | ST_SYS_SWAPTOTAL, ST_F_PRESSURE},
        {ST_SYS_SWAP, ST_F_SWAP},
        {ST_SYS_LEVEL | ST_SYS_MEMTOTAL, ST_F_LEVEL},
        {ST_SYS_SWAP | ST_SYS_LEVEL | ST_SYS_PRESSURE, ST_F_SWAP | ST_F_LEVEL | ST_F_PRESSURE},
        {ST_SYS_MEMTOTAL | ST_SYS_SWAPTOTAL, 0},
        {ST_SYS_GPU_SYSTEM | ST_SYS_SWAP, ST_F_GPU_SYSTEM | ST_F_SWAP},
    };
    /* the table's system lanes: swap, level, pressure, from their fields */
    st_sys_mem sm;
    memset(&sm, 0, sizeof sm);
    sm.swap_used = 123456789;
    sm.level_c = 4321;
    sm.pressure_c = 777;
    sm.mem_total = 1;
    sm.valid = ST_SYS_SWAP | ST_SYS_PRESSURE | ST_SYS_MEMTOTAL;
    st_sample one = {0};
    one.footprint = 5;
    one.valid = ST_F_FOOTPRINT;
    st_lanes_from_sys(&one, &sm);
    assert_int_equal(one.valid, ST_F_FOOTPRINT | ST_F_SWAP | ST_F_PRESSURE);
    assert_int_equal(one.swap_used, 123456789);
    assert_int_equal(one.pressure_c, 777);
    assert_int_equal(one.level_c, 4321); /* copied, but not valid */
    assert_int_equal(one.footprint, 5);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st_monitor m;
        st_monitor_opts o;
        st_monitor_opts_default(&o);
        o.no_gpu = 1;
        open_mon(&m, &o, 100.0);
        the_backend->sys.valid = (uint16_t)cases[i].sys;
        the_backend->sys.pressure_c = 150;
        the_backend->sys.gpu_system = 3 * 1024 * 1024 + 17;
        assert_int_equal(st_monitor_step(&m, 100.0, NULL), ST_OK);
        const st_sample *smp = st_ring_last(&m.ring);
        assert_non_null(smp);
        assert_int_equal(smp->valid & (ST_F_SWAP | ST_F_LEVEL | ST_F_PRESSURE | ST_F_GPU_SYSTEM),
                         cases[i].lanes);
        if (cases[i].lanes & ST_F_GPU_SYSTEM)
            assert_int_equal(smp->gpu_system, 3 * 1024 * 1024 + 17);
        assert_true(st_sample_has(smp, ST_F_FOOTPRINT | ST_F_RSS | ST_F_PROCS));
        if (cases[i].lanes & ST_F_PRESSURE)
            assert_int_equal(smp->pressure_c, 150);
        st_monitor_close(&m, 0, NULL);
    }
}

/* cpu and pageins: the growth of the members' counters between two samples
 * over the time between them; none at the first sample, none from a backend
 * without counters. */
static void test_cpu_pageins_rates(void **state)
{
    (void)state;
    st_monitor m;
    st_monitor_opts o;
    st_monitor_opts_default(&o);
    o.no_gpu = 1;
    open_mon(&m, &o, 100.0);
    for (int i = 0; i < NPROC; i++) {
        the_backend->procs[i].cpu_ns = 1000000000ull * (uint64_t)(i + 1);
        the_backend->procs[i].pageins = 50;
        the_backend->procs[i].valid |= ST_PM_COUNTERS;
    }
    assert_int_equal(st_monitor_step(&m, 100.0, NULL), ST_OK);
    const st_sample *smp = st_ring_last(&m.ring);
    assert_false(smp->valid & (ST_F_CPU | ST_F_PAGEINS)); /* no base yet */
    for (int i = 0; i < NPROC; i++) {
        the_backend->procs[i].cpu_ns += 250000000ull; /* 0.25 s each ... */
        the_backend->procs[i].pageins += 40 * (uint64_t)(i + 1);
    }
    assert_int_equal(st_monitor_step(&m, 100.5, NULL), ST_OK); /* ... in 0.5 s */
    smp = st_ring_last(&m.ring);
    assert_true(st_sample_has(smp, ST_F_CPU | ST_F_PAGEINS));
    assert_int_equal(smp->cpu_c, 15000);        /* 3 alive members x 50 % = 150.00 % */
    assert_int_equal(smp->pageins_c, 48000);    /* (40 + 80 + 120) / 0.5 s = 480.00 /s */
    /* a counter that goes back (another process behind a reused pid) adds nothing */
    the_backend->procs[0].cpu_ns = 0;
    assert_int_equal(st_monitor_step(&m, 101.0, NULL), ST_OK);
    smp = st_ring_last(&m.ring);
    assert_int_equal(smp->cpu_c, 0);
    assert_int_equal(smp->pageins_c, 0);
    assert_int_equal(m.summary.lanes.max[ST_LANE_CPU], 15000);
    st_monitor_close(&m, 0, NULL);
    /* no counters: no lanes */
    open_mon(&m, &o, 100.0);
    assert_int_equal(st_monitor_step(&m, 100.0, NULL), ST_OK);
    assert_int_equal(st_monitor_step(&m, 100.5, NULL), ST_OK);
    assert_false(st_ring_last(&m.ring)->valid & (ST_F_CPU | ST_F_PAGEINS));
    st_monitor_close(&m, 0, NULL);
}

/* A lane with a summary key (tree_swap: peak_tree_swap) is in the trace
 * summary when the samples have it, and only then: a 0.2 trace's summary
 * stays as it was. */
static void test_summary_key(void **state)
{
    (void)state;
    static const char with[] = "{\"type\":\"sample\",\"t\":1,\"tree_swap\":8192}\n"
                               "{\"type\":\"sample\",\"t\":2,\"tree_swap\":12288}\n"
                               "{\"type\":\"sample\",\"t\":3,\"tree_swap\":4096}\n";
    static const char without[] = "{\"type\":\"sample\",\"t\":1,\"footprint\":5}\n";
    st_trace t;
    st_error e;
    st_trace_init(&t);
    assert_int_equal(st_trace_load_mem(with, strlen(with), &t, &e), ST_OK);
    char *js = st_summary_to_json(&t.summary, NULL);
    assert_non_null(js);
    assert_non_null(strstr(js, ",\"peak_tree_swap\":12288,"));
    free(js);
    st_trace_free(&t);
    st_trace_init(&t);
    assert_int_equal(st_trace_load_mem(without, strlen(without), &t, &e), ST_OK);
    js = st_summary_to_json(&t.summary, NULL);
    assert_non_null(js);
    assert_null(strstr(js, "tree_swap"));
    assert_null(strstr(js, "footprint_age"));
    free(js);
    st_trace_free(&t);
    /* the proportional corrections' age: the largest, written like level */
    static const char aged[] = "{\"type\":\"sample\",\"t\":1,\"footprint\":5,\"footprint_age\":0.5}\n"
                               "{\"type\":\"sample\",\"t\":2,\"footprint\":5,\"footprint_age\":2.75}\n"
                               "{\"type\":\"sample\",\"t\":3,\"footprint\":5}\n"
                               "{\"type\":\"sample\",\"t\":4,\"footprint\":5,\"footprint_age\":1}\n";
    st_trace_init(&t);
    assert_int_equal(st_trace_load_mem(aged, strlen(aged), &t, &e), ST_OK);
    assert_true(st_sample_has(&t.samples[1], ST_F_FOOTPRINT_AGE));
    assert_int_equal(t.samples[1].footprint_age_c, 275);
    assert_false(st_sample_has(&t.samples[2], ST_F_FOOTPRINT_AGE));
    js = st_summary_to_json(&t.summary, NULL);
    assert_non_null(js);
    assert_non_null(strstr(js, ",\"max_footprint_age\":2.75,"));
    free(js);
    st_trace_free(&t);
}

/* tree_swap: the members' own swapped memory summed over the tree (the
 * three alive members of the script); absent when the backend does not
 * read it (macOS). */
static void test_tree_swap_sums_members(void **state)
{
    (void)state;
    for (int read = 0; read <= 1; read++) {
        st_monitor m;
        st_monitor_opts o;
        st_monitor_opts_default(&o);
        o.no_gpu = 1;
        open_mon(&m, &o, 100.0);
        for (int i = 0; i < NPROC; i++) {
            the_backend->procs[i].swap = (uint64_t)(i + 1) * 4096 * 1000;
            if (read)
                the_backend->procs[i].valid |= ST_PM_SWAP;
        }
        assert_int_equal(st_monitor_step(&m, 100.0, NULL), ST_OK);
        const st_sample *smp = st_ring_last(&m.ring);
        assert_non_null(smp);
        if (read) {
            assert_true(st_sample_has(smp, ST_F_TREE_SWAP));
            assert_int_equal(smp->tree_swap, (1ull + 2 + 3) * 4096 * 1000); /* members 0..2 alive */
            assert_int_equal(m.summary.lanes.max[ST_LANE_TREE_SWAP], smp->tree_swap);
        } else {
            assert_false(st_sample_has(smp, ST_F_TREE_SWAP));
            assert_int_equal(smp->tree_swap, 0);
        }
        st_monitor_close(&m, 0, NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_match_the_sample),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_labels_unique),
        cmocka_unit_test(test_plot_rows_complete),
        cmocka_unit_test(test_doctor_rows),
        cmocka_unit_test_setup_teardown(test_round_trip, setup_dir, teardown_dir),
        cmocka_unit_test(test_range_refused),
        cmocka_unit_test(test_shared_per_process),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_sys_bits_own_space),
        cmocka_unit_test(test_tree_swap_sums_members),
        cmocka_unit_test(test_summary_key),
        cmocka_unit_test(test_cpu_pageins_rates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
