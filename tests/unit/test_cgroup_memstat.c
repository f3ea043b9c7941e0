/* test_cgroup_memstat.c: a launched job's own cgroup's memory, counted once
 * (core/platform/linux_share.c, st_lx_parse_memstat and group_footprint;
 * docs/metrics.md, "Counted once").
 *
 * The texts are memory.stat as the kernel writes it: flat keyed lines
 * "KEY VALUE" in bytes (Documentation/admin-guide/cgroup-v2.rst, "Format"
 * and memory.stat; cgroup-v1/memory.rst 5.2), the v2 one in the order of
 * mm/memcontrol.c's memory_stats[] (anon_thp and file_mapped after anon and
 * shmem: a key is matched whole), the v1 one as this machine's v1 hierarchy
 * printed it (local counters, then the hierarchical total_*).  The real
 * hierarchy is read by tests/e2e/cgroup_footprint.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/platform/linux_cgroup.h"

static const char v2_stat[] =
    "anon 314572800\n"
    "file 52428800\n"
    "kernel 4194304\n"
    "kernel_stack 131072\n"
    "pagetables 1048576\n"
    "sec_pagetables 0\n"
    "percpu 0\n"
    "sock 0\n"
    "vmalloc 0\n"
    "shmem 104857600\n"
    "zswap 0\n"
    "zswapped 0\n"
    "file_mapped 8388608\n"
    "file_dirty 0\n"
    "file_writeback 0\n"
    "swapcached 0\n"
    "anon_thp 209715200\n"
    "file_thp 0\n"
    "shmem_thp 0\n"
    "inactive_anon 419430400\n"
    "active_anon 0\n"
    "inactive_file 10485760\n"
    "active_file 41943040\n"
    "unevictable 0\n"
    "slab_reclaimable 1048576\n"
    "slab_unreclaimable 2097152\n"
    "slab 3145728\n"
    "workingset_refault_anon 0\n"
    "pgfault 120000\n"
    "pgmajfault 3\n"
    "thp_fault_alloc 100\n";

/* A v1 cgroup whose child cgroup holds more: total_* count it, the local
 * counters do not. */
static const char v1_stat[] =
    "cache 106954752\n"
    "rss 67108864\n"
    "rss_huge 0\n"
    "shmem 104857600\n"
    "mapped_file 0\n"
    "dirty 0\n"
    "writeback 0\n"
    "swap 4096\n"
    "swapcached 0\n"
    "pgpgin 45000\n"
    "inactive_anon 171966464\n"
    "hierarchical_memory_limit 9223372036854771712\n"
    "total_cache 106954752\n"
    "total_rss 134217728\n"
    "total_rss_huge 0\n"
    "total_shmem 104857600\n"
    "total_mapped_file 0\n"
    "total_swap 8192\n"
    "total_swapcached 0\n";

static void v2_anon_and_shmem(void **state)
{
    (void)state;
    st_lx_memstat ms;
    assert_int_equal(st_lx_parse_memstat(v2_stat, strlen(v2_stat), 0, &ms), 0);
    assert_int_equal(ms.anon, 314572800); /* not anon_thp, not inactive_anon */
    assert_int_equal(ms.shmem, 104857600); /* not shmem_thp */
    assert_int_equal(ms.swap, 0);          /* v2: memory.swap.current, read apart */
}

static void v1_hierarchical_counters(void **state)
{
    (void)state;
    st_lx_memstat ms;
    assert_int_equal(st_lx_parse_memstat(v1_stat, strlen(v1_stat), 1, &ms), 0);
    assert_int_equal(ms.anon, 134217728); /* total_rss, not rss */
    assert_int_equal(ms.shmem, 104857600);
    assert_int_equal(ms.swap, 8192);
    assert_true(ms.has_swap);
}

static void v1_without_swap_accounting(void **state)
{
    (void)state;
    /* no memsw accounting: no swap lines; an old kernel: no total_* */
    static const char t[] = "cache 0\nrss 4096\nrss_huge 0\nshmem 8192\nmapped_file 0\n";
    st_lx_memstat ms;
    assert_int_equal(st_lx_parse_memstat(t, strlen(t), 1, &ms), 0);
    assert_int_equal(ms.anon, 4096);
    assert_int_equal(ms.shmem, 8192);
    assert_int_equal(ms.swap, 0);
    assert_false(ms.has_swap);
}

static void missing_or_bad_lines_refused(void **state)
{
    (void)state;
    st_lx_memstat ms;
    static const char no_shmem[] = "anon 4096\nfile 0\nshmem_thp 0\n";
    static const char bad[] = "anon 12x\nshmem 0\n";
    static const char empty_val[] = "anon \nshmem 0\n";
    static const char huge[] = "anon 99999999999999999999999\nshmem 0\n";
    assert_int_equal(st_lx_parse_memstat(no_shmem, strlen(no_shmem), 0, &ms), -1);
    assert_int_equal(st_lx_parse_memstat(bad, strlen(bad), 0, &ms), -1);
    assert_int_equal(st_lx_parse_memstat(empty_val, strlen(empty_val), 0, &ms), -1);
    assert_int_equal(st_lx_parse_memstat(huge, strlen(huge), 0, &ms), -1);
    assert_int_equal(st_lx_parse_memstat(v2_stat, strlen(v2_stat), 1, &ms), -1); /* v2 has no rss */
    /* the text ends without a newline, as a cut read would */
    assert_int_equal(st_lx_parse_memstat("anon 1\nshmem 2", 14, 0, &ms), 0);
    assert_int_equal(ms.shmem, 2);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* group_footprint through its open files: v2 anon + shmem plus
 * memory.swap.current; group_pids its cgroup.procs; a group given up
 * reads as gone. */
static void footprint_of_a_group(void **state)
{
    (void)state;
    char tmp[] = "/tmp/st-cgstat-XXXXXX", p[600];
    st_backend *b = NULL;
    st_job_group g;
    uint64_t v = 0;
    assert_non_null(mkdtemp(tmp));
    snprintf(p, sizeof p, "%s/memory.stat", tmp);
    put(p, v2_stat);
    snprintf(p, sizeof p, "%s/memory.swap.current", tmp);
    put(p, "1048576\n");
    snprintf(p, sizeof p, "%s/cgroup.procs", tmp);
    put(p, "3012\n41\n977\n");
    memset(&g, 0, sizeof g);
    g.fd = g.stat_fd = g.swap_fd = g.procs_rfd = -1;
    snprintf(g.dir, sizeof g.dir, "%s", tmp);
    g.active = 1;
    assert_int_equal(st_lx_group_open_stats(&g), 0);
    assert_int_equal(st_platform_native.open(&b, NULL), ST_OK);
    assert_int_equal(st_platform_native.group_footprint(b, &g, &v, NULL), ST_OK);
    assert_int_equal(v, 314572800 + 104857600 + 1048576);
    /* the processes it holds, sorted (v2: read again from offset 0) */
    int32_t *pids = NULL;
    size_t cap = 0, n = 0;
    for (int round = 0; round < 2; round++) {
        assert_int_equal(st_platform_native.group_pids(b, &g, &pids, &cap, &n, NULL), ST_OK);
        assert_int_equal(n, 3);
        assert_int_equal(pids[0], 41);
        assert_int_equal(pids[1], 977);
        assert_int_equal(pids[2], 3012);
    }
    free(pids);
    g.active = 0; /* given up (removed at the end) */
    assert_int_equal(st_platform_native.group_footprint(b, &g, &v, NULL), ST_ESRCH);
    close(g.stat_fd);
    close(g.swap_fd);
    if (g.procs_rfd >= 0)
        close(g.procs_rfd);
    st_platform_native.close(b);
    snprintf(p, sizeof p, "rm -rf '%s'", tmp);
    assert_int_equal(system(p), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(v2_anon_and_shmem),
        cmocka_unit_test(v1_hierarchical_counters),
        cmocka_unit_test(v1_without_swap_accounting),
        cmocka_unit_test(missing_or_bad_lines_refused),
        cmocka_unit_test(footprint_of_a_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
