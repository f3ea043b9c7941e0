/* guard_text.h: the armed budgets in words, for the screen's header and
 * headless mode's first line (curses-free), and why one cannot trigger. */
#ifndef STAGETOP_TUI_GUARD_TEXT_H
#define STAGETOP_TUI_GUARD_TEXT_H

#include <stddef.h>
#include "stagetop/run_view.h"

/* The armed budgets, "" when the guard is off.  Long: "--swap-budget 100 MiB,
 * --kill-free 10.0% (then pause)"; short (a screen's header): "guard swap
 * +100M free<10.0%".  A budget that cannot trigger is followed by "(!)" in
 * the short form.  Returns the length. */
size_t tui_guard_armed(const st_run_view *rv, int shortform, char *buf, size_t len);

/* Caveat i (0, 1, ...) about the armed budgets into buf: 1, or 0 when
 * there is no such caveat ("--swap-budget cannot trigger: no swap is
 * configured"; "--kill-free 99.0% is crossed at the start (level 95.1%)":
 * the guard acts after the second sample). */
int tui_guard_caveat(const st_run_view *rv, int i, char *buf, size_t len);

#endif
