/* md.h: text from a trace made safe for a terminal and for Markdown
 * (`stagetop diff`, `stagetop report`; docs/report.md).
 *
 * Trace text (stage names, commands, notes) is untrusted.  Cleaning keeps
 * valid UTF-8 and drops what a terminal or a Markdown renderer could act
 * on, as utf8.h's st_utf8_unsafe classifies it: C0 controls and DEL (a
 * tab, CR or newline becomes a space), C1 controls, bidi controls and marks,
 * the line and paragraph separators; invalid UTF-8 becomes U+FFFD.  Markdown escaping then puts a backslash before \ ` * _ [ ] | and
 * writes < > & ~ $ as entities, so text cannot end a table cell, open a
 * code span, a link, emphasis, strikethrough, math or HTML.  A word joiner
 * (U+2060) after @ and # and in :// and www. keeps @user, #123 and URLs
 * from pinging, referencing or linking (md.c).  The writers append to a
 * string builder (sb.h); st_text_clean gives the front end the cleaned
 * text as a string. */
#ifndef STAGETOP_MD_H
#define STAGETOP_MD_H

#include <stddef.h>

#include "stagetop/sb.h"

/* Append s[0..n) (stops at a NUL) cleaned, at most max_cps code points
 * (0 = no limit; a shortened text ends in "…"). */
void st_text_clean_to(st_sb *w, const char *s, size_t n, size_t max_cps);
/* Clean each line of s (NUL-terminated) and append it with its newline. */
void st_text_clean_lines_to(st_sb *w, const char *s);
/* The same, Markdown-escaped (for a table cell or a line of text). */
void st_md_escape_to(st_sb *w, const char *s, size_t n, size_t max_cps);
/* The backtick fence for a code block holding text: one backtick more than
 * the longest run of backticks in text, at least three; into buf (size
 * >= 4), shortened to the buffer (then text must be shortened too).
 * Returns the fence length. */
/* s[0..n) (stops at a NUL) cleaned as st_text_clean_to does, as a
 * malloc'd NUL-terminated string (NULL: out of memory). */
char *st_text_clean(const char *s, size_t n, size_t max_cps);
size_t st_md_fence(const char *text, char *buf, size_t size);

#endif
