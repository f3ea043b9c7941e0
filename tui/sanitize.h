/* sanitize.h: text from processes made safe to draw (curses-free).
 *
 * A process chooses its own command line, so it is untrusted: drawn as is,
 * it could write escape sequences to the user's terminal (change the title,
 * clear the screen, remap keys).  tui_sanitize turns every byte that a
 * terminal could act on into visible text:
 *   C0 controls 0x00-0x1F  ->  ^@ .. ^_   (ESC -> ^[, newline -> ^J, tab -> ^I)
 *   DEL 0x7F               ->  ^?
 *   C1 controls U+0080-U+009F (encoded in UTF-8)      ->  \u0080 .. \u009f
 *   bidi controls and marks U+061C, U+200E/F, U+202A-U+202E,
 *   U+2066-U+2069, line and paragraph separators U+2028-U+2029
 *   (utf8.h's st_utf8_unsafe decides)                  ->  \u202e etc.
 *   invalid UTF-8 (stray bytes, overlong forms, surrogates, > U+10FFFF,
 *   truncated sequences)   ->  \xNN for each byte (upper-case hex)
 * In ASCII mode every byte >= 0x80 becomes \xNN (so nothing but printable
 * ASCII reaches a terminal whose locale is not UTF-8).
 *
 * Widths are terminal columns: the helpers carry their own small table of
 * wide (East Asian) and zero-width (combining) characters, so results do
 * not depend on the process locale. */
#ifndef STAGETOP_TUI_SANITIZE_H
#define STAGETOP_TUI_SANITIZE_H

#include <stddef.h>
#include <stdint.h>

/* Decode one UTF-8 character at s (n bytes available).  Returns its length
 * (1..4) and sets *cp, or returns 0 when the bytes at s do not start a
 * valid, shortest-form character of at most U+10FFFF (surrogates refused). */
int tui_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Terminal columns of code point cp: 0 (combining, zero-width), 1 or 2
 * (wide).  Controls count as 1 (they are never drawn raw). */
int tui_cp_width(uint32_t cp);

/* Make in[0..inlen) safe (rules above) and copy it into out (size outlen,
 * always NUL-terminated when outlen > 0), stopping before the first visible
 * unit that would not fit in max_cols columns or in the buffer (a unit such
 * as "^[" or "\xFF" is never cut in half).  max_cols < 0: no column limit.
 * Returns the columns written. */
int tui_sanitize(const char *in, size_t inlen, int ascii, int max_cols, char *out, size_t outlen);

/* Columns that a string already made safe (or any valid UTF-8) takes;
 * invalid bytes count 1 each. */
int tui_text_width(const char *s);

/* Copy at most max_cols columns of the safe UTF-8 string s into out (never
 * splitting a character; a zero-width character stays with its base).
 * Returns the columns written. */
int tui_text_fit(const char *s, int max_cols, char *out, size_t outlen);

#endif
