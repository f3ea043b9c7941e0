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
/* "1.23 GiB", "512 MiB", "980 KiB", "12 B" into buf (>= 16 bytes). */
char *st_format_bytes(uint64_t bytes, char *buf, size_t len);
/* "1h02m", "3m04s", "12.3s" into buf (>= 16 bytes). */
char *st_format_duration(double seconds, char *buf, size_t len);

#endif
