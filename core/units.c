/* units.c: sizes and durations as users write and read them. */
#include "stagetop/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse a finite, non-negative decimal prefix of s; *end points past it. */
static int parse_number(const char *s, double *out, const char **end)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s) && *s != '.')
        return -1;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || errno == ERANGE || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    *end = e;
    return 0;
}

int st_parse_size(const char *s, uint64_t *out, st_error *err)
{
    static const struct { const char *suffix; double mult; } units[] = {
        {"", 1}, {"b", 1},
        {"k", 1024.0}, {"kb", 1024.0}, {"kib", 1024.0},
        {"m", 1048576.0}, {"mb", 1048576.0}, {"mib", 1048576.0},
        {"g", 1073741824.0}, {"gb", 1073741824.0}, {"gib", 1073741824.0},
        {"t", 1099511627776.0}, {"tb", 1099511627776.0}, {"tib", 1099511627776.0},
    };
    double v;
    const char *e;
    if (!s || parse_number(s, &v, &e) != 0)
        return st_error_set(err, ST_EINVAL, 0, "invalid size '%s' (try 8G, 512M, 8GiB)", s ? s : "");
    while (isspace((unsigned char)*e))
        e++;
    char suf[8];
    size_t n = strlen(e);
    while (n > 0 && isspace((unsigned char)e[n - 1]))
        n--;
    if (n >= sizeof suf)
        return st_error_set(err, ST_EINVAL, 0, "invalid size '%s' (try 8G, 512M, 8GiB)", s);
    memcpy(suf, e, n);
    suf[n] = '\0';
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(suf, units[i].suffix) == 0) {
            double bytes = v * units[i].mult;
            if (bytes >= 18446744073709551615.0)
                return st_error_set(err, ST_EINVAL, 0, "size '%s' is too large", s);
            *out = (uint64_t)(bytes + 0.5);
            return ST_OK;
        }
    }
    return st_error_set(err, ST_EINVAL, 0, "invalid size unit in '%s' (use B, K, M, G, T)", s);
}

int st_parse_duration(const char *s, double *out, st_error *err)
{
    static const struct { const char *suffix; double mult; } units[] = {
        {"", 1}, {"s", 1}, {"ms", 0.001}, {"m", 60}, {"min", 60}, {"h", 3600}, {"d", 86400},
    };
    double v;
    const char *e;
    if (!s || parse_number(s, &v, &e) != 0)
        return st_error_set(err, ST_EINVAL, 0, "invalid duration '%s' (try 90s, 30m, 2h)", s ? s : "");
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(e, units[i].suffix) == 0) {
            *out = v * units[i].mult;
            return ST_OK;
        }
    }
    return st_error_set(err, ST_EINVAL, 0, "invalid duration unit in '%s' (use ms, s, m, h, d)", s);
}

int st_parse_double(const char *s, double lo, double hi, double *out, st_error *err)
{
    char *e;
    if (!s || !*s)
        return st_error_set(err, ST_EINVAL, 0, "missing number");
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || *e != '\0' || errno == ERANGE || !isfinite(v))
        return st_error_set(err, ST_EINVAL, 0, "invalid number '%s'", s);
    if (v < lo || v > hi)
        return st_error_set(err, ST_EINVAL, 0, "%s is out of range %g..%g", s, lo, hi);
    *out = v;
    return ST_OK;
}

char *st_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
    else if (v < 10)
        snprintf(buf, len, "%.2f %s", v, names[u]);
    else if (v < 100)
        snprintf(buf, len, "%.1f %s", v, names[u]);
    else
        snprintf(buf, len, "%.0f %s", v, names[u]);
    return buf;
}

char *st_format_duration(double seconds, char *buf, size_t len)
{
    if (!(seconds >= 0))
        seconds = 0;
    if (seconds < 60) {
        snprintf(buf, len, "%.1fs", seconds);
    } else if (seconds < 3600) {
        unsigned s = (unsigned)seconds;
        snprintf(buf, len, "%um%02us", s / 60, s % 60);
    } else {
        unsigned long s = (unsigned long)seconds;
        snprintf(buf, len, "%luh%02lum", s / 3600, (s / 60) % 60);
    }
    return buf;
}
