/* event_line.c: plain-text event lines (see event_line.h). */
#include "stagetop/event_line.h"
#include "stagetop/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define ST_EVENT_LINE_MAX 4096 /* a plain line longer than this is refused */

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

int st_event_line_is_plain(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (blank(line[i]) || line[i] == '\r'))
        i++;
    return i < len && line[i] != '{';
}

/* The line without leading/trailing blanks and CR, copied into buf. */
static size_t trim_copy(const char *line, size_t len, char *buf, size_t size)
{
    size_t a = 0, b = len;
    while (a < b && (blank(line[a]) || line[a] == '\r'))
        a++;
    while (b > a && (blank(line[b - 1]) || line[b - 1] == '\r'))
        b--;
    if (b - a >= size)
        return (size_t)-1;
    memcpy(buf, line + a, b - a);
    buf[b - a] = '\0';
    return b - a;
}

/* "NAME [BYTES]": the last word is BYTES when it parses as a size and a
 * name is left before it. */
static int name_and_bytes(char *rest, st_event *ev, st_error *err)
{
    char *sp = NULL;
    for (char *p = rest; *p; p++)
        if (blank(*p))
            sp = p;
    if (sp) {
        uint64_t n;
        st_error ignore;
        if (st_parse_size(sp + 1, &n, &ignore) == ST_OK) {
            char *end = sp;
            while (end > rest && blank(end[-1]))
                end--;
            *end = '\0';
            ev->nbytes = n;
            ev->has |= ST_EVF_NBYTES;
        }
    }
    if (!*rest)
        return st_error_set(err, ST_EINVAL, EINVAL, "a name is missing");
    st_event_set_str(ev->name, sizeof ev->name, rest);
    ev->has |= ST_EVF_NAME;
    return ST_OK;
}

/* "@SECONDS " at the start of rest: the time the line was made (seconds of
 * the monotonic clock, st_now()'s: digits, optionally '.' and up to 9
 * more; read without the locale, whose decimal point may be ','), taken off
 * rest; -1 when there is none. */
static int take_stamp(char **rest, double *at_s, st_error *err)
{
    *at_s = -1.0;
    if (**rest != '@')
        return ST_OK;
    const char *p = *rest + 1;
    double v = 0, scale = 1;
    int digits = 0, frac = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        v = v * 10 + (*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, frac++)
            v += (*p - '0') * (scale /= 10);
    int ok = digits > 0 && digits <= 15 && frac <= 9 && (!*p || blank(*p));
    if (!ok)
        return st_error_set(err, ST_EINVAL, EINVAL, "'%.40s' is not a time (@SECONDS, as "
                            "`stagetop stage|mark` write it)", *rest);
    while (blank(*p))
        p++;
    *rest = (char *)p;
    *at_s = v;
    return ST_OK;
}

int st_event_line_parse(const char *line, size_t len, st_event *ev, st_error *err)
{
    return st_event_line_parse_at(line, len, ev, NULL, err);
}

int st_event_line_parse_at(const char *line, size_t len, st_event *ev, double *at_s, st_error *err)
{
    char buf[ST_EVENT_LINE_MAX];
    double stamp = -1.0;
    if (at_s)
        *at_s = -1.0;
    if (memchr(line, '\0', len))
        return st_error_set(err, ST_EINVAL, EINVAL, "a NUL byte in a plain event line");
    if (trim_copy(line, len, buf, sizeof buf) == (size_t)-1)
        return st_error_set(err, ST_EINVAL, EINVAL, "a plain event line over %d bytes",
                            ST_EVENT_LINE_MAX - 1);
    char *head = buf;
    if (take_stamp(&head, &stamp, err) != ST_OK)
        return ST_EINVAL;
    if (at_s)
        *at_s = stamp;
    if (head != buf)
        memmove(buf, head, strlen(head) + 1);
    char *rest = buf;
    while (*rest && !blank(*rest))
        rest++;
    if (*rest) {
        *rest++ = '\0';
        while (blank(*rest))
            rest++;
    }
    for (char *p = rest; *p; p++) /* control characters: spaces */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    for (size_t n = strlen(rest); n > 0 && rest[n - 1] == ' '; n--)
        rest[n - 1] = '\0';
    if (strcmp(buf, "stage") == 0) {
        st_event_init(ev, 0, ST_EV_STAGE);
        if (!*rest)
            return st_error_set(err, ST_EINVAL, EINVAL, "'stage' needs a NAME");
        st_event_set_str(ev->stage, sizeof ev->stage, rest);
        ev->has |= ST_EVF_STAGE;
        return ST_OK;
    }
    if (strcmp(buf, "mark") == 0) {
        st_event_init(ev, 0, ST_EV_MARK);
        if (*rest) {
            st_event_set_str(ev->note, sizeof ev->note, rest);
            ev->has |= ST_EVF_NOTE;
        }
        return ST_OK;
    }
    if (strcmp(buf, "load") == 0 || strcmp(buf, "release") == 0) {
        st_event_init(ev, 0, buf[0] == 'l' ? ST_EV_LOAD : ST_EV_RELEASE);
        if (name_and_bytes(rest, ev, err) != ST_OK)
            return st_error_set(err, ST_EINVAL, EINVAL, "'%s' needs a NAME", buf);
        return ST_OK;
    }
    return st_error_set(err, ST_EINVAL, EINVAL,
                        "'%.40s' is not an event (stage NAME, mark TEXT, load NAME [BYTES], "
                        "release NAME [BYTES], or a stageload JSON line)", buf);
}

size_t st_event_line_format(const char *kind, const char *text, double at_s, char *buf, size_t size)
{
    if (strcmp(kind, "stage") != 0 && strcmp(kind, "mark") != 0)
        return 0;
    char stamp[40] = "";
    if (at_s >= 0 && at_s < 1e15) { /* microseconds, written without the locale */
        uint64_t us = (uint64_t)(at_s * 1e6 + 0.5);
        snprintf(stamp, sizeof stamp, "@%llu.%06llu ", (unsigned long long)(us / 1000000),
                 (unsigned long long)(us % 1000000));
    }
    size_t p = strlen(stamp), k = strlen(kind), n = strlen(text);
    if (p + k + 1 + n + 2 > size || p + k + 1 + n + 1 > ST_EVENT_LINE_MAX)
        return 0;
    memcpy(buf, stamp, p);
    memcpy(buf + p, kind, k);
    buf[p + k] = ' ';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        buf[p + k + 1 + i] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    buf[p + k + 1 + n] = '\n';
    buf[p + k + 2 + n] = '\0';
    return p + k + 2 + n;
}
