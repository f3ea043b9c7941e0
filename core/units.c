/* units.c: sizes and durations as users write and read them. */
#include "stagetop/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse the plain decimal prefix of s, "12" or "1.5" or ".5": digits with
 * at most one point, nothing else (no sign, blank, exponent, hexadecimal
 * "0x10" or "0x1p4", "inf" or "nan", all of which strtod would take) and in
 * any locale; *end points past it. */
static int parse_number(const char *s, double *out, const char **end)
{
    double v = 0, scale = 1;
    int digits = 0, point = 0;
    for (; isdigit((unsigned char)*s) || (*s == '.' && !point); s++) {
        if (*s == '.') {
            point = 1;
            continue;
        }
        digits++;
        if (point)
            v += (scale /= 10) * (*s - '0');
        else
            v = v * 10 + (*s - '0');
    }
    if (digits == 0 || !isfinite(v))
        return -1;
    *out = v;
    *end = s;
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
    char suf[8];
    size_t n = strlen(e);
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
    /* decimal only: strtod also takes hexadecimal ("0x10" = 16), "inf",
     * "nan" and leading blanks, none of which a user means */
    if (s[strspn(s, "0123456789.+-eE")] != '\0')
        return st_error_set(err, ST_EINVAL, 0, "invalid number '%s' (decimal digits only)", s);
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || *e != '\0' || errno == ERANGE || !isfinite(v))
        return st_error_set(err, ST_EINVAL, 0, "invalid number '%s'", s);
    if (v < lo || v > hi)
        return st_error_set(err, ST_EINVAL, 0, "%s is out of range %g..%g", s, lo, hi);
    *out = v;
    return ST_OK;
}

char *st_format_decimal(double v, int decimals, int trim, char *buf, size_t len)
{
    long long scale = 1;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 6)
        decimals = 6;
    for (int i = 0; i < decimals; i++)
        scale *= 10;
    if (!isfinite(v))
        v = 0;
    double r = round(fabs(v) * (double)scale);
    if (r > 9e17)
        r = 9e17;
    long long q = (long long)r;
    const char *sign = (v < 0 && q != 0) ? "-" : "";
    if (decimals == 0) {
        snprintf(buf, len, "%s%lld", sign, q);
        return buf;
    }
    snprintf(buf, len, "%s%lld.%0*lld", sign, q / scale, decimals, q % scale);
    if (trim) {
        char *dot = strchr(buf, '.');
        if (dot) {
            char *e = buf + strlen(buf);
            while (e > dot + 1 && e[-1] == '0')
                *--e = '\0';
            if (e == dot + 1)
                *dot = '\0';
        }
    }
    return buf;
}

/* v with `decimals` digits: the locale's way, or '.' whatever the locale. */
static const char *number(double v, int decimals, unsigned flags, char *buf, size_t len)
{
    if (flags & ST_UNITS_POINT)
        return st_format_decimal(v, decimals, 0, buf, len);
    snprintf(buf, len, "%.*f", decimals, v);
    return buf;
}

char *st_format_bytes_as(double bytes, unsigned flags, char *buf, size_t len)
{
    static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    static const char letters[] = "BKMGTPE";
    char num[48];
    const char *sign = "";
    double v = bytes;
    if (!(v == v))
        v = 0;
    if (flags & ST_UNITS_SIGN) {
        sign = v < 0 ? "-" : "+";
        v = fabs(v);
    } else if (v < 0) {
        v = 0;
    }
    int u = 0, top = (flags & ST_UNITS_KIB_MIB) ? 2 : 6;
    while (v >= 1024.0 && u < top) {
        v /= 1024.0;
        u++;
    }
    if (flags & ST_UNITS_KIB_MIB) { /* one decimal, never below KiB */
        if (u == 0) {
            v /= 1024.0;
            u = 1;
        }
        number(v, 1, flags, num, sizeof num);
    } else if (u == 0 && !(flags & ST_UNITS_POINT)) {
        snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    } else {
        number(v, u == 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0, flags, num, sizeof num);
    }
    if (flags & ST_UNITS_COMPACT)
        snprintf(buf, len, "%s%s%c", sign, num, letters[u]);
    else
        snprintf(buf, len, "%s%s %s", sign, num, names[u]);
    return buf;
}

char *st_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    return st_format_bytes_as((double)bytes, 0, buf, len);
}

char *st_format_duration_as(double seconds, unsigned flags, char *buf, size_t len)
{
    if (!(seconds >= 0))
        seconds = 0;
    if (seconds > 1e9)
        seconds = 1e9;
    if (flags & ST_UNITS_POINT) { /* rounded to the unit shown */
        char num[32];
        if (seconds < 59.95) {
            snprintf(buf, len, "%s s", st_format_decimal(seconds, 1, 0, num, sizeof num));
        } else if (seconds < 3599.5) {
            unsigned s = (unsigned)(seconds + 0.5);
            snprintf(buf, len, "%um%02us", s / 60, s % 60);
        } else {
            unsigned long m = (unsigned long)(seconds / 60 + 0.5);
            snprintf(buf, len, "%luh%02lum", m / 60, m % 60);
        }
        return buf;
    }
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

char *st_format_duration(double seconds, char *buf, size_t len)
{
    return st_format_duration_as(seconds, 0, buf, len);
}
