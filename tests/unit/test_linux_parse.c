/* test_linux_parse: the /proc parsers, fed fixture text (real captures from
 * tests/fixtures/proc and hand-made hostile text), plus the live files of
 * this very process checked against what the test knows independently. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stagetop/linux_parse.h"
#include "testutil.h"

#define S(lit) lit, sizeof(lit) - 1

static void status_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("proc", "status-cat.txt", &len);
    st_lx_status s;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_status(t, len, &s, &e), ST_OK);
    /* Values as the fixture shows them, in kB, times 1024. */
    assert_int_equal(s.valid, ST_LX_RSSANON | ST_LX_RSSSHMEM | ST_LX_RSSFILE | ST_LX_VMRSS |
                                  ST_LX_VMSWAP | ST_LX_VMHWM | ST_LX_PPID | ST_LX_THREADS);
    assert_int_equal(s.threads, 1);
    assert_int_equal(s.rss_anon, 116 * 1024ull);
    assert_int_equal(s.rss_file, 1652 * 1024ull);
    assert_int_equal(s.rss_shmem, 0);
    assert_int_equal(s.vm_rss, 1768 * 1024ull);
    assert_int_equal(s.vm_hwm, 1768 * 1024ull);
    assert_int_equal(s.vm_swap, 0);
    assert_int_equal(s.ppid, 8814);
    /* VmRSS = RssAnon + RssFile + RssShmem, as the kernel documents. */
    assert_int_equal(s.vm_rss, s.rss_anon + s.rss_file + s.rss_shmem);
    free(t);
}

static void status_kernel_thread_has_no_memory(void **state)
{
    size_t len;
    char *t = fixture_load("proc", "status-kthread.txt", &len);
    st_lx_status s;
    (void)state;
    assert_int_equal(st_lx_parse_status(t, len, &s, NULL), ST_OK);
    assert_int_equal(s.valid, ST_LX_PPID | ST_LX_THREADS);
    free(t);
}

static void status_missing_and_partial(void **state)
{
    st_lx_status s;
    (void)state;
    assert_int_equal(st_lx_parse_status(S("Name:\tx\nVmRSS:\t  10 kB\nVmSwap:\t2 kB"), &s, NULL), ST_OK);
    assert_int_equal(s.valid, ST_LX_VMRSS | ST_LX_VMSWAP); /* last line without newline */
    assert_int_equal(s.vm_rss, 10240);
    assert_int_equal(s.vm_swap, 2048);
    assert_int_equal(st_lx_parse_status(S(""), &s, NULL), ST_OK);
    assert_int_equal(s.valid, 0);
    /* A key that only starts like a wanted one is not it. */
    assert_int_equal(st_lx_parse_status(S("VmRSSx:\t5 kB\nVmRS:\t5 kB\n"), &s, NULL), ST_OK);
    assert_int_equal(s.valid, 0);
    /* len is honoured: the text after it is not read. */
    assert_int_equal(st_lx_parse_status("VmHWM:\t7 kB\nVmRSS:\tjunk", 13, &s, NULL), ST_OK);
    assert_int_equal(s.valid, ST_LX_VMHWM);
}

static void status_junk_is_rejected_with_line(void **state)
{
    st_lx_status s;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_status(S("Name:\tx\nVmRSS:\t abc kB\n"), &s, &e), ST_EPARSE);
    assert_int_equal(e.code, ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 2"));
    assert_non_null(strstr(e.msg, "VmRSS"));
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t12 MB\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t12\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t12 kB extra\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t-12 kB\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t kB\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("PPid:\t-1\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("PPid:\t2147483648\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("Threads:\t2147483648\n"), &s, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_status(S("Threads:\t12 kB\n"), &s, NULL), ST_EPARSE);
}

static void status_overflow_is_rejected(void **state)
{
    st_lx_status s;
    (void)state;
    /* Fits in 64 bits as kB but not as bytes. */
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t18014398509481984 kB\n"), &s, NULL), ST_EPARSE);
    /* The largest kB count that still fits. */
    assert_int_equal(st_lx_parse_status(S("VmRSS:\t18014398509481983 kB\n"), &s, NULL), ST_OK);
    assert_int_equal(s.vm_rss, 18014398509481983ull * 1024);
    /* Does not fit in 64 bits at all. */
    assert_int_equal(st_lx_parse_status(S("VmHWM:\t99999999999999999999999 kB\n"), &s, NULL), ST_EPARSE);
}

static void stat_plain(void **state)
{
    static const char t[] =
        "8826 (cat) R 8814 8814 2396 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 81113 3133440 381 "
        "18446744073709551615 94051012784128 94051012804009 140724069058912 0 0 0 0 0 0 0 0 0 17 "
        "1 0 0 0 0 0 94051012820016 94051012821632 94051546476544 140724069067174 140724069067194 "
        "140724069067194 140724069068779 0\n";
    st_lx_stat st;
    (void)state;
    assert_int_equal(st_lx_parse_stat(t, sizeof t - 1, &st, NULL), ST_OK);
    assert_int_equal(st.pid, 8826);
    assert_string_equal(st.comm, "cat");
    assert_int_equal(st.state, 'R');
    assert_int_equal(st.ppid, 8814);
    assert_int_equal(st.num_threads, 1);
    assert_int_equal(st.start, 81113);
}

/* The CPU and page-in counters: majflt (field 12), utime and stime (14, 15). */
static void stat_counters(void **state)
{
    static const char t[] = "9 (busy) R 1 9 9 0 -1 4194304 120 0 7 0 250 31 0 0 20 0 1 0 5000 0 0\n";
    st_lx_stat st;
    (void)state;
    assert_int_equal(st_lx_parse_stat(t, sizeof t - 1, &st, NULL), ST_OK);
    assert_int_equal(st.majflt, 7);
    assert_int_equal(st.utime, 250);
    assert_int_equal(st.stime, 31);
    assert_int_equal(st.num_threads, 1);
    assert_int_equal(st.start, 5000);
    static const char bad[] = "9 (busy) R 1 9 9 0 -1 4194304 120 0 x 0 250 31 0 0 20 0 1 0 5000 0 0\n";
    assert_int_equal(st_lx_parse_stat(bad, sizeof bad - 1, &st, NULL), ST_EPARSE);
}

static void stat_hostile_comm(void **state)
{
    /* A name with spaces, parentheses and ") (" that mimics the fields. */
    static const char t[] = "77 (a) S 1 2 (b) Z 9 9) S 42 77 77 0 -1 0 0 0 0 0 0 0 0 0 20 0 "
                            "3 0 123456789 0 0\n";
    static const char nl[] = "78 (x\n) 1 (y) T 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7 0 55 0\n";
    st_lx_stat st;
    (void)state;
    assert_int_equal(st_lx_parse_stat(t, sizeof t - 1, &st, NULL), ST_OK);
    assert_string_equal(st.comm, "a) S 1 2 (b) Z 9 9");
    assert_int_equal(st.state, 'S');
    assert_int_equal(st.ppid, 42);
    assert_int_equal(st.num_threads, 3);
    assert_int_equal(st.start, 123456789);
    assert_int_equal(st_lx_parse_stat(nl, sizeof nl - 1, &st, NULL), ST_OK);
    assert_string_equal(st.comm, "x\n) 1 (y");
    assert_int_equal(st.state, 'T');
    assert_int_equal(st.ppid, 5);
    assert_int_equal(st.num_threads, 7);
    assert_int_equal(st.start, 55);
}

static void stat_long_comm_is_truncated(void **state)
{
    char t[512];
    st_lx_stat st;
    int n;
    (void)state;
    n = snprintf(t, sizeof t, "5 (%0200d) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9 0\n", 0);
    assert_int_equal(st_lx_parse_stat(t, (size_t)n, &st, NULL), ST_OK);
    assert_int_equal(strlen(st.comm), sizeof st.comm - 1);
    assert_int_equal(st.start, 9);
}

static void stat_junk(void **state)
{
    st_lx_stat st;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_stat(S(""), &st, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 1"));
    assert_int_equal(st_lx_parse_stat(S("12 cat S 1\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat S 1\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("x (cat) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("0 (cat) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    /* Too few fields: starttime missing. */
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0\n"), &st, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "need 20"));
    /* Junk where the numbers must be. */
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S x 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9z\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat) SS 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S  1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat)S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    /* Overflow: start time past 64 bits, ppid past 31 bits. */
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 18446744073709551616\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S 2147483648 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 9\n"), &st, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_stat(S("12 (cat) S 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 18446744073709551615\n"), &st, NULL), ST_OK);
    assert_int_equal(st.start, UINT64_MAX);
}

/* CPU times and major faults: fields 12..17 (counted after the last ')'). */
static void stat_child_counters(void **state)
{
    st_lx_stat st;
    (void)state;
    assert_int_equal(st_lx_parse_stat(S("7 (a) b) (c) R 1 7 7 0 -1 4194560 100 0 1234 56 789 12 34 5 "
                                        "20 0 3 0 555 1000 100\n"), &st, NULL), ST_OK);
    assert_int_equal(st.state, 'R');
    assert_int_equal(st.majflt, 1234);
    assert_int_equal(st.cmajflt, 56);
    assert_int_equal(st.utime, 789);
    assert_int_equal(st.stime, 12);
    assert_int_equal(st.cutime, 34);
    assert_int_equal(st.cstime, 5);
    assert_int_equal(st.num_threads, 3);
    assert_int_equal(st.start, 555);
    assert_string_equal(st.comm, "a) b) (c");
}

/* The compressed pool is "Zswap:", not "Zswapped:" (the pages' own size). */
static void meminfo_zswap(void **state)
{
    st_lx_meminfo m;
    (void)state;
    assert_int_equal(st_lx_parse_meminfo(S("MemTotal: 100 kB\nZswapped: 9999 kB\nZswap: 2048 kB\n"), &m,
                                         NULL), ST_OK);
    assert_true(m.valid & ST_LX_ZSWAP);
    assert_int_equal(m.zswap, 2048ull * 1024);
    assert_int_equal(st_lx_parse_meminfo(S("MemTotal: 100 kB\n"), &m, NULL), ST_OK);
    assert_false(m.valid & ST_LX_ZSWAP);
}

static void meminfo_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("proc", "meminfo.txt", &len);
    st_lx_meminfo m;
    (void)state;
    assert_int_equal(st_lx_parse_meminfo(t, len, &m, NULL), ST_OK);
    assert_int_equal(m.valid, ST_LX_MEMTOTAL | ST_LX_MEMAVAILABLE | ST_LX_SWAPTOTAL | ST_LX_SWAPFREE |
                                  ST_LX_ZSWAP);
    assert_int_equal(m.zswap, 0); /* "Zswap:" only, not "Zswapped:" (the capture has both) */
    assert_int_equal(m.mem_total, 24683548ull * 1024);
    assert_int_equal(m.mem_available, 24359692ull * 1024);
    assert_int_equal(m.swap_total, 0);
    assert_int_equal(m.swap_free, 0);
    free(t);
}

static void meminfo_swap_missing_junk(void **state)
{
    st_lx_meminfo m;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_meminfo(S("MemTotal:  1000 kB\nMemFree: 5 kB\nSwapTotal: 2048 kB\n"
                                           "SwapFree:  1024 kB\n"), &m, NULL), ST_OK);
    assert_int_equal(m.valid, ST_LX_MEMTOTAL | ST_LX_SWAPTOTAL | ST_LX_SWAPFREE);
    assert_int_equal(m.swap_total - m.swap_free, 1024 * 1024);
    assert_int_equal(st_lx_parse_meminfo(S("MemTotal:  1000 kB\nMemAvailable: 12x kB\n"), &m, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 2"));
    assert_non_null(strstr(e.msg, "MemAvailable"));
    assert_int_equal(m.valid, 0);
    assert_int_equal(st_lx_parse_meminfo(S("MemTotal: 99999999999999999999 kB\n"), &m, NULL), ST_EPARSE);
}

static void psi_values(void **state)
{
    size_t len;
    char *t = fixture_load("proc", "pressure-memory.txt", &len);
    uint16_t c = 999;
    (void)state;
    assert_int_equal(st_lx_parse_psi(t, len, &c, NULL), ST_OK);
    assert_int_equal(c, 0);
    free(t);
    assert_int_equal(st_lx_parse_psi(S("some avg10=12.34 avg60=0.00 avg300=0.00 total=5\n"), &c, NULL), ST_OK);
    assert_int_equal(c, 1234);
    assert_int_equal(st_lx_parse_psi(S("full avg10=9.00 avg60=0 avg300=0 total=0\nsome avg10=100.00 "
                                       "avg60=0.00 avg300=0.00 total=1\n"), &c, NULL), ST_OK);
    assert_int_equal(c, 10000);
    assert_int_equal(st_lx_parse_psi(S("some avg10=7.5 avg60=0.00\n"), &c, NULL), ST_OK);
    assert_int_equal(c, 750);
    assert_int_equal(st_lx_parse_psi(S("some avg10=3 total=0\n"), &c, NULL), ST_OK);
    assert_int_equal(c, 300);
}

static void btime_line(void **state)
{
    uint64_t b = 0;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_btime(S("cpu  1 2 3 4\nintr 5 6 7\nctxt 9\nbtime 1764835200\n"
                                         "processes 42\n"), &b, NULL), ST_OK);
    assert_int_equal(b, 1764835200u);
    assert_int_equal(st_lx_parse_btime(S("btime 17\n"), &b, NULL), ST_OK); /* first line, no cpu */
    assert_int_equal(b, 17);
    assert_int_equal(st_lx_parse_btime(S("cpu 1\nbtime x\n"), &b, &e), ST_EPARSE);
    assert_int_equal(st_lx_parse_btime(S("cpu 1\nbtime 12x\n"), &b, &e), ST_EPARSE);
    assert_int_equal(st_lx_parse_btime(S("cpu 1\nbtimes 12\n"), &b, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "btime"));
    assert_int_equal(st_lx_parse_btime(S(""), &b, &e), ST_EPARSE);
}

static void psi_junk(void **state)
{
    uint16_t c;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_psi(S(""), &c, &e), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("full avg10=1.00 avg60=0.00\n"), &c, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("full avg10=0\nsome avg10=x\n"), &c, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 2"));
    assert_int_equal(st_lx_parse_psi(S("some avg60=1.00\n"), &c, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("some avg10=100.01 avg60=0\n"), &c, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("some avg10=101.00 avg60=0\n"), &c, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("some avg10=1. avg60=0\n"), &c, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("some avg10=1.0x avg60=0\n"), &c, NULL), ST_EPARSE);
    assert_int_equal(st_lx_parse_psi(S("some avg10=99999999999999999999999.00\n"), &c, NULL), ST_EPARSE);
}

static void children_list(void **state)
{
    static const char t[] = "123 4567 2147483647 \n";
    size_t pos = 0;
    int32_t pid = 0;
    (void)state;
    assert_int_equal(st_lx_next_pid(t, sizeof t - 1, &pos, &pid, NULL), 1);
    assert_int_equal(pid, 123);
    assert_int_equal(st_lx_next_pid(t, sizeof t - 1, &pos, &pid, NULL), 1);
    assert_int_equal(pid, 4567);
    assert_int_equal(st_lx_next_pid(t, sizeof t - 1, &pos, &pid, NULL), 1);
    assert_int_equal(pid, 2147483647);
    assert_int_equal(st_lx_next_pid(t, sizeof t - 1, &pos, &pid, NULL), 0);
    assert_int_equal(st_lx_next_pid(t, sizeof t - 1, &pos, &pid, NULL), 0);
    pos = 0;
    assert_int_equal(st_lx_next_pid(S(""), &pos, &pid, NULL), 0);
    pos = 0;
    assert_int_equal(st_lx_next_pid("12 34", 4, &pos, &pid, NULL), 1); /* len cuts "34" to "3" */
    assert_int_equal(st_lx_next_pid("12 34", 4, &pos, &pid, NULL), 1);
    assert_int_equal(pid, 3);
}

/* smaps_rollup: a real capture (Linux 6.18, `cat /proc/self/smaps_rollup`)
 * and one in the layout of a kernel before 5.8 (hand-made: no Pss_Anon,
 * Pss_File, Pss_Shmem, Pss_Dirty lines), whose split stays invalid. */
static void rollup_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("proc", "smaps_rollup-cat.txt", &len);
    st_lx_rollup r;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_rollup(t, len, &r, &e), ST_OK);
    assert_int_equal(r.valid, ST_LX_PSS | ST_LX_PSS_ANON | ST_LX_PSS_SHMEM | ST_LX_SWAPPSS |
                                  ST_LX_R_RSS | ST_LX_PRIVATE | ST_LX_SHARED);
    assert_int_equal(r.rss, 1708 * 1024ull);
    assert_int_equal(r.pss, 216 * 1024ull);
    assert_int_equal(r.pss_anon, 116 * 1024ull);
    assert_int_equal(r.pss_shmem, 0);
    assert_int_equal(r.swap_pss, 0);
    assert_int_equal(r.private_bytes, (36 + 116) * 1024ull);
    assert_int_equal(r.shared_bytes, 1556 * 1024ull);
    free(t);
    t = fixture_load("proc", "smaps_rollup-5.4.txt", &len);
    assert_int_equal(st_lx_parse_rollup(t, len, &r, &e), ST_OK);
    assert_int_equal(r.valid, ST_LX_PSS | ST_LX_SWAPPSS | ST_LX_R_RSS | ST_LX_PRIVATE | ST_LX_SHARED);
    assert_int_equal(r.pss, 41400 * 1024ull);
    assert_int_equal(r.pss_anon, 0);
    free(t);
}

static void rollup_junk(void **state)
{
    st_lx_rollup r;
    st_error e;
    (void)state;
    assert_int_equal(st_lx_parse_rollup(S("Rss: 12 kB\nPss_Anon: x kB\n"), &r, &e), ST_EPARSE);
    assert_int_equal(r.valid, 0);
    assert_int_equal(st_lx_parse_rollup(S("Pss_Anon: 99999999999999999999 kB\n"), &r, &e), ST_EPARSE);
    assert_int_equal(st_lx_parse_rollup(S(""), &r, &e), ST_OK); /* a zombie's: nothing */
    assert_int_equal(r.valid, 0);
}

static void children_junk(void **state)
{
    size_t pos;
    int32_t pid;
    st_error e;
    (void)state;
    pos = 0;
    assert_int_equal(st_lx_next_pid(S("12a 5"), &pos, &pid, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "children"));
    pos = 0;
    assert_int_equal(st_lx_next_pid(S("0 "), &pos, &pid, NULL), ST_EPARSE);
    pos = 0;
    assert_int_equal(st_lx_next_pid(S("-5 "), &pos, &pid, NULL), ST_EPARSE);
    pos = 0;
    assert_int_equal(st_lx_next_pid(S("2147483648 "), &pos, &pid, NULL), ST_EPARSE);
    pos = 0;
    assert_int_equal(st_lx_next_pid(S("99999999999999999999999 "), &pos, &pid, NULL), ST_EPARSE);
    pos = 0;
    assert_int_equal(st_lx_next_pid(S("7\t8"), &pos, &pid, NULL), ST_EPARSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_real_capture),
        cmocka_unit_test(status_kernel_thread_has_no_memory),
        cmocka_unit_test(status_missing_and_partial),
        cmocka_unit_test(status_junk_is_rejected_with_line),
        cmocka_unit_test(status_overflow_is_rejected),
        cmocka_unit_test(stat_counters),
        cmocka_unit_test(stat_plain),
        cmocka_unit_test(stat_hostile_comm),
        cmocka_unit_test(stat_long_comm_is_truncated),
        cmocka_unit_test(stat_junk),
        cmocka_unit_test(meminfo_real_capture),
        cmocka_unit_test(stat_child_counters),
        cmocka_unit_test(meminfo_zswap),
        cmocka_unit_test(meminfo_swap_missing_junk),
        cmocka_unit_test(psi_values),
        cmocka_unit_test(psi_junk),
        cmocka_unit_test(children_list),
        cmocka_unit_test(children_junk),
        cmocka_unit_test(rollup_real_capture),
        cmocka_unit_test(rollup_junk),
        cmocka_unit_test(btime_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
