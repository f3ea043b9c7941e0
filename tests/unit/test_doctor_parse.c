/* test_doctor_parse: the parsers of `stagetop doctor`'s reference tools, fed
 * real captured outputs (tests/fixtures/macos, tests/fixtures/linux; where
 * each came from is in their README.md) and hostile text; the tool runner
 * and the held child on real processes; the verdict and the JSON report.
 * Expected values are worked out from the fixture's own text (e.g. "1.2G"
 * is 1.2 x 2^30), never copied from what the parser printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>
#include <cJSON.h>

#include "stagetop/doctor.h"
#include "stagetop/json.h"
#include "testutil.h"
#include "sizes.h"

#define S(lit) lit, sizeof(lit) - 1

/* ---- macOS tools, captured outputs ---- */

static void vmmap_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("macos", "vmmap-gopls-macos13.txt", &len);
    st_doctor_fp fp;
    (void)state;
    assert_int_equal(st_doctor_parse_vmmap(t, len, &fp, NULL), ST_OK);
    assert_int_equal(fp.valid, ST_DOC_FP_NOW | ST_DOC_FP_PEAK);
    assert_int_equal(fp.now, 12 * GIB / 10);     /* "1.2G" */
    assert_int_equal(fp.now_res, GIB / 10);      /* one unit of the last digit */
    assert_int_equal(fp.peak, 12 * GIB / 10);
    free(t);
}

static void footprint_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("macos", "footprint-webkit.txt", &len);
    st_doctor_fp fp;
    char *aux;
    (void)state;
    assert_int_equal(st_doctor_parse_footprint(t, len, &fp, NULL), ST_OK);
    assert_int_equal(fp.valid, ST_DOC_FP_NOW | ST_DOC_FP_PEAK);
    assert_int_equal(fp.now, 142 * MIB);   /* "phys_footprint: 142 MB" */
    assert_int_equal(fp.peak, 424 * MIB);  /* "phys_footprint_peak: 424 MB" */
    assert_int_equal(fp.now_res, MIB);
    /* Without its Auxiliary data, the header's "Footprint: 142 MB" is used. */
    aux = strstr(t, "Auxiliary data:");
    assert_non_null(aux);
    *aux = '\0';
    assert_int_equal(st_doctor_parse_footprint(t, strlen(t), &fp, NULL), ST_OK);
    assert_int_equal(fp.valid, ST_DOC_FP_NOW);
    assert_int_equal(fp.now, 142 * MIB);
    free(t);
}

static void footprint_bytes_and_errors(void **state)
{
    st_doctor_fp fp;
    st_error e;
    (void)state;
    /* -f bytes; "footprint: Unable to analyze" lines for other pids are skipped */
    assert_int_equal(st_doctor_parse_footprint(S("footprint: Unable to analyze process with pid 418\n"
                                              "Auxiliary data:\n    phys_footprint: 214,483,976 B\n"
                                              "    phys_footprint_peak: 250954712 B\n"), &fp, NULL), ST_OK);
    assert_int_equal(fp.now, 214483976);
    assert_int_equal(fp.peak, 250954712);
    assert_int_equal(fp.now_res, 1);
    assert_int_equal(st_doctor_parse_footprint(S("footprint: Unable to analyze process with pid 1 (try as root?)\n"),
                                            &fp, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "phys_footprint"));
    assert_int_equal(st_doctor_parse_vmmap(S("Physical footprint:         lots\n"), &fp, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 1"));
    assert_int_equal(st_doctor_parse_vmmap(S(""), &fp, &e), ST_EPARSE);
}

static void swapusage_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("macos", "swapusage-a11wa11.txt", &len);
    uint64_t total, used, res;
    st_error e;
    (void)state;
    assert_int_equal(st_doctor_parse_swapusage(t, len, &total, &used, &res, NULL), ST_OK);
    assert_int_equal(total, 2048 * MIB);            /* "2048.00M" */
    assert_int_equal(used, 146250 * MIB / 100);     /* "1462.50M" */
    assert_int_equal(res, MIB / 100);
    /* sysctl -n prints the same without the name */
    assert_int_equal(st_doctor_parse_swapusage(S("total = 0.00M  used = 0.00M  free = 0.00M  (encrypted)\n"),
                                            &total, &used, &res, NULL), ST_OK);
    assert_int_equal(used, 0);
    assert_int_equal(st_doctor_parse_swapusage(S("vm.swapusage: total = 1G"), &total, &used, &res, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_swapusage(S("total = x used = y"), &total, &used, &res, &e), ST_EPARSE);
    free(t);
}

static void memory_pressure_real_capture(void **state)
{
    size_t len;
    char *t = fixture_load("macos", "memory_pressure-macmini.txt", &len);
    uint16_t c;
    st_error e;
    (void)state;
    assert_int_equal(st_doctor_parse_memory_pressure(t, len, &c, NULL), ST_OK);
    assert_int_equal(c, 86 * 100);
    assert_int_equal(st_doctor_parse_memory_pressure(S("System-wide memory free percentage: 150%\n"), &c, &e),
                     ST_EPARSE);
    assert_int_equal(st_doctor_parse_memory_pressure(S("System-wide memory free percentage: %\n"), &c, &e),
                     ST_EPARSE);
    /* cut off before the line: the whole capture minus its last line */
    assert_int_equal(st_doctor_parse_memory_pressure(t, (size_t)(strstr(t, "System-wide") - t), &c, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "System-wide memory free percentage"));
    free(t);
}

static void sizes(void **state)
{
    uint64_t b, r;
    st_error e;
    (void)state;
    assert_int_equal(st_doctor_parse_size(S("2192K"), &b, &r, NULL), ST_OK);
    assert_int_equal(b, 2192 * 1024ull);
    assert_int_equal(st_doctor_parse_size(S("213.8M"), &b, &r, NULL), ST_OK);
    assert_int_equal(b, 2138 * MIB / 10);
    assert_int_equal(st_doctor_parse_size(S("0 B"), &b, &r, NULL), ST_OK);
    assert_int_equal(b, 0);
    assert_int_equal(st_doctor_parse_size(S(""), &b, &r, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_size(S("1.5Q"), &b, &r, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_size(S("99999999999999999999G"), &b, &r, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_size(S("99999999999P"), &b, &r, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_uint(S("  4236\n"), &b, NULL), ST_OK);
    assert_int_equal(b, 4236);
    assert_int_equal(st_doctor_parse_uint(S("4236 12\n"), &b, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_uint(S(""), &b, &e), ST_EPARSE); /* ps for a gone pid */
}

/* Apple's top: the PAGEINS column of the pid's row. */
static void top_pageins(void **state)
{
    uint64_t v = 0;
    st_error e;
    size_t len;
    char *t = fixture_load("macos", "top-docker.txt", &len); /* a real capture: 29 columns */
    (void)state;
    assert_int_equal(st_doctor_parse_top_pageins(t, len, 1841, &v, &e), ST_OK);
    assert_int_equal(v, 17); /* PAGEIN, not FAULTS' 202373842+ or CSW's 48973831+ */
    assert_int_equal(st_doctor_parse_top_pageins(t, len, 1842, &v, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "no row for pid 1842"));
    free(t);
    /* `top -l 1 -pid 4242 -stats pid,pageins` as top-144's logging.c prints it
     * (log_print_all 198-227: global lines, a blank line, the headers padded
     * to each column's width with one blank between, then one row a
     * process); a later sample's cell carries "+" (uinteger.c:160-173). */
    static const char logged[] =
        "Processes: 612 total, 3 running, 609 sleeping, 3214 threads \n"
        "2026/12/04 03:10:00\n"
        "Load Avg: 2.10, 2.33, 2.41 \n"
        "PhysMem: 47G used (3012M wired, 1904M compressor), 512M unused.\n"
        "\n"
        "PID  PAGEINS\n"
        "4242 3187   \n";
    assert_int_equal(st_doctor_parse_top_pageins(S(logged), 4242, &v, &e), ST_OK);
    assert_int_equal(v, 3187);
    assert_int_equal(st_doctor_parse_top_pageins(S("PID  PAGEINS\n4242 3190+\n"), 4242, &v, &e), ST_OK);
    assert_int_equal(v, 3190);
    /* not a count; no header (top refused the options); a pid top could not read */
    assert_int_equal(st_doctor_parse_top_pageins(S("PID  PAGEINS\n4242 31x\n"), 4242, &v, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_top_pageins(S("invalid option -- l\n"), 4242, &v, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "no 'PID ... PAGEINS' header"));
    assert_int_equal(st_doctor_parse_top_pageins(S("PID  PAGEINS\n"), 4242, &v, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_top_pageins(S("PID  COMMAND\n4242 sleep\n"), 4242, &v, &e), ST_EPARSE);
    /* a pid that is a prefix of the row's is not the row */
    assert_int_equal(st_doctor_parse_top_pageins(S("PID   PAGEINS\n42420 9\n"), 4242, &v, &e), ST_EPARSE);
}

static void nvidia_smi(void **state)
{
    uint64_t bytes;
    int lines;
    st_error e;
    size_t len;
    char *t = fixture_load("nvidia", "compute-apps-h200.txt", &len); /* a real H200 capture */
    (void)state;
    assert_int_equal(st_doctor_parse_nvsmi(t, len, 493, &bytes, &lines, NULL), ST_OK);
    assert_int_equal(bytes, 2658 * MIB);
    assert_int_equal(lines, 1);
    assert_int_equal(st_doctor_parse_nvsmi(t, len, 494, &bytes, &lines, NULL), ST_OK);
    assert_int_equal(bytes, 0);
    free(t);
    /* one line per GPU the pid uses; other pids and [N/A] left out */
    assert_int_equal(st_doctor_parse_nvsmi(S("1234, 612\n5678, 10240\n1234, 100\n1234, [N/A]\n"), 1234, &bytes,
                                        &lines, NULL), ST_OK);
    assert_int_equal(bytes, 712 * MIB);
    assert_int_equal(lines, 3);
    assert_int_equal(st_doctor_parse_nvsmi(S("No running processes found\n"), 1234, &bytes, &lines, NULL), ST_OK);
    assert_int_equal(bytes, 0);
    assert_int_equal(lines, 0);
    assert_int_equal(st_doctor_parse_nvsmi(S("1234 612\n"), 1234, &bytes, &lines, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 1"));
    assert_int_equal(st_doctor_parse_nvsmi(S("1234, lots\n"), 1234, &bytes, &lines, &e), ST_EPARSE);
}

/* ---- Linux files and tools, captured here ---- */

static void linux_captures(void **state)
{
    size_t len;
    char *t;
    st_doctor_smaps sm;
    st_doctor_free f;
    uint64_t used, total, kib;
    (void)state;
    t = fixture_load("linux", "smaps_rollup.txt", &len);
    assert_int_equal(st_doctor_parse_smaps_rollup(t, len, &sm, NULL), ST_OK);
    assert_int_equal(sm.valid, 63u); /* Pss_Anon and SwapPss too (Linux 5.8 on) */
    assert_int_equal(sm.rss, 1736 * 1024ull);
    assert_int_equal(sm.pss_anon, 112 * 1024ull);
    assert_int_equal(sm.swap_pss, 0);
    assert_int_equal(sm.anonymous, 112 * 1024ull);
    free(t);
    t = fixture_load("linux", "free-b.txt", &len);
    assert_int_equal(st_doctor_parse_free(t, len, &f, NULL), ST_OK);
    assert_int_equal(f.mem_total, 25275990016ull);
    assert_int_equal(f.mem_available, 24647897088ull);
    assert_int_equal(f.swap_total, 0);
    free(t);
    t = fixture_load("linux", "proc-swaps.txt", &len); /* no swap device: the header only */
    assert_int_equal(st_doctor_parse_proc_swaps(t, len, &used, &total, NULL), ST_OK);
    assert_int_equal(used, 0);
    free(t);
    t = fixture_load("linux", "ps-rss.txt", &len);
    assert_int_equal(st_doctor_parse_uint(t, len, &kib, NULL), ST_OK);
    assert_int_equal(kib, strtoull(t, NULL, 10));
    free(t);
}

static void linux_hostile(void **state)
{
    uint64_t used, total;
    st_doctor_free f;
    st_doctor_smaps sm;
    uint16_t c;
    st_error e;
    (void)state;
    assert_int_equal(st_doctor_parse_proc_swaps(S("Filename Type Size Used Priority\n"
                                               "/swapfile file 2097148 524288 -2\n"
                                               "/dev/sda2 partition 1000 10 -3\n"), &used, &total, NULL), ST_OK);
    assert_int_equal(used, (524288 + 10) * 1024ull);
    assert_int_equal(total, (2097148 + 1000) * 1024ull);
    assert_int_equal(st_doctor_parse_proc_swaps(S("Filename Type Size Used Priority\n/x file big 1 -2\n"),
                                             &used, &total, &e), ST_EPARSE);
    assert_non_null(strstr(e.msg, "line 2"));
    /* procps before 3.3.10: no "available" column */
    assert_int_equal(st_doctor_parse_free(S("             total       used       free     shared    buffers     cached\n"
                                         "Mem:       1000 900 100 0 10\n"
                                         "Swap:      0 0 0\n"), &f, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_free(S("nothing\n"), &f, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_smaps_rollup(S("Rss: lots kB\n"), &sm, &e), ST_EPARSE);
    assert_int_equal(st_doctor_parse_psi_some(S("some avg10=1.23 avg60=0.50 avg300=0.00 total=1\n"
                                             "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"), &c, NULL), ST_OK);
    assert_int_equal(c, 123);
    assert_int_equal(st_doctor_parse_psi_some(S("full avg10=0.00\n"), &c, &e), ST_EPARSE);
}

/* ---- the runner and the held child, on real processes ---- */

static void runner(void **state)
{
    char out[128];
    size_t len;
    st_error e;
    const char *nosuch[] = {"stagetop-no-such-tool-here", NULL};
    const char *fail[] = {"sh", "-c", "echo partial; exit 3", NULL};
    const char *slow[] = {"sleep", "30", NULL};
    const char *big[] = {"sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo 0123456789; i=$((i+1)); done", NULL};
    const char *loc[] = {"sh", "-c", "echo \"$LC_ALL\"", NULL};
    (void)state;
    assert_int_equal(st_doctor_run_tool(nosuch, 10, out, sizeof out, &len, &e), ST_ENOTSUP);
    assert_non_null(strstr(e.msg, "not found"));
    assert_int_equal(st_doctor_run_tool(fail, 10, out, sizeof out, &len, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "exit status 3"));
    assert_string_equal(out, "partial\n");
    assert_int_equal(st_doctor_run_tool(slow, 0.2, out, sizeof out, &len, &e), ST_EIO);
    assert_non_null(strstr(e.msg, "did not finish"));
    /* more output than room: kept up to the room, the rest drained */
    assert_int_equal(st_doctor_run_tool(big, 30, out, sizeof out, &len, &e), ST_OK);
    assert_int_equal(len, sizeof out - 1);
    assert_int_equal(st_doctor_run_tool(loc, 10, out, sizeof out, &len, &e), ST_OK);
    assert_string_equal(out, "C\n");
}

static void held_child(void **state)
{
    st_doctor_child c;
    st_error e;
    uint64_t maxrss = 0;
    char path[64];
    FILE *f;
    int32_t pid;
    (void)state;
    assert_int_equal(st_doctor_child_start(&c, 16 * MIB, 60, &e), ST_OK);
    assert_true(c.pid > 0);
    pid = c.pid;
    assert_int_equal(kill(pid, 0), 0);
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid); /* portable: read only where it opens */
    if ((f = fopen(path, "r")) != NULL) { /* Linux: its memory is there, touched */
        char line[256];
        unsigned long long kb = 0;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "RssAnon: %llu kB", &kb) == 1)
                break;
        fclose(f);
        assert_true(kb * 1024 >= 16 * MIB);
    }
    st_doctor_child_stop(&c, &maxrss);
    assert_int_equal(c.pid, 0);
    assert_true(maxrss > 0);
    assert_int_equal(kill(pid, 0), -1); /* reaped: the pid is gone */
    assert_int_equal(errno, ESRCH);
    st_doctor_child_stop(&c, NULL); /* twice is harmless */
}

/* ---- verdict and JSON ---- */

static void judge(void **state)
{
    st_doctor_check c;
    (void)state;
    memset(&c, 0, sizeof c);
    c.has_value = c.has_ref = 1;
    c.value = 100 * MIB, c.ref = 103 * MIB, c.tol = 4 * MIB;
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    c.ref = 105 * MIB;
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    c.has_after = 1, c.after = 110 * MIB; /* the memory grew between the reads */
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    c.has_after = 0, c.rule = ST_DOC_AT_LEAST, c.ref = 50 * MIB;
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    c.ref = 200 * MIB;
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    c.has_ref = 0;
    st_doctor_judge(&c);
    assert_int_equal(c.ok, ST_DOC_NOT_CHECKED);
}

static void json_report(void **state)
{
    st_doctor_report *r = calloc(1, sizeof *r);
    st_jw w;
    char *text;
    cJSON *j, *ch;
    (void)state;
    assert_non_null(r);
    r->platform = "linux", r->footprint_metric = "anon+shmem+swap", r->peak_metric = "VmHWM";
    r->pid = 42, r->n = 2, r->ok = 0;
    snprintf(r->facts.os, sizeof r->facts.os, "Linux \"quoted\"");
    r->facts.psi = -1;
    snprintf(r->checks[0].lane, sizeof r->checks[0].lane, "level");
    r->checks[0].unit = ST_DOC_PERCENT_C, r->checks[0].has_value = r->checks[0].has_ref = 1;
    r->checks[0].value = 4525, r->checks[0].ref = 4600, r->checks[0].tol = 200, r->checks[0].ok = ST_DOC_AGREES;
    snprintf(r->checks[0].source, sizeof r->checks[0].source, "free -b");
    snprintf(r->checks[1].lane, sizeof r->checks[1].lane, "gpu");
    r->checks[1].has_value = 1, r->checks[1].value = 3 * GIB, r->checks[1].ok = ST_DOC_NOT_CHECKED;
    st_jw_init(&w, -1);
    st_doctor_json(&w, r);
    text = st_jw_take(&w);
    assert_non_null(text);
    j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "platform")->valuestring, "linux");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "ok")));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "facts"), "os")->valuestring,
                        "Linux \"quoted\"");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "facts"), "psi")));
    ch = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0);
    assert_true(cJSON_GetObjectItem(ch, "stagetop")->valuedouble == 45.25); /* level in percent */
    assert_true(cJSON_GetObjectItem(ch, "tolerance")->valuedouble == 2);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ch, "ok")));
    ch = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 1);
    assert_true(cJSON_GetObjectItem(ch, "stagetop")->valuedouble == (double)(3 * GIB)); /* bytes */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(ch, "reference")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(ch, "ok")));
    cJSON_Delete(j);
    free(text);
    st_jw_free(&w);
    free(r);
}

/* `ps -o time=` on Linux (whole seconds, [[DD-]HH:]MM:SS) and macOS
 * (M:SS.ss): the cpu lane's reference, in milliseconds. */
static void cputime(void **state)
{
    uint64_t ms;
    (void)state;
    assert_int_equal(st_doctor_parse_cputime("00:00:07\n", strlen("00:00:07\n"), &ms, NULL), ST_OK);
    assert_int_equal(ms, 7000);
    assert_int_equal(st_doctor_parse_cputime("01:02:03", strlen("01:02:03"), &ms, NULL), ST_OK);
    assert_int_equal(ms, 3723000);
    assert_int_equal(st_doctor_parse_cputime("2-03:00:01", strlen("2-03:00:01"), &ms, NULL), ST_OK);
    assert_int_equal(ms, (2 * 86400 + 3 * 3600 + 1) * 1000ull);
    assert_int_equal(st_doctor_parse_cputime("  0:01.25\n", strlen("  0:01.25\n"), &ms, NULL), ST_OK); /* macOS */
    assert_int_equal(ms, 1250);
    assert_int_equal(st_doctor_parse_cputime("12:34.5", strlen("12:34.5"), &ms, NULL), ST_OK);
    assert_int_equal(ms, (12 * 60 + 34) * 1000 + 500);
    assert_int_equal(st_doctor_parse_cputime("7", strlen("7"), &ms, NULL), ST_EPARSE);
    assert_int_equal(st_doctor_parse_cputime("1:2:3:4", strlen("1:2:3:4"), &ms, NULL), ST_EPARSE);
    assert_int_equal(st_doctor_parse_cputime("", strlen(""), &ms, NULL), ST_EPARSE);
    assert_int_equal(st_doctor_parse_cputime("00:00:07 x", strlen("00:00:07 x"), &ms, NULL), ST_EPARSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vmmap_real_capture),
        cmocka_unit_test(footprint_real_capture),
        cmocka_unit_test(footprint_bytes_and_errors),
        cmocka_unit_test(swapusage_real_capture),
        cmocka_unit_test(memory_pressure_real_capture),
        cmocka_unit_test(sizes),
        cmocka_unit_test(nvidia_smi),
        cmocka_unit_test(linux_captures),
        cmocka_unit_test(linux_hostile),
        cmocka_unit_test(runner),
        cmocka_unit_test(held_child),
        cmocka_unit_test(judge),
        cmocka_unit_test(json_report),
        cmocka_unit_test(cputime),
        cmocka_unit_test(top_pageins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
