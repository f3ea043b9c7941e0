/* testutil.h: small helpers that several cmocka unit tests share (include
 * it after <cmocka.h>; every helper is static and may go unused). */
#ifndef STAGETOP_TESTS_TESTUTIL_H
#define STAGETOP_TESTS_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stagetop/sample.h"

#if defined(__GNUC__)
#define TU_UNUSED __attribute__((unused))
#else
#define TU_UNUSED
#endif

/* State letter of pid from /proc/PID/stat (R, S, T, Z...), 0 when it is
 * gone: the test's own reading, not the backend's. */
TU_UNUSED static char proc_state(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return (p && p[1] == ' ') ? p[2] : 0;
}

/* Predicates on a proc_state letter: gone (no process, or a zombie), not
 * reaped yet, stopped, running (alive and not stopped). */
TU_UNUSED static int ps_gone(char s) { return s == 0 || s == 'Z' || s == 'X'; }
TU_UNUSED static int ps_reaped(char s) { return s == 0; }
TU_UNUSED static int ps_stopped(char s) { return s == 'T'; }
TU_UNUSED static int ps_runs(char s) { return s != 0 && s != 'T' && s != 'Z' && s != 'X'; }

/* Poll (every 10 ms, real time) until cond(proc_state(pid)) holds: 1, or 0
 * after TU_WAIT_S seconds.  The limit only says when to give up: a loaded
 * machine (CI: 2 cores, other tests beside) must not reach it. */
#define TU_WAIT_S 30
TU_UNUSED static int wait_proc_state(int pid, int (*cond)(char))
{
    const struct timespec tick = { 0, 10 * 1000000L };
    for (int i = 0; i < TU_WAIT_S * 100; i++) {
        if (cond(proc_state(pid)))
            return 1;
        nanosleep(&tick, NULL);
    }
    return cond(proc_state(pid));
}

/* The whole file, NUL-terminated (caller frees); *len its size if len. */
TU_UNUSED static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* tests/fixtures/DIR/NAME under $ST_ROOT (or the current directory): its
 * first 64 KiB, NUL-terminated (caller frees). */
TU_UNUSED static char *fixture_load(const char *dir, const char *name, size_t *len)
{
    const char *root = getenv("ST_ROOT");
    char path[512];
    snprintf(path, sizeof path, "%s/tests/fixtures/%s/%s", root ? root : ".", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open fixture %s (run from the repository root or set ST_ROOT)", path);
    char *buf = malloc(65536);
    assert_non_null(buf);
    *len = fread(buf, 1, 65535, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* A sample with footprint, swap and level. */
TU_UNUSED static st_sample smp(uint32_t t_ms, uint64_t fp, uint64_t swap, uint16_t level_c)
{
    st_sample s;
    memset(&s, 0, sizeof s);
    s.t_ms = t_ms;
    s.footprint = fp;
    s.swap_used = swap;
    s.level_c = level_c;
    s.valid = ST_F_FOOTPRINT | ST_F_SWAP | ST_F_LEVEL;
    return s;
}

#endif
