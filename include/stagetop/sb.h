/* sb.h: a growable string for text output (Markdown, the terminal's
 * tables, messages).  The JSON writer (json.h) writes JSON only; text is
 * built here.  A base utility (core/sb.c): it calls nothing above the C
 * library.
 *
 * Appending never fails visibly: after an allocation failure the builder
 * keeps what it had, ignores further text and st_sb_take returns NULL, so
 * a caller checks once, at the end. */
#ifndef STAGETOP_SB_H
#define STAGETOP_SB_H

#include <stddef.h>

typedef struct st_sb {
    char *buf;      /* NUL-terminated when not NULL */
    size_t len, cap;
    int oom;        /* an allocation failed: st_sb_take gives NULL */
} st_sb;

void st_sb_init(st_sb *b);
void st_sb_free(st_sb *b);
/* Append n bytes of s (which may hold anything but is taken as text). */
void st_sb_add(st_sb *b, const char *s, size_t n);
void st_sb_str(st_sb *b, const char *s);
void st_sb_char(st_sb *b, char c);
/* Append c n times. */
void st_sb_fill(st_sb *b, char c, size_t n);
void st_sb_printf(st_sb *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The text (malloc'd, NUL-terminated; "" when nothing was added), and the
 * builder emptied; NULL (and the builder emptied) after a failure. */
char *st_sb_take(st_sb *b);

#endif
