/* units.h: sizes, durations and numbers as users write and read them. */
#ifndef STAGETOP_UNITS_H
#define STAGETOP_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"

/* "8G", "512M", "8GiB", "1.5g", "4096" (bytes), "10k"; binary multiples
 * (K=1024).  ST_EINVAL with a message on junk, negatives or overflow. */
int st_parse_size(const char *s, uint64_t *out, st_error *err);
/* "90", "90s", "1.5m", "2h", "1d", "500ms" -> seconds. */
int st_parse_duration(const char *s, double *out, st_error *err);
/* A plain decimal number within [lo, hi]. */
int st_parse_double(const char *s, double lo, double hi, double *out, st_error *err);
/* The one formatter of byte counts and durations: every value that a
 * user reads goes through st_format_bytes_as / st_format_duration_as
 * (argument order: value, style, buffer, size).  Styles: */
enum st_units_flags {
    ST_UNITS_COMPACT = 1u << 0, /* "1.23G", "512M", "12B": narrow cells of the screen */
    ST_UNITS_POINT = 1u << 1,   /* '.' whatever the locale, halves rounded away from
                                   zero (files read by other programs: SVG); durations
                                   rounded to the unit shown, "12.3 s" */
    ST_UNITS_SIGN = 1u << 2,    /* "+1.50 KiB", "-300 MiB" (otherwise negatives are 0) */
    ST_UNITS_KIB_MIB = 1u << 3  /* "0.5 KiB", "980.0 KiB", "300.0 MiB": one decimal,
                                   KiB or MiB only (a table column whose rows compare) */
};
/* bytes in the style of flags, into buf (>= 24 bytes): 2 decimals under
 * 10, 1 under 100, none above; B, KiB ... EiB. */
char *st_format_bytes_as(double bytes, unsigned flags, char *buf, size_t len);
/* "1.23 GiB", "512 MiB", "980 KiB", "12 B" into buf (>= 16 bytes). */
char *st_format_bytes(uint64_t bytes, char *buf, size_t len);
/* seconds in the style of flags (ST_UNITS_POINT or 0). */
char *st_format_duration_as(double seconds, unsigned flags, char *buf, size_t len);
/* "1h02m", "3m04s", "12.3s" into buf (>= 16 bytes). */
char *st_format_duration(double seconds, char *buf, size_t len);
/* v with `decimals` (0..6) digits after '.', whatever the locale; trim
 * drops trailing zeros (and the '.').  Non-finite values print as 0. */
char *st_format_decimal(double v, int decimals, int trim, char *buf, size_t len);

#endif
