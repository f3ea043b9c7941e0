/* selfstat.h: what the test workloads and benchmarks read about themselves
 * (header only, so each small program needs no extra object). */
#ifndef STAGETOP_TESTS_SELFSTAT_H
#define STAGETOP_TESTS_SELFSTAT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A "Key:  N kB" line of /proc/self/status, in KiB; -1 when absent. */
static inline long selfstat_kib(const char *key)
{
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':')
            v = strtol(line + n + 1, NULL, 10);
    fclose(f);
    return v;
}

/* Seconds on a clock (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, ...). */
static inline double selfstat_clock(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
