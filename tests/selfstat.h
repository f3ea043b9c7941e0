/* selfstat.h: what the test workloads and benchmarks read about themselves
 * (header only, so each small program needs no extra object). */
#ifndef STAGETOP_TESTS_SELFSTAT_H
#define STAGETOP_TESTS_SELFSTAT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

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

/* CPU seconds (user + system) this process has used so far. */
static inline double selfstat_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

/* qsort's comparison of doubles (for medians). */
static inline int selfstat_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
