/* utf8.h: the one UTF-8 decoder of stagetop (core and screen).
 *
 * Valid means what RFC 3629 says: the shortest form, no surrogates
 * (U+D800-U+DFFF), nothing above U+10FFFF, no truncated sequence.  Every
 * cleaner of untrusted text (JSON writer, SVG labels, Markdown, terminal
 * notifications, metric labels, event fields, the screen's sanitizer) asks
 * this decoder, so they all agree on what is text and what is junk. */
#ifndef STAGETOP_UTF8_H
#define STAGETOP_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decode one character at s (n bytes available).  Returns its length
 * (1..4) and sets *cp, or returns 0 (and leaves *cp alone) when the bytes
 * at s do not start a valid character, or n is 0. */
int st_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* The same test on p[0..e) (p < e), without the code point: the length of
 * the valid character at p, 0 if none. */
size_t st_utf8_seq(const unsigned char *p, const unsigned char *e);

/* Encode code point cp (at most U+10FFFF, not a surrogate) into out;
 * returns the bytes written (1..4). */
size_t st_utf8_encode(uint32_t cp, char out[4]);

/* The one unsafe-character classifier: 1 when code point cp must never
 * reach an output (terminal, JSON, Markdown, SVG, metric label,
 * notification) raw, because a terminal or a renderer would act on it or
 * it would reorder or hide what follows:
 *   C0 controls U+0000-U+001F (tab, newline and CR included) and DEL;
 *   C1 controls U+0080-U+009F (CSI, OSC... on some terminals);
 *   bidirectional controls and marks: U+061C, U+200E, U+200F,
 *   U+202A-U+202E (embeddings, overrides), U+2066-U+2069 (isolates);
 *   the line and paragraph separators U+2028, U+2029.
 * Each caller keeps its own policy for what an unsafe character becomes
 * (escaped, replaced, dropped; a tab or newline often a space). */
int st_utf8_unsafe(uint32_t cp);

/* Bytes that a sequence led by byte c claims: 2..4 for a lead byte that
 * can start a valid character, 1 for ASCII and for any other byte.  For
 * cutting a string without splitting a character. */
size_t st_utf8_lead_len(unsigned char c);

#endif
