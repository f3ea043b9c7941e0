/* notify.h: desktop notifications through the terminal (--notify).
 *
 * Pure: the notifier looks at the run's view (run_view.h: its events, its
 * latest sample, the guard's limits) and decides what to say; the bytes of a notification are
 * built here too, and the front end writes them to its terminal.  Time is
 * an argument, so tests need no sleeping.  docs/notify.md has the details.
 *
 * Kinds, each at most once per ST_NOTIFY_GAP_S seconds:
 *   GUARD  the guard acted (a budget event: paused or killed the job);
 *   EXIT   the job ended (its exit status when stagetop started it, and
 *          the tree's peak footprint);
 *   SWAP   swap growth passed 80 % of --swap-budget (again only after it
 *          fell back under 80 %);
 *   LEVEL  the memory level fell within 5 points of --kill-free (again only
 *          after it rose out of that band).
 *
 * One notification is a terminal bell (BEL), then OSC 9 (iTerm2, kitty,
 * WezTerm, Windows Terminal, ...) and OSC 777 (foot, urxvt, gnome-terminal
 * with VTE's patch, WezTerm), each OSC ended by ST.  Inside tmux each OSC is
 * wrapped in tmux's DCS passthrough (ESC P tmux; ... ESC \, every inner ESC
 * doubled); the bell stays outside (tmux turns it into its own alert). */
#ifndef STAGETOP_NOTIFY_H
#define STAGETOP_NOTIFY_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/run_view.h"

enum st_notify_kind { ST_NOTIFY_GUARD, ST_NOTIFY_EXIT, ST_NOTIFY_SWAP, ST_NOTIFY_LEVEL, ST_NOTIFY_NKINDS };

#define ST_NOTIFY_GAP_S 30.0        /* minimum seconds between two of a kind */
#define ST_NOTIFY_SWAP_PCT 80       /* SWAP: growth >= this % of the budget */
#define ST_NOTIFY_LEVEL_BAND_C 500  /* LEVEL: level <= kill-free + 5 points (hundredths) */
#define ST_NOTIFY_MAX 1024          /* bytes of one formatted notification, at most */

typedef struct st_notify_msg {
    int kind;          /* enum st_notify_kind */
    char title[96];    /* cleaned by st_notify_format (st_notify_clean, no ';') */
    char body[256];    /* likewise */
} st_notify_msg;

typedef struct st_notifier {
    double gap_s;                     /* ST_NOTIFY_GAP_S */
    double last[ST_NOTIFY_NKINDS];    /* when each kind was last let through */
    int sent[ST_NOTIFY_NKINDS];       /* 1 once a kind was let through */
    uint64_t held[ST_NOTIFY_NKINDS];  /* notifications held back by the gap */
    int in_swap_band, in_level_band;  /* edge detection for SWAP and LEVEL */
    size_t events_seen;               /* events of the run already looked at */
} st_notifier;

void st_notifier_init(st_notifier *n);

/* The rate limit: 1 (and `now` is remembered) when a notification of kind
 * may go out at `now`, 0 when one went out less than gap_s ago (counted in
 * held[kind]). */
int st_notify_allow(st_notifier *n, int kind, double now);

/* Look at the run's view after a sample: the events added since the last call
 * (budget -> GUARD, exit -> EXIT) and the latest sample against the guard's
 * limits (SWAP, LEVEL).  Fills up to max messages that pass the rate limit,
 * in the order LEVEL, SWAP, GUARD, EXIT; returns how many. */
int st_notify_check(st_notifier *n, const st_run_view *v, double now, st_notify_msg *out, int max);

/* Text made safe for a notification (and any terminal): valid UTF-8 only;
 * C0 controls, DEL, C1 controls (U+0080..U+009F), bidi marks, overrides
 * and isolates, and line/paragraph separators become '?' (tab, newline and
 * carriage return a space); bytes that are not UTF-8 become '?'.  ';'
 * becomes ',' when no_semicolon (OSC 777 separates its fields with ';').
 * Cut on a code point boundary to fit outlen (NUL included).  Returns the
 * length written. */
size_t st_notify_clean(const char *in, int no_semicolon, char *out, size_t outlen);

/* The bytes of one notification (BEL, OSC 9, OSC 777; tmux: in DCS
 * passthrough) into out (NUL-terminated).  Returns the length, or 0 when
 * outlen is too small (ST_NOTIFY_MAX always is enough). */
size_t st_notify_format(const st_notify_msg *msg, int tmux, char *out, size_t outlen);

#endif
