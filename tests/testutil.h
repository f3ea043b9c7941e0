/* testutil.h: small helpers that several cmocka unit tests share (include
 * it after <cmocka.h>; every helper is static and may go unused). */
#ifndef STAGETOP_TESTS_TESTUTIL_H
#define STAGETOP_TESTS_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* The repository's root: $ST_ROOT, else the current directory (absolute,
 * for a stand-in tool's script to name a fixture by). */
TU_UNUSED static const char *test_root(void)
{
    static char cwd[512];
    const char *root = getenv("ST_ROOT");
    if (root)
        return root;
    assert_non_null(getcwd(cwd, sizeof cwd));
    return cwd;
}

/* tests/fixtures/DIR/NAME under test_root(): its first 64 KiB,
 * NUL-terminated (caller frees). */
TU_UNUSED static char *fixture_load(const char *dir, const char *name, size_t *len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/tests/fixtures/%s/%s", test_root(), dir, name);
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

/* A stand-in for a system tool: DIR/NAME, an executable `#!/bin/sh` script
 * of body (put DIR first on PATH with path_first). */
TU_UNUSED static void stand_in(const char *dir, const char *name, const char *body)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

/* PATH with dir first; returns the PATH before (path_restore gives it back). */
TU_UNUSED static char *path_first(const char *dir)
{
    char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    char path[4096];
    assert_non_null(saved);
    snprintf(path, sizeof path, "%s:%s", dir, saved);
    setenv("PATH", path, 1);
    return saved;
}

TU_UNUSED static void path_restore(char *saved)
{
    setenv("PATH", saved, 1);
    free(saved);
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
